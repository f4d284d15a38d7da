//! The Halma rules that depend on more than the board: the move counters,
//! the yard rule, the win, Tiao's move limit and repetition
//! (`docs/halma.md` states them; this file is their only implementation).

use super::board::HalmaBoard;
use super::moves::HalmaMoveList;
use super::position::HalmaPosition;
use std::fmt;
use tiao_core::{Colour, GameResult};

/// History-dependent rule state: how many moves each side has made, and how
/// far back a repetition can reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HalmaCounters {
    /// Moves made so far, indexed by colour (White 0, Black 1).
    pub moves: [u16; 2],
    /// Plies since both sides passed the yard-rule limit (0 before): only
    /// positions within that span count for repetition, because before it
    /// the number of moves left before the yard deadline differs every time.
    pub reversible: u16,
}

impl HalmaCounters {
    /// Counters at the start of a game: no moves made.
    pub const START: HalmaCounters = HalmaCounters {
        moves: [0, 0],
        reversible: 0,
    };

    /// Counters after the side to move of `before` has made one more move.
    #[inline]
    pub fn next<B: HalmaBoard>(&self, before: &HalmaPosition<B>) -> Self {
        let mut moves = self.moves;
        let s = before.side().index();
        moves[s] = moves[s].saturating_add(1);
        let past_limit = moves.iter().all(|&m| m >= B::YARD_LIMIT);
        HalmaCounters {
            moves,
            reversible: if past_limit {
                self.reversible.saturating_add(1)
            } else {
                0
            },
        }
    }

    /// Moves made by `c`.
    #[inline(always)]
    pub fn of(&self, c: Colour) -> u16 {
        self.moves[c.index()]
    }
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// All the winner's pieces stand in the opponent's yard.
    AllInTarget,
    /// The loser had a piece in his own yard after his move-limit move
    /// (30 on 8x8, 50 on 10x10) or later.
    YardRule,
    /// The loser, to move, had no legal move.
    NoMove,
    /// The loser's player (a closure in [`super::play_game`]) chose a move
    /// that is not legal.
    IllegalMove,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// The same position, same side to move, for the third time (counted
    /// only once both sides are past the yard-rule limit).
    Repetition,
    /// Both sides made `B::MOVE_CAP` moves without a winner.
    MoveLimit,
}

/// The end of a Halma game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalmaOutcome {
    Win { winner: Colour, reason: WinReason },
    Draw(DrawReason),
}

impl HalmaOutcome {
    /// Who won.
    pub fn result(&self) -> GameResult {
        match self {
            HalmaOutcome::Win { winner, .. } => GameResult::Win(*winner),
            HalmaOutcome::Draw(_) => GameResult::Draw,
        }
    }
}

impl fmt::Display for HalmaOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HalmaOutcome::Win { winner, reason } => {
                let why = match reason {
                    WinReason::AllInTarget => "all pieces in the opponent's yard",
                    WinReason::YardRule => "the opponent broke the yard rule",
                    WinReason::NoMove => "the opponent has no legal move",
                    WinReason::IllegalMove => "the opponent chose an illegal move",
                };
                write!(f, "{} wins ({why})", winner.name())
            }
            HalmaOutcome::Draw(DrawReason::Repetition) => {
                f.write_str("draw (threefold repetition)")
            }
            HalmaOutcome::Draw(DrawReason::MoveLimit) => f.write_str("draw (move limit)"),
        }
    }
}

/// Whether `c` breaks the yard rule: `c` has made at least the limit number
/// of moves and a piece of his stands in his own yard. Checked after each
/// of `c`'s moves, this covers both halves of the rule: still in the yard
/// after the limit move, and moving back in later. Only where a move ends
/// counts: a jump chain may pass through the own yard.
#[inline]
pub fn breaks_yard_rule<B: HalmaBoard>(
    pos: &HalmaPosition<B>,
    counters: &HalmaCounters,
    c: Colour,
) -> bool {
    counters.of(c) >= B::YARD_LIMIT && pos.in_own_yard(c) > 0
}

/// The result the rules give from the board and the counters alone (the
/// win, the yard rule, the move limit), or `None`. The player who just moved
/// is judged first; the side to move can only have won or lost already in a
/// composed position.
pub fn rules_outcome<B: HalmaBoard>(
    pos: &HalmaPosition<B>,
    counters: &HalmaCounters,
) -> Option<HalmaOutcome> {
    let to_move = pos.side();
    for c in [!to_move, to_move] {
        if pos.has_won(c) {
            return Some(HalmaOutcome::Win {
                winner: c,
                reason: WinReason::AllInTarget,
            });
        }
        if breaks_yard_rule(pos, counters, c) {
            return Some(HalmaOutcome::Win {
                winner: !c,
                reason: WinReason::YardRule,
            });
        }
    }
    if counters.moves.iter().all(|&m| m >= B::MOVE_CAP) {
        return Some(HalmaOutcome::Draw(DrawReason::MoveLimit));
    }
    None
}

/// Whether the current position (hash `hash`) occurred twice before within
/// repetition reach; `history` holds the hashes of the earlier positions of
/// the game, oldest first, the current one excluded.
pub fn is_threefold(hash: u64, counters: &HalmaCounters, history: &[u64]) -> bool {
    let reach = usize::from(counters.reversible).min(history.len());
    history[history.len() - reach..]
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&h| h == hash)
        .count()
        >= 2
}

/// The full result of a game position: the rules, then threefold
/// repetition, then a side to move without a legal move (which loses).
pub fn outcome<B: HalmaBoard>(
    pos: &HalmaPosition<B>,
    counters: &HalmaCounters,
    history: &[u64],
) -> Option<HalmaOutcome> {
    if let Some(o) = rules_outcome(pos, counters) {
        return Some(o);
    }
    if is_threefold(pos.hash(), counters, history) {
        return Some(HalmaOutcome::Draw(DrawReason::Repetition));
    }
    let mut list = HalmaMoveList::new();
    pos.generate(&mut list);
    if list.is_empty() {
        return Some(HalmaOutcome::Win {
            winner: !pos.side(),
            reason: WinReason::NoMove,
        });
    }
    None
}
