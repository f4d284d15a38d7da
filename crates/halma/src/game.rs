//! Halma positions as a [`Game`] for the generic search core.

use super::board::{HalmaBoard, target_yard};
use super::moves::{HalmaMove, HalmaMoveList};
use super::position::HalmaPosition;
use super::rules::{HalmaCounters, HalmaOutcome, rules_outcome};
use tiao_core::Colour;
use tiao_core::bits::BitWord;
use tiao_core::game::{Game, Verdict};

impl<B: HalmaBoard> Game for HalmaPosition<B> {
    type Move = HalmaMove;
    type MoveList = HalmaMoveList;
    type Counters = HalmaCounters;

    /// Repetitions are draws (threefold in the game, at once in the search),
    /// counted only once both sides are past the yard-rule limit
    /// (`HalmaCounters::reversible`). Without this, a side that cannot win
    /// could shuffle for ever.
    const REPETITION_DRAWS: bool = true;

    #[inline(always)]
    fn side(&self) -> Colour {
        HalmaPosition::side(self)
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        HalmaPosition::hash(self)
    }
    #[inline(always)]
    fn generate(&self, list: &mut HalmaMoveList) {
        HalmaPosition::generate(self, list)
    }
    #[inline(always)]
    fn play(&self, mv: &HalmaMove) -> Self {
        HalmaPosition::play(self, mv)
    }
    #[inline(always)]
    fn next_counters(
        &self,
        counters: &HalmaCounters,
        _mv: &HalmaMove,
        _after: &Self,
    ) -> HalmaCounters {
        counters.next(self)
    }
    /// No moves made. A position read from a position string carries its
    /// own counters (`from_fen`); pass those in the search root instead.
    fn initial_counters(&self) -> HalmaCounters {
        HalmaCounters::START
    }
    #[inline(always)]
    fn reversible_plies(counters: &HalmaCounters) -> u32 {
        u32::from(counters.reversible)
    }
    #[inline]
    fn rule_verdict(&self, counters: &HalmaCounters) -> Option<Verdict> {
        rules_outcome(self, counters).map(|o| match o {
            HalmaOutcome::Win { winner, .. } if winner == self.side() => Verdict::Win,
            HalmaOutcome::Win { .. } => Verdict::Loss,
            HalmaOutcome::Draw(_) => Verdict::Draw,
        })
    }
    /// A side that cannot move loses (`docs/halma.md`, "No legal move").
    #[inline(always)]
    fn no_move_verdict(&self) -> Verdict {
        Verdict::Loss
    }
    /// Nothing is ever forced in Halma: the evaluation can always be trusted
    /// as far as it goes.
    #[inline(always)]
    fn is_quiet(&self) -> bool {
        true
    }
    /// Moves that bring a piece into the target yard from outside: they are
    /// the moves that decide races, so they are searched first and never
    /// reduced.
    #[inline(always)]
    fn is_tactical(&self, mv: &HalmaMove) -> bool {
        let target = target_yard::<B>(self.side());
        target.has(u32::from(mv.to)) && !target.has(u32::from(mv.from))
    }
    #[inline(always)]
    fn move_key(mv: &HalmaMove) -> u32 {
        // From and to identify a move; +1 keeps every key non-zero (the
        // search treats 0 as "no move").
        (u32::from(mv.from) << 8 | u32::from(mv.to)) + 1
    }
}
