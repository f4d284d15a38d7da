//! `tiao book build`: Tiao writes its own book by drop-out expansion.
//!
//! Each round takes the cheapest positions outside the book (see `tree`),
//! searches them to a fixed depth on every worker thread at once, scoring
//! each move with multi-PV, adds them to the book and backs the values up
//! to the start. The book is saved every so often and at the end, so a
//! build can be stopped at any time and resumed by running it again: the
//! file is the whole state.
//!
//! Each search starts from a cleared table and runs on one thread, and the
//! positions of a round depend only on the book, so a build gives the same
//! book whatever the number of threads, and a resumed build the same as an
//! uninterrupted one.
//!
//! The workers are plain scoped threads, each owning a one-thread
//! [`Searcher`], rather than a rayon `par_iter`: a search runs inside its
//! searcher's own rayon pool, and a rayon worker that waits on another pool
//! runs queued jobs of its own meanwhile, which could nest a second search
//! on the same thread (and the same searcher).

use super::format::BookMove;
use super::store::{Book, Entry, compact_fen};
use super::tree::{Priorities, Tree, legal_moves};
use crate::eval::Evaluator;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tiao_draughts::board::{Position, Rules, Variant};
use tiao_draughts::notation::{read_fen, write_hub_move};
use tiao_draughts::with_rules;
use tiao_search::{Info, Limits, Mode, Params, Root, Searcher};

/// Settings of a build (the CLI's defaults are in `cli`).
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub variant: Variant,
    /// The book file: read first if it exists, then rewritten.
    pub path: PathBuf,
    /// Stop when the book has this many positions.
    pub positions: usize,
    /// Search depth per position.
    pub depth: u32,
    /// Worker threads (one search each).
    pub threads: usize,
    /// Transposition table per worker, MiB.
    pub hash_mib: usize,
    /// Drop-out expansion: the cost of a ply, in centi-men of drop.
    pub ply_cost: i64,
    /// Moves more than this many centi-men worse than the best are not expanded.
    pub max_drop: i64,
    /// Positions deeper than this many plies are not expanded.
    pub max_ply: u32,
    /// Moves scored (multi-PV lines) per new position.
    pub max_moves: usize,
    /// Positions searched per round (the book grows by this many between
    /// two back-ups of the values). Part of what the book depends on.
    pub batch: usize,
    /// Save at least this often.
    pub save_every: Duration,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Positions in the book at the start and at the end.
    pub positions_before: usize,
    pub positions: usize,
    /// Positions searched to add them.
    pub added: usize,
    /// Book positions searched again because some of their moves had no score.
    pub rescored: usize,
    pub nodes: u64,
    /// Sum of the searches' durations (each on one thread; more than their
    /// CPU time when other programs compete for the processors).
    pub search_time: Duration,
    pub wall_time: Duration,
    /// CPU time of the whole process (Linux; `None` elsewhere).
    pub cpu_time: Option<Duration>,
    /// Why the build stopped.
    pub stopped: String,
}

/// Build (or continue building) the book of `opts.variant` at `opts.path`.
pub fn build(opts: &BuildOptions) -> Result<BuildReport, String> {
    with_rules!(opts.variant, R => build_typed::<R>(opts))
}

/// A searched position: its moves in Hub form with their scores.
struct Analysis {
    lines: Vec<(String, i32)>,
    nodes: u64,
    time: Duration,
}

