//! Pieces: a man or a king of a colour.

pub use tiao_core::Colour;

/// A man or a king of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub colour: Colour,
    pub king: bool,
}

impl Piece {
    pub const WHITE_MAN: Piece = Piece {
        colour: Colour::White,
        king: false,
    };
    pub const BLACK_MAN: Piece = Piece {
        colour: Colour::Black,
        king: false,
    };
    pub const WHITE_KING: Piece = Piece {
        colour: Colour::White,
        king: true,
    };
    pub const BLACK_KING: Piece = Piece {
        colour: Colour::Black,
        king: true,
    };

    /// Index into the Zobrist table (see `zobrist`).
    #[inline(always)]
    pub const fn key_index(self) -> usize {
        self.colour as usize + 2 * self.king as usize
    }

    /// The Hub letter: `w`/`b` for men, `W`/`B` for kings.
    pub fn hub_char(self) -> char {
        match (self.colour, self.king) {
            (Colour::White, false) => 'w',
            (Colour::Black, false) => 'b',
            (Colour::White, true) => 'W',
            (Colour::Black, true) => 'B',
        }
    }
}
