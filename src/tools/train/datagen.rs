//! `tiao datagen`: self-play games at a fixed node budget, on every core,
//! storing quiet positions with the game's result and the search score.
//!
//! Reproducible and shardable: game number `g` (0-based, over the whole
//! run) has its own seed (`rng::game_seed`), its own opening (ballot line
//! `g mod lines`, or a random opening from that seed) and a cleared
//! single-threaded search, so it comes out the same on any machine, shard or
//! thread count. Shard `I` of `N` plays the games `g` with `g mod N = I`;
//! the shards' files together hold exactly the games of an unsharded run.
//!
//! Resumable: games are written in chunks of `batch` consecutive game slots
//! of the shard, in order; an interrupted run leaves complete chunks (and
//! perhaps a partial one, which is cut off), and a rerun with the same
//! settings continues after the last complete chunk. Raising `--games`
//! and rerunning extends a finished run.

use super::adjudicate::WinStreak;
use super::data::{self, ChunkHeader, DECISIVE, Record, THREATENED};
use super::openings::{parse_ballot, random_opening, random_plies};
use super::rng::{Rng, game_seed};
use crate::board::{Colour, Outcome, Position, Rules, Variant};
use crate::eval::Evaluator;
use crate::eval::pattern::PatternEval;
use crate::eval::pattern_file::fnv1a64;
use crate::eval::pattern_select::{EvalChoice, WithEvaluator};
use crate::game::{Evaluate, Game as _};
use crate::record::GameHistory;
use crate::search::score::{WIN_BOUND, is_decisive};
use crate::search::{Limits, Mode, Params, Root, Searcher};
use crate::tools::match_runner::ballot::Ballot;
use crate::tools::workers::on_threads;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Which evaluation plays the games.
#[derive(Clone, Debug)]
pub enum Player {
    V1,
    /// The pattern evaluation; the description names its weights.
    Pattern(PatternEval, String),
}

/// Everything that decides a data generation run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub variant: Variant,
    /// Games over all shards.
    pub games: u64,
    pub shard: u32,
    pub shards: u32,
    pub seed: u64,
    /// Nodes per move; each move draws its budget uniformly within ±25%.
    pub nodes: u64,
    /// Random plies after the opening: uniformly `min..=max`.
    pub random_plies: (u32, u32),
    /// Length of random openings when there is no ballot.
    pub opening_plies: (u32, u32),
    /// A ballot file; `None`: random openings.
    pub openings: Option<PathBuf>,
    pub player: Player,
    pub threads: usize,
    pub hash_mib: usize,
    pub out: PathBuf,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    /// A game is adjudicated won once the score has stayed at least this
    /// many centi-men for one side for `adjudicate_plies` plies in a row.
    pub adjudicate: i32,
    pub adjudicate_plies: u32,
    /// Also keep positions where the opponent threatens a capture.
    pub keep_threatened: bool,
    /// Game slots per chunk.
    pub batch: u32,
    pub quiet: bool,
}

impl DatagenConfig {
    /// A hash of every setting that changes the games; a resume must match it.
    fn settings_hash(&self, openings_text: &str) -> u64 {
        let player = match &self.player {
            Player::V1 => "v1".to_string(),
            Player::Pattern(e, _) => {
                let w = e
                    .weights(self.variant)
                    .map(|w| fnv1a64(&w.to_bytes()))
                    .unwrap_or(0);
                format!("pattern {w:016x}")
            }
        };
        let s = format!(
            "{} {} {} {} {:?} {:?} {} {} {} {} {} {} {} {}",
            self.variant,
            self.shards,
            self.seed,
            self.nodes,
            self.random_plies,
            self.opening_plies,
            fnv1a64(openings_text.as_bytes()),
            player,
            self.hash_mib,
            self.max_plies,
            self.adjudicate,
            self.adjudicate_plies,
            self.keep_threatened,
            self.batch
        );
        fnv1a64(s.as_bytes())
    }

    /// Game slots of this shard.
    fn slots(&self) -> u64 {
        if u64::from(self.shard) >= self.games {
            0
        } else {
            (self.games - u64::from(self.shard)).div_ceil(u64::from(self.shards))
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    pub games: u64,
    pub positions: u64,
    /// Games found already done in the output file.
    pub resumed_games: u64,
    pub seconds: f64,
}

/// Run `tiao datagen`.
pub fn run(cfg: &DatagenConfig) -> Result<DatagenSummary, String> {
    if cfg.shards == 0 || cfg.shard >= cfg.shards {
        return Err(format!(
            "shard {} of {} does not exist",
            cfg.shard, cfg.shards
        ));
    }
    if cfg.batch == 0 || cfg.batch > u32::from(u16::MAX) {
        return Err("--batch must be 1..65535".into());
    }
    // A record holds a board as 64-bit square sets (docs/training.md).
    if cfg.variant.squares() > 64 {
        return Err(format!(
            "datagen: the data format holds boards of at most 64 squares; {} has {}",
            cfg.variant,
            cfg.variant.squares()
        ));
    }
    tiao_draughts::with_rules!(cfg.variant, R => with_player::<R>(cfg))
}

/// The games are played with the evaluator a session of `R` searches
/// with ([`EvalChoice::of_rules`]): the pattern weights of `R` carrying
/// their region indices from node to node, not looked up and rebuilt at
/// every node (the same values, so the same games, in about four fifths of
/// the time).
fn with_player<R: Rules>(cfg: &DatagenConfig) -> Result<DatagenSummary, String> {
    let choice = match &cfg.player {
        Player::V1 => EvalChoice::V1(Evaluator::default()),
        Player::Pattern(e, _) => EvalChoice::Pattern(e.clone()),
    };
    choice.with_evaluator::<R, _>(Generate(cfg))
}

/// [`generate`] with the evaluator as a concrete type.
struct Generate<'a>(&'a DatagenConfig);

impl<R: Rules> WithEvaluator<R> for Generate<'_> {
    type Output = Result<DatagenSummary, String>;
    fn run<E: Evaluate<Position<R>>>(self, eval: &E) -> Self::Output {
        generate::<R, E>(self.0, eval)
    }
}

