//! The evaluation training pipeline: generate self-play data, fit the
//! pattern evaluation's weights to it, and measure the result.
//!
//! One concept per file:
//! - `rng` — the deterministic generator and per-game seeds;
//! - `openings` — ballot files and random openings;
//! - `data` — the binary data format (chunks of position records), merge;
//! - `datagen` — `tiao datagen`: parallel, shardable, resumable self-play;
//! - `adjudicate` — when a self-play game counts as won before its end;
//! - `model` — the trainable form of the pattern evaluation;
//! - `trainer` — `tiao train`: K fit, Adam, validation, early stopping;
//! - `plot` — the loss curve as SVG;
//! - `duel` — `tiao duel`: quick in-process matches between evaluations;
//! - `cli` — the command-line arguments and the runs they start.
//!
//! The game loops of `datagen` and `duel` run on `tools::workers`' plain
//! threads.
//!
//! See `docs/training.md` for the workflow and `docs/strength.md` for the
//! measured results.

pub mod adjudicate;
pub mod cli;
pub mod data;
pub mod datagen;
pub mod duel;
pub mod model;
pub mod openings;
pub mod plot;
pub mod rng;
pub mod trainer;

pub use cli::{DatagenArgs, DuelArgs, TrainArgs, run_datagen, run_duel, run_train};
