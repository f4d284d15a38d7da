//! Command-line arguments of `tiao datagen`, `tiao train` and `tiao duel`,
//! their checks, and the runs they start.

use super::data;
use super::datagen::{self, DatagenConfig, Player};
use super::duel::{self, DuelConfig};
use super::model::Model;
use super::plot::{loss_picture, loss_svg};
use super::trainer::{self, TrainConfig};
use crate::board::Variant;
use crate::eval::pattern::{KING_SQUARES, PatternEval};
use crate::eval::pattern_dense;
use crate::eval::pattern_file::{PatternWeights, Phase};
use crate::eval::pattern_select::EvalChoice;
use crate::outln;
use crate::tools::match_runner::sprt::Sprt;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The number of cores, the default thread count.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse::<Variant>().map_err(|e| e.to_string())
}

/// Most plies a range of random or opening plies may ask for: games end
/// long before (and larger numbers would overflow the draw of a count).
const MAX_RANGE_PLIES: u32 = 1000;

/// `A-B` (or `A`) as an inclusive range of plies, at most [`MAX_RANGE_PLIES`].
fn parse_range(s: &str, what: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{what}: expected N or MIN-MAX (0 to {MAX_RANGE_PLIES}), got '{s}'");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s.trim(), s.trim()),
    };
    let a: u32 = a.parse().map_err(|_| bad())?;
    let b: u32 = b.parse().map_err(|_| bad())?;
    if a > b || b > MAX_RANGE_PLIES {
        return Err(bad());
    }
    Ok((a, b))
}

/// `I/N` with I < N.
fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--shard: expected I/N with 0 <= I < N, got '{s}'");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let i: u32 = i.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Arguments of `tiao datagen`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub action: Option<DatagenAction>,
    #[command(flatten)]
    pub generate: GenerateArgs,
}

