//! Zobrist keys: one random 64-bit key per (piece kind, bit index) and one
//! for the side to move, generated at compile time so every build and every
//! run hash positions identically (transposition tables, books and tests rely
//! on that).

use tiao_core::rng::{key_table, splitmix};

/// Piece kinds in key order.
pub const WHITE_MAN: usize = 0;
pub const BLACK_MAN: usize = 1;
pub const WHITE_KING: usize = 2;
pub const BLACK_KING: usize = 3;

/// Bits covered by the table: enough for every layout (12x12 uses 77).
pub const KEY_BITS: usize = 128;

/// Keys indexed by `[kind][bit]`.
pub static PIECE: [[u64; KEY_BITS]; 4] = key_table(0x7469_616f); // "tiao"

/// Key xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x5349_4445).1;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for kind in PIECE.iter() {
            for &k in kind.iter() {
                assert_ne!(k, 0);
                assert!(seen.insert(k));
            }
        }
        assert!(seen.insert(BLACK_TO_MOVE));
    }
}
