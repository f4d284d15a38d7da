//! The evaluations of draughts positions. Here, v1: a weighted sum of
//! hand-chosen features (`features`), interpolated between middle game and
//! endgame by the number of pieces left, its weights from a data file
//! (`weights`); and [`Term`], the line of a breakdown every evaluation
//! gives. The pattern evaluation is `pattern*`; the choice between the two
//! at run time is `pattern_select` (`EvalChoice`).

pub mod features;
pub mod pattern;
pub mod pattern_dense;
pub mod pattern_file;
pub mod pattern_layout;
pub mod pattern_select;
pub mod weights;

use features::{Feature, Features, features, phase};
use tiao_core::game::Evaluate;
use tiao_draughts::board::{Colour, Position, Rules};
use weights::{WeightSet, Weights};

/// The v1 evaluator for every draughts variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: Weights,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator {
            weights: Weights::builtin(),
        }
    }
}

/// One line of an evaluation breakdown, for display; every evaluation
/// (v1, pattern) gives its terms in this form.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// The feature or term (`men`, `patterns`, ...).
    pub name: &'static str,
    /// The term's count, White minus Black (1 for the pattern sum).
    pub value: i32,
    /// Contribution in centi-men, White's view, at the position's phase.
    pub score: i32,
}

impl Evaluator {
    pub fn new(weights: Weights) -> Self {
        Evaluator { weights }
    }

    /// Contribution of each feature (White's view), at the position's phase.
    pub fn terms<R: Rules>(&self, pos: &Position<R>) -> Vec<Term> {
        let f = features(pos);
        let p = phase(pos);
        let set = self.weights.for_variant(R::VARIANT);
        Feature::ALL
            .iter()
            .map(|&feature| {
                let i = feature as usize;
                Term {
                    name: feature.name(),
                    value: f[i],
                    score: weigh(set, &f, p, i),
                }
            })
            .collect()
    }

    /// The evaluation from White's point of view.
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let f = features(pos);
        let p = phase(pos);
        let set = self.weights.for_variant(R::VARIANT);
        (0..Feature::COUNT).map(|i| weigh(set, &f, p, i)).sum()
    }
}

#[inline]
fn weigh(set: &WeightSet, f: &Features, phase: i32, i: usize) -> i32 {
    let w = set.0[i];
    f[i] * (w.mg * phase + w.eg * (256 - phase)) / 256
}

impl<R: Rules> Evaluate<Position<R>> for Evaluator {
    type State = ();

    fn evaluate(&self, pos: &Position<R>) -> i32 {
        let s = self.white_score(pos);
        if pos.side() == Colour::White { s } else { -s }
    }
}

/// Positions at the extremes of what an evaluation sums (every piece a
/// king on one side, full rows of men, a lone king, no black piece), for
/// the tests that the largest weights allowed cannot overflow.
#[cfg(test)]
pub(crate) fn extreme_positions<R: Rules>() -> Vec<Position<R>> {
    use tiao_draughts::board::Geometry;
    let (n, men, h) = (R::Geometry::SQUARES, R::MEN, R::Geometry::SIZE / 2);
    [
        format!("W:WK1-{men}:BK{}-{n}", n - men + 1),
        format!("B:WK{}-{n}:B1-{men}", n - men + 1),
        format!("W:W{}-{}:BK{n}", h + 1, h + men),
        format!("B:WK1:B{}-{}", n - h - men + 1, n - h),
        format!("W:W{}-{n}:B1-{men}", n - men + 1),
        "W:WK1:B".to_string(),
    ]
    .iter()
    .map(|t| tiao_draughts::notation::read_fen::<R>(t).unwrap_or_else(|e| panic!("{t}: {e}")))
    .collect()
}
