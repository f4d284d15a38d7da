//! The pattern evaluation: weight tables indexed by the contents of
//! overlapping 4x4 regions of the board and, where the weights have them,
//! of tall 4x5 windows (`pattern_layout.rs`), plus the
//! terms a region cannot see (material, runaway men, tempo, king mobility,
//! the side to move: `pattern_dense.rs`) and a table of king squares,
//! interpolated between middle game and endgame by the number of pieces or
//! the men's advancement. The weights are fitted to game results by
//! `tiao train` and stored in `weights-pattern-<variant>.bin`
//! (`pattern_file.rs`).
//!
//! Each region's table holds both players' views at once: the trainer sets
//! entry `i` of a region to (White's value of the configuration) minus
//! (Black's value of the same squares seen from Black's side), so one
//! lookup per region serves both colours and the evaluation of the board
//! turned half a turn with colours swapped is exactly the negation.
//!
//! Variants without pattern weights (Canadian, or one whose file failed to
//! load) are evaluated by v1, so this evaluator can always replace v1.

use super::features;
use super::pattern_dense::{self, DENSE, NAMES};
use super::pattern_file::{PatternWeights, Phase, SCALE};
use super::pattern_layout::{CONFIGS, RegionIndices, TallIndices};
use super::{Evaluator, Term};
use std::marker::PhantomData;
use std::sync::Arc;
use tiao_core::bits::BitWord;
use tiao_core::game::Evaluate;
use tiao_draughts::board::{Colour, Geometry, Position, Rules, Variant};

/// The name of the king-square table among the evaluation's terms.
pub const KING_SQUARES: &str = "king-squares";

/// The built-in weights files, compiled in.
const BUILTIN: [(Variant, &[u8]); 3] = [
    (
        Variant::International,
        include_bytes!("weights-pattern-international.bin"),
    ),
    (
        Variant::Russian,
        include_bytes!("weights-pattern-russian.bin"),
    ),
    (
        Variant::Brazilian,
        include_bytes!("weights-pattern-brazilian.bin"),
    ),
];

/// The pattern evaluator for every draughts variant.
#[derive(Clone, Debug)]
pub struct PatternEval {
    /// Weights per variant (indexed like `Variant::ALL`); `None`: use v1.
    nets: [Option<Arc<PatternWeights>>; 4],
    /// Evaluation v1, for variants without pattern weights.
    v1: Evaluator,
}

impl Default for PatternEval {
    /// The built-in weights.
    fn default() -> Self {
        PatternEval::builtin()
    }
}

fn slot(v: Variant) -> usize {
    Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

impl PatternEval {
    /// No pattern weights at all: every variant evaluates like v1.
    pub fn v1_only() -> Self {
        PatternEval {
            nets: [None, None, None, None],
            v1: Evaluator::default(),
        }
    }

    /// The weights compiled into the binary. The shipped files are tested
    /// to load; should one not, its variant falls back to v1.
    pub fn builtin() -> Self {
        let mut e = PatternEval::v1_only();
        for (v, bytes) in BUILTIN {
            if let Ok(w) = PatternWeights::from_bytes(bytes, Some(v)) {
                e.nets[slot(v)] = Some(Arc::new(w));
            }
        }
        e
    }

    /// The built-in weights with one variant's replaced by a file; the
    /// variant is the file's own. On an error nothing is replaced and the
    /// caller keeps the evaluation it had.
    pub fn load(path: &std::path::Path) -> Result<Self, String> {
        let w = PatternWeights::load(path, None)?;
        Ok(PatternEval::builtin().with(w))
    }

    /// This evaluator with `w` for its variant.
    pub fn with(mut self, w: PatternWeights) -> Self {
        let v = w.variant;
        self.nets[slot(v)] = Some(Arc::new(w));
        self
    }

    /// This evaluator with no pattern weights for `v` (v1 evaluates it).
    pub fn without(mut self, v: Variant) -> Self {
        self.nets[slot(v)] = None;
        self
    }

    /// The weights used for a variant, if any.
    pub fn weights(&self, v: Variant) -> Option<&PatternWeights> {
        self.nets[slot(v)].as_deref()
    }

    /// The weights of `v`, shared, if any.
    pub fn weights_of(&self, v: Variant) -> Option<Arc<PatternWeights>> {
        self.nets[slot(v)].clone()
    }

    /// Evaluation v1, which evaluates the variants without pattern weights.
    pub fn v1(&self) -> &Evaluator {
        &self.v1
    }

    /// The evaluation in centi-men, White's view.
    #[inline]
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        match &self.nets[slot(R::VARIANT)] {
            Some(w) => score(w, pos),
            None => self.v1.white_score(pos),
        }
    }

    /// The terms of the evaluation (White's view): the pattern sum, then
    /// each dense term. They add up to `white_score` up to rounding.
    pub fn terms<R: Rules>(&self, pos: &Position<R>) -> Vec<Term> {
        match self.weights(R::VARIANT) {
            Some(w) => terms(w, pos),
            None => self.v1.terms(pos),
        }
    }
}

