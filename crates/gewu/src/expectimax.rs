//! Expectimax search for the throw form of Gewu, with chance nodes.
//!
//! The throw form is a game of chance, so the alpha-beta core does not fit
//! it: a turn is a chance node (the throw, four faces at 1/4 each) followed
//! by a choice node (the player picks the best move the throw allows).
//!
//! Values are expected results in [-1, 1] from the side to move's view: win
//! 1, draw 0, loss -1. Depth counts turns (one throw and one move); at depth
//! 0 a position is worth `tanh(evaluation / LEAF_SCALE)`, the evaluation
//! squashed into the same range. Chance-node values are cached by
//! (position, depth): on a line, pieces reach the same cells in many orders.

use super::moves::{GewuMove, GewuMoveList};
use super::position::GewuPosition;
use super::throws::Throw;
use std::collections::HashMap;
use tiao_core::GameResult;
use tiao_core::game::Evaluate;

/// Evaluation units per unit of `atanh` of the expected result.
pub const LEAF_SCALE: f64 = 400.0;

/// The cache is cleared when it grows past this many entries.
const CACHE_LIMIT: usize = 1 << 22;

/// Nodes between two looks at the stop condition.
const STOP_CHECK: u64 = 1024;

/// An expectimax searcher with its own cache.
pub struct Expectimax<E> {
    eval: E,
    cache: HashMap<(u64, u32), f64>,
    nodes: u64,
    /// Asked every [`STOP_CHECK`] nodes whether to give up (a `stop`, a
    /// deadline); once it says yes, values are meaningless and not cached.
    stop: Option<Box<dyn Fn() -> bool + Send>>,
    stopped: bool,
}

impl<E: std::fmt::Debug> std::fmt::Debug for Expectimax<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expectimax")
            .field("eval", &self.eval)
            .field("nodes", &self.nodes)
            .field("stopped", &self.stopped)
            .finish()
    }
}

impl<E: Evaluate<GewuPosition>> Expectimax<E> {
    pub fn new(eval: E) -> Self {
        Expectimax {
            eval,
            cache: HashMap::new(),
            nodes: 0,
            stop: None,
            stopped: false,
        }
    }

    /// Give up as soon as `stop` says so (checked every few nodes): the
    /// search then returns at once, and [`Expectimax::stopped`] tells its
    /// results are not to be used.
    pub fn with_stop(mut self, stop: impl Fn() -> bool + Send + 'static) -> Self {
        self.stop = Some(Box::new(stop));
        self
    }

    /// Whether the stop condition cut the search short.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Nodes visited since creation (chance and choice nodes).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    /// The value of a finished position for its side to move.
    fn terminal(pos: &GewuPosition) -> Option<f64> {
        pos.result().map(|r| match r.result() {
            GameResult::Win(c) if c == pos.side() => 1.0,
            GameResult::Win(_) => -1.0,
            GameResult::Draw => 0.0,
        })
    }

    /// The expected result for the side to move of `pos`, before his
    /// throw, looking `depth` turns ahead.
    pub fn value(&mut self, pos: &GewuPosition, depth: u32) -> f64 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK)
            && let Some(stop) = &self.stop
            && stop()
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0.0;
        }
        if let Some(v) = Self::terminal(pos) {
            return v;
        }
        if depth == 0 {
            return (f64::from(self.eval.evaluate(pos)) / LEAF_SCALE).tanh();
        }
        let key = (pos.hash(), depth);
        if let Some(&v) = self.cache.get(&key) {
            return v;
        }
        let v = Throw::ALL
            .iter()
            .map(|&t| Throw::PROBABILITY * self.choose(pos, t, depth).1)
            .sum();
        if self.stopped {
            return v;
        }
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, v);
        v
    }

    /// The best move after `throw` (the first of equal ones, in cell
    /// order) and its value for the side to move, looking `depth` turns
    /// ahead counting this one; at depth 0 the moves are judged by the
    /// leaf value of the positions they lead to.
    pub fn choose(&mut self, pos: &GewuPosition, throw: Throw, depth: u32) -> (GewuMove, f64) {
        self.nodes += 1;
        let mut list = GewuMoveList::new();
        pos.throw_moves(throw, &mut list);
        let mut best = (GewuMove::PASS, f64::NEG_INFINITY);
        for mv in &list {
            let v = -self.value(&pos.play(mv), depth.saturating_sub(1));
            if v > best.1 {
                best = (*mv, v);
            }
        }
        best
    }
}
