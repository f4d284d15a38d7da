//! The rules of draughts, every rule set: the board and its rule sets
//! (`board`), the move generator and perft (`movegen`), and the readers and
//! writers of every text format (`notation`: FEN, Hub strings, move text,
//! PDN), and `game`, draughts as a [`tiao_core::game::Game`] for the
//! search. Generic over the rule set and monomorphised per rule set.

pub mod board;
mod game;
pub mod movegen;
pub mod notation;
