//! Halma on a square board (8x8 and 10x10), as specified in `docs/halma.md`.
//!
//! Layers: `board` (the two sizes as compile-time parameters, masks and
//! shifts), `position` (pieces, side, hash), `movegen` (steps and jump
//! chains), `rules` (counters, yard rule, win, draws), `game` (the [`Game`]
//! impl for the search), `eval`, `notation` and `fen` (text), `diagram`,
//! `perft`, and `play` (whole games between closures).
//!
//! [`Game`]: tiao_core::game::Game

mod board;
mod diagram;
mod error;
mod eval;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod perft;
mod play;
mod position;
mod rules;
mod zobrist;

pub use board::{Dir, Halma8, Halma10, HalmaBoard, own_yard, target_yard};
pub use diagram::diagram;
pub use error::HalmaError;
pub use eval::{HalmaEval, side_score};
pub use fen::{from_fen, to_fen};
pub use movegen::jump_destinations;
pub use moves::{HalmaMove, HalmaMoveList, MAX_MOVES};
pub use notation::{move_text, parse_move, parse_square, square_name};
pub use perft::{perft, perft_divide};
pub use play::{GameRecord, RandomMover, Turn, play_game};
pub use position::HalmaPosition;
pub use rules::{
    DrawReason, HalmaCounters, HalmaOutcome, WinReason, breaks_yard_rule, is_threefold, outcome,
    rules_outcome,
};
