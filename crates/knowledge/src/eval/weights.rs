//! Evaluation weights: the text format of `weights-v1.txt` and its loader.
//!
//! The built-in weights are compiled in from the file in the repository, so
//! the engine never depends on finding it at run time; another file can be
//! loaded to replace them, and a bad file is rejected with the line number.

use super::features::Feature;
use std::fmt;
use tiao_draughts::board::Variant;

/// The built-in weights file.
pub const BUILTIN: &str = include_str!("weights-v1.txt");

/// Largest weight a file may give, in centi-men: a won game (the search's
/// `WIN`). The evaluation multiplies a weight by the phase (up to 256) and
/// a feature count (a few hundred at most, on the 12x12 board) in `i32`;
/// a larger weight would overflow there, and means nothing anyway.
pub const MAX_WEIGHT: i32 = 10_000;

/// Middle-game and endgame weight of one feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weight {
    pub mg: i32,
    pub eg: i32,
}

/// Weights of every feature for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightSet(pub [Weight; Feature::COUNT]);

/// Weights for every variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    sets: Vec<WeightSet>,
}

/// A weights-file error, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights file line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WeightsError {}

impl Weights {
    /// Parse a weights file. Every feature needs a `[default]` value.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut defaults: [Option<Weight>; Feature::COUNT] = [None; Feature::COUNT];
        let mut specific: Vec<[Option<Weight>; Feature::COUNT]> =
            vec![[None; Feature::COUNT]; Variant::ALL.len()];
        let mut section: Option<usize> = None; // None = [default]
        let mut seen_section = false;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |message: String| WeightsError {
                line: line_no,
                message,
            };
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[') {
                let name = name
                    .strip_suffix(']')
                    .ok_or_else(|| err(format!("unclosed section header '{line}'")))?;
                seen_section = true;
                section = if name.trim() == "default" {
                    None
                } else {
                    let v: Variant = name.parse().map_err(|e| err(format!("{e}")))?;
                    Some(v as usize)
                };
                continue;
            }
            if !seen_section {
                return Err(err("a weight before any [section]".into()));
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 3 {
                return Err(err(format!(
                    "expected 'feature middle-game endgame', got '{line}'"
                )));
            }
            let feature = Feature::from_name(fields[0])
                .ok_or_else(|| err(format!("unknown feature '{}'", fields[0])))?;
            let num = |s: &str| {
                let w = s
                    .parse::<i32>()
                    .map_err(|_| err(format!("'{s}' is not an integer weight")))?;
                if !(-MAX_WEIGHT..=MAX_WEIGHT).contains(&w) {
                    return Err(err(format!(
                        "the weight {w} is beyond ±{MAX_WEIGHT} centi-men (a won game)"
                    )));
                }
                Ok(w)
            };
            let w = Weight {
                mg: num(fields[1])?,
                eg: num(fields[2])?,
            };
            let slot = match section {
                None => &mut defaults[feature as usize],
                Some(v) => &mut specific[v][feature as usize],
            };
            if slot.is_some() {
                return Err(err(format!("'{}' given twice in this section", fields[0])));
            }
            *slot = Some(w);
        }
        let mut sets = Vec::new();
        for spec in &specific {
            let mut set = [Weight::default(); Feature::COUNT];
            for f in Feature::ALL {
                set[f as usize] =
                    spec[f as usize]
                        .or(defaults[f as usize])
                        .ok_or(WeightsError {
                            line: 0,
                            message: format!("feature '{}' has no [default] weight", f.name()),
                        })?;
            }
            sets.push(WeightSet(set));
        }
        Ok(Weights { sets })
    }

    /// Load a weights file from disk.
    pub fn load(path: &std::path::Path) -> Result<Weights, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The built-in weights.
    pub fn builtin() -> Weights {
        // The built-in file is tested to parse (see tests below).
        Weights::parse(BUILTIN).unwrap_or_else(|_| Weights {
            sets: vec![WeightSet([Weight::default(); Feature::COUNT]); Variant::ALL.len()],
        })
    }

    pub fn for_variant(&self, v: Variant) -> &WeightSet {
        &self.sets[v as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_weights_parse() {
        let w = Weights::parse(BUILTIN).expect("built-in weights");
        assert_eq!(
            w.for_variant(Variant::International).0[Feature::Man as usize],
            Weight { mg: 100, eg: 100 }
        );
        assert_eq!(
            w.for_variant(Variant::Russian).0[Feature::King as usize].mg,
            250
        );
        assert_eq!(
            w.for_variant(Variant::Canadian).0[Feature::King as usize].mg,
            300
        );
    }

    #[test]
    fn bad_weight_files_are_rejected_with_their_line() {
        let cases = [
            ("man 1 2", 1),
            ("[default]\nman 1", 2),
            ("[default]\nbishop 1 2", 2),
            ("[default]\nman x 2", 2),
            ("[frisian]\n", 1),
            ("[default\n", 1),
            ("[default]\nman 1 1\nman 2 2", 3),
        ];
        for (text, line) in cases {
            let e = Weights::parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
        }
        assert!(
            Weights::parse("[default]\nman 1 1").is_err(),
            "missing features"
        );
    }

    /// Each feature at the largest weight, in one sign or the other.
    fn extreme(sign: i32) -> String {
        let mut text = String::from("[default]\n");
        for f in Feature::ALL {
            text.push_str(&format!(
                "{} {} {}\n",
                f.name(),
                sign * MAX_WEIGHT,
                -sign * MAX_WEIGHT
            ));
        }
        text
    }

    #[test]
    fn weights_beyond_a_won_game_are_rejected_with_their_line() {
        for w in ["2147483647", "-2147483648", "10001", "-10001", "2164803"] {
            let text = BUILTIN.replacen("man            100   100", &format!("man {w} 100"), 1);
            assert_ne!(text, BUILTIN);
            let e = Weights::parse(&text).expect_err(w);
            assert!(e.message.contains("beyond"), "{w}: {e}");
            assert!(e.line > 0, "{w}: {e}");
        }
    }

    #[test]
    fn the_largest_weights_evaluate_any_position_without_overflow() {
        use crate::eval::Evaluator;
        use tiao_draughts::board::{Brazilian, Canadian, International, Russian};
        for sign in [1, -1] {
            let e = Evaluator::new(Weights::parse(&extreme(sign)).expect("the largest weights"));
            for p in crate::eval::extreme_positions::<International>() {
                e.white_score(&p);
            }
            for p in crate::eval::extreme_positions::<Brazilian>() {
                e.white_score(&p);
            }
            for p in crate::eval::extreme_positions::<Russian>() {
                e.white_score(&p);
            }
            for p in crate::eval::extreme_positions::<Canadian>() {
                e.white_score(&p);
            }
        }
    }
}
