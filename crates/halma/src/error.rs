//! Errors from reading Halma text (squares, moves, position strings) and
//! from building positions. Every message names the offending text.

use std::fmt;

/// What went wrong reading or setting up Halma input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HalmaError {
    /// A square name that is malformed or off the board.
    Square(String),
    /// Move text that cannot be read as a move (no squares joined by `-`,
    /// a square off the board).
    MalformedMove(String),
    /// A well-formed move that is not legal in the position.
    IllegalMove(String),
    /// A position string that is malformed, or a position the rules forbid.
    Position(String),
}

impl fmt::Display for HalmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HalmaError::Square(m) => write!(f, "bad square: {m}"),
            HalmaError::MalformedMove(m) => write!(f, "bad move: {m}"),
            HalmaError::IllegalMove(m) => write!(f, "illegal move: {m}"),
            HalmaError::Position(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for HalmaError {}
