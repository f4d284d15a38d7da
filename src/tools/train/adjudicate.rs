//! Win adjudication of Tiao's own self-play games (`tiao datagen`, `tiao
//! duel`): a game is won once the searches have scored the same side at
//! least `score` centi-men ahead for `plies` plies in a row, which saves
//! playing out games that are decided. (`tiao match` judges engines it does
//! not control by the scores they report: `tools/match_runner/adjudication.rs`.)

/// The running streak of one game.
#[derive(Clone, Copy, Debug)]
pub struct WinStreak {
    /// Centi-men that count as winning; 0 or less: never adjudicate.
    score: i32,
    /// Plies in a row the same side must be winning.
    plies: u32,
    /// Side winning in the current streak (1: White, -1: Black, 0: none).
    sign: i32,
    len: u32,
}

impl WinStreak {
    pub fn new(score: i32, plies: u32) -> WinStreak {
        WinStreak {
            score,
            plies,
            sign: 0,
            len: 0,
        }
    }

    /// Count one ply's search score (White's view). Once the streak is
    /// long enough, the side it favours: 1 for White, -1 for Black.
    pub fn observe(&mut self, score_white: i32) -> Option<i32> {
        let sign = if self.score <= 0 {
            0
        } else if score_white >= self.score {
            1
        } else if score_white <= -self.score {
            -1
        } else {
            0
        };
        if sign != 0 && sign == self.sign {
            self.len += 1;
        } else {
            self.len = u32::from(sign != 0);
            self.sign = sign;
        }
        (self.len >= self.plies).then_some(sign)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_needs_the_same_side_ahead_for_enough_plies_in_a_row() {
        let mut s = WinStreak::new(800, 3);
        assert_eq!(s.observe(900), None);
        assert_eq!(s.observe(850), None);
        assert_eq!(s.observe(-900), None, "the other side breaks the streak");
        assert_eq!(s.observe(-800), None);
        assert_eq!(s.observe(-1200), Some(-1));
        let mut s = WinStreak::new(800, 2);
        assert_eq!(s.observe(900), None);
        assert_eq!(s.observe(100), None, "a level score breaks it too");
        assert_eq!(s.observe(900), None);
        assert_eq!(s.observe(900), Some(1));
    }

    #[test]
    fn a_threshold_of_zero_never_adjudicates() {
        let mut s = WinStreak::new(0, 1);
        for _ in 0..10 {
            assert_eq!(s.observe(5000), None);
        }
    }
}
