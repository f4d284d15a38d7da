//! Zobrist keys for Halma: one random key per (colour, square) and one for
//! Black to move, generated at compile time so hashes are identical in
//! every build and run (tests and transposition tables rely on that).

/// Squares covered: enough for 10x10.
pub const KEY_SQUARES: usize = 128;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> [[u64; KEY_SQUARES]; 2] {
    let mut keys = [[0u64; KEY_SQUARES]; 2];
    let mut state = 0x0068_616c_6d61_u64; // "halma"
    let mut colour = 0;
    while colour < 2 {
        let mut sq = 0;
        while sq < KEY_SQUARES {
            let (s, k) = splitmix(state);
            state = s;
            keys[colour][sq] = k;
            sq += 1;
        }
        colour += 1;
    }
    keys
}

/// Keys indexed by `[colour][square]`.
pub static PIECE: [[u64; KEY_SQUARES]; 2] = make_keys();

/// Key xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x4841_4c4d_4142).1;
