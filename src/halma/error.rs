//! Errors from reading Halma text (squares, moves, position strings) and
//! from building positions. Every message names the offending text.

use std::fmt;

/// What went wrong reading or setting up Halma input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HalmaError {
    /// A square name that is malformed or off the board.
    Square(String),
    /// Move text that is malformed, or a move that is not legal here.
    Move(String),
    /// A position string that is malformed, or a position the rules forbid.
    Position(String),
}

impl fmt::Display for HalmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HalmaError::Square(m) => write!(f, "bad square: {m}"),
            HalmaError::Move(m) => write!(f, "bad move: {m}"),
            HalmaError::Position(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for HalmaError {}
