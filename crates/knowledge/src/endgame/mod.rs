//! Endgame databases: generation, compressed storage and probing.
//!
//! Tiao computes its own win/loss/draw tables for every material
//! combination up to a number of pieces (`generate`), stores each slice of
//! material in a compressed, checksummed file (`format`, `codec`), and
//! probes them through a bounded block cache (`probe`, `cache`). The values
//! are game-theoretic: the only rule that ends a game inside the database is
//! "a player without a legal move loses"; repetition and the move-count draw
//! rules are the engine's business. See `docs/endgame.md`.
//!
//! Files, one concept each:
//! - `value`: win/loss/draw and distance-to-win values and their codes;
//! - `material`: slices of material, their order and file names;
//! - `index`: the combinatorial index of a slice (position <-> number);
//! - `symmetry`: colour-swap mirroring and a raw capture test;
//! - `crc`, `codec`, `format`: checksums, block encoding, the file layout;
//! - `cache`: the LRU block cache of the prober;
//! - `resolve`: values of capture and terminal positions by search;
//! - `memtable`: whole slices in memory while generating;
//! - `solve`: the retrograde solver of one group of positions;
//! - `generate`: the generation driver (order, resume, progress, report);
//! - `probe`: [`Egdb`], the engine's interface (typed by rule set), and
//!   [`VariantEgdb`] for holders that know the variant at run time;
//! - `tablebase`: the tables as the search's `Tablebase`;
//! - `error`: [`EgdbError`].
//!
//! The `tiao egdb ...` subcommands are the `tiao` package's `tools::egdb`.

mod cache;
mod codec;
mod crc;
mod error;
mod format;
pub mod generate;
pub mod index;
pub mod material;
mod memtable;
pub mod probe;
mod resolve;
mod solve;
mod symmetry;
mod tablebase;
pub mod value;

pub use error::EgdbError;
pub use generate::{GenOptions, GenReport, SliceReport, generate};
pub use material::Material;
pub use probe::{Checked, Egdb, EgdbRules, MoveValue, VariantEgdb};
pub use value::{Distance, Wdl};

/// Default directory of the tables, relative to the current directory.
pub const DEFAULT_DIR: &str = "egdb";
