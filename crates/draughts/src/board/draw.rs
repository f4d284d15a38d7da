//! The draw rules (repetition, the no-progress rule, endgame move counts)
//! and how a game ends ([`Outcome`]).
//!
//! The counters are a small value, [`DrawCounters`], advanced move by move by
//! a pure function, so the search keeps them along its path exactly as a
//! game record does (`crate::record`); only repetition needs the list of
//! earlier hashes.

use super::moves::Move;
use super::piece::Colour;
use super::position::{Position, Word};
use super::variant::{EndgameKind, EndgameRule, Rules};
use std::fmt;
use tiao_core::GameResult;
use tiao_core::bits::BitWord;

/// Why a game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same position with the same side to move for the third time.
    Repetition,
    /// Too many moves without progress (international: king moves without
    /// capture; Russian: moves without capture).
    NoProgress,
    /// An endgame (e.g. three pieces against a lone king) not won in time.
    Endgame,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Repetition => "threefold repetition",
            DrawReason::NoProgress => "no-progress rule",
            DrawReason::Endgame => "endgame move limit",
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The winner; the loser has no legal move (no pieces, or all blocked).
    Win(Colour),
    Draw(DrawReason),
}

impl Outcome {
    /// Who won.
    pub fn result(self) -> GameResult {
        match self {
            Outcome::Win(c) => GameResult::Win(c),
            Outcome::Draw(_) => GameResult::Draw,
        }
    }
}

impl fmt::Display for Outcome {
    /// `white wins (black cannot move)`, `draw (threefold repetition)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c) => write!(f, "{} wins ({} cannot move)", c.name(), (!*c).name()),
            Outcome::Draw(reason) => write!(f, "draw ({reason})"),
        }
    }
}

/// Move counters for the draw rules, as of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawCounters {
    /// Plies since the last capture or man move: earlier positions cannot recur.
    pub reversible: u32,
    /// Plies counted by the no-progress rule.
    pub quiet: u32,
    /// Index+1 in `R::DRAWS.endgames` of the endgame rule that applies (0 = none).
    pub endgame: u8,
    /// Plies since that endgame material arose.
    pub endgame_plies: u32,
    /// Moves of the strong side since it arose.
    pub endgame_strong_moves: u32,
}

/// Which endgame rule (index into `R::DRAWS.endgames`) covers the material, and the strong side.
fn endgame_rule<R: Rules>(pos: &Position<R>) -> Option<(usize, Colour)> {
    let (wm, wk) = (
        pos.men(Colour::White).count(),
        pos.kings(Colour::White).count(),
    );
    let (bm, bk) = (
        pos.men(Colour::Black).count(),
        pos.kings(Colour::Black).count(),
    );
    let strong = if (bm, bk) == (0, 1) {
        (Colour::White, wm, wk)
    } else if (wm, wk) == (0, 1) {
        (Colour::Black, bm, bk)
    } else {
        return None;
    };
    let (side, men, kings) = strong;
    R::DRAWS
        .endgames
        .iter()
        .position(|rule| covers(rule, men, kings))
        .map(|i| (i, side))
}

/// Whether a rule covers a strong side of `men` men and `kings` kings against a lone king.
fn covers(rule: &EndgameRule, men: u32, kings: u32) -> bool {
    match rule.kind {
        EndgameKind::InternationalTwoAgainstKing => kings >= 1 && men + kings <= 2,
        EndgameKind::InternationalThreeAgainstKing => kings >= 1 && men + kings == 3,
        EndgameKind::RussianThreeKingsAgainstKing => kings == 3 && men == 0,
    }
}

impl DrawCounters {
    /// Counters of a position taken as the start of a game.
    pub fn initial<R: Rules>(pos: &Position<R>) -> Self {
        DrawCounters {
            endgame: endgame_rule(pos).map_or(0, |(i, _)| i as u8 + 1),
            ..DrawCounters::default()
        }
    }

    /// Counters after `mv`, played in `before` and giving `after`.
    #[inline]
    pub fn next<R: Rules>(
        &self,
        before: &Position<R>,
        mv: &Move<Word<R>>,
        after: &Position<R>,
    ) -> Self {
        let capture = mv.is_capture();
        let man_move = !before.all_kings().has(mv.from_bit());
        let reversible = if capture || man_move {
            0
        } else {
            self.reversible + 1
        };
        let quiet = if capture || (man_move && R::DRAWS.man_move_resets) {
            0
        } else {
            self.quiet + 1
        };
        let mut next = DrawCounters {
            reversible,
            quiet,
            ..DrawCounters::default()
        };
        // Every endgame rule is about at most three pieces against a lone king.
        if after.piece_count() <= 4
            && let Some((i, strong)) = endgame_rule(after)
        {
            let rule = i as u8 + 1;
            next.endgame = rule;
            if rule == self.endgame {
                next.endgame_plies = self.endgame_plies + 1;
                next.endgame_strong_moves =
                    self.endgame_strong_moves + u32::from(before.side() == strong);
            } else {
                next.endgame_plies = 0;
                next.endgame_strong_moves = 0;
            }
        }
        next
    }

    /// Plies left before an endgame move-count rule declares the game drawn,
    /// if such a rule is running (a win that needs more plies is a draw).
    pub fn endgame_plies_left<R: Rules>(&self) -> Option<u32> {
        if self.endgame == 0 {
            return None;
        }
        let rule = R::DRAWS.endgames[self.endgame as usize - 1];
        Some(match rule.kind {
            // Counted in moves of the strong side: two plies each.
            EndgameKind::RussianThreeKingsAgainstKing => {
                2 * rule.moves.saturating_sub(self.endgame_strong_moves)
            }
            _ => (2 * rule.moves).saturating_sub(self.endgame_plies),
        })
    }

    /// A draw by the no-progress or endgame rules (repetition is checked against the hashes).
    pub fn draw<R: Rules>(&self) -> Option<DrawReason> {
        if self.quiet >= R::DRAWS.quiet_plies {
            return Some(DrawReason::NoProgress);
        }
        if self.endgame != 0 {
            let rule = R::DRAWS.endgames[self.endgame as usize - 1];
            let done = match rule.kind {
                EndgameKind::RussianThreeKingsAgainstKing => {
                    self.endgame_strong_moves >= rule.moves
                }
                _ => self.endgame_plies >= 2 * rule.moves,
            };
            if done {
                return Some(DrawReason::Endgame);
            }
        }
        None
    }
}
