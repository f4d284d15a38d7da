//! Results of one pairing as they come in: the W/D/L and pair tallies, how
//! games ended, which engine failed how often, and the SPRT's standing and
//! course.
//!
//! Games of a pair may finish in any order relative to other pairs; the
//! first game's points wait here until its partner arrives, and only then is
//! the pair counted in the pentanomial tally.

use super::arbiter::{GameRecord, GameResult, TerminationKind};
use super::schedule::Pairing;
use super::sprt::{Decision, Sprt};
use super::stats::{Estimate, Tally, estimate, format_elo};
use crate::board::Colour;
use std::collections::{BTreeMap, HashMap};

/// The SPRT's decision, frozen when a bound was first crossed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStop {
    pub decision: Decision,
    pub llr: f64,
    pub pairs: u32,
}

/// Everything known about one pairing.
#[derive(Clone, Debug)]
pub struct PairingResults {
    pub pairing: Pairing,
    pub tally: Tally,
    /// Games by how they ended.
    pub endings: BTreeMap<TerminationKind, u32>,
    /// Failures (crash, hang, ...) of the first and of the second engine.
    pub failures: [BTreeMap<TerminationKind, u32>; 2],
    /// Half points of pairs waiting for their second game, by the pair's first game number.
    waiting: HashMap<u32, u8>,
    pub sprt: Option<Sprt>,
    pub sprt_stop: Option<SprtStop>,
    /// With an SPRT: the LLR after each completed pair, as (pairs, LLR),
    /// for the picture of the test's course.
    pub llr_course: Vec<(u32, f64)>,
}

impl PairingResults {
    pub fn new(pairing: Pairing, sprt: Option<Sprt>) -> Self {
        PairingResults {
            pairing,
            tally: Tally::default(),
            endings: BTreeMap::new(),
            failures: [BTreeMap::new(), BTreeMap::new()],
            waiting: HashMap::new(),
            sprt,
            sprt_stop: None,
            llr_course: Vec::new(),
        }
    }

    /// Count a game of the pair that starts with game `first_game`; the
    /// first engine played `first_colour`. Returns the SPRT decision if this
    /// game made the test decide.
    pub fn add(
        &mut self,
        first_game: u32,
        first_colour: Colour,
        record: &GameRecord,
    ) -> Option<SprtStop> {
        let failed = record.offender.map(|o| usize::from(o != first_colour));
        let points = record.result.half_points(first_colour);
        self.count(first_game, points, record.kind, failed)
    }

    /// Count a game an earlier run played (`--resume`), known by its result
    /// and ending only: an engine that failed lost the game, so the loser of
    /// a failure is the engine that failed.
    pub fn add_past(
        &mut self,
        first_game: u32,
        first_colour: Colour,
        result: GameResult,
        kind: TerminationKind,
    ) -> Option<SprtStop> {
        let failed = if kind.is_failure() {
            result.winner().map(|w| usize::from(w == first_colour))
        } else {
            None
        };
        self.count(first_game, result.half_points(first_colour), kind, failed)
    }

    /// Count `points` (half points of the first engine) of a game that
    /// ended by `kind`, `failed` the engine that failed (0: the first).
    fn count(
        &mut self,
        first_game: u32,
        points: u8,
        kind: TerminationKind,
        failed: Option<usize>,
    ) -> Option<SprtStop> {
        self.tally.add_game(points);
        *self.endings.entry(kind).or_default() += 1;
        if let Some(who) = failed {
            *self.failures[who].entry(kind).or_default() += 1;
        }
        match self.waiting.remove(&first_game) {
            Some(other) => self.tally.add_pair(other + points),
            None => {
                self.waiting.insert(first_game, points);
                return None;
            }
        }
        let sprt = self.sprt?;
        let llr = sprt.llr(&self.tally.pairs);
        // The course goes on past a decision: the pairs under way then are
        // finished and counted.
        self.llr_course.push((self.tally.pair_count(), llr));
        if self.sprt_stop.is_some() {
            return None;
        }
        let decision = sprt.decide(llr, self.tally.pair_count());
        if decision == Decision::Continue {
            return None;
        }
        let stop = SprtStop {
            decision,
            llr,
            pairs: self.tally.pair_count(),
        };
        self.sprt_stop = Some(stop);
        Some(stop)
    }

    pub fn estimate(&self) -> Option<Estimate> {
        estimate(&self.tally)
    }

    /// The current LLR, if there is a test.
    pub fn llr(&self) -> Option<f64> {
        self.sprt.map(|s| s.llr(&self.tally.pairs))
    }

    /// A one-line summary for the progress bar.
    pub fn status(&self) -> String {
        let t = &self.tally;
        let mut s = format!("W {} D {} L {}", t.wins, t.draws, t.losses);
        if let Some(e) = self.estimate() {
            let half = (e.elo_high - e.elo_low) / 2.0;
            if half.is_finite() && e.std_error > 0.0 {
                s.push_str(&format!("  Elo {} ±{:.1}", format_elo(e.elo), half));
            } else {
                s.push_str(&format!("  Elo {}", format_elo(e.elo)));
            }
        }
        if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
            let (lo, hi) = sprt.bounds();
            s.push_str(&format!("  LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(result: GameResult, kind: TerminationKind, offender: Option<Colour>) -> GameRecord {
        GameRecord {
            result,
            kind,
            detail: String::new(),
            offender,
            start_fen: None,
            moves: Vec::new(),
            opening_plies: 0,
        }
    }

    #[test]
    fn a_game_read_back_counts_as_the_game_played() {
        let pairing = Pairing {
            first: 0,
            second: 1,
        };
        let games = [
            // (pair's first game, first engine's colour, record)
            (
                1,
                Colour::White,
                record(GameResult::Draw, TerminationKind::Normal, None),
            ),
            (
                1,
                Colour::Black,
                record(
                    GameResult::Win(Colour::White),
                    TerminationKind::TimeForfeit,
                    Some(Colour::Black),
                ),
            ),
            (
                3,
                Colour::White,
                record(
                    GameResult::Win(Colour::White),
                    TerminationKind::Crash,
                    Some(Colour::Black),
                ),
            ),
            (
                3,
                Colour::Black,
                record(
                    GameResult::Win(Colour::Black),
                    TerminationKind::Adjudication,
                    None,
                ),
            ),
        ];
        let mut played = PairingResults::new(pairing, Some(Sprt::new(0.0, 10.0)));
        let mut read = played.clone();
        for (first_game, colour, r) in &games {
            played.add(*first_game, *colour, r);
            read.add_past(*first_game, *colour, r.result, r.kind);
        }
        assert_eq!(read.tally, played.tally);
        assert_eq!(read.endings, played.endings);
        // The forfeit of game 2 was the first engine's (Black, lost), the
        // crash of game 3 the second's.
        assert_eq!(read.failures, played.failures);
        assert_eq!(
            read.failures[0].get(&TerminationKind::TimeForfeit),
            Some(&1)
        );
        assert_eq!(read.failures[1].get(&TerminationKind::Crash), Some(&1));
        assert_eq!(read.llr_course, played.llr_course);
    }
}
