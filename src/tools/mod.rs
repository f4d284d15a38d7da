//! Command-line tools around the engine: perft and bench (and, in their own
//! modules, the match runner and the data and book builders).

pub mod bench;
pub mod match_runner;
pub mod perft;
pub mod tactics;
