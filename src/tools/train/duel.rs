//! `tiao duel`: a quick in-process match between two evaluations (pattern
//! weights files, or evaluation v1), each driving its own single-threaded
//! search at a fixed node budget or a fixed time per move. Every opening is
//! played twice with colours swapped; games run in parallel, a loop per
//! thread (`tools::workers`).
//! It reports Elo with a 95% interval and, if asked, runs an SPRT (the
//! statistics of `tiao match`: `tools::match_runner::{stats, sprt}`).
//!
//! This is the training loop's own check (no processes, no protocol, so it
//! is cheap enough to run after every training); `tiao match` plays real
//! engines through the Hub protocol and gives the figures to publish.

use super::adjudicate::WinStreak;
use super::openings::load_ballot;
use crate::board::{Colour, Outcome, Position, Rules, Variant};
use crate::eval::pattern_select::{EvalChoice, WithEvaluator};
use crate::game::Evaluate;
use crate::movegen::{MoveList, generate};
use crate::record::GameHistory;
use crate::search::score::WIN_BOUND;
use crate::search::{Limits, Mode, Params, Root, Searcher};
use crate::tools::match_runner::sprt::{Decision, Sprt};
use crate::tools::match_runner::stats::{Tally, estimate};
use crate::tools::workers::on_threads;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Settings of a duel.
#[derive(Clone, Debug)]
pub struct DuelConfig {
    pub variant: Variant,
    /// The two sides: evaluation v1 with the given weights (built-in or a
    /// v1 text file), or pattern weights.
    pub a: EvalChoice,
    pub b: EvalChoice,
    /// Nodes per move (when set) ...
    pub nodes: Option<u64>,
    /// ... or time per move.
    pub movetime: Duration,
    /// A ballot file; `None`: every opening of `opening_plies` plies.
    pub openings: Option<PathBuf>,
    pub opening_plies: u32,
    /// Games to play (rounded up to pairs); with an SPRT, the most.
    pub games: u32,
    pub sprt: Option<Sprt>,
    pub threads: usize,
    pub hash_mib: usize,
    pub max_plies: u32,
    pub adjudicate: i32,
    pub adjudicate_plies: u32,
    pub quiet: bool,
}

/// The result of a duel, from A's side.
#[derive(Clone, Debug)]
pub struct DuelResult {
    pub tally: Tally,
    pub elo: f64,
    pub ci: f64,
    pub llr: Option<f64>,
    pub verdict: Option<Decision>,
    pub openings: usize,
}

/// Every opening of `plies` plies from the start, one per resulting
/// position, in move generator order.
pub fn all_openings<R: Rules>(plies: u32) -> Vec<GameHistory<R>> {
    fn walk<R: Rules>(
        game: &mut GameHistory<R>,
        left: u32,
        seen: &mut HashSet<u64>,
        out: &mut Vec<GameHistory<R>>,
    ) {
        if game.outcome().is_some() {
            return;
        }
        if left == 0 {
            if seen.insert(game.position().hash()) {
                out.push(game.clone());
            }
            return;
        }
        let mut list = MoveList::<R>::new();
        generate(game.position(), &mut list);
        for mv in list {
            game.play(mv);
            walk(game, left - 1, seen, out);
            game.undo();
        }
    }
    let mut out = Vec::new();
    walk(
        &mut GameHistory::new(Position::start()),
        plies,
        &mut HashSet::new(),
        &mut out,
    );
    out
}

/// Run a duel.
pub fn run(cfg: &DuelConfig) -> Result<DuelResult, String> {
    tiao_draughts::with_rules!(cfg.variant, R => with_a::<R>(cfg))
}

/// Each side searches with the evaluator a session of `R` would
/// ([`EvalChoice::of_rules`]), so a duel by time sees the engine's speed.
fn with_a<R: Rules>(cfg: &DuelConfig) -> Result<DuelResult, String> {
    cfg.a.with_evaluator::<R, _>(SideA(cfg))
}

/// The duel, given side A's evaluator as a concrete type.
struct SideA<'a>(&'a DuelConfig);

impl<R: Rules> WithEvaluator<R> for SideA<'_> {
    type Output = Result<DuelResult, String>;
    fn run<A: Evaluate<Position<R>>>(self, a: &A) -> Self::Output {
        self.0.b.with_evaluator::<R, _>(SideB(self.0, a))
    }
}

/// The duel, given both sides' evaluators as concrete types.
struct SideB<'a, A>(&'a DuelConfig, &'a A);

impl<R: Rules, A: Evaluate<Position<R>>> WithEvaluator<R> for SideB<'_, A> {
    type Output = Result<DuelResult, String>;
    fn run<B: Evaluate<Position<R>>>(self, b: &B) -> Self::Output {
        play_duel::<R, A, B>(self.0, self.1, b)
    }
}

