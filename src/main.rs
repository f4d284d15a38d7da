//! The `tiao` command: text mode by default, the Hub protocol with `hub`,
//! DXP with `dxp`, the browser GUI with `gui`, and the tools (perft,
//! bench, match, book, egdb, datagen, train, ...) as subcommands.

use clap::builder::{PossibleValuesParser, RangedI64ValueParser};
use clap::{Parser, Subcommand};
use tiao::engine::bench;
use tiao::engine::options::{EVAL, HASH, THREADS};
use tiao::outln;
use tiao::protocol::{dxp, gui, hub, text};
use tiao::tools::{match_runner, perft, tactics};

#[derive(Parser, Debug)]
#[command(name = "tiao", version, about = "Tiao (跳): a draughts engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the Hub protocol on stdin/stdout (for GUIs such as Hub).
    Hub,
    /// A board in the browser: serve the GUI on 127.0.0.1 and print its address.
    Gui(gui::GuiArgs),
    /// Count the leaves of the move tree (move generator check and speed).
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions; prints a node signature and speed.
    Bench {
        /// Depth per position.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        // Threads, table size and evaluation take their range, default and
        // help from the engine's option table, as Hub and DXP do.
        #[arg(long, help = THREADS.help,
              default_value_t = THREADS.int_default() as u64,
              value_parser = RangedI64ValueParser::<u64>::new().range(THREADS.int_range()))]
        threads: u64,
        #[arg(long, value_name = "MIB", help = HASH.help,
              default_value_t = HASH.int_default() as u64,
              value_parser = RangedI64ValueParser::<u64>::new().range(HASH.int_range()))]
        hash: u64,
        /// Instead of searching, measure the cost of a table probe.
        #[arg(long)]
        tt_probe: bool,
        /// Instead of searching, print the positions, one a line: the
        /// variant, then the FEN (for other tools, e.g. scripts/depth-at-time).
        #[arg(long, conflicts_with = "tt_probe")]
        list: bool,
        /// Search (and time the pattern evaluation) with this weights file.
        #[arg(long, value_name = "FILE")]
        eval_file: Option<std::path::PathBuf>,
        /// Evaluation to search with (default: the engine's).
        #[arg(long, value_parser = PossibleValuesParser::new(EVAL.choice_values()))]
        eval: Option<String>,
    },
    /// Play engine-vs-engine games over TCP (DamExchange protocol).
    Dxp(dxp::DxpArgs),
    /// Play a match between Hub engines, with Elo and SPRT.
    Match(match_runner::MatchArgs),
    /// Generate balanced opening ballots.
    Openings(match_runner::OpeningsArgs),
    /// The tactics suite: find forced shots, or check how many the search solves.
    #[command(subcommand)]
    Tactics(tactics::TacticsCommand),
    /// Opening books: build, import, check, show.
    Book {
        #[command(subcommand)]
        command: tiao::tools::book::BookCommand,
    },
    /// Endgame databases: generate tables, or probe a position.
    Egdb(tiao::tools::egdb::EgdbArgs),
    /// Text mode (the default).
    Text,
    /// Generate training data by self-play (and `merge`, `info`).
    Datagen(tiao::tools::train::DatagenArgs),
    /// Fit pattern evaluation weights to training data.
    Train(tiao::tools::train::TrainArgs),
    /// Quick in-process match between two evaluations.
    Duel(tiao::tools::train::DuelArgs),
}

/// A build for newer CPUs (`make build-modern`: POPCNT and BMI2 compiled
/// in) stops with a message on a CPU without them, instead of dying on an
/// illegal instruction in the middle of a game.
fn check_cpu() {
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    if !std::is_x86_feature_detected!("popcnt") {
        eprintln!(
            "this tiao was built for CPUs with POPCNT; build it with `make build` for this one"
        );
        std::process::exit(1);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    if !std::is_x86_feature_detected!("bmi2") {
        eprintln!(
            "this tiao was built for CPUs with BMI2; build it with `make build` for this one"
        );
        std::process::exit(1);
    }
}

fn main() {
    check_cpu();
    // Logs go to stderr: stdout belongs to the protocol. Their messages
    // quote input, so they are escaped like every other echo of it.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format(|buf, record| {
            use std::io::Write;
            let message = record.args().to_string();
            writeln!(
                buf,
                "[{} {} {}] {}",
                buf.timestamp_millis(),
                record.level(),
                record.target(),
                tiao::printable::escape_lines(&message)
            )
        })
        .init();
    let cli = Cli::parse();
    let code = match cli.command {
        None | Some(Command::Text) => text::run(),
        Some(Command::Hub) => hub::run(),
        Some(Command::Gui(args)) => report(gui::run(&args)),
        Some(Command::Perft(args)) => report(perft::run(&args)),
        Some(Command::Bench {
            depth,
            threads,
            hash,
            tt_probe,
            list,
            eval,
            eval_file,
        }) => {
            if list {
                for (variant, fen) in bench::POSITIONS {
                    outln!("{variant} {fen}");
                }
                0
            } else if tt_probe {
                report(
                    bench::tt_probe_cost(hash as usize)
                        .map(|ns| outln!("tt-probe hash {hash} MiB: {ns:.1} ns per probe")),
                )
            } else {
                let opts = bench::BenchOptions {
                    depth,
                    threads: threads as usize,
                    hash_mib: hash as usize,
                    eval: match eval.as_deref() {
                        Some("v1") => Some("v1"),
                        Some(_) => Some("pattern"),
                        None => None,
                    },
                    eval_file: eval_file.clone(),
                };
                report(
                    bench::run_with(opts, &|l| outln!("{l}"))
                        .and_then(|_| bench::eval_cost(eval_file.as_deref()))
                        .map(|costs| {
                            for (name, ns) in costs {
                                outln!("eval {name}: {ns:.1} ns per evaluation");
                            }
                        }),
                )
            }
        }
        Some(Command::Tactics(cmd)) => report(tactics::run(&cmd)),
        Some(Command::Egdb(args)) => report(tiao::tools::egdb::run(args)),
        Some(Command::Book { command }) => report(tiao::tools::book::run(&command)),
        Some(Command::Dxp(args)) => report(dxp::run(&args)),
        Some(Command::Match(args)) => report(match_runner::run(&args)),
        Some(Command::Openings(args)) => report(match_runner::run_openings(&args)),
        Some(Command::Datagen(args)) => report(tiao::tools::train::run_datagen(&args)),
        Some(Command::Train(args)) => report(tiao::tools::train::run_train(&args)),
        Some(Command::Duel(args)) => report(tiao::tools::train::run_duel(&args)),
    };
    std::process::exit(code);
}

fn report(r: Result<(), String>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tiao: {e}");
            2
        }
    }
}