/// The terms of the evaluation with weights `w` (White's view): the pattern
/// sum, then each dense term. They add up to the score up to rounding.
fn terms<R: Rules>(w: &PatternWeights, pos: &Position<R>) -> Vec<Term> {
    let p = phase(w.phase, pos);
    let mix = |mg: i32, eg: i32| mix(mg, eg, p);
    let (mg, eg) = pattern_sum(w, pos);
    let mut out = vec![Term {
        name: "patterns",
        value: 1,
        score: mix(mg, eg),
    }];
    let f = pattern_dense::dense(pos);
    for (i, &name) in NAMES.iter().enumerate() {
        let (a, b) = w.dense[i];
        out.push(Term {
            name,
            value: f[i],
            score: mix(f[i] * a, f[i] * b),
        });
    }
    let (kmg, keg) = king_square_sum(w, pos);
    out.push(Term {
        name: KING_SQUARES,
        value: (pos.kings(Colour::White).count() + pos.kings(Colour::Black).count()) as i32,
        score: mix(kmg, keg),
    });
    let unscaled = {
        let (mut mg, mut eg) = (mg + kmg, eg + keg);
        for (v, &(a, b)) in f.iter().zip(&w.dense) {
            mg += v * a;
            eg += v * b;
        }
        mix(mg, eg)
    };
    // The whole score is this sum scaled, as `score_from` scales it.
    let whole = drawish(unscaled, pos);
    out.push(Term {
        name: "drawish",
        value: i32::from(whole != unscaled),
        score: whole - unscaled,
    });
    out
}

/// Middle-game and endgame values blended by phase (256: full board), in
/// centi-men. Division truncates towards zero, so a negated input gives
/// exactly the negated output.
#[inline(always)]
fn mix(mg: i32, eg: i32, phase: i32) -> i32 {
    let v = i64::from(mg) * i64::from(phase) + i64::from(eg) * i64::from(256 - phase);
    (v / (256 * i64::from(SCALE))) as i32
}

/// The men of each colour as board words (white, black). Supported boards
/// fit a u64 word (checked when the weights were loaded).
#[inline(always)]
fn men<R: Rules>(pos: &Position<R>) -> (u64, u64) {
    (
        pos.men(Colour::White).to_u128() as u64,
        pos.men(Colour::Black).to_u128() as u64,
    )
}

/// The indices of the regions of `pos`, read from the board.
#[inline(always)]
fn indices<R: Rules>(w: &PatternWeights, pos: &Position<R>) -> RegionIndices {
    let (white, black) = men(pos);
    w.layout.indices::<R::Geometry>(white, black)
}

/// The sum of the region tables, middle game and endgame, in table units.
#[inline(always)]
fn pattern_sum<R: Rules>(w: &PatternWeights, pos: &Position<R>) -> (i32, i32) {
    sum_of(w, &indices(w, pos), pos)
}

