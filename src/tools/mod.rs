//! Command-line tools around the engine: perft, the tactics suite,
//! the match runner, the training pipeline (`train`: datagen, train,
//! duel), and the opening-book and endgame-database builders
//! (`book`, `egdb`: the commands over the builders in `tiao-knowledge`);
//! `workers` runs the tools' search loops on threads of their own.

pub mod book;
pub mod egdb;
pub mod match_runner;
pub mod perft;
pub mod stdout;
pub mod tactics;
pub mod train;
pub mod workers;
