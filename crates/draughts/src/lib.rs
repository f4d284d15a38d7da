//! The rules of draughts, every rule set: the board and its rule sets
//! (`board`), the move generator and perft (`movegen`), and the readers and
//! writers of every text format (`notation`: FEN, Hub strings, move text,
//! PDN), `record` (a game's moves and its result by the rules) and `game`,
//! draughts as a [`tiao_core::game::Game`] for the search; `board` imports
//! neither, so the layers inside the crate run board, movegen, then
//! notation, record and game. Generic over the rule set and monomorphised per rule set.

pub mod board;
mod game;
pub mod movegen;
pub mod notation;
pub mod record;
