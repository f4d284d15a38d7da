//! Match statistics: W/D/L and game-pair (pentanomial) tallies, the logistic
//! Elo difference with its 95% interval, and the likelihood of superiority.
//!
//! Openings are played in pairs with colours swapped, and the two games of a
//! pair are not independent (a lopsided opening favours whoever has the good
//! side in both). So the error is measured on pairs: each pair scores 0, ¼,
//! ½, ¾ or 1 (the first engine's points out of 2, halved), and the sample
//! mean of those pair scores, with the sample variance of the pairs, gives a
//! normal approximation of the score (the "pentanomial" model, as in
//! fishtest). Without complete pairs, games are used alone (trinomial).
//!
//! - score μ, per-pair variance σ², N pairs: standard error `σ/√N`;
//! - Elo(s) = −400·log10(1/s − 1); the interval is Elo(μ ± 1.96·σ/√N);
//! - LOS = Φ((μ − ½)/(σ/√N)), the probability that the first engine is
//!   the stronger, under the same normal approximation.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Results of a pairing, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Complete game pairs by the first engine's points in the pair, in half
    /// points: index 0 = 0 points (lost both), 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
    pub pairs: [u32; 5],
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn pair_count(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// Add one game; `points` is the first engine's score in half points
    /// (0, 1 or 2).
    pub fn add_game(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// Add a completed pair, with the first engine's total in half points (0..=4).
    pub fn add_pair(&mut self, half_points: u8) {
        self.pairs[usize::from(half_points.min(4))] += 1;
    }

    /// The first engine's score over all games (0..1).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Share of games drawn.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / f64::from(n))
    }
}

/// Logistic Elo difference of a score (±∞ at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score at a logistic Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// Number, mean and variance (population, i.e. divided by the number) of a
/// sample given as (value, count) pairs.
pub fn mean_variance(sample: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = sample.iter().map(|(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = sample.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = sample
        .iter()
        .map(|(x, c)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// A pentanomial tally as (pair score, count) pairs.
pub fn pair_sample(pairs: &[u32; 5]) -> [(f64, f64); 5] {
    std::array::from_fn(|i| (i as f64 / 4.0, f64::from(pairs[i])))
}

/// What the results say about the Elo difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score (0..1) of the sample the estimate is built on.
    pub score: f64,
    /// Standard error of that mean.
    pub std_error: f64,
    pub elo: f64,
    /// 95% interval.
    pub elo_low: f64,
    pub elo_high: f64,
    /// Likelihood of superiority (0..1).
    pub los: f64,
    /// Whether pairs (pentanomial) or single games were the sample.
    pub from_pairs: bool,
}

/// The estimate from a tally: on complete pairs when there are any, else on
/// the games alone.
pub fn estimate(t: &Tally) -> Option<Estimate> {
    let (sample, from_pairs): (Vec<(f64, f64)>, bool) = if t.pair_count() > 0 {
        (pair_sample(&t.pairs).to_vec(), true)
    } else {
        (
            vec![
                (0.0, f64::from(t.losses)),
                (0.5, f64::from(t.draws)),
                (1.0, f64::from(t.wins)),
            ],
            false,
        )
    };
    let (n, mean, var) = mean_variance(&sample)?;
    let se = (var / n).sqrt();
    let los = if se > 0.0 {
        normal_cdf((mean - 0.5) / se)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(Estimate {
        score: mean,
        std_error: se,
        elo: elo(mean),
        elo_low: elo(mean - Z95 * se),
        elo_high: elo(mean + Z95 * se),
        los,
        from_pairs,
    })
}

/// An Elo value for a table: `+12.3`, `-4.0`, `+inf`.
pub fn format_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // Adding 0.0 turns -0.0 (Elo of exactly 50%) into 0.0.
        format!("{:+.1}", e + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_count() {
        let mut t = Tally::default();
        for p in [2, 1, 1, 0, 2] {
            t.add_game(p);
        }
        t.add_pair(3);
        t.add_pair(1);
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (2, 2, 1, 5));
        assert_eq!(t.pairs, [0, 1, 0, 1, 0]);
        assert_eq!(t.score(), Some(0.6));
        assert_eq!(t.draw_ratio(), Some(0.4));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-400.0, -35.5, 0.0, 7.0, 191.0] {
            assert!((elo(expected_score(e)) - e).abs() < 1e-9);
        }
        // 10^(400/400) = 10: a 400 Elo favourite scores 10/11.
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(format_elo(elo(1.0)), "+inf");
    }
}
