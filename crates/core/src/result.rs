//! Who won a game: [`GameResult`], the one answer that games of every
//! kind, game records, the DXP front end and the match runner share. Each
//! game's own outcome type (draughts `Outcome`, `HalmaOutcome`,
//! `GewuOutcome`) adds why, and says who won as a `GameResult`.

use crate::Colour;

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Colour),
    Draw,
}

impl GameResult {
    /// The winner, if any.
    pub fn winner(self) -> Option<Colour> {
        match self {
            GameResult::Win(c) => Some(c),
            GameResult::Draw => None,
        }
    }

    /// Half points for `side` (0, 1 or 2).
    pub fn half_points(self, side: Colour) -> u8 {
        match self {
            GameResult::Draw => 1,
            GameResult::Win(c) if c == side => 2,
            GameResult::Win(_) => 0,
        }
    }

    /// The PDN result token: `2-0` style (international draughts, where a
    /// win is two points) or `1-0` style.
    pub fn pdn(self, two_points: bool) -> &'static str {
        match (self, two_points) {
            (GameResult::Win(Colour::White), true) => "2-0",
            (GameResult::Win(Colour::Black), true) => "0-2",
            (GameResult::Draw, true) => "1-1",
            (GameResult::Win(Colour::White), false) => "1-0",
            (GameResult::Win(Colour::Black), false) => "0-1",
            (GameResult::Draw, false) => "1/2-1/2",
        }
    }

    /// The result a PDN result token names, in the style `two_points`
    /// says (the inverse of [`GameResult::pdn`]); `None` for `*` or
    /// anything else.
    pub fn from_pdn(token: &str, two_points: bool) -> Option<GameResult> {
        [
            GameResult::Win(Colour::White),
            GameResult::Win(Colour::Black),
            GameResult::Draw,
        ]
        .into_iter()
        .find(|r| r.pdn(two_points) == token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_add_up_to_two() {
        for r in [
            GameResult::Win(Colour::White),
            GameResult::Win(Colour::Black),
            GameResult::Draw,
        ] {
            assert_eq!(
                r.half_points(Colour::White) + r.half_points(Colour::Black),
                2
            );
        }
        assert_eq!(GameResult::Win(Colour::Black).half_points(Colour::Black), 2);
    }

    #[test]
    fn pdn_tokens_follow_the_points_of_a_win() {
        assert_eq!(GameResult::Win(Colour::Black).pdn(true), "0-2");
        assert_eq!(GameResult::Draw.pdn(true), "1-1");
        assert_eq!(GameResult::Win(Colour::White).pdn(false), "1-0");
        assert_eq!(GameResult::Draw.pdn(false), "1/2-1/2");
    }

    #[test]
    fn a_pdn_token_reads_back_only_in_its_own_style() {
        for two_points in [true, false] {
            for r in [
                GameResult::Win(Colour::White),
                GameResult::Win(Colour::Black),
                GameResult::Draw,
            ] {
                assert_eq!(GameResult::from_pdn(r.pdn(two_points), two_points), Some(r));
            }
        }
        assert_eq!(GameResult::from_pdn("1-0", true), None);
        assert_eq!(GameResult::from_pdn("1-1", false), None);
        assert_eq!(GameResult::from_pdn("*", true), None);
    }
}