/// `tiao datagen merge` and `tiao datagen info`.
#[derive(Subcommand, Debug)]
pub enum DatagenAction {
    /// Check data files and join them into one (same as `cat`, once checked).
    Merge {
        /// The merged file.
        #[arg(short, long)]
        out: PathBuf,
        /// The files to merge, in order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Check data files and print what they hold.
    Info {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Arguments of a data generation run.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Output file; `{shard}` is replaced by the shard index. An existing
    /// file made with the same settings is resumed.
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Variant: international, russian, brazilian.
    #[arg(long, default_value = "international")]
    pub variant: String,
    /// Games over all shards.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Search nodes per move (each move draws within ±25%).
    #[arg(long, default_value_t = 4000)]
    pub nodes: u64,
    /// This machine's part of the run: shard I of N (0-based), e.g.
    /// `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT`.
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Seed of the whole run (every game's seed derives from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Uniformly random plies played after the opening: MIN-MAX.
    #[arg(long, default_value = "2-6")]
    pub random_plies: String,
    /// Length of the random openings used without --openings: MIN-MAX plies.
    #[arg(long, default_value = "2-4")]
    pub opening_plies: String,
    /// Opening ballot file (docs/openings.md); default: random openings.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Evaluation that plays: v1 or pattern.
    #[arg(long, default_value = "v1")]
    pub eval: String,
    /// Pattern weights file for --eval pattern (default: the built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Also keep positions where the opponent threatens a capture.
    #[arg(long)]
    pub keep_threatened: bool,
    /// Game slots per chunk (the unit of resumption).
    #[arg(long, default_value_t = 64)]
    pub batch: u32,
    #[command(flatten)]
    pub play: SelfPlayArgs,
}

/// How `tiao datagen` and `tiao duel` play their games.
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Hash table per engine, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Plies after which a game is scored a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Adjudicate a win when the score stays beyond this many centi-men
    /// (0: never)...
    #[arg(long, default_value_t = 1200)]
    pub adjudicate: i32,
    /// ... for this many plies in a row.
    #[arg(long, default_value_t = 6)]
    pub adjudicate_plies: u32,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `tiao train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Data files (all of one variant).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weights file to write; the loss curve goes next to it (.loss.svg).
    #[arg(short, long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = TrainConfig::default().epochs)]
    pub epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = TrainConfig::default().batch)]
    pub batch: usize,
    /// Adam step size (centi-men), decaying linearly to a tenth.
    #[arg(long, default_value_t = TrainConfig::default().lr)]
    pub lr: f32,
    /// Weight of the search score in the target (0: game results only).
    #[arg(long, default_value_t = TrainConfig::default().lambda)]
    pub lambda: f32,
    /// L2 regularisation of the shared pattern tables.
    #[arg(long, default_value_t = TrainConfig::default().l2_shared)]
    pub l2_shared: f32,
    /// L2 regularisation of the region-specific pattern tables.
    #[arg(long, default_value_t = TrainConfig::default().l2_specific)]
    pub l2_specific: f32,
    /// L2 regularisation of the tall windows' tables.
    #[arg(long, default_value_t = TrainConfig::default().l2_tall)]
    pub l2_tall: f32,
    /// Adam step size of the tall windows' tables (their entries are rare:
    /// see docs/training.md), decaying as --lr.
    #[arg(long, default_value_t = TrainConfig::default().lr_tall)]
    pub lr_tall: f32,
    /// Lazy Adam: a table entry unseen in a batch is not moved by its
    /// momentum (see docs/training.md).
    #[arg(long)]
    pub lazy: bool,
    /// Keep a running average of the weights (about the last thousand
    /// steps) and validate and write it instead of the last step's weights.
    #[arg(long)]
    pub average: bool,
    /// Add tall windows (4 files by 5 rows, a table per band) to the
    /// evaluation; implied by --init weights that have them.
    #[arg(long)]
    pub tall: bool,
    /// Fraction of the games held out for validation.
    #[arg(long, default_value_t = TrainConfig::default().validation)]
    pub validation: f64,
    /// Stop after this many epochs without a better validation loss.
    #[arg(long, default_value_t = TrainConfig::default().patience)]
    pub patience: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Use this K (centi-men) instead of fitting it.
    #[arg(long)]
    pub k: Option<f32>,
    /// Start from these weights (default: v1's feature weights, empty tables).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Threads (default: the number of cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Train without these dense terms (man, king, tempo, runaway,
    /// king-mobility, side-to-move, has-king, king-denied, long-diagonal,
    /// balance) or the king-square table (king-squares): their weights stay
    /// zero, to measure what a term is worth.
    #[arg(long, num_args = 1..)]
    pub without: Vec<String>,
    /// What blends the middle-game and endgame weights: the pieces left, or
    /// the rows the men still have to go (Scan's count).
    #[arg(long, default_value = "pieces", value_parser = ["pieces", "advancement"])]
    pub phase: String,
}

/// Arguments of `tiao duel`.
#[derive(Args, Debug)]
pub struct DuelArgs {
    /// First evaluation: `v1`, `builtin` (the shipped pattern weights) or a
    /// pattern weights file.
    #[arg(long)]
    pub a: String,
    /// Second evaluation, as --a.
    #[arg(long, default_value = "v1")]
    pub b: String,
    #[arg(long, default_value = "international")]
    pub variant: String,
    /// Nodes per move (equal nodes); without it, --movetime.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per move (equal time).
    #[arg(long, default_value_t = 50)]
    pub movetime: u64,
    /// Opening ballot file; default: every opening of --opening-plies plies.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u32,
    /// Games (pairs of games with colours swapped); with --sprt, the most.
    #[arg(long, default_value_t = 400)]
    pub games: u32,
    /// Stop when an SPRT decides: ELO0 ELO1 [ALPHA [BETA]] (logistic Elo of A over B;
    /// no decision before 100 game pairs, as `tiao match`).
    #[arg(long, num_args = 2..=4, value_name = "ELO")]
    pub sprt: Option<Vec<f64>>,
    #[command(flatten)]
    pub play: SelfPlayArgs,
}

/// A pool of `threads` threads (default: the number of cores) to run `f` on.
fn on_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    let n = threads.unwrap_or_else(cores).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    Ok(pool.install(f))
}

/// Run `tiao datagen` (and its `merge` and `info`).
pub fn run_datagen(args: &DatagenArgs) -> Result<(), String> {
    match &args.action {
        Some(DatagenAction::Merge { out, inputs }) => {
            let (chunks, records) = data::merge(inputs, out)?;
            outln!("{}: {records} positions in {chunks} chunks", out.display());
            Ok(())
        }
        Some(DatagenAction::Info { files }) => {
            // Every file is reported, a damaged one too (what is whole in
            // it, and where the damage is); any damage or unreadable file
            // fails the command, once all are reported.
            let mut failed = Vec::new();
            for f in files {
                match info(f) {
                    Ok(report) => {
                        print!("{}", report.text);
                        if report.damaged {
                            failed.push(format!("{}: damaged", f.display()));
                        }
                    }
                    Err(e) => failed.push(e),
                }
            }
            if failed.is_empty() {
                Ok(())
            } else {
                Err(failed.join("; "))
            }
        }
        None => generate(&args.generate),
    }
}

/// What `tiao datagen info` says about a file.
pub struct Info {
    pub text: String,
    /// The file is damaged: the text describes its whole chunks, then the
    /// damage and what of the file can be kept.
    pub damaged: bool,
}

/// What a data file holds, as text: the whole chunks of a damaged file
/// are described as well, followed by the damage (whoever recovers the
/// file needs both).
pub fn info(path: &Path) -> Result<Info, String> {
    let scan = data::scan_file(path)?;
    if let Some(d) = scan.damage.as_ref().filter(|_| scan.read_error) {
        return Err(format!("{}: {d}", path.display()));
    }
    if scan.damage.is_none() && scan.data.chunks.is_empty() {
        return Err(format!("{}: no data", path.display()));
    }
    let mut text = if scan.data.chunks.is_empty() {
        format!("{}: no whole chunk\n", path.display())
    } else {
        summary(path, &scan.data)
    };
    let mut damaged = false;
    if let Some(d) = &scan.damage {
        // A run writing the file holds its lock, and its last chunk is in
        // flight: that is progress, not damage.
        if scan.torn.is_some() && being_written(path) {
            text += "  being written: a datagen run holds the file; its last chunk is in flight\n";
        } else {
            text += &format!("  damaged at {d}; {}\n", scan.whole_prefix(path));
            damaged = true;
        }
    }
    Ok(Info { text, damaged })
}

/// Whether a datagen run holds `path` (it locks its `--out` while it
/// writes).
fn being_written(path: &Path) -> bool {
    std::fs::File::open(path)
        .is_ok_and(|f| matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock)))
}

fn summary(path: &Path, d: &data::Dataset) -> String {
    let games: u64 = d.chunks.iter().map(|c| u64::from(c.games)).sum();
    let n = d.records.len().max(1) as f64;
    let (mut w, mut dr, mut l) = (0, 0, 0);
    for r in &d.records {
        match r.result {
            1 => w += 1,
            0 => dr += 1,
            _ => l += 1,
        }
    }
    let mean_ply = d.records.iter().map(|r| f64::from(r.ply)).sum::<f64>() / n;
    let shards: std::collections::BTreeSet<(u32, u32)> =
        d.chunks.iter().map(|c| (c.shard, c.shards)).collect();
    format!(
        "{}: {} positions, {games} games, {} chunks, variant {}, shards {:?}\n  results (White): {:.1}% wins, {:.1}% draws, {:.1}% losses; mean ply {mean_ply:.1}\n",
        path.display(),
        d.records.len(),
        d.chunks.len(),
        d.variant().map_or("?".into(), |v| v.to_string()),
        shards,
        100.0 * f64::from(w) / n,
        100.0 * f64::from(dr) / n,
        100.0 * f64::from(l) / n,
    )
}

fn generate(a: &GenerateArgs) -> Result<(), String> {
    let variant = parse_variant(&a.variant)?;
    let (shard, shards) = parse_shard(&a.shard)?;
    let out = a
        .out
        .as_ref()
        .ok_or("--out FILE is required")?
        .to_string_lossy()
        .replace("{shard}", &shard.to_string());
    let player = match (a.eval.as_str(), &a.weights) {
        ("v1", None) => Player::V1,
        ("v1", Some(_)) => return Err("--weights goes with --eval pattern".into()),
        ("pattern", None) => Player::Pattern(PatternEval::builtin(), "built-in".into()),
        ("pattern", Some(p)) => Player::Pattern(
            PatternEval::builtin().with(PatternWeights::load(p, Some(variant))?),
            p.display().to_string(),
        ),
        (e, _) => return Err(format!("--eval: expected v1 or pattern, got '{e}'")),
    };
    let cfg = DatagenConfig {
        variant,
        games: a.games,
        shard,
        shards,
        seed: a.seed,
        nodes: a.nodes.max(1),
        random_plies: parse_range(&a.random_plies, "--random-plies")?,
        opening_plies: parse_range(&a.opening_plies, "--opening-plies")?,
        openings: a.openings.clone(),
        player,
        threads: a.play.threads.unwrap_or_else(cores),
        hash_mib: a.play.hash.max(1),
        out: PathBuf::from(out),
        max_plies: a.play.max_plies,
        adjudicate: a.play.adjudicate,
        adjudicate_plies: a.play.adjudicate_plies.max(1),
        keep_threatened: a.keep_threatened,
        batch: a.batch,
        quiet: a.play.quiet,
    };
    let s = datagen::run(&cfg)?;
    eprintln!(
        "tiao datagen: {}: {} games played ({} were already done), {} positions written, {:.1} s",
        cfg.out.display(),
        s.games,
        s.resumed_games,
        s.positions,
        s.seconds
    );
    Ok(())
}

/// Run `tiao train`.
pub fn run_train(a: &TrainArgs) -> Result<(), String> {
    on_pool(a.threads, || train(a))?
}

fn train(a: &TrainArgs) -> Result<(), String> {
    let data = data::read_files(&a.data)?;
    let variant = data.variant().ok_or("no data")?;
    let phase = match a.phase.as_str() {
        "advancement" => Phase::Advancement,
        _ => Phase::Pieces,
    };
    let init = a
        .init
        .as_ref()
        .map(|p| PatternWeights::load(p, Some(variant)))
        .transpose()?;
    let mut model = Model::new(variant)?.with_phase(phase);
    if a.tall || init.as_ref().is_some_and(|w| !w.tall.is_empty()) {
        model = model.with_tall();
    }
    let no_king_squares = a.without.iter().any(|n| n == KING_SQUARES);
    let without = a
        .without
        .iter()
        .filter(|n| *n != KING_SQUARES)
        .map(|name| {
            pattern_dense::NAMES
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| {
                    format!(
                        "--without: no term {name:?}; the terms are {}, {KING_SQUARES}",
                        pattern_dense::NAMES.join(", ")
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (train_idx, val_idx) = trainer::split(&data, a.validation, a.seed);
    let pick = |idx: &[usize]| idx.iter().map(|&i| data.records[i]).collect::<Vec<_>>();
    let (mut train_set, bad_t) = model.samples(&pick(&train_idx));
    let (mut val_set, bad_v) = model.samples(&pick(&val_idx));
    train_set.without(&without);
    val_set.without(&without);
    if no_king_squares {
        train_set.without_king_squares();
        val_set.without_king_squares();
    }
    if bad_t + bad_v > 0 {
        eprintln!(
            "tiao train: skipped {} records that are not valid positions",
            bad_t + bad_v
        );
    }
    outln!(
        "{variant}: {} training and {} validation positions",
        train_set.len(),
        val_set.len()
    );
    if val_set.is_empty() {
        eprintln!(
            "tiao train: no game was held out for validation (--validation {} of the data's games): \
             the losses read NaN and the last epoch's weights are kept",
            a.validation
        );
    }
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        lambda: a.lambda,
        l2_shared: a.l2_shared,
        l2_specific: a.l2_specific,
        l2_tall: a.l2_tall,
        lr_tall: a.lr_tall,
        lazy: a.lazy,
        average: a.average,
        validation: a.validation,
        seed: a.seed,
        k: a.k,
        init,
        patience: a.patience.max(1),
        without,
        no_king_squares,
    };
    let t = trainer::train(&model, &train_set, &val_set, &cfg, &mut |l| outln!("{l}"))?;
    t.weights.save(&a.out)?;
    let svg = loss_picture(&a.out);
    let title = format!(
        "{variant}: {} positions, K {:.0}, best epoch {}",
        t.train_positions + t.validation_positions,
        t.k,
        t.best_epoch
    );
    std::fs::write(&svg, loss_svg(&t.history, &title))
        .map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    let best = t
        .history
        .iter()
        .find(|e| e.epoch == t.best_epoch)
        .map_or(f64::NAN, |e| e.validation);
    outln!(
        "wrote {} (best epoch {}, validation loss {best:.5}) and {}",
        a.out.display(),
        t.best_epoch,
        svg.display()
    );
    Ok(())
}

fn contender(spec: &str, variant: Variant) -> Result<EvalChoice, String> {
    Ok(match spec {
        "v1" => EvalChoice::V1(crate::eval::Evaluator::default()),
        "builtin" => EvalChoice::Pattern(PatternEval::builtin()),
        // A pattern weights file by its magic, otherwise v1 text weights
        // (to compare v1 weight sets, e.g. when tuning the king value).
        path if !is_pattern_file(Path::new(path)) => EvalChoice::V1(crate::eval::Evaluator::new(
            crate::eval::weights::Weights::load(Path::new(path))?,
        )),
        path => EvalChoice::Pattern(
            PatternEval::builtin().with(PatternWeights::load(Path::new(path), Some(variant))?),
        ),
    })
}

/// Whether a file starts like pattern weights (a missing file is not, and
/// its error comes from the loader).
fn is_pattern_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == *crate::eval::pattern_file::MAGIC)
}

/// Run `tiao duel`.
pub fn run_duel(a: &DuelArgs) -> Result<(), String> {
    let variant = parse_variant(&a.variant)?;
    // clap guarantees 2 to 4 values.
    let sprt = a
        .sprt
        .as_deref()
        .map(|v| {
            let mut s = Sprt::new(
                v.first().copied().unwrap_or(0.0),
                v.get(1).copied().unwrap_or(0.0),
            );
            // The risks keep Sprt::new's defaults unless given.
            if let Some(&alpha) = v.get(2) {
                s.alpha = alpha;
            }
            if let Some(&beta) = v.get(3) {
                s.beta = beta;
            }
            s.checked("--sprt")
        })
        .transpose()?;
    let cfg = DuelConfig {
        variant,
        a: contender(&a.a, variant)?,
        b: contender(&a.b, variant)?,
        nodes: a.nodes,
        movetime: Duration::from_millis(a.movetime.max(1)),
        openings: a.openings.clone(),
        opening_plies: a.opening_plies,
        games: a.games.max(2),
        sprt,
        threads: a.play.threads.unwrap_or_else(cores),
        hash_mib: a.play.hash.max(1),
        max_plies: a.play.max_plies,
        adjudicate: a.play.adjudicate,
        adjudicate_plies: a.play.adjudicate_plies.max(1),
        quiet: a.play.quiet,
    };
    let r = duel::run(&cfg)?;
    let t = &r.tally;
    let limit = match a.nodes {
        Some(n) => format!("{n} nodes/move"),
        None => format!("{} ms/move", a.movetime),
    };
    outln!(
        "{} vs {} ({variant}, {limit}, {} openings): {} games +{} ={} -{}, score {:.1}%, Elo {:+.1} ± {:.1} (95%)",
        a.a,
        a.b,
        r.openings,
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score().unwrap_or(0.5),
        r.elo,
        r.ci
    );
    if let (Some(llr), Some(v), Some(s)) = (r.llr, r.verdict, sprt) {
        let (lo, hi) = s.bounds();
        let verdict = v.describe();
        outln!(
            "SPRT elo0 {} elo1 {}: LLR {llr:.2} ({lo:.2}, {hi:.2}): {verdict}",
            s.elo0,
            s.elo1
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duel_contender_is_read_by_its_content() {
        let dir = std::env::temp_dir().join(format!("tiao-contender-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let v1 = dir.join("v1.txt");
        let shipped =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/knowledge/src/eval/weights-v1.txt");
        let text_weights = std::fs::read_to_string(shipped).expect("v1 weights");
        std::fs::write(
            &v1,
            text_weights.replace("king           300", "king           250"),
        )
        .expect("write");
        let garbage = dir.join("garbage.bin");
        std::fs::write(&garbage, b"TIAOPATW but truncated").expect("write");
        let text = |p: &Path| p.display().to_string();
        let v = Variant::International;
        assert!(matches!(contender("v1", v), Ok(EvalChoice::V1(_))));
        assert!(matches!(
            contender("builtin", v),
            Ok(EvalChoice::Pattern(_))
        ));
        let read = contender(&text(&v1), v);
        assert!(matches!(read, Ok(EvalChoice::V1(_))), "{:?}", read.err());
        assert!(
            contender(&text(&garbage), v).is_err(),
            "a damaged pattern file"
        );
        assert!(contender(&text(&dir.join("missing")), v).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
