//! The free form of Gewu (one unit move per turn) as a [`Game`] for the
//! generic alpha-beta search (`docs/gewu.md` §4).

use super::moves::{GewuMove, GewuMoveList};
use super::position::GewuPosition;
use super::track::HOME;
use tiao_core::game::{Game, MoveBuffer, Verdict};
use tiao_core::{Colour, GameResult};

impl GewuPosition {
    /// The free form's legal moves: each piece's unit move, in cell order;
    /// the single move `PASS` if no piece can move.
    pub fn generate<L: MoveBuffer<GewuMove>>(&self, list: &mut L) {
        list.clear();
        let c = self.side();
        let mut set = self.pieces(c);
        while set != 0 {
            let cell = set.trailing_zeros();
            set &= set - 1;
            if let Some(to) = self.unit_move(c, cell) {
                list.push(GewuMove {
                    from: cell as u8,
                    to: to as u8,
                });
            }
        }
        if list.is_empty() {
            list.push(GewuMove::PASS);
        }
    }
}

impl Game for GewuPosition {
    type Move = GewuMove;
    type MoveList = GewuMoveList;
    /// No rule looks at the history.
    type Counters = ();

    /// Every move but a pass advances a piece, so no position can recur.
    const REPETITION_DRAWS: bool = false;

    #[inline(always)]
    fn side(&self) -> Colour {
        GewuPosition::side(self)
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        GewuPosition::hash(self)
    }
    #[inline(always)]
    fn generate(&self, list: &mut GewuMoveList) {
        GewuPosition::generate(self, list)
    }
    #[inline(always)]
    fn play(&self, mv: &GewuMove) -> Self {
        GewuPosition::play(self, mv)
    }
    #[inline(always)]
    fn next_counters(&self, _: &(), _: &GewuMove, _: &Self) {}
    fn initial_counters(&self) {}
    #[inline(always)]
    fn reversible_plies(_: &()) -> u32 {
        0
    }
    #[inline]
    fn rule_verdict(&self, _: &()) -> Option<Verdict> {
        self.result().map(|r| match r.result() {
            GameResult::Win(c) if c == self.side() => Verdict::Win,
            GameResult::Win(_) => Verdict::Loss,
            GameResult::Draw => Verdict::Draw,
        })
    }
    /// Never needed: a side without a unit move passes, and when neither
    /// side can move `rule_verdict` has already declared the deadlock draw.
    fn no_move_verdict(&self) -> Verdict {
        Verdict::Draw
    }
    #[inline(always)]
    fn is_quiet(&self) -> bool {
        true
    }
    /// Jumps (they get past an enemy) and moves into the enemy's home (they
    /// win).
    #[inline(always)]
    fn is_tactical(&self, mv: &GewuMove) -> bool {
        mv.is_jump() || (!mv.is_pass() && HOME[(!self.side()).index()] >> mv.to & 1 == 1)
    }
    #[inline(always)]
    fn move_key(mv: &GewuMove) -> u32 {
        // Non-zero for every move, the pass included (0 means "no move").
        (u32::from(mv.from) << 8 | u32::from(mv.to)) + 1
    }
}
