//! How a Gewu game ends, in either form: who won and why ([`GewuOutcome`]).

use std::fmt;
use tiao_core::{Colour, GameResult};

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GewuWinReason {
    /// A piece of the winner entered the enemy's home.
    EnteredHome,
    /// The loser's closure chose a move that is not legal.
    IllegalMove,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GewuDrawReason {
    /// Neither side can move.
    Deadlock,
    /// `TURN_LIMIT` turns without a winner (throw form).
    TurnLimit,
}

/// The end of a Gewu game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GewuOutcome {
    Win {
        winner: Colour,
        reason: GewuWinReason,
    },
    Draw(GewuDrawReason),
}

impl GewuOutcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Colour> {
        self.result().winner()
    }

    /// Who won.
    pub fn result(&self) -> GameResult {
        match self {
            GewuOutcome::Win { winner, .. } => GameResult::Win(*winner),
            GewuOutcome::Draw(_) => GameResult::Draw,
        }
    }
}

impl fmt::Display for GewuOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GewuOutcome::Win { winner, reason } => {
                let why = match reason {
                    GewuWinReason::EnteredHome => "a piece reached the enemy's home",
                    GewuWinReason::IllegalMove => "the opponent chose an illegal move",
                };
                write!(f, "{} wins ({why})", winner.name())
            }
            GewuOutcome::Draw(GewuDrawReason::Deadlock) => {
                f.write_str("draw (neither side can move)")
            }
            GewuOutcome::Draw(GewuDrawReason::TurnLimit) => {
                write!(f, "draw ({} turns)", crate::TURN_LIMIT)
            }
        }
    }
}
