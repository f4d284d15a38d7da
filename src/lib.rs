//! Tiao (跳, "jump"): a draughts engine.
//!
//! Layers, from the bottom: `bits` (bitboard words), `board` (geometry,
//! rules, position, history), `movegen` (legal moves, perft), `notation`
//! (FEN, Hub, PDN and move text). See `docs/architecture.md`.

pub mod bits;
pub mod board;
pub mod book;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod files;
pub mod game;
pub mod gewu;
pub mod halma;
pub mod movegen;
pub mod notation;
pub mod printable;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod tools;
pub mod train;
