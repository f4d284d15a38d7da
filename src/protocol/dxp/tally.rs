//! The score of a match from Tiao's side: wins, draws, losses and games
//! left unfinished, and the summary line printed on stdout when a match
//! (one connection) ends.

use crate::board::Colour;
use tiao_core::GameResult;

/// Results of the games of one match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub unfinished: u32,
    /// Games the peer refused (`A2`): not played, not counted above.
    pub refused: u32,
}

impl Tally {
    /// Count one game Tiao played with `tiao`.
    pub fn add(&mut self, result: Option<GameResult>, tiao: Colour) {
        match result {
            Some(GameResult::Win(c)) if c == tiao => self.wins += 1,
            Some(GameResult::Win(_)) => self.losses += 1,
            Some(GameResult::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.decided() + self.unfinished
    }

    /// Games completed: played to a result (won, drawn or lost).
    pub fn decided(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The summary line, e.g.
    /// `summary: Tiao vs Scan 3.1: W 1 D 2 L 1 unfinished 0, 4 games, score 2.0/4`.
    pub fn summary(&self, tiao: &str, peer: &str) -> String {
        let decided = self.decided();
        let score = f64::from(self.wins) + f64::from(self.draws) / 2.0;
        let mut s = format!(
            "summary: {tiao} vs {peer}: W {} D {} L {} unfinished {}, {} games, score {score:.1}/{decided}",
            self.wins,
            self.draws,
            self.losses,
            self.unfinished,
            self.games()
        );
        if self.refused > 0 {
            s.push_str(&format!(", {} refused by the peer", self.refused));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_tiaos_side() {
        let mut t = Tally::default();
        t.add(Some(GameResult::Win(Colour::Black)), Colour::Black);
        t.add(Some(GameResult::Win(Colour::Black)), Colour::White);
        t.add(Some(GameResult::Draw), Colour::White);
        t.add(None, Colour::White);
        assert_eq!((t.wins, t.losses, t.draws, t.unfinished), (1, 1, 1, 1));
        assert_eq!(
            t.summary("Tiao", "X"),
            "summary: Tiao vs X: W 1 D 1 L 1 unfinished 1, 4 games, score 1.5/3"
        );
    }
}
