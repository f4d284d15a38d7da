//! `tiao train`: fit the pattern evaluation to game results by logistic
//! regression.
//!
//! The model predicts White's expected result as `sigmoid(eval / K)`, eval
//! in centi-men. K is fitted first, on the search scores of the data (the
//! K that best turns the playing engine's scores into results), and then
//! held fixed, so the trained evaluation stays in centi-men on the scale the
//! search's margins were tuned for. The target is the game result, blended
//! with `sigmoid(score / K)` by `lambda` (the search score is a less noisy
//! estimate of the same thing; `lambda = 0` fits results alone). The loss
//! is cross-entropy; its gradient for one position is `(q - y) / K` times
//! the gradient of the evaluation.
//!
//! Optimisation: Adam on mini-batches, the gradient of a batch computed in
//! parallel (rayon, one dense gradient per thread, summed), with L2
//! regularisation of the pattern tables. Games, not positions, are split
//! between training and validation (positions of one game are alike), and
//! the parameters of the epoch with the lowest validation loss are kept.

use super::data::Dataset;
use super::model::{Model, Samples};
use super::rng::{Rng, mix};
use crate::eval::pattern_file::PatternWeights;
use rayon::prelude::*;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    /// Adam step size, centi-men.
    pub lr: f32,
    /// Weight of the search score in the target (0: results only).
    pub lambda: f32,
    /// L2 regularisation of the shared and the region-specific tables.
    pub l2_shared: f32,
    pub l2_specific: f32,
    /// L2 regularisation of the tall windows' tables.
    pub l2_tall: f32,
    /// Adam step size of the tall windows' tables. Their entries are
    /// rare, and Adam moves a rare entry for many steps after one
    /// sighting, so they want a smaller step than the blocks.
    pub lr_tall: f32,
    /// Lazy Adam: a table entry (pattern, king square) that no position of
    /// the batch touches keeps its weight and its moments, instead of
    /// drifting on its momentum for the following steps: a rare entry is
    /// moved only when seen. The dense terms, seen in every batch, are
    /// updated as before.
    pub lazy: bool,
    /// Validate and keep a running average of the weights (decaying by
    /// [`AVERAGE_DECAY`] a step) instead of the last step's weights. Adam
    /// leaves the weights jittering around the minimum by about the step
    /// size; the average sits nearer its middle.
    pub average: bool,
    /// Fraction of the games held out for validation.
    pub validation: f64,
    pub seed: u64,
    /// Fixed K instead of fitting it.
    pub k: Option<f32>,
    /// Weights to start from (default: empty tables, v1's dense weights).
    pub init: Option<PatternWeights>,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// Dense terms left out (`pattern_dense` indices): their weights are
    /// held at zero, as if the evaluation did not have them. The samples
    /// must have them zeroed too ([`Samples::without`]).
    pub without: Vec<usize>,
    /// The king-square table held at zero (the samples must have no kings
    /// in it: [`Samples::without_king_squares`]).
    pub no_king_squares: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        // Found by the experiments of docs/training.md (`--lambda`: the
        // duels of docs/strength.md).
        TrainConfig {
            epochs: 10,
            batch: 4096,
            lr: 0.3,
            lambda: 0.5,
            l2_shared: 1e-9,
            l2_specific: 1e-8,
            l2_tall: 1e-8,
            lr_tall: 0.02,
            lazy: false,
            average: false,
            validation: 0.05,
            seed: 1,
            k: None,
            init: None,
            patience: 3,
            without: Vec::new(),
            no_king_squares: false,
        }
    }
}

/// Decay per step of the running average of `--average`: a memory of
/// about a thousand steps, under half an epoch of ten million positions.
pub const AVERAGE_DECAY: f32 = 0.999;

/// The losses after one epoch (epoch 0: before training).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    pub epoch: usize,
    /// Training loss against the blended target.
    pub train: f64,
    /// Validation loss against the same target (what selects the epoch).
    pub validation: f64,
    /// Validation loss against game results only (comparable across
    /// settings of lambda).
    pub validation_results: f64,
}