/// Results waiting to be written in order.
struct Collector {
    file: std::fs::File,
    /// Next chunk's first slot.
    next: u64,
    end: u64,
    batch: u64,
    done: BTreeMap<u64, Vec<Record>>,
    header: ChunkHeader,
    positions: u64,
    error: Option<String>,
}

impl Collector {
    /// Store a finished game and write every chunk now complete.
    fn add(&mut self, slot: u64, records: Vec<Record>) {
        self.done.insert(slot, records);
        loop {
            let last = (self.next + self.batch).min(self.end);
            if self.next >= self.end || !(self.next..last).all(|s| self.done.contains_key(&s)) {
                return;
            }
            let mut records = Vec::new();
            for s in self.next..last {
                let mut game = self.done.remove(&s).unwrap_or_default();
                for r in &mut game {
                    r.game = (s - self.next) as u16;
                }
                records.extend(game);
            }
            let header = ChunkHeader {
                count: records.len() as u32,
                first_game: self.next,
                games: (last - self.next) as u32,
                ..self.header
            };
            if let Err(e) =
                data::write_chunk(&mut self.file, &header, &records).and_then(|_| self.file.flush())
            {
                self.error
                    .get_or_insert(format!("cannot write the data: {e}"));
            }
            self.positions += records.len() as u64;
            self.next = last;
        }
    }
}

