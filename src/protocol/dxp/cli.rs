//! The command line of `tiao dxp` and the checked configuration it turns
//! into. Everything that can be wrong with the options (a bad FEN, an
//! unreadable ballot file, an initiator option without `--initiator`) is
//! reported here, before any connection is made.

use super::message::Setup;
use super::starts;
use crate::board::Colour;
use crate::engine::Options;
use crate::engine::options::{
    BOOK, BOOK_FILE, BOOK_MARGIN, BOOK_MAX_PLY, BOOK_PLY, EVAL_FILE, HASH, THREADS,
};
use clap::builder::RangedI64ValueParser;
use std::path::PathBuf;
use std::time::Duration;

/// The DXP port everyone uses, on loopback.
const DEFAULT_ADDR: &str = "127.0.0.1:27531";

/// Which colour Tiao plays as initiator.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// White in every game.
    #[value(name = "W", alias = "w", alias = "white")]
    White,
    /// Black (Dutch *zwart*) in every game.
    #[value(name = "Z", alias = "z", alias = "B", alias = "b", alias = "black")]
    Black,
    /// White in odd games, Black in even games.
    #[value(name = "alternate", alias = "alt")]
    Alternate,
}

/// Arguments of `tiao dxp`: boxed, so that the `tiao` command enum stays
/// small whatever options DXP grows.
#[derive(clap::Args, Debug, Clone)]
pub struct DxpArgs {
    #[command(flatten)]
    pub options: Box<DxpOptions>,
}

/// The options of `tiao dxp`.
#[derive(clap::Args, Debug, Clone)]
pub struct DxpOptions {
    /// Wait for connections on [HOST:]PORT (the default: 127.0.0.1:27531).
    /// Port 0 picks a free port; the address is printed on stdout.
    #[arg(long, value_name = "[HOST:]PORT", num_args = 0..=1,
          default_missing_value = DEFAULT_ADDR, conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a DXP program at HOST:PORT (default 127.0.0.1:27531).
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = DEFAULT_ADDR)]
    pub connect: Option<String>,
    /// Propose the games (colours, time, start positions); without it Tiao
    /// is the follower and accepts the games the other side proposes.
    #[arg(long)]
    pub initiator: bool,
    /// Initiator: games to play (default 2).
    #[arg(long, requires = "initiator", value_name = "N")]
    pub games: Option<u32>,
    /// Initiator: thinking time per player for the whole game, in whole
    /// minutes (default 5).
    #[arg(long, requires = "initiator", value_name = "MINUTES",
          value_parser = clap::value_parser!(u32).range(1..=999))]
    pub time: Option<u32>,
    /// Initiator: moves per side the time is for (default 0: the whole game).
    #[arg(long, requires = "initiator", value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=999))]
    pub moves: Option<u32>,
    /// Initiator: the colour Tiao plays (default alternate).
    #[arg(long, requires = "initiator", value_enum, value_name = "W|Z|alternate")]
    pub colour: Option<ColourChoice>,
    /// Initiator: start every game from this position.
    #[arg(long, requires = "initiator", conflicts_with = "ballots")]
    pub fen: Option<String>,
    /// Initiator: start positions, one FEN or one move sequence per line.
    #[arg(long, requires = "initiator", value_name = "FILE")]
    pub ballots: Option<PathBuf>,
    /// PDN file every game is appended to.
    #[arg(long, value_name = "FILE", default_value = "tiao-dxp.pdn")]
    pub pdn: PathBuf,
    // The engine options below take their range, default and help from
    // the engine's option table (`crate::engine::options`), as Hub does.
    #[arg(long, help = THREADS.help,
          default_value_t = THREADS.int_default() as u64,
          value_parser = RangedI64ValueParser::<u64>::new().range(THREADS.int_range()))]
    pub threads: u64,
    #[arg(long, value_name = "MIB", help = format!("{} (per connection)", HASH.help),
          default_value_t = HASH.int_default() as u64,
          value_parser = RangedI64ValueParser::<u64>::new().range(HASH.int_range()))]
    pub hash: u64,
    /// Play without the opening book.
    #[arg(long)]
    pub no_book: bool,
    #[arg(long, value_name = "FILE", help = BOOK_FILE.help)]
    pub book_file: Option<PathBuf>,
    #[arg(long, value_name = "FILE", help = EVAL_FILE.help)]
    pub eval_file: Option<PathBuf>,
    #[arg(long, value_name = "N", help = BOOK_PLY.help,
          default_value_t = BOOK_PLY.int_default() as u32,
          value_parser = clap::value_parser!(u32).range(BOOK_PLY.int_range()))]
    pub book_ply: u32,
    #[arg(long, value_name = "CENTI-MEN", help = BOOK_MARGIN.help,
          default_value_t = BOOK_MARGIN.int_default() as i32,
          value_parser = clap::value_parser!(i32).range(BOOK_MARGIN.int_range()))]
    pub book_margin: i32,
    #[arg(long, value_name = "PLY", help = BOOK_MAX_PLY.help,
          default_value_t = BOOK_MAX_PLY.int_default() as u32,
          value_parser = clap::value_parser!(u32).range(BOOK_MAX_PLY.int_range()))]
    pub book_max_ply: u32,
    /// Think on the peer's time: after each move, search the position
    /// after the reply Tiao expects; if the peer plays it, that search goes
    /// on (and is answered at once once it has had the move's time).
    #[arg(long)]
    pub ponder: bool,
    /// The name sent to the peer (at most 32 characters are sent).
    #[arg(long)]
    pub name: Option<String>,
    /// Event tag of the PDN records.
    #[arg(long, default_value = "Tiao DXP match")]
    pub event: String,
    /// Think this many seconds per move, whatever the clocks say.
    #[arg(long, value_name = "SECONDS")]
    pub move_time: Option<f64>,
    /// Seconds a reply may take (an A, an E acknowledgement, the rest of
    /// a message), and grace beyond the peer's clock for its move.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub timeout: f64,
    /// Follower: seconds to wait between games for the next game request.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub idle_timeout: f64,
    /// Listening: serve one connection, then exit.
    #[arg(long)]
    pub once: bool,
    /// Listening: connections served at the same time (each has its own engine).
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    pub max_connections: u64,
}

