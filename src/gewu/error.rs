//! Errors from reading Gewu text (cells, moves, throws, position strings).

use std::fmt;

/// What went wrong reading Gewu input; each message names the bad text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GewuError {
    /// Move text that is malformed, or a move not legal here.
    Move(String),
    /// An unknown throw.
    Throw(String),
    /// A position string that is malformed or describes an impossible position.
    Position(String),
}

impl fmt::Display for GewuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GewuError::Move(m) => write!(f, "bad move: {m}"),
            GewuError::Throw(m) => write!(f, "bad throw: {m}"),
            GewuError::Position(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for GewuError {}
