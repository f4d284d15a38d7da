//! The two sides: one definition for every game (draughts, Halma, Gewu).

use std::ops::Not;

/// A side. White moves first and plays up the board (towards square 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Colour {
    #[default]
    White = 0,
    Black = 1,
}

impl Colour {
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W` or `B`, as in FEN and Hub positions.
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'W',
            Colour::Black => 'B',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

impl Not for Colour {
    type Output = Colour;
    #[inline(always)]
    fn not(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}
