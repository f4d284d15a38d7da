//! The command lines of `tiao match` and `tiao openings`, and their check
//! into a [`MatchConfig`]: every mistake is reported before any engine
//! starts, in words that say what to write instead.
//!
//! `--engine` takes several `key=value` words per occurrence, which clap's
//! derive cannot group, so [`EngineArgs`] implements clap's traits by hand
//! on top of `ArgMatches::get_occurrences`.

use super::adjudication::{Adjudication, DrawRule, WinRule};
use super::ballot::Ballot;
use super::schedule::Format;
use super::spec::EngineSpec;
use super::sprt::Sprt;
use super::tc::{TimeControl, parse_seconds};
use super::tournament::MatchConfig;
use crate::board::Variant;
use crate::engine::GameKind;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use std::path::PathBuf;
use std::time::Duration;

/// The `--engine` flags: one list of `key=value` words per occurrence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineArgs(pub Vec<Vec<String>>);

const ENGINE_HELP: &str = "An engine (give two or more): name=NAME cmd=\"COMMAND ARGS\" \
    [dir=DIR] [option.PARAM=VALUE ...] [tc=TC]; e.g. --engine name=new \
    cmd=\"./target/release/tiao hub\"";

impl FromArgMatches for EngineArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineArgs(groups))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for EngineArgs {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(ENGINE_HELP),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// Arguments of `tiao match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Games per pairing; rounded up to an even number, since each opening
    /// is played twice with colours swapped. With --sprt, the most to play.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Time control: movetime=S, BASE+INC (60+0.5), MOVES/BASE[+INC]
    /// (40/60), nodes=N or depth=N. Seconds may be decimals.
    #[arg(long, default_value = "10+0.1", value_parser = parse_tc)]
    pub tc: TimeControl,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Opening ballot file (docs/openings.md), or `none` for the start
    /// position. Default: the set shipped for the variant.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Game: international (normal), brazilian, russian, canadian, halma8,
    /// halma10, gewu, gewu-dice (the runner throws for gewu-dice).
    #[arg(long, default_value = "international", value_parser = parse_game)]
    pub variant: GameKind,
    /// Write every game to this PDN file (and a picture of the result,
    /// as SVG, next to it: FILE with the extension .svg).
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Write the picture of the result (Elo intervals, the SPRT's course)
    /// to this SVG file [default: next to the PDN file].
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Stop when a sequential test decides: elo0=E0 elo1=E1 [alpha=0.05]
    /// [beta=0.05] [min-pairs=100] (logistic Elo of the first engine over
    /// the second; no decision before min-pairs game pairs).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// The first engine against each of the others.
    #[arg(long, conflicts_with = "round_robin")]
    pub gauntlet: bool,
    /// Every engine against every other (the default for three or more).
    #[arg(long)]
    pub round_robin: bool,
    /// No progress display (the final table is still printed).
    #[arg(long, short)]
    pub quiet: bool,
    /// Less common settings (boxed: the subcommand enum stays small).
    #[command(flatten)]
    pub more: Box<MoreMatchArgs>,
}

/// The less common settings of `tiao match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MoreMatchArgs {
    /// Go on with the match whose games the --pdn file holds: each is
    /// checked to be this match's (engines and seats, variant, time
    /// control, opening) and counted, and only the rest is played and
    /// appended (a new match when there is no file yet). Repeat the same
    /// command; --games may grow.
    #[arg(long)]
    pub resume: bool,
    /// Use the openings in a random order, reproducible by SEED (default 1).
    #[arg(long, value_name = "SEED", num_args = 0..=1, default_missing_value = "1")]
    pub shuffle: Option<u64>,
    /// Draw when both engines' last N scores are within ±S from move M on:
    /// [moves=10] [score=0.10] [after=40].
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub adjudicate_draw: Option<Vec<String>>,
    /// Win when both engines' last N scores favour one side by S men or
    /// more: [moves=4] [score=4].
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub adjudicate_win: Option<Vec<String>>,
    /// Adjudicate positions covered by endgame databases of up to N pieces
    /// (0 = off) with their value.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub egdb_pieces: u32,
    /// Where the endgame databases are (see `tiao egdb gen`).
    #[arg(long, default_value = "egdb", value_name = "DIR")]
    pub egdb_dir: PathBuf,
    /// Seconds of latency forgiven before a move is over time.
    #[arg(long, default_value = "0.05", value_name = "SECONDS", value_parser = seconds)]
    pub margin: Duration,
    /// With nodes= or depth= (no clock): seconds after which an engine that
    /// has not moved is hung and loses.
    #[arg(long, default_value = "60", value_name = "SECONDS", value_parser = seconds)]
    pub move_timeout: Duration,
    /// Seconds an engine may take to start (hub ... ready).
    #[arg(long, default_value = "30", value_name = "SECONDS", value_parser = seconds)]
    pub start_timeout: Duration,
    /// The PDN Event tag.
    #[arg(long, default_value = "tiao match")]
    pub event: String,
}