/// The outcome of a training run.
#[derive(Clone, Debug)]
pub struct Trained {
    pub weights: PatternWeights,
    pub k: f32,
    pub history: Vec<EpochLoss>,
    pub best_epoch: usize,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Validation loss of the search scores themselves, `sigmoid(score/K)`:
    /// what the playing engine's own judgement achieves.
    pub score_validation: f64,
    /// The trained parameters (of the best epoch), as the model holds them.
    pub params: Vec<f32>,
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `q` for target `y`, clamped away from log(0).
#[inline]
fn cross_entropy(y: f64, q: f64) -> f64 {
    let q = q.clamp(1e-7, 1.0 - 1e-7);
    -(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
}

/// Mean loss of the search scores at scale `k` (non-decisive scores only).
pub fn score_loss(s: &Samples, k: f64) -> f64 {
    let (sum, n) = (0..s.len())
        .into_par_iter()
        .filter(|&i| !s.decisive[i])
        .map(|i| {
            (
                cross_entropy(f64::from(s.result[i]), sigmoid(f64::from(s.score[i]) / k)),
                1usize,
            )
        })
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if n == 0 { f64::NAN } else { sum / n as f64 }
}

/// The K (centi-men) that best turns search scores into results: a
/// golden-section search on log K (the loss is unimodal in K).
pub fn fit_k(s: &Samples) -> f64 {
    let (mut a, mut b) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let f = |x: f64| score_loss(s, x.exp());
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Split record indices into training and validation by game.
pub fn split(data: &Dataset, validation: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let (mut train, mut val) = (Vec::new(), Vec::new());
    let mut at = 0;
    let cut = (validation.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    for h in &data.chunks {
        for i in at..at + h.count as usize {
            let g = h.first_game + u64::from(data.records[i].game);
            let key = mix(seed ^ mix((u64::from(h.shard) << 48) ^ (u64::from(h.shards) << 32) ^ g));
            if key < cut {
                val.push(i)
            } else {
                train.push(i)
            }
        }
        at += h.count as usize;
    }
    (train, val)
}

/// Mean cross-entropy of the model on samples, against `target`.
fn loss(model: &Model, p: &[f32], s: &Samples, k: f64, lambda: f64) -> f64 {
    if s.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = (0..s.len())
        .into_par_iter()
        .map(|n| {
            cross_entropy(
                target(s, n, k, lambda),
                sigmoid(f64::from(model.eval(p, s, n)) / k),
            )
        })
        .sum();
    sum / s.len() as f64
}

/// The training target of sample `n`: the result blended with the score.
#[inline]
fn target(s: &Samples, n: usize, k: f64, lambda: f64) -> f64 {
    let r = f64::from(s.result[n]);
    if s.decisive[n] || lambda == 0.0 {
        r
    } else {
        lambda * sigmoid(f64::from(s.score[n]) / k) + (1.0 - lambda) * r
    }
}

/// Train on `train`, validating on `val`. `log` receives a line per epoch.
pub fn train(
    model: &Model,
    train_set: &Samples,
    val_set: &Samples,
    cfg: &TrainConfig,
    log: &mut dyn FnMut(&str),
) -> Result<Trained, String> {
    if train_set.is_empty() {
        return Err("no training positions".into());
    }
    let k = match cfg.k {
        Some(k) => f64::from(k),
        None => fit_k(train_set),
    };
    let score_validation = score_loss(val_set, k);
    log(&format!(
        "K = {k:.1} centi-men; search scores alone: validation loss {score_validation:.5}"
    ));
    let mut p = match &cfg.init {
        Some(w) => model.params_from_weights(w)?,
        None => model.params_from_v1()?,
    };
    for &term in &cfg.without {
        let slot = model.dense_slot() + term;
        p[2 * slot] = 0.0;
        p[2 * slot + 1] = 0.0;
    }
    if cfg.no_king_squares {
        p[2 * model.king_slot()..].fill(0.0);
    }
    let n = p.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let lambda = f64::from(cfg.lambda);
    let mut history = vec![EpochLoss {
        epoch: 0,
        train: loss(model, &p, train_set, k, lambda),
        validation: loss(model, &p, val_set, k, lambda),
        validation_results: loss(model, &p, val_set, k, 0.0),
    }];
    log(&format!(
        "epoch   0  train {:.5}  validation {:.5}  (results {:.5})",
        history[0].train, history[0].validation, history[0].validation_results
    ));
    let mut best = (history[0].validation, 0usize, p.clone());
    let mut avg = cfg.average.then(|| p.clone());
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    let mut rng = Rng::new(cfg.seed);
    let threads = rayon::current_num_threads().max(1);
    let batch = cfg.batch.max(1);
    for epoch in 1..=cfg.epochs {
        rng.shuffle(&mut order);
        // Linear decay to a tenth of the step size over the run.
        let decay = 1.0 - 0.9 * (epoch - 1) as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.lr * decay;
        let lr_tall = cfg.lr_tall * decay;
        let mut train_loss = 0.0;
        for b in order.chunks(batch) {
            let part = b.len().div_ceil(threads);
            let (grad, l) = b
                .par_chunks(part.max(1))
                .map(|c| {
                    let mut g = vec![0f32; n];
                    let mut l = 0.0f64;
                    for &i in c {
                        let (e, d) = model.eval_divided(&p, train_set, i);
                        let q = sigmoid(f64::from(e) / k);
                        let y = target(train_set, i, k, lambda);
                        l += cross_entropy(y, q);
                        model.backward(&mut g, train_set, i, ((q - y) / k) as f32 / d);
                    }
                    (g, l)
                })
                .reduce(
                    || (Vec::new(), 0.0),
                    |(mut a, la), (bv, lb)| {
                        if a.is_empty() {
                            return (bv, la + lb);
                        }
                        for (x, y) in a.iter_mut().zip(&bv) {
                            *x += y;
                        }
                        (a, la + lb)
                    },
                );
            train_loss += l;
            if grad.is_empty() {
                continue;
            }
            step += 1;
            let inv = 1.0 / b.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            let (ls, lv, lt) = (cfg.l2_shared, cfg.l2_specific, cfg.l2_tall);
            p.par_iter_mut()
                .zip(m.par_iter_mut())
                .zip(v.par_iter_mut())
                .zip(grad.par_iter())
                .enumerate()
                .for_each(|(idx, (((w, m), v), g))| {
                    let slot = idx / 2;
                    if cfg.lazy && *g == 0.0 && !model.is_dense(slot) {
                        return;
                    }
                    let (l2, step) = if model.is_shared(slot) {
                        (ls, lr)
                    } else if model.is_specific(slot) {
                        (lv, lr)
                    } else if model.is_tall(slot) {
                        (lt, lr_tall)
                    } else {
                        (0.0, lr)
                    };
                    let g = g * inv + l2 * *w;
                    *m = beta1 * *m + (1.0 - beta1) * g;
                    *v = beta2 * *v + (1.0 - beta2) * g * g;
                    *w -= step * (*m / c1) / ((*v / c2).sqrt() + eps);
                });
            if let Some(avg) = &mut avg {
                avg.par_iter_mut()
                    .zip(p.par_iter())
                    .for_each(|(a, w)| *a += (1.0 - AVERAGE_DECAY) * (w - *a));
            }
        }
        // The weights this epoch would keep: the average, or the last step's.
        let kept = avg.as_deref().unwrap_or(&p);
        let e = EpochLoss {
            epoch,
            train: train_loss / train_set.len() as f64,
            validation: loss(model, kept, val_set, k, lambda),
            validation_results: loss(model, kept, val_set, k, 0.0),
        };
        log(&format!(
            "epoch {epoch:>3}  train {:.5}  validation {:.5}  (results {:.5}, step {lr:.3})",
            e.train, e.validation, e.validation_results
        ));
        history.push(e);
        if e.validation < best.0 || val_set.is_empty() {
            best = (e.validation, epoch, kept.to_vec());
        } else if epoch - best.1 >= cfg.patience {
            log(&format!(
                "no better validation loss for {} epochs: stopping",
                cfg.patience
            ));
            break;
        }
    }
    let (best_loss, best_epoch, p) = best;
    let results_loss = history[best_epoch].validation_results;
    let note = format!(
        "tiao train: {} training and {} validation positions, K {k:.1}, lambda {}, best epoch {best_epoch} \
         of {}, validation loss {best_loss:.5} (results {results_loss:.5})",
        train_set.len(),
        val_set.len(),
        cfg.lambda,
        history.len() - 1
    );
    let weights = model
        .export(&p, k as f32, note)
        .map_err(|e| e.to_string())?;
    let params = p;
    Ok(Trained {
        weights,
        k: k as f32,
        history,
        best_epoch,
        train_positions: train_set.len(),
        validation_positions: val_set.len(),
        score_validation,
        params,
    })
}
