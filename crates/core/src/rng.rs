//! SplitMix64, the pseudo-random generator of the workspace: compile-time
//! Zobrist keys, the book's random choice, data generation, the match
//! runner's opening shuffle and dice, benchmarks and test data. Fully
//! determined by its seed, so every run and build draws the same.
//! [`XorShift`] (xorshift64*) is the one other generator: the Halma and
//! Gewu random movers draw from it, because the rules tests' sample games
//! and thresholds are tied to its sequences.

/// The golden-ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of 64 bits.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step: the next state and the value drawn (usable in `const fn`).
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GAMMA);
    (s, mix(s))
}

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

/// SplitMix64 as a generator: fast, statistically good enough for picking
/// moves, shuffling and test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let (state, value) = splitmix(self.0);
        self.0 = state;
        value
    }

    /// Uniform in `0..n` (`n` > 0; the tiny bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// xorshift64*, the generator of the Halma and Gewu random movers (their
/// rules tests' sample games are tied to its sequences). Deterministic: the
/// same seed replays the same game.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub const fn new(seed: u64) -> XorShift {
        // A zero state would stay zero.
        XorShift(seed ^ GAMMA)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