fn generate<R: Rules, E: Evaluate<Position<R>> + Sync>(
    cfg: &DatagenConfig,
    eval: &E,
) -> Result<DatagenSummary, String> {
    let start_time = Instant::now();
    let (ballot, ballot_text) = match &cfg.openings {
        Some(p) => {
            let text = Ballot::read(p)?;
            // One read: the settings' hash is of the openings played.
            (
                Some(parse_ballot::<R>(&text, &p.display().to_string())?),
                text,
            )
        }
        None => (None, String::new()),
    };
    let settings = cfg.settings_hash(&ballot_text);

    // One writer per file: a second run on the same --out (a requeued job
    // beside the old one, shards without `{shard}`) would read the other's
    // chunk in flight as torn and cut it.
    let file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(&cfg.out)
        .map_err(|e| format!("cannot open {}: {e}", cfg.out.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(format!(
                "{}: another process is writing it (a second datagen with the same --out?)",
                cfg.out.display()
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("cannot lock {}: {e}", cfg.out.display()));
        }
    }

    // Resume: keep the complete chunks of an earlier run with the same settings.
    let mut first_slot = 0u64;
    let resumed_positions: u64;
    {
        let scan = data::scan(&mut std::io::BufReader::new(&file));
        for h in &scan.data.chunks {
            if h.variant != R::VARIANT
                || h.settings != settings
                || h.shard != cfg.shard
                || h.shards != cfg.shards
            {
                return Err(format!(
                    "{} holds data made with other settings (variant, seed, nodes, openings, player, shard...); \
                     give another --out or the same settings",
                    cfg.out.display()
                ));
            }
            if h.first_game != first_slot {
                return Err(format!(
                    "{}: chunks out of order; cannot resume",
                    cfg.out.display()
                ));
            }
            first_slot += u64::from(h.games);
        }
        resumed_positions = scan.data.records.len() as u64;
        // Only a chunk of this very run, torn where the next one was due,
        // is cut: anything else may be data someone wants.
        let ours = match &scan.torn {
            Some(data::Torn::Body(h)) => {
                h.variant == R::VARIANT
                    && h.settings == settings
                    && h.shard == cfg.shard
                    && h.shards == cfg.shards
                    && h.first_game == first_slot
            }
            Some(data::Torn::Header(bytes)) => {
                let prefix = data::header_prefix(R::VARIANT);
                let n = bytes.len().min(prefix.len());
                bytes[..n] == prefix[..n]
            }
            None => false,
        };
        if let Some(d) = &scan.damage
            && !ours
        {
            return Err(format!(
                "{}: {d}: not the torn end of this run, so it is left as it is; \
                 {}, or give another --out",
                cfg.out.display(),
                scan.whole_prefix(&cfg.out)
            ));
        }
        if let Some(d) = &scan.damage {
            eprintln!(
                "tiao datagen: {}: {d}; cutting the file to its {} complete bytes",
                cfg.out.display(),
                scan.valid_bytes
            );
            file.set_len(scan.valid_bytes)
                .map_err(|e| format!("cannot truncate {}: {e}", cfg.out.display()))?;
        }
    }
    let end = cfg.slots();
    let resumed_games = first_slot.min(end);
    let collector = Mutex::new(Collector {
        file,
        next: first_slot,
        end,
        batch: u64::from(cfg.batch),
        done: BTreeMap::new(),
        header: ChunkHeader {
            variant: R::VARIANT,
            count: 0,
            shard: cfg.shard,
            shards: cfg.shards,
            first_game: 0,
            games: 0,
            settings,
            checksum: 0,
        },
        positions: 0,
        error: None,
    });

    let todo = end.saturating_sub(first_slot);
    let bar = if cfg.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(todo)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let next_slot = AtomicU64::new(first_slot);
    let threads = cfg.threads.max(1);
    let work = || {
        let mut searcher = Searcher::new(1, cfg.hash_mib).map_err(|e| e.to_string())?;
        loop {
            let slot = next_slot.fetch_add(1, Ordering::Relaxed);
            if slot >= end {
                return Ok(());
            }
            let g = slot * u64::from(cfg.shards) + u64::from(cfg.shard);
            let mut rng = Rng::new(game_seed(cfg.seed, g));
            let opening = match &ballot {
                Some(b) => b[(g % b.len() as u64) as usize].clone(),
                None => random_opening::<R>(&mut rng, cfg.opening_plies.0, cfg.opening_plies.1),
            };
            let records = play_game(cfg, &mut searcher, eval, opening, &mut rng);
            let Ok(mut c) = collector.lock() else {
                return Ok(());
            };
            c.add(slot, records);
            let failed = c.error.is_some();
            bar.set_message(format!("{} positions", resumed_positions + c.positions));
            drop(c);
            bar.inc(1);
            if failed {
                return Ok(());
            }
        }
    };
    let ran = on_threads(threads, "tiao-datagen", work);
    bar.finish_and_clear();
    ran?;
    let c = collector
        .into_inner()
        .map_err(|_| "a data generation thread panicked".to_string())?;
    if let Some(e) = c.error {
        return Err(e);
    }
    Ok(DatagenSummary {
        games: todo,
        positions: c.positions,
        resumed_games,
        seconds: start_time.elapsed().as_secs_f64(),
    })
}

/// Play one game from `opening`; returns its recorded positions with the result filled in.
fn play_game<R: Rules, E: Evaluate<Position<R>>>(
    cfg: &DatagenConfig,
    searcher: &mut Searcher,
    eval: &E,
    opening: GameHistory<R>,
    rng: &mut Rng,
) -> Vec<Record> {
    // Each game starts from an empty table: its moves depend on nothing else.
    searcher.clear();
    let mut game = opening;
    let (lo, hi) = cfg.random_plies;
    let plies = lo + rng.below((hi.saturating_sub(lo) + 1) as usize) as u32;
    random_plies(&mut game, rng, plies);

    let mut records = Vec::new();
    let mut streak = WinStreak::new(cfg.adjudicate, cfg.adjudicate_plies);
    let result: i8 = loop {
        if let Some(o) = game.outcome() {
            break match o {
                Outcome::Win(Colour::White) => 1,
                Outcome::Win(Colour::Black) => -1,
                Outcome::Draw(_) => 0,
            };
        }
        if game.moves().len() as u32 >= cfg.max_plies {
            break 0;
        }
        let pos = *game.position();
        let root = Root {
            position: pos,
            counters: game.counters(),
            history: game.reversible_hashes(),
        };
        // ±25% around the budget: the same position does not always get
        // the same search, which spreads the games.
        let jitter = cfg.nodes / 2;
        let nodes = (cfg.nodes - cfg.nodes / 4).saturating_add(if jitter > 0 {
            rng.below(jitter.saturating_add(1) as usize) as u64
        } else {
            0
        });
        searcher.prepare(Mode::Think);
        let out = searcher.search(
            &root,
            eval,
            &Params::think(Limits::nodes(nodes.max(1))),
            &|_| {},
        );
        let Some(best) = out.best else { break 0 };
        let white = if pos.side() == Colour::White { 1 } else { -1 };
        let score_white = white * out.score;
        if out.depth > 0 && pos.is_quiet() {
            let threatened = pos.is_threatened();
            if cfg.keep_threatened || !threatened {
                let mut r = Record::new(&pos, score_white, 0, game.moves().len() as u32);
                if threatened {
                    r.flags |= THREATENED;
                }
                if is_decisive(out.score) {
                    r.flags |= DECISIVE;
                }
                records.push(r);
            }
        }
        // A win found by the search ends the game.
        if out.score.abs() > WIN_BOUND {
            break if score_white > 0 { 1 } else { -1 };
        }
        if let Some(sign) = streak.observe(score_white) {
            break sign as i8;
        }
        game.play(best);
    };
    for r in &mut records {
        r.result = result;
    }
    records
}
