//! Tiao (跳, "jump"): a draughts engine. This crate is the top of the
//! workspace: the engine (`engine`: sessions, options, the move decision),
//! the front ends (`protocol`: Hub, DXP, text mode) and the tools (`tools`:
//! perft, bench, matches, training, book and database builders). The layers
//! below are crates of their own, re-exported here under their module names
//! so that the front ends, tools and tests name them as one library. See
//! `docs/architecture.md`.

pub use tiao_core::{bits, files, game, printable, rng};
pub use tiao_draughts::{board, movegen, notation};
pub use tiao_gewu as gewu;
pub use tiao_halma as halma;
pub use tiao_knowledge::{book, endgame, eval};
pub use tiao_search as search;

pub mod engine;
pub mod protocol;
pub mod tools;