fn build_typed<R: Rules>(opts: &BuildOptions) -> Result<BuildReport, String> {
    let wall = Instant::now();
    let cpu_start = process_cpu_time();
    let mut book = if opts.path.exists() {
        Book::load(&opts.path, R::VARIANT)
            .map_err(|e| format!("{e}\n(the build resumes from this file; fix or remove it)"))?
    } else {
        Book::new(R::VARIANT)
    };
    let mut report = BuildReport {
        positions_before: book.len(),
        ..BuildReport::default()
    };
    let mut tree = Tree::<R>::new(&book);
    let mut workers = (0..opts.threads.max(1))
        .map(|_| Searcher::new(1, opts.hash_mib.max(1)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let eval = Evaluator::default();
    let priorities = Priorities {
        ply_cost: opts.ply_cost.max(1),
        max_drop: opts.max_drop.max(0),
        max_ply: opts.max_ply,
    };
    let bar = progress_bar(opts, book.len());
    let comments = header_comments(opts);
    let mut last_save = Instant::now();

    // First, positions with unscored moves (from `tiao book import`) are
    // searched, every legal move scored, so that the expansion can use them.
    let mut rescore: Vec<Position<R>> = book
        .entries()
        .iter()
        .filter(|e| e.has_unscored())
        .filter_map(|e| read_fen::<R>(&e.fen).ok())
        .collect();
    rescore.sort_by_key(|p| p.hash());
    if !rescore.is_empty() {
        bar.set_message(format!("scoring {} imported positions", rescore.len()));
    }
    for chunk in rescore.chunks(opts.batch.max(1)) {
        let results = search_all(&mut workers, &eval, chunk, opts.depth, usize::MAX, None);
        for (pos, a) in chunk.iter().zip(results) {
            merge(&mut book, pos, a.lines);
            tree.update(&book, pos.hash());
            report.rescored += 1;
            report.nodes += a.nodes;
            report.search_time += a.time;
        }
        if last_save.elapsed() >= opts.save_every {
            save(&book, &tree, opts, &comments)?;
            last_save = Instant::now();
        }
    }

    // Rescored entries may sit inside what were runs of forced moves.
    if report.rescored > 0 {
        tree = Tree::<R>::new(&book);
    }
    report.stopped = loop {
        if book.len() >= opts.positions {
            break format!("the book has {} positions", book.len());
        }
        let values = tree.values(&book);
        let candidates = tree.candidates(&book, &values, &priorities);
        if candidates.is_empty() {
            break "no position is left to expand within the limits".to_string();
        }
        let take = opts
            .batch
            .max(1)
            .min(opts.positions - book.len())
            .min(candidates.len());
        let jobs: Vec<Position<R>> = candidates[..take].iter().map(|c| c.position).collect();
        let deepest = candidates[..take].iter().map(|c| c.ply).max().unwrap_or(0);
        bar.set_message(format!("ply {deepest}, cost {}", candidates[0].cost));
        let results = search_all(
            &mut workers,
            &eval,
            &jobs,
            opts.depth,
            opts.max_moves.max(1),
            Some(&bar),
        );
        for (pos, a) in jobs.iter().zip(results) {
            merge(&mut book, pos, a.lines);
            tree.update(&book, pos.hash());
            report.added += 1;
            report.nodes += a.nodes;
            report.search_time += a.time;
        }
        if last_save.elapsed() >= opts.save_every {
            save(&book, &tree, opts, &comments)?;
            last_save = Instant::now();
        }
    };
    save(&book, &tree, opts, &comments)?;
    bar.finish_and_clear();
    report.positions = book.len();
    report.wall_time = wall.elapsed();
    report.cpu_time = process_cpu_time()
        .zip(cpu_start)
        .map(|(end, start)| end.saturating_sub(start));
    Ok(report)
}

/// User plus system CPU time of this process so far, from `/proc/self/stat`
/// (Linux; `None` elsewhere). The kernel reports it in ticks of 1/100 s.
fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold blanks: count fields after its ')'.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the line are the 12th and 13th after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

fn progress_bar(opts: &BuildOptions, start: usize) -> ProgressBar {
    if !opts.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(opts.positions as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} positions ({per_sec}, eta {eta}) {msg}",
    ) {
        bar.set_style(style);
    }
    bar.set_position(start as u64);
    bar
}

/// The comment lines at the top of a built book.
fn header_comments(opts: &BuildOptions) -> Vec<String> {
    vec![
        format!(
            "Tiao opening book for {} draughts (format: docs/book.md).",
            opts.variant.name()
        ),
        "Built by Tiao's own analysis: tiao book build (drop-out expansion).".to_string(),
        format!(
            "Last build: depth {}, max-moves {}, ply-cost {}, max-drop {}, max-ply {}, batch {}.",
            opts.depth, opts.max_moves, opts.ply_cost, opts.max_drop, opts.max_ply, opts.batch
        ),
        "Scores: centi-men for the side to move, backed up through the book.".to_string(),
    ]
}

/// Save the book with every move's score replaced by its backed-up value.
fn save<R: Rules>(
    book: &Book,
    tree: &Tree<R>,
    opts: &BuildOptions,
    comments: &[String],
) -> Result<(), String> {
    let values = tree.values(book);
    let mut out = book.clone();
    for e in book.entries() {
        let scores = tree.move_values(book, e.hash, &values);
        if let Some(entry) = out.entry_mut(e.hash) {
            for (m, s) in entry.moves.iter_mut().zip(scores) {
                if s.is_some() {
                    m.score = s;
                }
            }
        }
    }
    out.save(&opts.path, comments).map_err(|e| e.to_string())
}

/// Put a searched position into the book. Moves already there keep their
/// weight and results (from an import) and take the new score.
fn merge<R: Rules>(book: &mut Book, pos: &Position<R>, lines: Vec<(String, i32)>) {
    let old = book.entry(pos.hash()).cloned();
    let mut moves: Vec<BookMove> = lines
        .into_iter()
        .map(|(mv, score)| {
            let before = old
                .as_ref()
                .and_then(|e| e.moves.iter().find(|m| m.mv == mv));
            BookMove {
                score: Some(score),
                weight: before.map_or(1, |m| m.weight),
                results: before.and_then(|m| m.results),
                mv,
            }
        })
        .collect();
    // Moves of the old entry that were not searched stay as they were.
    if let Some(old) = old {
        for m in old.moves {
            if !moves.iter().any(|n| n.mv == m.mv) {
                moves.push(m);
            }
        }
    }
    let mut entry = Entry {
        hash: pos.hash(),
        fen: compact_fen(pos),
        moves,
    };
    entry.sort_moves();
    book.insert(entry);
}

/// Search every position, spread over the workers; results in job order.
fn search_all<R: Rules>(
    workers: &mut [Searcher],
    eval: &Evaluator,
    jobs: &[Position<R>],
    depth: u32,
    max_moves: usize,
    bar: Option<&ProgressBar>,
) -> Vec<Analysis> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Analysis>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for searcher in workers.iter_mut() {
            let (next, results) = (&next, &results);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pos) = jobs.get(i) else { break };
                    let a = analyse(searcher, eval, pos, depth, max_moves);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(a);
                    }
                    if let Some(bar) = bar {
                        bar.inc(1);
                    }
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| {
            m.into_inner().ok().flatten().unwrap_or(Analysis {
                lines: Vec::new(),
                nodes: 0,
                time: Duration::ZERO,
            })
        })
        .collect()
}

