//! The seed
//! derivation that makes data generation reproducible: every game's seed is
//! a function of the run's seed and the game's global number only, so the
//! same games come out whatever the sharding, the thread count or a resume.

pub use crate::rng::{Rng, mix};

/// The seed of game number `game` of a run seeded with `seed`.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    mix(seed ^ mix(game.wrapping_add(0x632B_E59B_D9B4_E019)))
}
