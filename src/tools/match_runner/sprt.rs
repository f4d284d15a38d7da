//! The sequential probability ratio test (SPRT) on game pairs: is the first
//! engine at least `elo1` stronger (H1), or at most `elo0` (H0)?
//!
//! Elo here is logistic Elo, the same unit as the match table. The log-
//! likelihood ratio uses the normal approximation of the generalised SPRT
//! (M. Van den Bergh, as used by fishtest) on the pentanomial pair scores:
//! with N pairs of mean score μ and per-pair variance σ², and s0, s1 the
//! expected scores at elo0 and elo1,
//!
//!   LLR = N · (s1 − s0) · (2μ − s0 − s1) / (2σ²),
//!
//! which is the log of the ratio of the two normal likelihoods of the
//! observed mean, N(s1, σ²/N) against N(s0, σ²/N). The test stops with H1
//! when LLR ≥ ln((1−β)/α) and with H0 when LLR ≤ ln(β/(1−α)) (Wald's
//! bounds). Empty pentanomial cells get a count of 0.001 first (as fishtest
//! does), so that a sample with no spread yet gives a finite ratio.
//!
//! The approximation needs a variance estimate, and a handful of pairs can
//! make it absurdly small (two pairs won 2-0 look like certainty), so no
//! decision is taken before `min-pairs` pairs ([`DEFAULT_MIN_PAIRS`] unless
//! told); the LLR is shown all along. Draughts makes the guard matter: with
//! 85% draws the first dozens of pairs hold a handful of decisive games, and
//! a test of a +10 change crossed the H1 bound after 54 pairs, then needed
//! 354 when played again.

use super::spec::{parse_count, parse_number, parse_pairs};
use super::stats::{expected_score, mean_variance, pair_sample};

/// Added to each empty pentanomial cell before computing the LLR.
const EMPTY_CELL: f64 = 1e-3;

/// The Elo bounds a test may have.
const ELO_RANGE: (f64, f64) = (-1000.0, 1000.0);
/// The risks a test may take: beyond these Wald's bounds cross or vanish.
const RISK_RANGE: (f64, f64) = (1e-6, 0.5);

/// Fewest game pairs before the test may decide, unless `min-pairs=` says.
pub const DEFAULT_MIN_PAIRS: u32 = 100;

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
    /// No decision before this many game pairs.
    pub min_pairs: u32,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// H0: the first engine is not `elo1` stronger.
    AcceptH0,
    /// H1: the first engine is at least `elo1` stronger (at risk `alpha`).
    AcceptH1,
}

impl Decision {
    pub fn describe(self) -> &'static str {
        match self {
            Decision::Continue => "continue (undecided)",
            Decision::AcceptH0 => "H0 accepted (not stronger by elo1)",
            Decision::AcceptH1 => "H1 accepted (stronger by at least elo1)",
        }
    }
}