fn play_duel<R: Rules, A: Evaluate<Position<R>> + Sync, B: Evaluate<Position<R>> + Sync>(
    cfg: &DuelConfig,
    a: &A,
    b: &B,
) -> Result<DuelResult, String> {
    let openings = match &cfg.openings {
        Some(p) => load_ballot::<R>(p)?,
        None => all_openings::<R>(cfg.opening_plies),
    };
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let pairs = cfg.games.div_ceil(2) as usize;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let tally = Mutex::new(Tally::default());
    let bar = if cfg.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(2 * pairs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let threads = cfg.threads.max(1);
    let work = || {
        let searchers =
            Searcher::new(1, cfg.hash_mib).and_then(|x| Ok((x, Searcher::new(1, cfg.hash_mib)?)));
        let (mut sa, mut sb) = searchers.map_err(|e| e.to_string())?;
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= pairs || stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let opening = &openings[k % openings.len()];
            let first = play_game(cfg, opening, true, (&mut sa, a), (&mut sb, b));
            bar.inc(1);
            let second = play_game(cfg, opening, false, (&mut sa, a), (&mut sb, b));
            bar.inc(1);
            let Ok(mut t) = tally.lock() else {
                return Ok(());
            };
            add_pair(&mut t, first, second);
            let (elo, ci) = elo_interval(&t);
            let mut msg = format!(
                "+{} ={} -{}  Elo {elo:+.1} ± {ci:.1}",
                t.wins, t.draws, t.losses
            );
            if let Some(sprt) = &cfg.sprt {
                let llr = sprt.llr(&t.pairs);
                msg.push_str(&format!("  LLR {llr:.2}"));
                if sprt.decide(llr, t.pair_count()) != Decision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            bar.set_message(msg);
        }
    };
    let ran = on_threads(threads, "tiao-duel", work);
    bar.finish_and_clear();
    ran?;
    let t = tally
        .into_inner()
        .map_err(|_| "a duel thread panicked".to_string())?;
    let (elo, ci) = elo_interval(&t);
    Ok(DuelResult {
        tally: t,
        elo,
        ci,
        llr: cfg.sprt.map(|s| s.llr(&t.pairs)),
        verdict: cfg.sprt.map(|s| s.decide(s.llr(&t.pairs), t.pair_count())),
        openings: openings.len(),
    })
}

/// Count a pair of games: A's points in each (0, 0.5 or 1).
fn add_pair(t: &mut Tally, first: f64, second: f64) {
    let half = |x: f64| (x * 2.0).round().clamp(0.0, 2.0) as u8;
    t.add_game(half(first));
    t.add_game(half(second));
    t.add_pair(half(first) + half(second));
}

/// Elo and the half-width of its 95% interval (pentanomial, as `tiao match`).
fn elo_interval(t: &Tally) -> (f64, f64) {
    estimate(t).map_or((0.0, f64::INFINITY), |e| {
        // `+ 0.0` turns the -0.0 of an even score into 0.0 for printing.
        (e.elo + 0.0, (e.elo_high - e.elo_low) / 2.0)
    })
}

/// One search.
fn think<R: Rules, E: Evaluate<Position<R>>>(
    searcher: &mut Searcher,
    eval: &E,
    game: &GameHistory<R>,
    cfg: &DuelConfig,
) -> (Option<crate::board::Move<crate::board::Word<R>>>, i32) {
    let root = Root {
        position: *game.position(),
        counters: game.counters(),
        history: game.reversible_hashes(),
    };
    let limits = match cfg.nodes {
        Some(n) => Limits::nodes(n),
        None => Limits::move_time(cfg.movetime),
    };
    searcher.prepare(Mode::Think);
    let out = searcher.search(&root, eval, &Params::think(limits), &|_| {});
    (out.best, out.score)
}

/// Play one game from `opening`; returns A's points (1, 0.5, 0).
fn play_game<R: Rules, A: Evaluate<Position<R>>, B: Evaluate<Position<R>>>(
    cfg: &DuelConfig,
    opening: &GameHistory<R>,
    a_white: bool,
    (sa, a): (&mut Searcher, &A),
    (sb, b): (&mut Searcher, &B),
) -> f64 {
    sa.clear();
    sb.clear();
    let mut game = opening.clone();
    let mut streak = WinStreak::new(cfg.adjudicate, cfg.adjudicate_plies);
    let white_points = loop {
        if let Some(o) = game.outcome() {
            break match o {
                Outcome::Win(Colour::White) => 1.0,
                Outcome::Win(Colour::Black) => 0.0,
                Outcome::Draw(_) => 0.5,
            };
        }
        if game.moves().len() as u32 >= cfg.max_plies {
            break 0.5;
        }
        let white_moves = game.position().side() == Colour::White;
        let (best, score) = if white_moves == a_white {
            think(sa, a, &game, cfg)
        } else {
            think(sb, b, &game, cfg)
        };
        let Some(mv) = best else {
            break if white_moves { 0.0 } else { 1.0 };
        };
        let score_white = if white_moves { score } else { -score };
        // A win found by the mover's search: both would play it out.
        if score.abs() > WIN_BOUND {
            break if score_white > 0 { 1.0 } else { 0.0 };
        }
        if let Some(sign) = streak.observe(score_white) {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        game.play(mv);
    };
    if a_white {
        white_points
    } else {
        1.0 - white_points
    }
}
