//! The bottom layer every game and every tool shares: bitboard words, the
//! two colours, who won (`GameResult`), the [`game::Game`] trait the search is generic over, the
//! random generator, and the two guards on input from outside (regular
//! files only, printable echoes). It knows no game's rules.

pub mod bits;
mod colour;
pub mod files;
pub mod game;
pub mod printable;
pub mod result;
pub mod rng;

pub use colour::Colour;
pub use result::GameResult;
