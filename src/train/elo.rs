//! Match statistics for `tiao duel`: logistic Elo with a 95% interval from
//! game pairs (pentanomial: each opening is played twice with colours
//! swapped, and the two games of a pair are not independent), and the
//! sequential probability ratio test (the normal approximation of the
//! generalised SPRT, as used by Fishtest).

/// Results of the pairs played so far, from the first engine's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Pairs scoring 0, 0.5, 1, 1.5, 2 points.
    pub pairs: [u32; 5],
}

/// An SPRT of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// H1 accepted: the first engine is stronger by about elo1.
    H1,
    /// H0 accepted.
    H0,
    Continue,
}

/// Expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of an expected score.
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Add a pair: the first engine's points in its two games (0, 0.5 or 1 each).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        for x in [a, b] {
            if x > 0.75 {
                self.wins += 1;
            } else if x > 0.25 {
                self.draws += 1;
            } else {
                self.losses += 1;
            }
        }
        let idx = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[idx] += 1;
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// Mean and variance of the per-game score of a pair (pentanomial).
    fn pair_stats(&self) -> (f64, f64, f64) {
        let n: f64 = self.pairs.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return (0.5, 0.0, 0.0);
        }
        let vals = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = self
            .pairs
            .iter()
            .zip(vals)
            .map(|(&c, v)| f64::from(c) * v)
            .sum::<f64>()
            / n;
        let var = self
            .pairs
            .iter()
            .zip(vals)
            .map(|(&c, v)| f64::from(c) * (v - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var, n)
    }

    /// Elo and the half-width of its 95% interval (pentanomial).
    pub fn elo(&self) -> (f64, f64) {
        let (mean, var, n) = self.pair_stats();
        if n < 2.0 {
            return (elo_of(mean), f64::INFINITY);
        }
        let sd = (var / n).sqrt();
        let (lo, hi) = (elo_of(mean - 1.96 * sd), elo_of(mean + 1.96 * sd));
        (elo_of(mean), (hi - lo) / 2.0)
    }

    /// Log-likelihood ratio of the SPRT.
    pub fn llr(&self, t: &Sprt) -> f64 {
        let (mean, var, n) = self.pair_stats();
        if n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(t.elo0), score_of(t.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

impl Sprt {
    /// The decision bounds (lower, upper) of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, t: &Tally) -> Verdict {
        let llr = t.llr(self);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_score_round_trips() {
        for e in [-300.0, -50.0, 0.0, 120.0, 400.0] {
            assert!((elo_of(score_of(e)) - e).abs() < 1e-6);
        }
    }

    #[test]
    fn even_match_is_zero_elo() {
        let mut t = Tally::default();
        // Pairs won and lost twice as often: even, but spread out, so the
        // interval has a width (all pairs at 1 of 2 would give zero width).
        for _ in 0..50 {
            t.add_pair(1.0, 1.0);
            t.add_pair(0.0, 0.0);
            t.add_pair(1.0, 0.0);
        }
        let (e, ci) = t.elo();
        assert!(e.abs() < 1e-6);
        assert!(ci > 10.0 && ci < 200.0, "{ci}");
    }
}
