//! Halma moves and the move list.
//!
//! A move is identified by its start and end squares only. Steps and jumps
//! can never share a pair (a step changes a coordinate by one, every jump by
//! an even amount), and every jump path between the same two squares gives
//! the same position, so the path is a matter of notation, not of the move:
//! see `notation.rs` for how paths are written and read.

use arrayvec::ArrayVec;

/// One Halma move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HalmaMove {
    /// Start square (`rank * N + file`).
    pub from: u8,
    /// End square.
    pub to: u8,
    /// Whether the move is a chain of one or more jumps (else a step).
    pub jump: bool,
}

/// Room for every legal move of a Halma position. A piece has at most 8
/// steps and at most one jump per square of its own (file, rank) parity
/// class (16 on 8x8, 25 on 10x10, less its own square), so 10 pieces make at
/// most 230 moves on 8x8 and 15 pieces at most 480 on 10x10.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves on the stack.
pub type HalmaMoveList = ArrayVec<HalmaMove, MAX_MOVES>;
