//! Tiao (跳, "jump"): a draughts engine. This crate is the top of the
//! workspace: the front ends (`protocol`: Hub, DXP, text mode) and the
//! tools (`tools`: perft, tactics, matches, training, book and database
//! builders). The engine and the layers below it are crates of their own,
//! re-exported here under their module names so that the front ends, the
//! tools and the tests name them as one library. See
//! `docs/architecture.md`.

pub use tiao_core::{bits, files, game, printable, rng};
pub use tiao_draughts::{board, movegen, notation, record};
pub use tiao_engine as engine;
pub use tiao_gewu as gewu;
pub use tiao_halma as halma;
pub use tiao_knowledge::{book, endgame, eval};
pub use tiao_search as search;

pub mod protocol;
pub mod tools;
