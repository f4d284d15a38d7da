//! The opening book: Tiao plays its first moves from a book that Tiao
//! builds itself (`tiao book build`, drop-out expansion over its own
//! searches) and that can take in the moves of real games
//! (`tiao book import`). See `docs/book.md` for the file format, the
//! options and the shipped books.
//!
//! - `format`: the text format, line by line (grammar in `docs/book.md`);
//! - `store`: the book in memory: load and check, probe by hash, save;
//! - `choose`: which book move to play (`book`, `book-ply`, `book-margin`);
//! - `tree`: minimax values and expansion priorities over the book's positions;
//! - `build`: the builder (parallel searches, resumable, progress bar);
//! - `import`: move counts and results from PDN game collections;
//! - `error`: errors with line numbers.
//!
//! The `tiao book ...` subcommands are the `tiao` package's `tools::book`.

mod build;
mod choose;
mod error;
mod format;
mod import;
mod store;
mod tree;

pub use build::{BuildOptions, BuildReport, build};
pub use choose::{BookChoice, BookSettings, choose};
pub use error::{BookError, LineError};
pub use format::{BookMove, MAGIC, Results, VERSION, header_variant};
pub use import::{ImportOptions, ImportReport, import_games, import_pdn};
pub use store::{Book, Entry, compact_fen, position_hash};

use std::path::PathBuf;
use tiao_draughts::board::Variant;

/// The book file of a variant, relative to the repository (or install)
/// root: `openings/book-international.txt`.
pub fn default_path(variant: Variant) -> PathBuf {
    PathBuf::from("openings").join(format!("book-{}.txt", variant.name()))
}

/// Whether `openings/` ships a book for the variant (so that its absence
/// is worth a warning, not a quiet note).
pub fn ships_book(variant: Variant) -> bool {
    !matches!(variant, Variant::Canadian)
}

/// Where the default book of a variant may be: under the working
/// directory, then next to the executable and up to two folders above it
/// (`target/release/tiao` finds the repository's `openings/`), so an engine
/// started by a GUI from another directory still finds its book.
pub fn default_path_candidates(variant: Variant) -> Vec<PathBuf> {
    let relative = default_path(variant);
    let mut out = vec![relative.clone()];
    if let Ok(exe) = std::env::current_exe() {
        let mut dir = exe.parent().map(PathBuf::from);
        for _ in 0..3 {
            let Some(d) = dir else { break };
            out.push(d.join(&relative));
            dir = d.parent().map(PathBuf::from);
        }
    }
    out
}

/// Load the default book of a variant from the first place of
/// [`default_path_candidates`] that has the file; `Ok(None)` when none has
/// it (an engine copied away from its `openings/` plays without a book).
/// A file that exists but is invalid is an error (not skipped in favour of
/// another copy).
pub fn load_default(variant: Variant) -> Result<Option<(Book, PathBuf)>, BookError> {
    match find_default(variant) {
        Some(path) => Book::load(&path, variant).map(|b| Some((b, path))),
        None => Ok(None),
    }
}

/// The first place of [`default_path_candidates`] that has the variant's
/// book file, if any (what [`load_default`] reads).
pub fn find_default(variant: Variant) -> Option<PathBuf> {
    default_path_candidates(variant)
        .into_iter()
        .find(|p| p.is_file())
}