/// Arguments of `tiao openings`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Variant: international (normal), brazilian, russian, canadian.
    #[arg(long, default_value = "international", value_parser = parse_variant)]
    pub variant: Variant,
    /// Opening length in plies (a "3-move" ballot has 3).
    #[arg(long, default_value_t = 3)]
    pub plies: u32,
    /// Depth of the search that scores each opening.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Keep openings whose score is within ±MARGIN men.
    #[arg(long, default_value_t = 0.30)]
    pub margin: f64,
    /// Write the ballot here (default: stdout).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Search threads, one position each (default: the number of cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The number of cores, the default concurrency.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Open the databases for adjudication; without them the match goes on (with a warning).
fn load_tables(
    game: GameKind,
    pieces: u32,
    dir: &std::path::Path,
    quiet: bool,
) -> Option<super::adjudication::Tables> {
    if pieces == 0 {
        return None;
    }
    let Some(variant) = game.variant() else {
        eprintln!("warning: there are no endgame databases for {game}; adjudicating without them");
        return None;
    };
    match crate::endgame::VariantEgdb::open_available(dir, variant, pieces) {
        Ok(db) => {
            if !quiet {
                eprintln!(
                    "adjudicating with {variant} endgame databases up to {} pieces",
                    db.pieces()
                );
            }
            Some(super::adjudication::Tables(db))
        }
        Err(e) => {
            eprintln!("warning: {e}; adjudicating without endgame databases");
            None
        }
    }
}

/// A game name, with a message that lists the names.
pub fn parse_game(name: &str) -> Result<GameKind, String> {
    name.parse::<GameKind>().map_err(|e| e.to_string())
}

/// A variant name, with a message that lists the names.
pub fn parse_variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

/// A time control argument.
fn parse_tc(text: &str) -> Result<TimeControl, String> {
    text.parse()
}

/// A number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    parse_seconds(text, "the value")
}

/// Check the arguments of `tiao match`.
pub fn match_config(args: &MatchArgs) -> Result<MatchConfig, String> {
    let engines = args
        .engines
        .0
        .iter()
        .map(|words| EngineSpec::parse(words))
        .collect::<Result<Vec<_>, _>>()?;
    if engines.len() < 2 {
        return Err(format!(
            "a match needs at least two engines (got {}): give --engine twice or more, e.g. \
             --engine name=new cmd=\"./tiao hub\" --engine name=old cmd=\"./tiao-old hub\"",
            engines.len()
        ));
    }
    let variant = args.variant;
    let more = &args.more;
    let format = if engines.len() == 2 {
        Format::HeadToHead
    } else if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt compares two engines: give exactly two --engine".into());
    }
    // The schedule is made up front, a job per game.
    const MAX_GAMES: u32 = 1_000_000;
    if args.games == 0 || args.games > MAX_GAMES {
        return Err(format!(
            "--games must be 1 to {MAX_GAMES}, not {}",
            args.games
        ));
    }
    let games = args.games + args.games % 2;
    if games != args.games && !args.quiet {
        eprintln!(
            "note: playing {games} games per pairing (openings are played in pairs, colours swapped)"
        );
    }
    if more.resume && args.pdn.is_none() {
        return Err(
            "--resume goes on from the games of a PDN file: give it with --pdn FILE".into(),
        );
    }
    let concurrency = args.concurrency.unwrap_or_else(cores);
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let ballot = match args.openings.as_deref() {
        None => Ballot::builtin(variant),
        Some(p) if p.as_os_str() == "none" => Ballot::start_only(),
        Some(path) => Ballot::load(path)?,
    };
    let adjudication = Adjudication {
        draw: more
            .adjudicate_draw
            .as_deref()
            .map(DrawRule::parse)
            .transpose()?,
        win: more
            .adjudicate_win
            .as_deref()
            .map(WinRule::parse)
            .transpose()?,
    };
    for (flag, d) in [
        ("--move-timeout", more.move_timeout),
        ("--start-timeout", more.start_timeout),
    ] {
        if d < Duration::from_millis(100) {
            return Err(format!("{flag} must be at least 0.1 s"));
        }
    }
    Ok(MatchConfig {
        engines,
        variant,
        tc: args.tc,
        games,
        concurrency,
        ballot,
        shuffle: more.shuffle,
        pdn: args.pdn.clone(),
        resume: more.resume,
        svg: super::picture::path_for(args.svg.as_deref(), args.pdn.as_deref()),
        sprt,
        adjudication,
        egdb: load_tables(variant, more.egdb_pieces, &more.egdb_dir, args.quiet),
        format,
        margin: more.margin,
        move_timeout: more.move_timeout,
        start_timeout: more.start_timeout,
        event: more.event.clone(),
        quiet: args.quiet,
    })
}
