//! Zobrist keys: one random 64-bit key per (piece kind, bit index) and one
//! for the side to move, generated at compile time so every build and every
//! run hash positions identically (transposition tables, books and tests rely
//! on that).

/// Piece kinds in key order.
pub const WHITE_MAN: usize = 0;
pub const BLACK_MAN: usize = 1;
pub const WHITE_KING: usize = 2;
pub const BLACK_KING: usize = 3;

/// Bits covered by the table: enough for every layout (12x12 uses 77).
pub const KEY_BITS: usize = 128;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; KEY_BITS]; 4] {
    let mut keys = [[0u64; KEY_BITS]; 4];
    let mut state = 0x7469_616f_u64; // "tiao"
    let mut kind = 0;
    while kind < 4 {
        let mut b = 0;
        while b < KEY_BITS {
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
pub static PIECE: [[u64; KEY_BITS]; 4] = make_keys();

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
