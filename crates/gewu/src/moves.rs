//! Gewu moves: a piece's start and end cell, or a pass (in the throw form
//! also a lost turn). A piece's path along the line is forced, so the two
//! cells say everything; in the free form the end cell is one step or one
//! jump ahead.

use arrayvec::ArrayVec;

/// One Gewu move. Cells are 0-based bit indices (cell 1 is index 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GewuMove {
    pub from: u8,
    pub to: u8,
}

impl GewuMove {
    /// No piece moves: a pass (free form) or a lost turn (throw form).
    pub const PASS: GewuMove = GewuMove {
        from: u8::MAX,
        to: u8::MAX,
    };

    #[inline(always)]
    pub fn is_pass(&self) -> bool {
        self.from == u8::MAX
    }

    /// Whether the piece travels more than one cell (a jump in the free
    /// form; in the throw form, more than one unit or a jump).
    #[inline(always)]
    pub fn is_jump(&self) -> bool {
        !self.is_pass() && self.from.abs_diff(self.to) > 1
    }
}

impl Default for GewuMove {
    fn default() -> Self {
        GewuMove::PASS
    }
}

/// Room for every move: one per piece (at most five), or the pass.
pub type GewuMoveList = ArrayVec<GewuMove, 8>;
