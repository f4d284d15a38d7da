//! SplitMix64, the pseudo-random generator of the crate: compile-time
//! Zobrist keys, the book's random choice, data generation, the match
//! runner's opening shuffle, benchmarks and test data. Fully determined by
//! its seed, so every run and build draws the same. (The Halma and Gewu
//! random movers keep their xorshift64*: the rules tests' sample games and
//! thresholds are tied to their sequences.)

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