/// Where the TCP connection comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Endpoint {
    Listen(String),
    Connect(String),
}

/// What an initiator proposes.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: u32,
    pub time: Duration,
    pub moves: u32,
    pub colour: ColourChoice,
    /// Start positions, used in turn (`None`: the normal start).
    pub starts: Vec<Option<Setup>>,
}

impl Plan {
    /// Tiao's colour and the start of game `n` (1-based). With alternating
    /// colours each start is played twice, Tiao White first.
    pub fn game(&self, n: u32) -> (Colour, Option<Setup>) {
        let k = n.saturating_sub(1) as usize;
        let (colour, index) = match self.colour {
            ColourChoice::White => (Colour::White, k),
            ColourChoice::Black => (Colour::Black, k),
            ColourChoice::Alternate => {
                let c = if k.is_multiple_of(2) {
                    Colour::White
                } else {
                    Colour::Black
                };
                (c, k / 2)
            }
        };
        let start = self
            .starts
            .get(index % self.starts.len().max(1))
            .cloned()
            .flatten();
        (colour, start)
    }
}

/// The checked configuration of a run.
#[derive(Clone, Debug)]
pub struct Config {
    pub endpoint: Endpoint,
    pub name: String,
    pub engine: Options,
    /// The `eval-file` of each connection's engine (read once here, so a
    /// bad file stops Tiao before any connection; `None`: built in).
    pub eval_file: Option<String>,
    /// `Some` when Tiao is the initiator.
    pub plan: Option<Plan>,
    pub move_time: Option<Duration>,
    pub timeout: Duration,
    pub idle_timeout: Duration,
    pub once: bool,
    pub max_connections: usize,
    pub event: String,
    pub pdn: PathBuf,
}

fn seconds(value: f64, what: &str) -> Result<Duration, String> {
    if value.is_finite() && value > 0.0 && value < 1e7 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!(
            "{what} must be a positive number of seconds, not {value}"
        ))
    }
}

/// `PORT` alone means 127.0.0.1:PORT.
fn listen_address(text: &str) -> String {
    match text.trim().parse::<u16>() {
        Ok(port) => format!("127.0.0.1:{port}"),
        Err(_) => text.trim().to_string(),
    }
}

impl Config {
    pub fn from_args(args: &DxpArgs) -> Result<Config, String> {
        let a = &args.options;
        let endpoint = match (&a.listen, &a.connect) {
            (_, Some(c)) => Endpoint::Connect(c.trim().to_string()),
            (Some(l), None) => Endpoint::Listen(listen_address(l)),
            (None, None) => Endpoint::Listen(DEFAULT_ADDR.to_string()),
        };
        let plan = if a.initiator {
            let starts = match (&a.fen, &a.ballots) {
                (Some(fen), _) => vec![starts::from_fen(fen).map_err(|e| format!("--fen: {e}"))?],
                (None, Some(path)) => starts::load_ballots(path)?,
                (None, None) => vec![None],
            };
            Some(Plan {
                games: a.games.unwrap_or(2),
                time: Duration::from_secs(u64::from(a.time.unwrap_or(5)) * 60),
                moves: a.moves.unwrap_or(0),
                colour: a.colour.unwrap_or(ColourChoice::Alternate),
                starts,
            })
        } else {
            None
        };
        let name = a
            .name
            .clone()
            .unwrap_or_else(|| format!("Tiao {}", env!("CARGO_PKG_VERSION")));
        let eval_file = match &a.eval_file {
            None => None,
            Some(path) => {
                let text = path
                    .to_str()
                    .ok_or_else(|| format!("--eval-file {}: not a UTF-8 path", path.display()))?;
                crate::eval::pattern_select::EvalChoice::load(path)
                    .map_err(|e| format!("--eval-file: {e}"))?;
                Some(text.to_string())
            }
        };
        Ok(Config {
            endpoint,
            name,
            engine: Options {
                threads: a.threads as usize,
                hash_mib: a.hash as usize,
                book: crate::book::BookSettings {
                    // `--no-book` turns off what is on by default.
                    enabled: BOOK.bool_default() && !a.no_book,
                    ply: a.book_ply,
                    margin: a.book_margin,
                    max_ply: a.book_max_ply,
                },
                book_file: a.book_file.clone(),
                ponder: a.ponder,
                ..Options::default()
            },
            eval_file,
            plan,
            move_time: a.move_time.map(|t| seconds(t, "--move-time")).transpose()?,
            timeout: seconds(a.timeout, "--timeout")?,
            idle_timeout: seconds(a.idle_timeout, "--idle-timeout")?,
            once: a.once,
            max_connections: a.max_connections as usize,
            event: a.event.clone(),
            pdn: a.pdn.clone(),
        })
    }

