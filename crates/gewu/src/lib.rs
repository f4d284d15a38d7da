//! Gewu (格五), the historical Chinese race game, with and without throws,
//! as specified in `docs/gewu.md`.
//!
//! Layers: `track` (cells and homes), `position` (pieces, the unit move,
//! the end of the game), `moves`, `game` (the free form as a [`Game`] for
//! the alpha-beta search), `throws` (the stick and the moves a throw
//! allows), `outcome` (who won and why), `expectimax` (the throw form's search, with chance nodes),
//! `eval`, `notation` and `fen` (text), `diagram`, and `play` (whole games
//! between closures).
//!
//! [`Game`]: tiao_core::game::Game

mod diagram;
mod error;
mod eval;
mod expectimax;
mod fen;
mod game;
mod moves;
mod notation;
mod outcome;
mod play;
mod position;
mod throws;
mod track;

pub use diagram::diagram;
pub use error::GewuError;
pub use eval::GewuEval;
pub use expectimax::{Expectimax, LEAF_SCALE};
pub use fen::{from_fen, to_fen};
pub use moves::{GewuMove, GewuMoveList};
pub use notation::{move_text, parse_move, parse_throw, parse_throw_move, turn_text};
pub use outcome::{GewuDrawReason, GewuOutcome, GewuWinReason};
pub use play::{GewuRecord, RandomMover, TURN_LIMIT, play_game, play_throw_game};
pub use position::GewuPosition;
pub use throws::Throw;
pub use track::{CELLS, FULL, HOME, HOME_CELLS, PIECES, distance_home};
