//! Zobrist keys for Halma: one random key per (colour, square) and one for
//! Black to move, generated at compile time so hashes are identical in
//! every build and run (tests and transposition tables rely on that).

use tiao_core::rng::key_table;
use tiao_core::rng::splitmix;

/// Squares covered: enough for 10x10.
pub const KEY_SQUARES: usize = 128;

/// Keys indexed by `[colour][square]`.
pub static PIECE: [[u64; KEY_SQUARES]; 2] = key_table(0x0068_616c_6d61); // "halma"

/// Key xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x4841_4c4d_4142).1;
