//! Playing whole Halma games between two move-choosing closures (engine
//! matches, tests), and a random mover to play against.
//!
//! [`play_game`] applies every rule (win, yard rule, repetition, move limit,
//! no legal move) and always ends: the move limit bounds a game to
//! `2 * B::MOVE_CAP` plies.

use super::board::HalmaBoard;
use super::moves::{HalmaMove, HalmaMoveList};
use super::position::HalmaPosition;
use super::rules::{HalmaCounters, HalmaOutcome, WinReason, outcome};
use tiao_core::Colour;
use tiao_core::rng::XorShift;

/// What a player sees when asked for a move.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a, B: HalmaBoard> {
    pub position: &'a HalmaPosition<B>,
    pub counters: HalmaCounters,
    /// Hashes of the earlier positions of the game, oldest first, the
    /// current one excluded (what a search root needs for repetitions).
    pub history: &'a [u64],
    /// The legal moves, never empty.
    pub moves: &'a [HalmaMove],
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<B: HalmaBoard> {
    pub start: HalmaPosition<B>,
    pub start_counters: HalmaCounters,
    pub moves: Vec<HalmaMove>,
    pub outcome: HalmaOutcome,
    pub final_position: HalmaPosition<B>,
    pub final_counters: HalmaCounters,
}

/// Plays a game from `start` (with its `counters`) to its end by the rules.
/// A closure that returns a move not in `Turn::moves` loses the game
/// (`WinReason::IllegalMove`).
pub fn play_game<B, W, K>(
    start: HalmaPosition<B>,
    counters: HalmaCounters,
    mut white: W,
    mut black: K,
) -> GameRecord<B>
where
    B: HalmaBoard,
    W: FnMut(&Turn<B>) -> HalmaMove,
    K: FnMut(&Turn<B>) -> HalmaMove,
{
    let mut pos = start;
    let mut now = counters;
    let mut history = Vec::new();
    let mut moves = Vec::new();
    let mut list = HalmaMoveList::new();
    let end = loop {
        if let Some(o) = outcome(&pos, &now, &history) {
            break o;
        }
        pos.generate(&mut list);
        let turn = Turn {
            position: &pos,
            counters: now,
            history: &history,
            moves: &list,
        };
        let mv = match pos.side() {
            Colour::White => white(&turn),
            Colour::Black => black(&turn),
        };
        if !list.contains(&mv) {
            break HalmaOutcome::Win {
                winner: !pos.side(),
                reason: WinReason::IllegalMove,
            };
        }
        history.push(pos.hash());
        now = now.next(&pos);
        pos = pos.play(&mv);
        moves.push(mv);
    };
    GameRecord {
        start,
        start_counters: counters,
        moves,
        outcome: end,
        final_position: pos,
        final_counters: now,
    }
}

/// A deterministic pseudo-random chooser ([`XorShift`]): the same seed
/// gives the same game, so failures reproduce.
#[derive(Clone, Debug)]
pub struct RandomMover(XorShift);

impl RandomMover {
    pub fn new(seed: u64) -> Self {
        RandomMover(XorShift::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniformly chosen element, `None` for an empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[(self.next_u64() % items.len() as u64) as usize])
        }
    }

    /// A player for [`play_game`] that picks a legal move at random.
    pub fn player<B: HalmaBoard>(mut self) -> impl FnMut(&Turn<B>) -> HalmaMove {
        move |turn: &Turn<B>| self.pick(turn.moves).unwrap_or_default()
    }
}
