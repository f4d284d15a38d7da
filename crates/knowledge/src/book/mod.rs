//! The opening book: Tiao plays its first moves from a book that Tiao
//! builds itself (`tiao book build`, drop-out expansion over its own
//! searches) and that can take in the moves of real games
//! (`tiao book import`). See `docs/book.md` for the file format, the
//! options and the shipped books.
//!
//! - `format`: the text format, line by line (grammar in `docs/book.md`);
//! - `store`: the book in memory: load and check, probe by hash, save;
//! - `builtin`: the shipped books, compiled into the binary (`build.rs`);
//! - `choose`: which book move to play (`book`, `book-ply`, `book-margin`,
//!   `book-max-ply`);
//! - `tree`: minimax values and expansion priorities over the book's positions;
//! - `build`: the builder (parallel searches, resumable, progress bar);
//! - `import`: move counts and results from PDN game collections;
//! - `error`: errors with line numbers.
//!
//! The `tiao book ...` subcommands are the `tiao` package's `tools::book`.

mod build;
mod builtin;
mod choose;
mod error;
mod format;
mod import;
mod store;
mod tree;

pub use build::{BuildOptions, BuildReport, build};
pub use builtin::{builtin, has_builtin};
pub use choose::{BookChoice, BookSettings, choose};
pub use error::{BookError, LineError};
pub use format::{BookMove, MAGIC, Results, VERSION, header_variant};
pub use import::{ImportOptions, ImportReport, import_games, import_pdn};
pub use store::{Book, Entry, compact_fen, position_hash};

use std::path::PathBuf;
use tiao_draughts::board::Variant;

/// The book file of a variant, relative to the repository root:
/// `openings/book-international.txt`, where `tiao book build` writes by
/// default and from which `build.rs` compiles the shipped books in
/// ([`builtin`]). Play never looks for it: the engine plays the built-in
/// book unless the `book-file` option names another.
pub fn default_path(variant: Variant) -> PathBuf {
    PathBuf::from("openings").join(format!("book-{}.txt", variant.name()))
}
