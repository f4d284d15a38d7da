//! A small deterministic random number generator (SplitMix64) and the seed
//! derivation that makes data generation reproducible: every game's seed is
//! a function of the run's seed and the game's global number only, so the
//! same games come out whatever the sharding, the thread count or a resume.

/// SplitMix64: fast, statistically good enough for picking moves and
/// shuffling, and fully determined by its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (`n` > 0; the tiny modulo bias does not matter here).
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

/// The SplitMix64 output function: a bijective mix of 64 bits.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game number `game` of a run seeded with `seed`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    mix(seed ^ mix(game.wrapping_add(0x632B_E59B_D9B4_E019)))
}
