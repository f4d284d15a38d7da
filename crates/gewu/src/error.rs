//! Errors from reading Gewu text (cells, moves, throws, position strings).

use std::fmt;

/// What went wrong reading Gewu input; each message names the bad text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GewuError {
    /// Move text that cannot be read as a move (not `from-to` cells or
    /// `pass`, a cell off the track).
    MalformedMove(String),
    /// A well-formed move that is not legal here.
    IllegalMove(String),
    /// An unknown throw.
    Throw(String),
    /// A position string that is malformed or describes an impossible position.
    Position(String),
}

impl fmt::Display for GewuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GewuError::MalformedMove(m) => write!(f, "bad move: {m}"),
            GewuError::IllegalMove(m) => write!(f, "illegal move: {m}"),
            GewuError::Throw(m) => write!(f, "bad throw: {m}"),
            GewuError::Position(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for GewuError {}
