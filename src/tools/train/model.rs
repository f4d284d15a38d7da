//! The trainable form of the pattern evaluation: its parameters, the
//! compact training sample of a position, the forward pass and gradient,
//! and the conversion to the engine's integer weights.
//!
//! Parameters are in centi-men, each with a middle-game and an endgame
//! value (interleaved: slot `s` is `p[2s]`, `p[2s + 1]`):
//!
//! - a *shared* table per band of regions with the same top row (and so the
//!   same shape and distance from the crowning rows): what a configuration
//!   is worth anywhere along that band;
//! - a *specific* table per region: the correction for that place (edges,
//!   flanks), regularised harder, so it only moves away from zero where the
//!   data supports it;
//! - the dense terms (`crates/knowledge/src/eval/pattern_dense.rs`);
//! - the king-square table, a value per square for a king of the player
//!   there (a white king on `s` adds entry `s`, a black one subtracts the
//!   entry of the square half a turn away, as the engine does);
//! - with tall windows (`Model::with_tall`), a table per band of them
//!   (windows with the same top row), a player's value of a window being
//!   its band's entry, as the engine's band tables hold them.
//!
//! A player's value of region `r` in configuration `i` (seen from its own
//! side) is `shared[band(r)][i] + specific[r][i]`. The engine's table entry
//! for region `r` is White's value minus Black's, and Black sees the
//! squares of `r` as its region `rotated[r]` in configuration `SWAP[i]`
//! (see `crates/knowledge/src/eval/pattern.rs`). Training fits exactly that function, so the
//! exported tables reproduce the trained evaluation up to rounding.

use super::data::{DECISIVE, Record};
use crate::bits::BitWord;
use crate::board::{Colour, Geometry, Rules, Variant};
use crate::eval::pattern::{drawish_divisor, phase};
use crate::eval::pattern_dense::{DENSE, dense};
use crate::eval::pattern_file::{Entry, PatternFileError, PatternWeights, Phase, SCALE};
use crate::eval::pattern_layout::{CONFIGS, Layout, SWAP, TALL_CONFIGS, tall_swap};
use crate::eval::weights::Weights;
use rayon::prelude::*;

/// The parameter layout of one variant.
#[derive(Clone, Debug)]
pub struct Model {
    pub variant: Variant,
    pub layout: Layout,
    /// Band (distinct top row) of each region.
    pub band: Vec<usize>,
    pub bands: usize,
    /// What blends the middle-game and endgame values.
    pub phase: Phase,
    /// Bands of tall windows (0: the model has none).
    pub tall_bands: usize,
}