/// The sum of the region tables: the blocks at the given indices, the
/// tall windows (weights of format 4 only) read from the board.
#[inline(always)]
fn sum_of<R: Rules>(w: &PatternWeights, indices: &RegionIndices, pos: &Position<R>) -> (i32, i32) {
    let (mg, eg) = block_sum(w, indices);
    if w.layout.tall.is_empty() {
        return (mg, eg);
    }
    let (white, black) = men(pos);
    let state = w.layout.tall_state::<R::Geometry>(white, black);
    let (a, b) = tall_sum(w, w.layout.tall_entries(&state));
    (mg + a, eg + b)
}

/// The sum of the blocks' tables at the given indices, in table units.
#[inline(always)]
fn block_sum(w: &PatternWeights, indices: &RegionIndices) -> (i32, i32) {
    let (mut mg, mut eg) = (0i32, 0i32);
    for (table, &i) in w.tables.chunks_exact(CONFIGS).zip(&indices.blocks) {
        let e = table[usize::from(i)];
        mg += i32::from(e.mg);
        eg += i32::from(e.eg);
    }
    (mg, eg)
}

/// The sum of the tall tables' entries `entries`, in table units.
#[inline(always)]
fn tall_sum(w: &PatternWeights, entries: impl Iterator<Item = u32>) -> (i32, i32) {
    let (mut mg, mut eg) = (0i32, 0i32);
    for i in entries {
        let e = w.tall[i as usize];
        mg += i32::from(e.mg);
        eg += i32::from(e.eg);
    }
    (mg, eg)
}

/// The king-square table summed over the kings, White's view (table
/// units, middle game and endgame): a white king on square `s` adds entry
/// `s`, a black one subtracts the entry of the square half a turn away.
#[inline(always)]
fn king_square_sum<R: Rules>(w: &PatternWeights, pos: &Position<R>) -> (i32, i32) {
    let last = R::Geometry::SQUARES - 1;
    let entry = |sq: u32| w.king_squares.get(sq as usize).copied().unwrap_or((0, 0));
    let (mut mg, mut eg) = (0, 0);
    for b in pos.kings(Colour::White).iter() {
        let (a, e) = entry(R::Geometry::square_of(b));
        mg += a;
        eg += e;
    }
    for b in pos.kings(Colour::Black).iter() {
        let (a, e) = entry(last - R::Geometry::square_of(b));
        mg -= a;
        eg -= e;
    }
    (mg, eg)
}

/// The evaluation with weights `w`, centi-men, White's view.
#[inline]
fn score<R: Rules>(w: &PatternWeights, pos: &Position<R>) -> i32 {
    score_from(w, pattern_sum(w, pos), pos)
}

/// The evaluation given the sum of the region tables: the dense terms
/// added, middle game and endgame blended.
#[inline(always)]
fn score_from<R: Rules>(
    w: &PatternWeights,
    (mut mg, mut eg): (i32, i32),
    pos: &Position<R>,
) -> i32 {
    let (f, advancement) = pattern_dense::dense_and_advancement(pos);
    for (v, &(a, b)) in f.iter().zip(&w.dense) {
        mg += v * a;
        eg += v * b;
    }
    // Kings are rare before the endgame: most nodes skip the table.
    if pos.all_kings().any() {
        let (a, b) = king_square_sum(w, pos);
        mg += a;
        eg += b;
    }
    debug_assert_eq!(f.len(), DENSE);
    let phase = match w.phase {
        Phase::Pieces => features::phase(pos),
        Phase::Advancement => advancement,
    };
    drawish(mix(mg, eg, phase), pos)
}

/// The phase of `pos` as weights of phase kind `kind` blend it (256: the
/// middle game, 0: the endgame).
#[inline(always)]
pub fn phase<R: Rules>(kind: Phase, pos: &Position<R>) -> i32 {
    match kind {
        Phase::Pieces => features::phase(pos),
        Phase::Advancement => pattern_dense::advancement_phase(pos),
    }
}

/// The score scaled down where the material is drawish whatever the
/// patterns say (divided by [`drawish_divisor`] for the side it favours).
/// Division truncates towards zero, so the flipped position still
/// evaluates to exactly the negation.
#[inline(always)]
fn drawish<R: Rules>(score: i32, pos: &Position<R>) -> i32 {
    match score {
        0 => 0,
        s if s > 0 => s / drawish_divisor(pos, Colour::White),
        s => s / drawish_divisor(pos, Colour::Black),
    }
}