impl Sprt {
    /// The test between `elo0` and `elo1` at the usual risks (5% each way)
    /// and the default guard.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            min_pairs: DEFAULT_MIN_PAIRS,
        }
    }

    /// Parse the words of `--sprt` (`elo0=0 elo1=5 alpha=0.05 beta=0.05
    /// min-pairs=100`; all but elo0 and elo1 have those defaults).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let flag = "--sprt";
        let (mut elo0, mut elo1) = (None, None);
        let mut s = Sprt::new(0.0, 0.0);
        for (k, v) in parse_pairs(words, flag)? {
            match k.as_str() {
                "elo0" => elo0 = Some(parse_number(&k, &v, flag, ELO_RANGE.0, ELO_RANGE.1)?),
                "elo1" => elo1 = Some(parse_number(&k, &v, flag, ELO_RANGE.0, ELO_RANGE.1)?),
                "alpha" => s.alpha = parse_number(&k, &v, flag, RISK_RANGE.0, RISK_RANGE.1)?,
                "beta" => s.beta = parse_number(&k, &v, flag, RISK_RANGE.0, RISK_RANGE.1)?,
                "min-pairs" => s.min_pairs = parse_count(&k, &v, flag, 1, 1_000_000)?,
                _ => {
                    return Err(format!(
                        "{flag}: unknown key '{k}' (elo0=, elo1=, alpha=, beta=, min-pairs=)"
                    ));
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(format!("{flag} needs elo0= and elo1= (e.g. elo0=0 elo1=5)"));
        };
        Sprt { elo0, elo1, ..s }.checked(flag)
    }

    /// This test if its numbers make one: Elo bounds within `ELO_RANGE`
    /// with `elo1` above `elo0`, risks within `RISK_RANGE`. `flag` names
    /// the option in the error.
    pub fn checked(self, flag: &str) -> Result<Sprt, String> {
        let (lo, hi) = ELO_RANGE;
        for (key, v) in [("elo0", self.elo0), ("elo1", self.elo1)] {
            if !(lo..=hi).contains(&v) {
                return Err(format!(
                    "{flag}: {key} must be between {lo} and {hi}, not {v}"
                ));
            }
        }
        if self.elo1 <= self.elo0 {
            return Err(format!("{flag}: elo1 must be above elo0"));
        }
        let (lo, hi) = RISK_RANGE;
        for (key, v) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(lo..=hi).contains(&v) {
                return Err(format!(
                    "{flag}: {key} must be between {lo} and {hi}, not {v}"
                ));
            }
        }
        Ok(self)
    }

    /// Wald's bounds (lower, upper) for the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of a pentanomial tally (0 without pairs).
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        if pairs.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let sample = pair_sample(pairs).map(|(x, c)| (x, if c == 0.0 { EMPTY_CELL } else { c }));
        let Some((n, mean, var)) = mean_variance(&sample) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The decision at `llr` after `pairs` pairs.
    pub fn decide(&self, llr: f64, pairs: u32) -> Decision {
        let (low, high) = self.bounds();
        if pairs < self.min_pairs {
            Decision::Continue
        } else if llr >= high {
            Decision::AcceptH1
        } else if llr <= low {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

impl std::fmt::Display for Sprt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={} min-pairs={}",
            self.elo0, self.elo1, self.alpha, self.beta, self.min_pairs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn parameters_parse() {
        let s = Sprt::parse(&words("elo0=0 elo1=5")).expect("sprt");
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        assert_eq!(s.min_pairs, DEFAULT_MIN_PAIRS);
        let s = Sprt::parse(&words("elo0=0 elo1=5 min-pairs=30")).expect("sprt");
        assert_eq!(s.min_pairs, 30);
        assert!(Sprt::parse(&words("elo0=0 elo1=5 min-pairs=0")).is_err());
        assert!(Sprt::parse(&words("elo0=5 elo1=0")).is_err());
        assert!(Sprt::parse(&words("elo1=5")).is_err());
        assert!(Sprt::parse(&words("elo0=0 elo1=5 alpha=0.9")).is_err());
    }

    #[test]
    fn a_test_whose_numbers_make_none_is_refused() {
        assert!(Sprt::new(0.0, 5.0).checked("--sprt").is_ok());
        assert!(Sprt::new(5.0, 0.0).checked("--sprt").is_err());
        assert!(Sprt::new(0.0, 0.0).checked("--sprt").is_err());
        assert!(Sprt::new(0.0, f64::NAN).checked("--sprt").is_err());
        assert!(Sprt::new(0.0, 5000.0).checked("--sprt").is_err());
        let risky = Sprt {
            alpha: 0.7,
            ..Sprt::new(0.0, 5.0)
        };
        assert!(risky.checked("--sprt").is_err());
        let reckless = Sprt {
            beta: 0.0,
            ..Sprt::new(0.0, 5.0)
        };
        assert!(reckless.checked("--sprt").is_err());
    }

    #[test]
    fn wald_bounds() {
        // alpha = beta = 0.05: ln(0.05/0.95) = -ln 19 = -2.944438979...
        let s = Sprt::parse(&words("elo0=0 elo1=5")).expect("sprt");
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944_438_979_166_44).abs() < 1e-9);
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-9);
        assert_eq!(s.decide(3.0, 150), Decision::AcceptH1);
        assert_eq!(s.decide(-3.0, 150), Decision::AcceptH0);
        assert_eq!(s.decide(0.0, 150), Decision::Continue);
        assert_eq!(s.decide(30.0, DEFAULT_MIN_PAIRS - 1), Decision::Continue);
    }
}
