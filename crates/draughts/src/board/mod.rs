//! The board: geometry and bit layout, rule sets, pieces, moves, the
//! position, Zobrist keys and the draw rules.

mod diagram;
mod draw;
mod geometry;
mod moves;
mod piece;
mod position;
mod variant;
pub mod zobrist;

pub use diagram::diagram;
pub use draw::{DrawCounters, DrawReason, Outcome};
pub use geometry::{B8, B10, B12, Dir, Geometry};
pub use moves::Move;
pub use piece::{Colour, Piece};
pub use position::{Position, PositionError, Word};
pub use variant::{
    Brazilian, Canadian, DrawRules, EndgameKind, EndgameRule, International, Rules, Russian,
    SquareStyle, UnknownVariant, Variant,
};
