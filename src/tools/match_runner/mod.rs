//! `tiao match`: games between Hub engines, with Elo and SPRT; and
//! `tiao openings`: the opening ballots such matches are played from.
//!
//! The runner is the arbiter, not the engines: it keeps the board, the
//! clocks and the rules itself, and an engine that crashes, hangs, overruns
//! its clock or plays an illegal move loses the game and is restarted.
//! See `docs/testing-strength.md` for how to test a change with it.
//!
//! One concept per file:
//! - `cli` — command-line arguments and their checks;
//! - `spec` — `--engine` specifications and `key=value` lists;
//! - `tc` — time controls and the runner's clocks;
//! - `process` — one engine process and the Hub handshake;
//! - `player` — an engine's seat on a worker, with restarts;
//! - `arbiter` — one game: moves, clocks, rules, result;
//! - `adjudication` — optional early draws and wins from engine scores;
//! - `ballot` — opening ballot files;
//! - `schedule` — pairings, game pairs and opening order;
//! - `stats`, `sprt` — Elo, LOS, pentanomial intervals, the SPRT;
//! - `results`, `report`, `progress` — collecting and showing results;
//! - `picture` — the result as an SVG chart (Elo intervals, the SPRT's course);
//! - `pdn_out` — the PDN record of each game;
//! - `resume` — going on from the games of an earlier run's PDN;
//! - `tournament` — workers, the result loop, stopping;
//! - `generate` — `tiao openings`.

pub mod adjudication;
pub mod arbiter;
pub mod ballot;
pub mod cli;
pub mod generate;
pub mod pdn_out;
pub mod picture;
pub mod player;
pub mod process;
pub mod progress;
pub mod report;
pub mod results;
pub mod resume;
pub mod schedule;
pub mod spec;
pub mod sprt;
pub mod stats;
pub mod tc;
pub mod tournament;

pub use cli::{MatchArgs, OpeningsArgs};
use signal_hook::consts::{SIGINT, SIGTERM};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Exit status after SIGTERM, as a shell reports a process it ended.
const TERMINATED_STATUS: i32 = 128 + SIGTERM;

/// Run `tiao match`: play, print the report on stdout.
///
/// The first Ctrl-C (SIGINT) stops the match after the games under way and
/// still prints the report; a second ends the process at once (status 130).
/// SIGTERM (`kill`, `timeout`, a batch system's time limit) prints the
/// report of the finished games at once and ends the process (status
/// 143); the games under way are lost, and `--resume` plays them again.
/// The engines run in process groups of their own, so the terminal's
/// Ctrl-C reaches only the runner, which decides what the engines do.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let config = cli::match_config(args)?;
    let interrupt = Arc::new(AtomicBool::new(false));
    let terminate = Arc::new(AtomicBool::new(false));
    // The second signal finds the flag set by the first and exits; both
    // are registered before any game, and stay for the life of the process.
    for register in [
        |f| signal_hook::flag::register_conditional_shutdown(SIGINT, 130, f),
        |f| signal_hook::flag::register(SIGINT, f),
    ] {
        register(Arc::clone(&interrupt)).map_err(|e| format!("cannot watch for Ctrl-C: {e}"))?;
    }
    signal_hook::flag::register(SIGTERM, Arc::clone(&terminate))
        .map_err(|e| format!("cannot watch for SIGTERM: {e}"))?;
    let stops = tournament::Stops {
        interrupt: &interrupt,
        terminate: &terminate,
        terminated,
    };
    let outcome = tournament::run_match(&config, &stops)?;
    print!("{}", outcome.report);
    match outcome.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The end of a match stopped by SIGTERM: its report, then exit while the
/// workers are still in their games (their engines see their input close).
fn terminated(outcome: tournament::MatchOutcome) -> ! {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(outcome.report.as_bytes());
    let _ = out.flush();
    if let Some(e) = outcome.error {
        eprintln!("tiao: {e}");
    }
    std::process::exit(TERMINATED_STATUS)
}

/// Run `tiao openings`.
pub fn run_openings(args: &OpeningsArgs) -> Result<(), String> {
    generate::run(args)
}
