//! Scores: centi-men from the side to move's point of view, with exact
//! win/loss scores that carry the distance to the end of the game, so the
//! search prefers the fastest win and the slowest loss.
//!
//! Layout of the range (as shown in protocols, divided by 100):
//! `±99.xx` a game end found by search, `±89.xx` an endgame-database result,
//! everything else an evaluation.

use tiao_core::game::Verdict;

pub type Score = i32;

pub const DRAW: Score = 0;
/// A win at the root (ply 0); a win found `n` plies deep scores `WIN - n`.
pub const WIN: Score = 10_000;
/// Scores beyond this are game ends found by search.
pub const WIN_BOUND: Score = WIN - 1_000;
/// A database win at the root; a database win `n` plies deep scores `DB_WIN - n`.
pub const DB_WIN: Score = 9_000;
/// Scores beyond this (and below `WIN_BOUND`) are database results.
pub const DB_BOUND: Score = DB_WIN - 1_000;
/// Evaluations are clamped to stay clear of the decisive ranges.
pub const EVAL_LIMIT: Score = DB_BOUND - 1;
/// Above every real score: the initial window of a search.
pub const INFINITE: Score = WIN + 1;

#[inline(always)]
pub const fn win_in(ply: usize) -> Score {
    WIN - ply as Score
}

#[inline(always)]
pub const fn loss_in(ply: usize) -> Score {
    -WIN + ply as Score
}

/// The score of a finished game `ply` plies from the root.
#[inline(always)]
pub const fn verdict_score(v: Verdict, ply: usize) -> Score {
    match v {
        Verdict::Win => win_in(ply),
        Verdict::Loss => loss_in(ply),
        Verdict::Draw => DRAW,
    }
}

/// The score of a database result `ply` plies from the root.
#[inline(always)]
pub const fn db_score(v: Verdict, ply: usize) -> Score {
    match v {
        Verdict::Win => DB_WIN - ply as Score,
        Verdict::Loss => -DB_WIN + ply as Score,
        Verdict::Draw => DRAW,
    }
}

/// Whether a score is a game end or database result (not an evaluation).
#[inline(always)]
pub const fn is_decisive(s: Score) -> bool {
    s > DB_BOUND || s < -DB_BOUND
}

/// Convert a score relative to the current node into one relative to the
/// node itself (for the transposition table): decisive scores count plies
/// from where they are stored, not from the root.
#[inline(always)]
pub const fn to_tt(s: Score, ply: usize) -> Score {
    if s > DB_BOUND {
        s + ply as Score
    } else if s < -DB_BOUND {
        s - ply as Score
    } else {
        s
    }
}

/// The inverse of [`to_tt`].
#[inline(always)]
pub const fn from_tt(s: Score, ply: usize) -> Score {
    if s > DB_BOUND {
        s - ply as Score
    } else if s < -DB_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// Plies to the end of the game of a search win/loss score, if it is one.
pub fn plies_to_end(s: Score) -> Option<u32> {
    if s > WIN_BOUND {
        Some((WIN - s) as u32)
    } else if s < -WIN_BOUND {
        Some((WIN + s) as u32)
    } else {
        None
    }
}

/// Format a score in men with two decimals (`0.35`, `-1.00`, `99.87`).
pub fn format_men(s: Score) -> String {
    let sign = if s < 0 { "-" } else { "" };
    let a = s.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisive_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 60] {
            for s in [
                win_in(12),
                loss_in(9),
                db_score(Verdict::Win, 4),
                35,
                -120,
                DRAW,
            ] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }

    #[test]
    fn faster_wins_score_higher() {
        assert!(win_in(3) > win_in(5));
        assert!(loss_in(3) < loss_in(5));
        assert!(win_in(900) > DB_WIN);
        assert!(db_score(Verdict::Win, 900) > EVAL_LIMIT);
    }

    #[test]
    fn scores_print_in_men() {
        assert_eq!(format_men(35), "0.35");
        assert_eq!(format_men(-100), "-1.00");
        assert_eq!(format_men(win_in(13)), "99.87");
        assert_eq!(format_men(-5), "-0.05");
    }
}
