//! Playing whole Gewu games, in either form, between two move-choosing
//! closures (engine matches, tests), and a random mover to play against.

use super::moves::{GewuMove, GewuMoveList};
use super::outcome::{GewuDrawReason, GewuOutcome, GewuWinReason};
use super::position::GewuPosition;
use super::throws::Throw;
use tiao_core::Colour;
use tiao_core::rng::XorShift;

/// The throw form is drawn after this many turns without a winner
/// (`docs/gewu.md` §6). The free form always ends long before (223 plies
/// at most), so there the limit is only a guard.
pub const TURN_LIMIT: usize = 1000;

/// A finished game. In the free form every throw is `None`.
#[derive(Clone, Debug)]
pub struct GewuRecord {
    pub start: GewuPosition,
    pub turns: Vec<(Option<Throw>, GewuMove)>,
    pub outcome: GewuOutcome,
    pub final_position: GewuPosition,
}

fn forfeit(pos: &GewuPosition) -> GewuOutcome {
    GewuOutcome::Win {
        winner: !pos.side(),
        reason: GewuWinReason::IllegalMove,
    }
}

/// Plays the free form from `start` to its end. Each closure gets the
/// position and its legal moves (never empty: a blocked side gets `PASS`).
pub fn play_game<W, K>(start: GewuPosition, mut white: W, mut black: K) -> GewuRecord
where
    W: FnMut(&GewuPosition, &[GewuMove]) -> GewuMove,
    K: FnMut(&GewuPosition, &[GewuMove]) -> GewuMove,
{
    let mut pos = start;
    let mut turns = Vec::new();
    let mut list = GewuMoveList::new();
    let outcome = loop {
        if let Some(r) = pos.result() {
            break r;
        }
        if turns.len() >= TURN_LIMIT {
            break GewuOutcome::Draw(GewuDrawReason::TurnLimit);
        }
        pos.generate(&mut list);
        let mv = match pos.side() {
            Colour::White => white(&pos, &list),
            Colour::Black => black(&pos, &list),
        };
        if !list.contains(&mv) {
            break forfeit(&pos);
        }
        turns.push((None, mv));
        pos = pos.play(&mv);
    };
    GewuRecord {
        start,
        turns,
        outcome,
        final_position: pos,
    }
}

/// Plays the throw form from `start` to its end, the throws drawn from
/// `throws` (seeded, so a game replays exactly). Each closure gets the
/// position, the throw and the moves it allows (never empty: a lost turn is
/// the single move `PASS`).
pub fn play_throw_game<W, K>(
    start: GewuPosition,
    throws: &mut RandomMover,
    mut white: W,
    mut black: K,
) -> GewuRecord
where
    W: FnMut(&GewuPosition, Throw, &[GewuMove]) -> GewuMove,
    K: FnMut(&GewuPosition, Throw, &[GewuMove]) -> GewuMove,
{
    let mut pos = start;
    let mut turns = Vec::new();
    let mut list = GewuMoveList::new();
    let outcome = loop {
        if let Some(r) = pos.result() {
            break r;
        }
        if turns.len() >= TURN_LIMIT {
            break GewuOutcome::Draw(GewuDrawReason::TurnLimit);
        }
        let throw = throws.throw();
        pos.throw_moves(throw, &mut list);
        let mv = match pos.side() {
            Colour::White => white(&pos, throw, &list),
            Colour::Black => black(&pos, throw, &list),
        };
        if !list.contains(&mv) {
            break forfeit(&pos);
        }
        turns.push((Some(throw), mv));
        pos = pos.play(&mv);
    };
    GewuRecord {
        start,
        turns,
        outcome,
        final_position: pos,
    }
}

/// A deterministic pseudo-random source ([`XorShift`]) for moves and throws:
/// the same seed replays the same game.
#[derive(Clone, Debug)]
pub struct RandomMover(XorShift);

impl RandomMover {
    pub fn new(seed: u64) -> Self {
        RandomMover(XorShift::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A throw of the 簺, each face with probability 1/4.
    pub fn throw(&mut self) -> Throw {
        // The high bits of xorshift64* are its best.
        Throw::from_random(self.next_u64() >> 32)
    }

    /// A uniformly chosen move; `PASS` for an empty slice.
    pub fn pick(&mut self, moves: &[GewuMove]) -> GewuMove {
        if moves.is_empty() {
            GewuMove::PASS
        } else {
            moves[((self.next_u64() >> 32) % moves.len() as u64) as usize]
        }
    }

    /// A random player for [`play_game`].
    pub fn player(mut self) -> impl FnMut(&GewuPosition, &[GewuMove]) -> GewuMove {
        move |_: &GewuPosition, moves: &[GewuMove]| self.pick(moves)
    }

    /// A random player for [`play_throw_game`].
    pub fn throw_player(mut self) -> impl FnMut(&GewuPosition, Throw, &[GewuMove]) -> GewuMove {
        move |_: &GewuPosition, _: Throw, moves: &[GewuMove]| self.pick(moves)
    }
}