/// Training positions in compact form (structure of arrays).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Regions per sample.
    pub regions: usize,
    /// `index[s * regions + r]`: region `r`'s configuration (White's view).
    pub index: Vec<u16>,
    /// Tall windows per sample (0 without them).
    pub talls: usize,
    /// `tall[s * talls + t]`: tall window `t`'s configuration (White's view).
    pub tall: Vec<u32>,
    /// `dense[s * DENSE + k]`: dense term values (White minus Black).
    pub dense: Vec<i16>,
    /// The kings of sample `s` are `kings[king_at[s]..king_at[s + 1]]`:
    /// `1 + q` for a white king on square `q` (0-based), `-(1 + q)` for a
    /// black king on the square half a turn away from `q`.
    pub kings: Vec<i8>,
    pub king_at: Vec<u32>,
    /// Phase in [0, 1] (1: full board).
    pub phase: Vec<f32>,
    /// Game result for White: 1, 0.5, 0.
    pub result: Vec<f32>,
    /// Search score, centi-men, White's view.
    pub score: Vec<f32>,
    /// Whether the score is a search result rather than an evaluation.
    pub decisive: Vec<bool>,
    /// What the evaluation is divided by when it favours White, and when
    /// it favours Black (`pattern::drawish_divisor`: 1, 2, 8 or 32).
    pub drawish: Vec<[u8; 2]>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.phase.len()
    }
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// The samples with the dense terms `terms` read as zero everywhere,
    /// so training gives them no gradient (an evaluation without them).
    pub fn without(&mut self, terms: &[usize]) {
        for row in self.dense.chunks_exact_mut(DENSE) {
            for &t in terms {
                row[t] = 0;
            }
        }
    }

    /// The samples with no king on any square of the king-square table:
    /// an evaluation without it.
    pub fn without_king_squares(&mut self) {
        self.kings.clear();
        self.king_at.fill(0);
    }

    /// The king-square entries of sample `n`.
    #[inline(always)]
    fn kings_of(&self, n: usize) -> &[i8] {
        match (self.king_at.get(n), self.king_at.get(n + 1)) {
            (Some(&a), Some(&b)) => self.kings.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

impl Model {
    pub fn new(variant: Variant) -> Result<Model, String> {
        let layout = Layout::for_variant(variant)
            .ok_or_else(|| format!("the pattern evaluation does not support {variant}"))?;
        let mut tops: Vec<u32> = layout.regions.iter().map(|r| r.top).collect();
        tops.sort_unstable();
        tops.dedup();
        let band = layout
            .regions
            .iter()
            .map(|r| tops.iter().position(|&t| t == r.top).unwrap_or(0))
            .collect();
        Ok(Model {
            variant,
            bands: tops.len(),
            band,
            layout: layout.without_tall(),
            phase: Phase::Pieces,
            tall_bands: 0,
        })
    }

    /// This model with the tall windows of its board.
    pub fn with_tall(mut self) -> Model {
        if let Some(full) = Layout::for_variant(self.variant) {
            self.layout = full;
            self.tall_bands = self.layout.tall_bands();
        }
        self
    }

    /// This model with phase kind `phase`.
    pub fn with_phase(mut self, phase: Phase) -> Model {
        self.phase = phase;
        self
    }

    pub fn regions(&self) -> usize {
        self.layout.len()
    }

    /// First slot of the shared tables, the specific tables and the dense terms.
    pub fn shared_slot(&self, band: usize) -> usize {
        band * CONFIGS
    }
    pub fn specific_slot(&self, region: usize) -> usize {
        (self.bands + region) * CONFIGS
    }
    pub fn dense_slot(&self) -> usize {
        (self.bands + self.regions()) * CONFIGS
    }
    /// First slot of the king-square table.
    pub fn king_slot(&self) -> usize {
        self.dense_slot() + DENSE
    }
    /// First slot of band `band`'s tall table.
    pub fn tall_slot(&self, band: usize) -> usize {
        self.king_slot() + self.variant.squares() as usize + band * TALL_CONFIGS
    }
    /// Number of slots (each a middle-game and an endgame value).
    pub fn slots(&self) -> usize {
        self.tall_slot(self.tall_bands)
    }

    /// Whether slot `s` belongs to a tall table.
    pub fn is_tall(&self, s: usize) -> bool {
        s >= self.tall_slot(0)
    }

    /// Whether slot `s` is a dense term's (seen by every position).
    pub fn is_dense(&self, s: usize) -> bool {
        (self.dense_slot()..self.king_slot()).contains(&s)
    }

    /// Whether slot `s` belongs to a shared table (for regularisation).
    pub fn is_shared(&self, s: usize) -> bool {
        s < self.bands * CONFIGS
    }
    pub fn is_specific(&self, s: usize) -> bool {
        s >= self.bands * CONFIGS && s < self.dense_slot()
    }

    /// The starting point of a first training: empty tables, v1's weights
    /// for the dense terms it shares.
    pub fn params_from_v1(&self) -> Result<Vec<f32>, String> {
        let w = PatternWeights::from_v1(self.variant, &Weights::builtin())
            .map_err(|e| e.to_string())?;
        self.params_from_weights(&w)
    }

    /// Parameters that reproduce engine weights: each table entry split
    /// evenly between the two players' views (the entry is White's value
    /// minus Black's, and antisymmetry makes halves exact), shared tables zero.
    pub fn params_from_weights(&self, w: &PatternWeights) -> Result<Vec<f32>, String> {
        if w.variant != self.variant {
            return Err(format!(
                "initial weights are for {}, the data for {}",
                w.variant, self.variant
            ));
        }
        let mut p = vec![0.0; 2 * self.slots()];
        let s = SCALE as f32;
        for r in 0..self.regions() {
            let base = self.specific_slot(r);
            for i in 0..CONFIGS {
                let e = w.tables[r * CONFIGS + i];
                p[2 * (base + i)] = f32::from(e.mg) / s / 2.0;
                p[2 * (base + i) + 1] = f32::from(e.eg) / s / 2.0;
            }
        }
        let d = self.dense_slot();
        for k in 0..DENSE {
            p[2 * (d + k)] = w.dense[k].0 as f32 / s;
            p[2 * (d + k) + 1] = w.dense[k].1 as f32 / s;
        }
        let ks = self.king_slot();
        for (q, &(mg, eg)) in w.king_squares.iter().enumerate() {
            p[2 * (ks + q)] = mg as f32 / s;
            p[2 * (ks + q) + 1] = eg as f32 / s;
        }
        if !w.tall.is_empty() {
            if self.tall_bands == 0 {
                return Err("the initial weights have tall windows; train with --tall".into());
            }
            // Split evenly between the views, as the block tables.
            let t = self.tall_slot(0);
            for (i, e) in w.tall.iter().enumerate() {
                p[2 * (t + i)] = f32::from(e.mg) / s / 2.0;
                p[2 * (t + i) + 1] = f32::from(e.eg) / s / 2.0;
            }
        }
        Ok(p)
    }

    /// The engine's weights from parameters.
    pub fn export(
        &self,
        p: &[f32],
        k: f32,
        note: String,
    ) -> Result<PatternWeights, PatternFileError> {
        let mut w = PatternWeights::from_v1(self.variant, &Weights::builtin())?;
        if self.tall_bands > 0 {
            w = w.with_tall();
        }
        let s = SCALE as f32;
        let q = |x: f32| (x * s).round().clamp(-32767.0, 32767.0) as i16;
        for r in 0..self.regions() {
            let rot = self.layout.rotated[r];
            let (own_s, own_v) = (self.shared_slot(self.band[r]), self.specific_slot(r));
            let (opp_s, opp_v) = (self.shared_slot(self.band[rot]), self.specific_slot(rot));
            for i in 0..CONFIGS {
                let j = SWAP[i] as usize;
                // Each player's value is summed the same way for the region
                // and its partner, so the partner's entry is the exact negation.
                let v = |h: usize| {
                    let own = p[2 * (own_s + i) + h] + p[2 * (own_v + i) + h];
                    let opp = p[2 * (opp_s + j) + h] + p[2 * (opp_v + j) + h];
                    own - opp
                };
                w.tables[r * CONFIGS + i] = Entry {
                    mg: q(v(0)),
                    eg: q(v(1)),
                };
            }
        }
        let d = self.dense_slot();
        for k in 0..DENSE {
            w.dense[k] = (
                (p[2 * (d + k)] * s).round() as i32,
                (p[2 * (d + k) + 1] * s).round() as i32,
            );
        }
        let ks = self.king_slot();
        for (q, e) in w.king_squares.iter_mut().enumerate() {
            *e = (
                (p[2 * (ks + q)] * s).round() as i32,
                (p[2 * (ks + q) + 1] * s).round() as i32,
            );
        }
        let swap = tall_swap();
        for band in 0..self.tall_bands {
            let (own, mirror) = (
                self.tall_slot(band),
                self.tall_slot(self.tall_bands - 1 - band),
            );
            for (i, &j) in swap.iter().enumerate() {
                let v = |h: usize| p[2 * (own + i) + h] - p[2 * (mirror + j as usize) + h];
                w.tall[band * TALL_CONFIGS + i] = Entry {
                    mg: q(v(0)),
                    eg: q(v(1)),
                };
            }
        }
        w.k = k;
        w.phase = self.phase;
        w.note = note;
        // Rounding keeps symmetry (round-half-away-from-zero is odd), but
        // check: a file that fails this would be refused by the engine.
        w.check_symmetry()?;
        Ok(w)
    }

    /// Compact samples of records (in parallel). Records that do not
    /// decode are counted and skipped.
    pub fn samples(&self, records: &[Record]) -> (Samples, usize) {
        tiao_draughts::with_rules!(self.variant, R => self.samples_of::<R>(records))
    }

    fn samples_of<R: Rules>(&self, records: &[Record]) -> (Samples, usize) {
        let regions = self.regions();
        type One = (
            (Vec<u16>, Vec<u32>),
            [i16; DENSE],
            Vec<i8>,
            f32,
            f32,
            f32,
            bool,
            [u8; 2],
        );
        let last = R::Geometry::SQUARES - 1;
        let decoded: Vec<Option<One>> = records
            .par_iter()
            .map(|rec| {
                let pos = rec.position::<R>().ok()?;
                let white = pos.men(Colour::White).to_u128() as u64;
                let black = pos.men(Colour::Black).to_u128() as u64;
                let index = self
                    .layout
                    .regions
                    .iter()
                    .map(|r| r.index(white, black) as u16)
                    .collect();
                let tall = (self.layout.tall.iter())
                    .map(|t| t.index::<R::Geometry>(white, black) as u32)
                    .collect();
                let f = dense(&pos);
                let dense = f.map(|x| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16);
                let square = |b| R::Geometry::square_of(b);
                let kings = (pos.kings(Colour::White).iter())
                    .map(|b| 1 + square(b) as i8)
                    .chain(
                        (pos.kings(Colour::Black).iter()).map(|b| -(1 + (last - square(b)) as i8)),
                    )
                    .collect();
                let result = (f32::from(rec.result) + 1.0) / 2.0;
                let divisor = |c| drawish_divisor(&pos, c) as u8;
                let drawish = [divisor(Colour::White), divisor(Colour::Black)];
                Some((
                    (index, tall),
                    dense,
                    kings,
                    phase(self.phase, &pos) as f32 / 256.0,
                    result,
                    f32::from(rec.score),
                    rec.flags & DECISIVE != 0,
                    drawish,
                ))
            })
            .collect();
        let mut s = Samples {
            regions,
            talls: self.layout.tall.len(),
            king_at: vec![0],
            ..Samples::default()
        };
        let mut bad = 0;
        for d in decoded {
            match d {
                Some(((index, tall), dense, kings, ph, result, score, decisive, drawish)) => {
                    s.index.extend(index);
                    s.tall.extend(tall);
                    s.dense.extend(dense);
                    s.kings.extend(kings);
                    s.king_at.push(s.kings.len() as u32);
                    s.phase.push(ph);
                    s.result.push(result);
                    s.score.push(score);
                    s.decisive.push(decisive);
                    s.drawish.push(drawish);
                }
                None => bad += 1,
            }
        }
        (s, bad)
    }

    /// The table slots that sample `n` reads, with their sign: each region
    /// adds White's view of it (the shared and the specific entry) and
    /// subtracts Black's (the rotated region's entries of the swapped
    /// configuration), as the engine's table entry does.
    #[inline(always)]
    fn table_slots<'a>(
        &'a self,
        s: &'a Samples,
        n: usize,
    ) -> impl Iterator<Item = (usize, f32)> + 'a {
        let idx = &s.index[n * s.regions..(n + 1) * s.regions];
        let blocks = idx.iter().enumerate().flat_map(move |(r, &i)| {
            let i = i as usize;
            let j = SWAP[i] as usize;
            let rot = self.layout.rotated[r];
            [
                (self.shared_slot(self.band[r]) + i, 1.0),
                (self.specific_slot(r) + i, 1.0),
                (self.shared_slot(self.band[rot]) + j, -1.0),
                (self.specific_slot(rot) + j, -1.0),
            ]
        });
        let swap = tall_swap();
        let tall = &s.tall[n * s.talls..(n + 1) * s.talls];
        let tall = tall.iter().zip(&self.layout.tall).flat_map(move |(&i, t)| {
            let band = t.top as usize;
            [
                (self.tall_slot(band) + i as usize, 1.0),
                (
                    self.tall_slot(self.tall_bands - 1 - band) + swap[i as usize] as usize,
                    -1.0,
                ),
            ]
        });
        blocks.chain(tall)
    }

    /// The evaluation of sample `n` in centi-men, White's view: the sum,
    /// divided where the material is drawish as the engine divides it.
    #[inline]
    pub fn eval(&self, p: &[f32], s: &Samples, n: usize) -> f32 {
        self.eval_divided(p, s, n).0
    }

    /// The evaluation of sample `n` and what its sum was divided by.
    #[inline]
    pub fn eval_divided(&self, p: &[f32], s: &Samples, n: usize) -> (f32, f32) {
        let raw = self.sum(p, s, n);
        let d = f32::from(s.drawish[n][usize::from(raw < 0.0)]);
        (raw / d, d)
    }

    /// The evaluation of sample `n` before the drawish division.
    #[inline]
    fn sum(&self, p: &[f32], s: &Samples, n: usize) -> f32 {
        let ph = s.phase[n];
        let (mut mg, mut eg) = (0.0f32, 0.0f32);
        for (slot, sign) in self.table_slots(s, n) {
            mg += sign * p[2 * slot];
            eg += sign * p[2 * slot + 1];
        }
        let d = self.dense_slot();
        for k in 0..DENSE {
            let v = f32::from(s.dense[n * DENSE + k]);
            mg += v * p[2 * (d + k)];
            eg += v * p[2 * (d + k) + 1];
        }
        for (slot, sign) in self.king_slots(s, n) {
            mg += sign * p[2 * slot];
            eg += sign * p[2 * slot + 1];
        }
        mg * ph + eg * (1.0 - ph)
    }

    /// Add `g` times the gradient of sample `n`'s sum (the evaluation
    /// before the drawish division: divide `g` by the divisor that
    /// [`Model::eval_divided`] gives) to `grad`.
    #[inline]
    pub fn backward(&self, grad: &mut [f32], s: &Samples, n: usize, g: f32) {
        let ph = s.phase[n];
        let (gm, ge) = (g * ph, g * (1.0 - ph));
        for (slot, sign) in self.table_slots(s, n) {
            grad[2 * slot] += sign * gm;
            grad[2 * slot + 1] += sign * ge;
        }
        let d = self.dense_slot();
        for k in 0..DENSE {
            let v = f32::from(s.dense[n * DENSE + k]);
            grad[2 * (d + k)] += gm * v;
            grad[2 * (d + k) + 1] += ge * v;
        }
        for (slot, sign) in self.king_slots(s, n) {
            grad[2 * slot] += sign * gm;
            grad[2 * slot + 1] += sign * ge;
        }
    }

    /// The king-square slots that sample `n` reads, with their sign.
    #[inline(always)]
    fn king_slots<'a>(
        &'a self,
        s: &'a Samples,
        n: usize,
    ) -> impl Iterator<Item = (usize, f32)> + 'a {
        let ks = self.king_slot();
        s.kings_of(n).iter().map(move |&k| {
            let q = usize::from(k.unsigned_abs()) - 1;
            (ks + q, if k > 0 { 1.0 } else { -1.0 })
        })
    }
}
