//! Draughts positions as a [`Game`] for the generic search core.

use crate::board::{Colour, DrawCounters, Move, Position, Rules, Word};
use crate::movegen::{self, MoveList};
use tiao_core::bits::BitWord;
use tiao_core::game::{Game, Verdict};

impl<R: Rules> Game for Position<R> {
    type Move = Move<Word<R>>;
    type MoveList = MoveList<R>;
    type Counters = DrawCounters;

    const REPETITION_DRAWS: bool = true;
    const EARLY_REDUCTIONS: bool = true;
    const ITERATIVE_REDUCTION: bool = true;

    #[inline(always)]
    fn side(&self) -> Colour {
        Position::side(self)
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }
    #[inline(always)]
    fn generate(&self, list: &mut Self::MoveList) {
        movegen::generate(self, list)
    }
    #[inline(always)]
    fn play(&self, mv: &Self::Move) -> Self {
        Position::play(self, mv)
    }
    #[inline(always)]
    fn next_counters(
        &self,
        counters: &DrawCounters,
        mv: &Self::Move,
        after: &Self,
    ) -> DrawCounters {
        counters.next(self, mv, after)
    }
    fn initial_counters(&self) -> DrawCounters {
        DrawCounters::initial(self)
    }
    #[inline(always)]
    fn reversible_plies(counters: &DrawCounters) -> u32 {
        counters.reversible
    }
    #[inline(always)]
    fn rule_verdict(&self, counters: &DrawCounters) -> Option<Verdict> {
        counters.draw::<R>().map(|_| Verdict::Draw)
    }
    #[inline(always)]
    fn no_move_verdict(&self) -> Verdict {
        Verdict::Loss
    }
    #[inline(always)]
    fn is_quiet(&self) -> bool {
        !movegen::has_capture(self)
    }
    #[inline(always)]
    fn is_threatened(&self) -> bool {
        movegen::has_capture(&self.with_side(!Position::side(self)))
    }
    #[inline]
    fn horizon_moves(&self, list: &mut Self::MoveList) {
        movegen::horizon_moves(self, list)
    }
    #[inline(always)]
    fn is_tactical(&self, mv: &Self::Move) -> bool {
        mv.is_capture() || mv.promotes
    }
    #[inline(always)]
    fn move_key(mv: &Self::Move) -> u32 {
        let c = mv.captured.to_u128();
        let folded = (c as u64 ^ (c >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 47;
        u32::from(mv.from)
            | u32::from(mv.to) << 7
            | u32::from(mv.promotes) << 14
            | (folded as u32) << 15
    }
}
