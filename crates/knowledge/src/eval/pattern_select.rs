//! The evaluation an engine plays with, chosen at run time: evaluation v1
//! (hand-set feature weights, `weights-v1.txt` format) or the pattern
//! evaluation (`weights-pattern-<variant>.bin`). The engine holds one
//! `EvalChoice` (the options' choice, for every variant); a session of rule
//! set `R` owns its part, [`EvalOf<R>`] (v1, or `PatternOf<R>` with `R`'s
//! weights), and [`EvalOf::with_evaluator`] hands a search the concrete
//! evaluator, so the search is compiled per evaluator and never branches
//! on the choice.
//!
//! A weights file is recognised by its content: pattern files start with
//! the `TIAOPATW` magic, anything else is read as v1 text. A file that fails
//! to load is an error, and the caller keeps the evaluation it had.

use super::pattern::{BlocksAndTall, PatternEval, PatternOf};
use super::pattern_file::{MAGIC, PatternWeights};
use super::weights::Weights;
use super::{Evaluator, Term};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use tiao_core::game::Evaluate;
use tiao_draughts::board::{Position, Rules};

/// Either evaluation.
#[derive(Clone, Debug)]
pub enum EvalChoice {
    V1(Evaluator),
    Pattern(PatternEval),
}

impl Default for EvalChoice {
    /// The pattern evaluation with the built-in weights.
    fn default() -> Self {
        EvalChoice::Pattern(PatternEval::builtin())
    }
}

impl EvalChoice {
    /// The built-in weights of an evaluation named `v1` or `pattern`.
    pub fn named(name: &str) -> Result<EvalChoice, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "v1" => Ok(EvalChoice::V1(Evaluator::default())),
            "pattern" => Ok(EvalChoice::Pattern(PatternEval::builtin())),
            other => Err(format!(
                "unknown evaluation '{other}' (expected v1 or pattern)"
            )),
        }
    }

    /// The evaluation of a weights file: pattern weights (replacing the
    /// built-in ones of the file's variant) or v1 text weights.
    pub fn load(path: &Path) -> Result<EvalChoice, String> {
        let bytes = tiao_core::files::read(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        // Parsed from the bytes just read: the file is read once.
        let named = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        if bytes.starts_with(MAGIC) {
            let w = PatternWeights::from_bytes(&bytes, None).map_err(|e| named(&e))?;
            Ok(EvalChoice::Pattern(PatternEval::builtin().with(w)))
        } else {
            let text = String::from_utf8(bytes)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let w = Weights::parse(&text).map_err(|e| named(&e))?;
            Ok(EvalChoice::V1(Evaluator::new(w)))
        }
    }

    /// `v1` or `pattern`.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::V1(_) => "v1",
            EvalChoice::Pattern(_) => "pattern",
        }
    }

    /// The evaluation in centi-men, White's view.
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        match self {
            EvalChoice::V1(e) => e.white_score(pos),
            EvalChoice::Pattern(e) => e.white_score(pos),
        }
    }

    /// The terms of the evaluation, White's view.
    pub fn terms<R: Rules>(&self, pos: &Position<R>) -> Vec<Term> {
        match self {
            EvalChoice::V1(e) => e.terms(pos),
            EvalChoice::Pattern(e) => e.terms(pos),
        }
    }
}

/// Code to run with the evaluation as a concrete type (a search, say), so
/// that it is compiled for that evaluator: no choice between evaluations and
/// no lookup of the variant's weights at each position.
pub trait WithEvaluator<R: Rules> {
    type Output;
    fn run<E: Evaluate<Position<R>>>(self, eval: &E) -> Self::Output;
}

impl EvalChoice {
    /// The built-in pattern evaluation, read once and shared (a session
    /// that was given no other evaluation uses it).
    pub fn builtin() -> &'static EvalChoice {
        static BUILTIN: OnceLock<EvalChoice> = OnceLock::new();
        BUILTIN.get_or_init(EvalChoice::default)
    }

    /// This evaluation for rule set `R`, to be owned by whatever evaluates
    /// `R`: v1, or the pattern evaluation with `R`'s weights (v1 where `R`
    /// has none). It evaluates exactly as `self` does.
    pub fn of_rules<R: Rules>(&self) -> EvalOf<R> {
        match self {
            EvalChoice::V1(e) => EvalOf::V1(Arc::new(e.clone())),
            EvalChoice::Pattern(p) => match p.weights_of(R::VARIANT) {
                Some(weights) if !weights.layout.tall.is_empty() => {
                    EvalOf::PatternTall(PatternOf::new(weights))
                }
                Some(weights) => EvalOf::Pattern(PatternOf::new(weights)),
                None => EvalOf::V1(Arc::new(p.v1().clone())),
            },
        }
    }

    /// Run `w` with this evaluation for rule set `R` as a concrete type
    /// (see [`EvalChoice::of_rules`]).
    pub fn with_evaluator<R: Rules, W: WithEvaluator<R>>(&self, w: W) -> W::Output {
        self.of_rules::<R>().with_evaluator(w)
    }
}

/// The evaluation of one rule set `R`, with `R`'s weights: what a session
/// of `R` owns and hands its searches.
#[derive(Clone, Debug)]
pub enum EvalOf<R: Rules> {
    V1(Arc<Evaluator>),
    Pattern(PatternOf<R>),
    /// Weights with tall windows, whose indices the search carries too.
    PatternTall(PatternOf<R, BlocksAndTall>),
}

impl<R: Rules> EvalOf<R> {
    /// Run `w` with the evaluation as a concrete type, so that the search
    /// is compiled per evaluator and never branches on the choice.
    pub fn with_evaluator<W: WithEvaluator<R>>(&self, w: W) -> W::Output {
        match self {
            EvalOf::V1(e) => w.run(&**e),
            EvalOf::Pattern(p) => w.run(p),
            EvalOf::PatternTall(p) => w.run(p),
        }
    }

    /// The terms of the evaluation, White's view.
    pub fn terms(&self, pos: &Position<R>) -> Vec<Term> {
        match self {
            EvalOf::V1(e) => e.terms(pos),
            EvalOf::Pattern(p) => p.terms(pos),
            EvalOf::PatternTall(p) => p.terms(pos),
        }
    }
}

impl<R: Rules> Evaluate<Position<R>> for EvalOf<R> {
    type State = ();

    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        match self {
            EvalOf::V1(e) => e.evaluate(pos),
            EvalOf::Pattern(p) => p.evaluate(pos),
            EvalOf::PatternTall(p) => p.evaluate(pos),
        }
    }
}

impl<R: Rules> Evaluate<Position<R>> for EvalChoice {
    type State = ();

    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        match self {
            EvalChoice::V1(e) => e.evaluate(pos),
            EvalChoice::Pattern(e) => e.evaluate(pos),
        }
    }
}
