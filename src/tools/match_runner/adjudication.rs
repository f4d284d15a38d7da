//! Optional adjudication: end a game early when both engines agree on how
//! it ends, to save time in long matches.
//!
//! - Draw (`--adjudicate-draw moves=N score=S after=M`): from move M on,
//!   when the last N scores of *each* engine are within ±S (men).
//! - Win (`--adjudicate-win moves=N score=S`): when the last N scores of
//!   each engine agree that the same side is ahead by at least S.
//!
//! Scores are the last `info score=` of each move, from the mover's point of
//! view; they are turned to White's view here. A move without a score (a
//! forced move answered at once, or an engine that prints none) neither
//! counts nor breaks a run: forced captures are common in draughts and
//! would otherwise make adjudication almost never apply.

use super::spec::{parse_count, parse_number, parse_pairs};
use crate::board::Colour;
use tiao_core::GameResult;

/// When to adjudicate a draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawRule {
    /// Scores per engine that must all be near zero.
    pub moves: usize,
    /// Largest absolute score (men) that counts as near zero.
    pub score: f64,
    /// First move number (counted from the start of the game, opening
    /// included) at which a draw may be adjudicated.
    pub after: u32,
}

/// When to adjudicate a win.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinRule {
    pub moves: usize,
    /// Smallest score (men) that counts as winning.
    pub score: f64,
}

impl DrawRule {
    pub const DEFAULT: DrawRule = DrawRule {
        moves: 10,
        score: 0.10,
        after: 40,
    };

    /// Parse the words of `--adjudicate-draw` (any key may be left out).
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let mut r = DrawRule::DEFAULT;
        let flag = "--adjudicate-draw";
        for (k, v) in parse_pairs(words, flag)? {
            match k.as_str() {
                "moves" => r.moves = parse_count(&k, &v, flag, 1, 1000)? as usize,
                "score" => r.score = parse_number(&k, &v, flag, 0.0, 100.0)?,
                "after" => r.after = parse_count(&k, &v, flag, 0, 10000)?,
                _ => {
                    return Err(format!(
                        "{flag}: unknown key '{k}' (moves=, score=, after=)"
                    ));
                }
            }
        }
        Ok(r)
    }
}

impl WinRule {
    pub const DEFAULT: WinRule = WinRule {
        moves: 4,
        score: 4.0,
    };

    /// Parse the words of `--adjudicate-win` (any key may be left out).
    pub fn parse(words: &[String]) -> Result<WinRule, String> {
        let mut r = WinRule::DEFAULT;
        let flag = "--adjudicate-win";
        for (k, v) in parse_pairs(words, flag)? {
            match k.as_str() {
                "moves" => r.moves = parse_count(&k, &v, flag, 1, 1000)? as usize,
                "score" => r.score = parse_number(&k, &v, flag, 0.01, 1000.0)?,
                _ => return Err(format!("{flag}: unknown key '{k}' (moves=, score=)")),
            }
        }
        Ok(r)
    }
}

/// Endgame databases the arbiter consults: a position they cover ends the
/// game with its value (draw rules included where a distance is stored).
#[derive(Clone)]
pub struct Tables(pub crate::endgame::VariantEgdb);

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tables({} up to {} pieces)",
            self.0.variant(),
            self.0.pieces()
        )
    }
}

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    pub draw: Option<DrawRule>,
    pub win: Option<WinRule>,
}

/// A decision to end the game: the result, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjudged {
    pub result: GameResult,
    pub reason: String,
}

/// The scores of one game, per side, in White's view.
#[derive(Clone, Debug, Default)]
pub struct ScoreTrack {
    white: Vec<f64>,
    black: Vec<f64>,
}

impl ScoreTrack {
    /// Record the score (mover's view) that `mover` gave with its move.
    pub fn record(&mut self, mover: Colour, score: f64) {
        match mover {
            Colour::White => self.white.push(score),
            Colour::Black => self.black.push(-score),
        }
    }