/// What a score in favour of `ahead` is divided by: 8 when `ahead` has
/// three pieces or fewer against a king (32 for the 8x8 main road, see
/// [`on_the_main_road`]), 2 when both have the same kings and men
/// within one of each other, else 1. The trained sums cannot see this: a
/// region's value is added whatever else is on the board. The trainer
/// divides its evaluation the same way.
#[inline(always)]
pub fn drawish_divisor<R: Rules>(pos: &Position<R>, ahead: Colour) -> i32 {
    let behind = !ahead;
    let behind_kings = pos.kings(behind).count();
    if behind_kings == 0 {
        return 1;
    }
    let (ahead_men, ahead_kings) = (pos.men(ahead).count(), pos.kings(ahead).count());
    if ahead_men + ahead_kings <= 3 {
        let lone_king = behind_kings == 1 && pos.men(behind).is_zero();
        if lone_king
            && ahead_kings > 0
            && ahead_men + ahead_kings == 3
            && on_the_main_road(pos, behind)
        {
            32
        } else {
            8
        }
    } else if ahead_kings == behind_kings && ahead_men.abs_diff(pos.men(behind).count()) <= 1 {
        2
    } else {
        1
    }
}

/// On 8x8, whether the king of `lone` stands on the long diagonal (the
/// "main road"): against three pieces with a king, the classic draw of
/// Russian and Brazilian endgames: off the road three kings win
/// (Petrov's triangle), on it they do not. In Tiao's own Russian 4-piece
/// databases, of random positions of three kings against a king on the
/// road, 64% are won with the three to move and 20% with the king to
/// move; in play the defender keeps to the road and draws. Scoring the
/// road at a 32nd of the score instead of an 8th played better in Russian
/// (`strength.md`); on 10x10 the ending is drawish on and off the
/// diagonal, as Scan's rule has it.
#[inline(always)]
fn on_the_main_road<R: Rules>(pos: &Position<R>, lone: Colour) -> bool {
    R::Geometry::SIZE == 8
        && pos.kings(lone).to_u128() as u64 & pattern_dense::long_diagonal::<R::Geometry>() != 0
}

/// What the search carries from a position to its children for the
/// pattern evaluation: which windows' indices ([`Blocks`] or
/// [`BlocksAndTall`]), and how they are summed.
pub trait Carried: Send + Sync + 'static {
    type State: Clone + Default + PartialEq + std::fmt::Debug;
    /// The state of `men` (white, black), read from the board.
    fn state<G: Geometry>(w: &PatternWeights, men: (u64, u64)) -> Self::State;
    /// Bring `state` from the men `before` to the men `after`.
    fn update(w: &PatternWeights, state: &mut Self::State, before: (u64, u64), after: (u64, u64));
    /// The sum of the region tables (table units, middle game and endgame).
    fn sum<R: Rules>(w: &PatternWeights, state: &Self::State, pos: &Position<R>) -> (i32, i32);
}

/// The blocks' indices; tall windows, where the weights have them, are
/// read from the board at each evaluation.
pub struct Blocks;

/// The blocks' and the tall windows' indices: for weights with tall
/// tables, whose windows would otherwise be read from the board at every
/// evaluation (a third of the node rate: `benchmarks.md`).
pub struct BlocksAndTall;

impl Carried for Blocks {
    type State = RegionIndices;

    #[inline(always)]
    fn state<G: Geometry>(w: &PatternWeights, (white, black): (u64, u64)) -> RegionIndices {
        w.layout.indices::<G>(white, black)
    }

    #[inline(always)]
    fn update(
        w: &PatternWeights,
        state: &mut RegionIndices,
        before: (u64, u64),
        after: (u64, u64),
    ) {
        w.layout.update(state, before, after);
    }

    #[inline(always)]
    fn sum<R: Rules>(w: &PatternWeights, state: &RegionIndices, pos: &Position<R>) -> (i32, i32) {
        sum_of(w, state, pos)
    }
}

