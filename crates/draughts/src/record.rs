//! The record of a game ([`GameHistory`]): the moves played from a start
//! position, each position's hash and draw counters, and the result by the
//! rules. It sits above the move generator: a side that cannot move has
//! lost.

use crate::board::{DrawCounters, DrawReason, Move, Outcome, Position, Rules, Word};
use crate::movegen::has_move;

/// The history of a game: start position, moves played, and per-position hashes and counters.
#[derive(Clone)]
pub struct GameHistory<R: Rules> {
    start: Position<R>,
    positions: Vec<Position<R>>,
    moves: Vec<Move<Word<R>>>,
    counters: Vec<DrawCounters>,
}

impl<R: Rules> GameHistory<R> {
    pub fn new(start: Position<R>) -> Self {
        GameHistory {
            start,
            positions: vec![start],
            moves: Vec::new(),
            counters: vec![DrawCounters::initial(&start)],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        self.positions.last().unwrap_or(&self.start)
    }

    pub fn start(&self) -> &Position<R> {
        &self.start
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move<Word<R>>] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[Position<R>] {
        &self.positions
    }

    /// Draw-rule counters of the current position.
    pub fn counters(&self) -> DrawCounters {
        self.counters.last().copied().unwrap_or_default()
    }

    /// Play a move, which must be legal in the current position.
    pub fn play(&mut self, mv: Move<Word<R>>) {
        let before = *self.position();
        let after = before.play(&mv);
        let c = self.counters().next(&before, &mv, &after);
        self.positions.push(after);
        self.moves.push(mv);
        self.counters.push(c);
    }

    /// Take back the last move.
    pub fn undo(&mut self) -> Option<Move<Word<R>>> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counters.pop();
        Some(mv)
    }

    /// Hashes of the earlier positions that can recur (those since the last
    /// irreversible move), oldest first, the current one excluded: all the
    /// free functions below look at.
    fn earlier_hashes(&self) -> Vec<u64> {
        let n = self.positions.len();
        let window = (self.counters().reversible as usize).min(n - 1);
        self.positions[n - 1 - window..n - 1]
            .iter()
            .map(|p| p.hash())
            .collect()
    }

    /// How often the current position has occurred (with the same side to move), itself included.
    pub fn repetitions(&self) -> u32 {
        repetitions(self.position(), &self.counters(), &self.earlier_hashes())
    }

    /// Hashes of the positions since the last irreversible move, oldest first,
    /// the current one excluded: what the search checks repetitions against.
    pub fn reversible_hashes(&self) -> Vec<u64> {
        self.earlier_hashes()
    }

    /// A draw by the rules in the current position, if any.
    pub fn draw(&self) -> Option<DrawReason> {
        draw(self.position(), &self.counters(), &self.earlier_hashes())
    }

    /// The result if the game is over: the side to move loses when it has no
    /// legal move; otherwise the draw rules decide.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome(self.position(), &self.counters(), &self.earlier_hashes())
    }
}

/// The stretch of `earlier` (hashes of the positions before the current
/// one, oldest first) since the last irreversible move: only those
/// positions can recur.
pub fn reversible<'a>(counters: &DrawCounters, earlier: &'a [u64]) -> &'a [u64] {
    let window = (counters.reversible as usize).min(earlier.len());
    &earlier[earlier.len() - window..]
}

/// How often `pos` has occurred with the same side to move, itself
/// included, given the hashes of the positions before it, oldest first.
pub fn repetitions<R: Rules>(pos: &Position<R>, counters: &DrawCounters, earlier: &[u64]) -> u32 {
    let current = pos.hash();
    // Same side to move: every second earlier position, newest first.
    let earlier_same_side = reversible(counters, earlier)
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&h| h == current)
        .count();
    1 + earlier_same_side as u32
}

/// A draw by the rules in `pos`, if any (see [`repetitions`] for `earlier`).
pub fn draw<R: Rules>(
    pos: &Position<R>,
    counters: &DrawCounters,
    earlier: &[u64],
) -> Option<DrawReason> {
    if repetitions(pos, counters, earlier) >= 3 {
        return Some(DrawReason::Repetition);
    }
    counters.draw::<R>()
}

/// The result if the game is over in `pos`: the side to move loses when it
/// has no legal move; otherwise the draw rules decide (see [`repetitions`]
/// for `earlier`).
pub fn outcome<R: Rules>(
    pos: &Position<R>,
    counters: &DrawCounters,
    earlier: &[u64],
) -> Option<Outcome> {
    if !has_move(pos) {
        return Some(Outcome::Win(!pos.side()));
    }
    draw(pos, counters, earlier).map(Outcome::Draw)
}