/// Score the moves of `pos` (the best `max_moves` of them) with a multi-PV
/// search to `depth`, from a cleared table so the result does not depend on
/// what the worker searched before.
fn analyse<R: Rules>(
    searcher: &mut Searcher,
    eval: &Evaluator,
    pos: &Position<R>,
    depth: u32,
    max_moves: usize,
) -> Analysis {
    let legal = legal_moves(pos);
    let lines = legal.len().min(max_moves);
    if lines == 0 {
        return Analysis {
            lines: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
        };
    }
    searcher.clear();
    // Analysis mode: a single legal move is searched too (it needs a score),
    // and a found win does not cut the iterations short.
    searcher.prepare(Mode::Analyze);
    let params = Params {
        limits: Limits::depth(depth.max(1)),
        mode: Mode::Analyze,
        multipv: lines,
    };
    // Per line, the deepest report: (depth, move, score).
    let found: Mutex<Vec<Option<(u32, String, i32)>>> = Mutex::new(vec![None; lines]);
    let report = |info: &Info<tiao_draughts::board::Move<tiao_draughts::board::Word<R>>>| {
        let (Some(first), Ok(mut found)) = (info.pv.first(), found.lock()) else {
            return;
        };
        if let Some(slot) = found.get_mut(info.multipv.saturating_sub(1)) {
            *slot = Some((info.depth, write_hub_move::<R>(first), info.score));
        }
    };
    let out = searcher.search(&Root::new(*pos), eval, &params, &report);
    let found = found.into_inner().unwrap_or_default();
    let mut seen: Vec<String> = Vec::new();
    let mut scored = Vec::with_capacity(lines);
    for (_, mv, score) in found.into_iter().flatten() {
        // Lines are distinct root moves; the check only guards against surprises.
        if !seen.contains(&mv) {
            seen.push(mv.clone());
            scored.push((mv, score));
        }
    }
    Analysis {
        lines: scored,
        nodes: out.nodes,
        time: out.time,
    }
}