    fn last(list: &[f64], n: usize) -> Option<&[f64]> {
        (n > 0 && list.len() >= n).then(|| &list[list.len() - n..])
    }

    /// Whether the rules end the game now; `move_number` is the number of
    /// the move about to be played (1-based, opening included).
    pub fn adjudge(&self, rules: &Adjudication, move_number: u32) -> Option<Adjudged> {
        if let Some(w) = rules.win
            && let (Some(a), Some(b)) = (
                Self::last(&self.white, w.moves),
                Self::last(&self.black, w.moves),
            )
        {
            for (side, sign) in [(Colour::White, 1.0), (Colour::Black, -1.0)] {
                if a.iter().chain(b).all(|s| s * sign >= w.score) {
                    return Some(Adjudged {
                        result: GameResult::Win(side),
                        reason: format!(
                            "both engines scored {} ahead by at least {:.2} for {} moves",
                            if side == Colour::White {
                                "White"
                            } else {
                                "Black"
                            },
                            w.score,
                            w.moves
                        ),
                    });
                }
            }
        }
        if let Some(d) = rules.draw
            && move_number >= d.after
            && let (Some(a), Some(b)) = (
                Self::last(&self.white, d.moves),
                Self::last(&self.black, d.moves),
            )
            && a.iter().chain(b).all(|s| s.abs() <= d.score)
        {
            return Some(Adjudged {
                result: GameResult::Draw,
                reason: format!(
                    "both engines scored within ±{:.2} for {} moves",
                    d.score, d.moves
                ),
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn rules_parse_with_defaults() {
        assert_eq!(DrawRule::parse(&[]), Ok(DrawRule::DEFAULT));
        let d = DrawRule::parse(&words("moves=6 score=0.2 after=30")).expect("draw");
        assert_eq!((d.moves, d.score, d.after), (6, 0.2, 30));
        assert_eq!(WinRule::parse(&words("score=3")).expect("win").score, 3.0);
        assert!(WinRule::parse(&words("margin=3")).is_err());
        assert!(DrawRule::parse(&words("moves=-1")).is_err());
        // A count is whole: 2.5 moves is a mistake to report, not 2.
        assert!(DrawRule::parse(&words("moves=2.5")).is_err());
        assert!(WinRule::parse(&words("moves=1e1")).is_err());
    }

    #[test]
    fn a_win_needs_both_engines_to_agree() {
        let rules = Adjudication {
            draw: None,
            win: Some(WinRule {
                moves: 2,
                score: 3.0,
            }),
        };
        let mut t = ScoreTrack::default();
        t.record(Colour::White, 3.5);
        t.record(Colour::Black, -3.2);
        t.record(Colour::White, 4.0);
        assert_eq!(t.adjudge(&rules, 10), None); // Black has only one score
        t.record(Colour::Black, -1.0); // Black disagrees
        assert_eq!(t.adjudge(&rules, 10), None);
        t.record(Colour::White, 5.0);
        t.record(Colour::Black, -3.0);
        // Last two: White 4.0, 5.0; Black (White's view) 1.0, 3.0: not yet.
        assert_eq!(t.adjudge(&rules, 10), None);
        t.record(Colour::Black, -3.1);
        assert!(matches!(
            t.adjudge(&rules, 10),
            Some(Adjudged {
                result: GameResult::Win(Colour::White),
                ..
            })
        ));
    }

    #[test]
    fn a_draw_waits_for_its_move_number() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                moves: 2,
                score: 0.1,
                after: 20,
            }),
            win: None,
        };
        let mut t = ScoreTrack::default();
        for _ in 0..2 {
            t.record(Colour::White, 0.05);
            t.record(Colour::Black, -0.1);
        }
        assert_eq!(t.adjudge(&rules, 19), None);
        assert!(matches!(
            t.adjudge(&rules, 20),
            Some(Adjudged {
                result: GameResult::Draw,
                ..
            })
        ));
        t.record(Colour::White, 0.3);
        assert_eq!(t.adjudge(&rules, 21), None);
    }
}