impl Carried for BlocksAndTall {
    type State = (RegionIndices, TallIndices);

    #[inline(always)]
    fn state<G: Geometry>(w: &PatternWeights, (white, black): (u64, u64)) -> Self::State {
        (
            w.layout.indices::<G>(white, black),
            w.layout.tall_state::<G>(white, black),
        )
    }

    #[inline(always)]
    fn update(w: &PatternWeights, state: &mut Self::State, before: (u64, u64), after: (u64, u64)) {
        w.layout.update(&mut state.0, before, after);
        w.layout.tall_update(&mut state.1, before, after);
    }

    #[inline(always)]
    fn sum<R: Rules>(w: &PatternWeights, state: &Self::State, _: &Position<R>) -> (i32, i32) {
        let (mg, eg) = block_sum(w, &state.0);
        let (a, b) = tall_sum(w, w.layout.tall_entries(&state.1));
        (mg + a, eg + b)
    }
}

/// The pattern evaluation of rule set `R`: `R`'s weights, held by whoever
/// evaluates `R` (a session of `R`, a search): the same values as
/// [`PatternEval`], without its per-position lookup of the variant. `C`
/// says which windows the search carries from node to node
/// ([`EvalChoice::of_rules`](super::pattern_select::EvalChoice::of_rules)
/// picks [`BlocksAndTall`] for weights with tall tables).
pub struct PatternOf<R: Rules, C: Carried = Blocks> {
    weights: Arc<PatternWeights>,
    rules: PhantomData<fn() -> (R, C)>,
}

impl<R: Rules, C: Carried> Clone for PatternOf<R, C> {
    fn clone(&self) -> Self {
        PatternOf::new(self.weights.clone())
    }
}

impl<R: Rules, C: Carried> std::fmt::Debug for PatternOf<R, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternOf<{}>", R::VARIANT)
    }
}

impl<R: Rules, C: Carried> PatternOf<R, C> {
    /// `weights` must be `R`'s (as [`PatternEval::weights_of`] gives them).
    pub fn new(weights: Arc<PatternWeights>) -> Self {
        debug_assert_eq!(weights.variant, R::VARIANT);
        PatternOf {
            weights,
            rules: PhantomData,
        }
    }

    pub fn weights(&self) -> &PatternWeights {
        &self.weights
    }

    /// The terms of the evaluation (White's view), as [`PatternEval::terms`].
    pub fn terms(&self, pos: &Position<R>) -> Vec<Term> {
        terms(&self.weights, pos)
    }
}

/// The search carries the region indices from a position to its children
/// (the men that moved, were taken or promoted change a few regions), so a
/// node reads 49 table entries instead of rebuilding 49 indices.
impl<R: Rules, C: Carried> Evaluate<Position<R>> for PatternOf<R, C> {
    type State = C::State;

    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        let s = score(&self.weights, pos);
        if pos.side() == Colour::White { s } else { -s }
    }

    #[inline]
    fn state(&self, pos: &Position<R>) -> C::State {
        C::state::<R::Geometry>(&self.weights, men(pos))
    }

    #[inline]
    fn state_after(&self, state: &C::State, parent: &Position<R>, child: &Position<R>) -> C::State {
        let mut out = state.clone();
        C::update(&self.weights, &mut out, men(parent), men(child));
        out
    }

    #[inline]
    fn evaluate_with(&self, state: &C::State, pos: &Position<R>) -> i32 {
        // Test builds check every carried state against the board.
        debug_assert_eq!(
            *state,
            C::state::<R::Geometry>(&self.weights, men(pos)),
            "carried window indices"
        );
        let s = score_from(&self.weights, C::sum(&self.weights, state, pos), pos);
        if pos.side() == Colour::White { s } else { -s }
    }
}

impl<R: Rules> Evaluate<Position<R>> for PatternEval {
    type State = ();

    #[inline]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        let s = self.white_score(pos);
        if pos.side() == Colour::White { s } else { -s }
    }
}