    pub fn is_initiator(&self) -> bool {
        self.plan.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tiao dxp`'s flags alone.
    #[derive(clap::Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        dxp: DxpArgs,
    }

    #[test]
    fn alternate_colours_play_each_start_twice() {
        let plan = Plan {
            games: 4,
            time: Duration::from_secs(60),
            moves: 0,
            colour: ColourChoice::Alternate,
            starts: vec![None, starts::from_moves("32-28").expect("ballot")],
        };
        assert_eq!(plan.game(1), (Colour::White, None));
        assert_eq!(plan.game(2), (Colour::Black, None));
        assert_eq!(plan.game(3).0, Colour::White);
        assert!(plan.game(3).1.is_some());
        assert!(plan.game(4).1.is_some());
        assert_eq!(plan.game(5), (Colour::White, None));
    }

    #[test]
    fn the_engine_flags_take_range_default_and_help_from_the_option_table() {
        use clap::{CommandFactory, Parser};
        let parse =
            |args: &[&str]| Cli::try_parse_from(std::iter::once("dxp").chain(args.iter().copied()));
        let cli = parse(&[]).expect("defaults");
        let config = Config::from_args(&cli.dxp).expect("config");
        assert_eq!(config.engine, Options::default());
        assert_eq!(cli.dxp.options.threads as i64, THREADS.int_default());
        assert_eq!(cli.dxp.options.hash as i64, HASH.int_default());
        assert_eq!(i64::from(cli.dxp.options.book_ply), BOOK_PLY.int_default());
        assert_eq!(
            i64::from(cli.dxp.options.book_margin),
            BOOK_MARGIN.int_default()
        );
        assert_eq!(
            i64::from(cli.dxp.options.book_max_ply),
            BOOK_MAX_PLY.int_default()
        );
        for (flag, option) in [
            ("--threads", THREADS),
            ("--hash", HASH),
            ("--book-ply", BOOK_PLY),
            ("--book-margin", BOOK_MARGIN),
            ("--book-max-ply", BOOK_MAX_PLY),
        ] {
            let range = option.int_range();
            for ok in [*range.start(), *range.end()] {
                assert!(parse(&[flag, &ok.to_string()]).is_ok(), "{flag} {ok}");
            }
            for bad in [*range.start() - 1, *range.end() + 1] {
                assert!(parse(&[flag, &bad.to_string()]).is_err(), "{flag} {bad}");
            }
        }
        let command = Cli::command();
        let help = |name: &str| {
            command
                .get_arguments()
                .find(|a| a.get_long() == Some(name))
                .and_then(|a| a.get_help())
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        assert!(help("threads").starts_with(THREADS.help));
        assert!(help("hash").starts_with(HASH.help));
        assert_eq!(help("book-ply"), BOOK_PLY.help);
        assert_eq!(help("book-max-ply"), BOOK_MAX_PLY.help);
        assert_eq!(help("book-file"), BOOK_FILE.help);
        assert_eq!(help("eval-file"), EVAL_FILE.help);
    }

    #[test]
    fn an_eval_file_is_read_before_any_connection() {
        use clap::Parser;
        let parse = |args: &[&str]| {
            let cli = Cli::try_parse_from(std::iter::once("dxp").chain(args.iter().copied()))
                .expect("flags");
            Config::from_args(&cli.dxp)
        };
        assert_eq!(parse(&[]).expect("config").eval_file, None);
        let v1 = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/knowledge/src/eval/weights-v1.txt"
        );
        assert_eq!(
            parse(&["--eval-file", v1])
                .expect("a weights file")
                .eval_file,
            Some(v1.to_string())
        );
        let missing = std::env::temp_dir().join("tiao-dxp-no-such-weights.bin");
        let e = parse(&["--eval-file", &missing.display().to_string()])
            .expect_err("a missing weights file");
        assert!(
            e.starts_with("--eval-file: ") && e.contains("tiao-dxp-no-such-weights.bin"),
            "{e}"
        );
    }

    #[test]
    fn a_bare_port_listens_on_loopback() {
        assert_eq!(listen_address("5555"), "127.0.0.1:5555");
        assert_eq!(listen_address("0.0.0.0:5555"), "0.0.0.0:5555");
    }
}
