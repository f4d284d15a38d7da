//! The `tiao book ...` subcommands: `build`, `import`, `check`, `show`.
//! Arguments and printing only; the work is done by `tiao_knowledge::book`
//! (`build`, `import_pdn`, `Book`).

use crate::board::Variant;
use crate::book::BookSettings;
use crate::book::header_variant;
use crate::book::{Book, position_hash};
use crate::book::{BuildOptions, build};
use crate::book::{ImportOptions, import_pdn};
use crate::book::{builtin, default_path};
use crate::engine::{MoveReading, new_session};
use crate::notation::MoveFormat;
use crate::outln;
use crate::search::score::format_men;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Defaults of `tiao book build`, sized for the shipped books (docs/book.md).
pub const DEFAULT_DEPTH: u32 = 10;
pub const DEFAULT_POSITIONS: usize = 1000;
pub const DEFAULT_PLY_COST: i64 = 5;
pub const DEFAULT_MAX_DROP: i64 = 60;
pub const DEFAULT_MAX_PLY: u32 = 40;
pub const DEFAULT_MAX_MOVES: usize = 12;
pub const DEFAULT_BATCH: usize = 16;

#[derive(clap::Subcommand, Debug, Clone)]
pub enum BookCommand {
    /// Build a book from Tiao's own analysis (drop-out expansion from the
    /// start position). Resumable: run it again to continue or to grow the book.
    Build {
        /// Rule set: international, brazilian, russian, canadian.
        #[arg(long, default_value = "international")]
        variant: Variant,
        /// Book file [default: openings/book-VARIANT.txt].
        #[arg(long)]
        book: Option<PathBuf>,
        /// Stop when the book has this many positions.
        #[arg(long, default_value_t = DEFAULT_POSITIONS)]
        positions: usize,
        /// Search depth per position.
        #[arg(long, default_value_t = DEFAULT_DEPTH)]
        depth: u32,
        /// Worker threads (each runs one single-threaded search).
        #[arg(long, default_value_t = default_threads())]
        threads: usize,
        /// Transposition table per worker, in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Cost of one ply in the expansion order, in centi-men of drop.
        #[arg(long, default_value_t = DEFAULT_PLY_COST)]
        ply_cost: i64,
        /// Never expand a move more than this many centi-men worse than the best.
        #[arg(long, default_value_t = DEFAULT_MAX_DROP)]
        max_drop: i64,
        /// Never expand positions more than this many plies from the start.
        #[arg(long, default_value_t = DEFAULT_MAX_PLY)]
        max_ply: u32,
        /// Moves scored per position (multi-PV lines).
        #[arg(long, default_value_t = DEFAULT_MAX_MOVES)]
        max_moves: usize,
        /// Positions searched per round (the book depends on it, not on --threads).
        #[arg(long, default_value_t = DEFAULT_BATCH)]
        batch: usize,
        /// Save the book at least every this many seconds.
        #[arg(long, default_value_t = 60)]
        save_every: u64,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Add the moves of PDN game collections to a book (counts and results;
    /// `tiao book build` then scores the new moves).
    Import {
        /// PDN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rule set of the book; games of other variants are skipped.
        #[arg(long, default_value = "international")]
        variant: Variant,
        /// Book file [default: openings/book-VARIANT.txt].
        #[arg(long)]
        book: Option<PathBuf>,
        /// Only the first this many plies of each game.
        #[arg(long, default_value_t = 30)]
        max_ply: u32,
        /// Only moves played in at least this many games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
    },
    /// Check a book file: every line, every move; print its size.
    Check {
        /// Book file [default: openings/book-VARIANT.txt if present, else the built-in book].
        book: Option<PathBuf>,
        /// Rule set [default: the book's 'variant' line, else international].
        #[arg(long)]
        variant: Option<Variant>,
    },
    /// Show the book moves of a position.
    Show {
        /// Moves from the start position, in any notation ("32-28 19-23").
        #[arg(long, default_value = "")]
        moves: String,
        /// The position as FEN (instead of --moves).
        #[arg(long, conflicts_with = "moves")]
        fen: Option<String>,
        /// Book file [default: openings/book-VARIANT.txt if present, else the built-in book].
        #[arg(long)]
        book: Option<PathBuf>,
        /// Rule set [default: the book's 'variant' line, else international].
        #[arg(long)]
        variant: Option<Variant>,
    },
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run a `tiao book` subcommand.
pub fn run(cmd: &BookCommand) -> Result<(), String> {
    match cmd {
        BookCommand::Build {
            variant,
            book,
            positions,
            depth,
            threads,
            hash,
            ply_cost,
            max_drop,
            max_ply,
            max_moves,
            batch,
            save_every,
            quiet,
        } => {
            let opts = BuildOptions {
                variant: *variant,
                path: book.clone().unwrap_or_else(|| default_path(*variant)),
                positions: *positions,
                depth: *depth,
                threads: *threads,
                hash_mib: *hash,
                ply_cost: *ply_cost,
                max_drop: *max_drop,
                max_ply: *max_ply,
                max_moves: *max_moves,
                batch: *batch,
                save_every: Duration::from_secs(*save_every),
                progress: !quiet,
            };
            let r = build(&opts)?;
            outln!(
                "{}: {} positions ({} before; {} added, {} rescored); {} nodes; CPU time {}, \
                 wall time {:.1} s; stopped: {}",
                opts.path.display(),
                r.positions,
                r.positions_before,
                r.added,
                r.rescored,
                r.nodes,
                r.cpu_time.map_or_else(
                    || "unknown".to_string(),
                    |t| format!("{:.1} s", t.as_secs_f64())
                ),
                r.wall_time.as_secs_f64(),
                r.stopped
            );
            Ok(())
        }
        BookCommand::Import {
            files,
            variant,
            book,
            max_ply,
            min_games,
        } => {
            let opts = ImportOptions {
                variant: *variant,
                book: book.clone().unwrap_or_else(|| default_path(*variant)),
                files: files.clone(),
                max_ply: *max_ply,
                min_games: *min_games,
            };
            let r = import_pdn(&opts)?;
            for e in &r.examples {
                eprintln!("warning: {e}");
            }
            outln!(
                "{}: {} games read, {} used ({} cut short at an illegal move), {} skipped \
                 ({} unreadable, {} unplayable, {} of another variant); {} positions added, \
                 {} updated, {} moves added",
                opts.book.display(),
                r.games,
                r.used,
                r.truncated,
                r.skipped(),
                r.unreadable,
                r.unplayable,
                r.other_variant,
                r.positions_added,
                r.positions_updated,
                r.moves_added
            );
            Ok(())
        }
        BookCommand::Check { book, variant } => {
            let (book, path) = open(book.as_deref(), *variant)?;
            let distances = book.distances();
            let deepest = distances.values().max().copied().unwrap_or(0);
            let unscored: usize = book
                .entries()
                .iter()
                .map(|e| e.moves.iter().filter(|m| m.score.is_none()).count())
                .sum();
            outln!(
                "{}: {} book, {} positions, {} moves ({} unscored); {} positions reachable \
                 from the start, the deepest {} plies from it",
                path,
                book.variant(),
                book.len(),
                book.move_count(),
                unscored,
                distances.len(),
                deepest
            );
            let mut per_ply = vec![0usize; deepest as usize + 1];
            for &d in distances.values() {
                per_ply[d as usize] += 1;
            }
            let shown: Vec<String> = per_ply
                .iter()
                .enumerate()
                .map(|(ply, n)| format!("{ply}:{n}"))
                .collect();
            outln!("positions by ply from the start: {}", shown.join(" "));
            Ok(())
        }
        BookCommand::Show {
            moves,
            fen,
            book,
            variant,
        } => {
            let (book, _) = open(book.as_deref(), *variant)?;
            let mut session = new_session(book.variant());
            if let Some(fen) = fen {
                session.set_fen(fen)?;
            } else {
                let list: Vec<&str> = moves.split_whitespace().collect();
                session
                    .play_all(&list, MoveReading::Any)
                    .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
            }
            let hash = position_hash(book.variant(), &session.fen())?;
            let Some(entry) = book.entry(hash) else {
                outln!("{}: not in the book", session.fen());
                return Ok(());
            };
            outln!("{}", entry.fen);
            for m in &entry.moves {
                let score = m.score.map_or_else(|| "?".to_string(), format_men);
                let results = m
                    .results
                    .map(|r| format!("  games +{} ={} -{}", r.wins, r.draws, r.losses))
                    .unwrap_or_default();
                // Russian and Brazilian players read algebraic squares too.
                let pdn = session
                    .convert(&m.mv, MoveReading::Hub, MoveFormat::pdn_for(book.variant()))
                    .ok()
                    .filter(|p| *p != m.mv)
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default();
                outln!(
                    "  {:<20} {:>7}  weight {}{results}",
                    format!("{}{pdn}", m.mv),
                    score,
                    m.weight
                );
            }
            let legal = session.legal_moves(MoveFormat::Hub);
            let best = BookSettings {
                enabled: true,
                ply: 0,
                margin: 0,
                max_ply: 0,
            };
            if let Some(c) = book.probe(hash, 0, &legal, &best, 0) {
                outln!("{}", c.text());
            }
            Ok(())
        }
    }
}

/// Open a book for `check` and `show`: the named file; without one, the
/// variant's default file when it exists (the text a developer edits),
/// else the book built into the binary (so that the commands answer from
/// any directory, as play does). The variant comes from the flag, else
/// from the file's header, else international. Returns the book and the
/// name to show for it.
fn open(path: Option<&Path>, variant: Option<Variant>) -> Result<(Book, String), String> {
    let fallback = variant.unwrap_or(Variant::International);
    let path = match path {
        Some(p) => p.to_path_buf(),
        None => {
            let default = default_path(fallback);
            if !default.exists()
                && let Some(book) = builtin(fallback)
            {
                let book = book.map_err(|e| e.to_string())?;
                return Ok((book, format!("built-in {fallback} book")));
            }
            default
        }
    };
    let variant = match variant {
        Some(v) => v,
        None => std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| header_variant(&t))
            .unwrap_or(fallback),
    };
    let book = Book::load(&path, variant).map_err(|e| e.to_string())?;
    Ok((book, path.display().to_string()))
}
