//! Zobrist keys: one random 64-bit key per (piece kind, bit index) and one
//! for the side to move, generated at compile time so every build and every
//! run hash positions identically (transposition tables, books and tests rely
//! on that).

use crate::rng::splitmix;

/// Piece kinds in key order.
pub const WHITE_MAN: usize = 0;
pub const BLACK_MAN: usize = 1;
pub const WHITE_KING: usize = 2;
pub const BLACK_KING: usize = 3;

/// Bits covered by the table: enough for every layout (12x12 uses 77).
pub const KEY_BITS: usize = 128;

/// A table of `K` x `N` keys drawn in order from SplitMix64 seeded with
/// `seed` (shared with the other games' key tables).
pub const fn key_table<const K: usize, const N: usize>(seed: u64) -> [[u64; N]; K] {
    let mut keys = [[0u64; N]; K];
    let mut state = seed;
    let mut kind = 0;
    while kind < K {
        let mut b = 0;
        while b < N {
            let (s, k) = splitmix(state);
            state = s;
            keys[kind][b] = k;
            b += 1;
        }
        kind += 1;
    }
    keys
}

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
