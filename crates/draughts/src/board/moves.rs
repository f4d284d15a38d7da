//! A draughts move: origin, destination, the set of captured squares and
//! whether the moving man is crowned. That is exactly the identity of a move
//! in the rules (two jump paths with the same four are the same move), so it
//! is all a move needs to carry; the jump path, which only notation needs, is
//! recovered from the position (`movegen::capture_paths`).

use tiao_core::bits::BitWord;

/// A move, in bit indices of the board layout (see `board::geometry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move<W> {
    /// Captured pieces, removed together when the move ends.
    pub captured: W,
    pub from: u8,
    pub to: u8,
    /// A man ends the move as a king.
    pub promotes: bool,
}

impl<W: BitWord> Move<W> {
    #[inline(always)]
    pub fn new(from: u32, to: u32, captured: W, promotes: bool) -> Self {
        Move {
            captured,
            from: from as u8,
            to: to as u8,
            promotes,
        }
    }

    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// Number of pieces captured.
    #[inline(always)]
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    #[inline(always)]
    pub fn from_bit(&self) -> u32 {
        u32::from(self.from)
    }

    #[inline(always)]
    pub fn to_bit(&self) -> u32 {
        u32::from(self.to)
    }
}
