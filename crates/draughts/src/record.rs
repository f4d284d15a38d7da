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

    /// How often the current position has occurred (with the same side to move), itself included.
    pub fn repetitions(&self) -> u32 {
        let current = self.position().hash();
        let window = self.counters().reversible as usize;
        let n = self.positions.len();
        // Same side to move: every second earlier position, within the reversible stretch.
        (0..=window)
            .step_by(2)
            .filter(|&back| back < n && self.positions[n - 1 - back].hash() == current)
            .count() as u32
    }

    /// Hashes of the positions since the last irreversible move, oldest first,
    /// the current one excluded: what the search checks repetitions against.
    pub fn reversible_hashes(&self) -> Vec<u64> {
        let n = self.positions.len();
        let window = (self.counters().reversible as usize).min(n - 1);
        self.positions[n - 1 - window..n - 1]
            .iter()
            .map(|p| p.hash())
            .collect()
    }

    /// A draw by the rules in the current position, if any.
    pub fn draw(&self) -> Option<DrawReason> {
        if self.repetitions() >= 3 {
            return Some(DrawReason::Repetition);
        }
        self.counters().draw::<R>()
    }

    /// The result if the game is over: the side to move loses when it has no
    /// legal move; otherwise the draw rules decide.
    pub fn outcome(&self) -> Option<Outcome> {
        if !has_move(self.position()) {
            return Some(Outcome::Win(!self.position().side()));
        }
        self.draw().map(Outcome::Draw)
    }
}
