//! The benchmark (`tiao bench`, text mode `bench`): a fixed set of positions searched to a fixed depth (one
//! thread unless told otherwise). The total node count is a signature of the search: it changes
//! only when search behaviour changes, so a change meant to be a pure speed-up
//! must keep it. Nodes per second measure speed. The evaluation searched
//! with can be chosen (`--eval`), and every run ends with the cost of one
//! evaluation of each kind on the bench positions, so the price per node of
//! the pattern evaluation against v1 shows in one run.

use crate::{Engine, MoveReading, Options, PositionText};
use std::time::{Duration, Instant};
use tiao_draughts::board::Variant;
use tiao_draughts::notation::MoveFormat;
use tiao_knowledge::eval::pattern_select::EvalChoice;
use tiao_search::{Limits, Params};

/// Depth searched per position by default.
pub const DEFAULT_DEPTH: u32 = 10;

/// The positions: (variant, FEN). Mostly international middle games and
/// endgames from Tiao's self-play, plus a few of each other variant.
pub const POSITIONS: &[(Variant, &str)] = &[
    (Variant::International, "W:W31-50:B1-20"),
    (
        Variant::International,
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    ),
    (
        Variant::International,
        "B:W28,30,32,33,35,36,37,39,40,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,14,15,16,17,19,21,22,24",
    ),
    (
        Variant::International,
        "W:W32,34,36,37,39,42,43,45,46,47,48,49:B1,2,3,4,5,6,7,15,16,17,21,23",
    ),
    (
        Variant::International,
        "B:W19,32,33,36,37,40,43,46,47,48,49:B1,2,3,4,5,11,15,17,18,21,26",
    ),
    (
        Variant::International,
        "B:W18,19,24,32,37,38,47,49:B2,3,4,5,17,21,25,26,28,36",
    ),
    (Variant::International, "W:W24,28,47,49:B4,5,7,25,27,36,37"),
    (Variant::International, "B:W18,19,29,47:B4,5,17,27,36,37,44"),
    (Variant::International, "W:WK2,20:B4,5,K23,27,31,36"),
    (
        Variant::International,
        "W:W26,27,32,33,34,35,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,13,14,15,16,17,18,19,24",
    ),
    (
        Variant::International,
        "B:W32,35,36,37,38,40,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,9,10,12,14,15,16,19,24",
    ),
    (
        Variant::International,
        "B:W26,27,32,33,34,35,36,45,46,47,49,50:B1,2,3,4,5,7,11,16,17,18,19,23,24",
    ),
    (
        Variant::International,
        "W:W6,27,43,45,46,47,50:B1,2,3,5,9,16,17,34",
    ),
    (
        Variant::International,
        "B:W6,19,34,43,46,47:B1,2,3,5,18,27,32",
    ),
    (Variant::International, "B:W6,K24,36,43:B1,2,32"),
    (Variant::International, "W:W6,14,K24,36:B1,32,37"),
    (
        Variant::International,
        "W:W30,31,32,33,35,36,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,13,14,15,16,17,18,19,22,24",
    ),
    (
        Variant::International,
        "W:W32,34,35,38,42,44,45,46,47,48,49,50:B1,2,4,5,6,10,15,16,17,19",
    ),
    (
        Variant::International,
        "B:W25,27,32,33,34,37,45,46,47,48,49,50:B1,2,5,6,9,16,17,19,23,24",
    ),
    (
        Variant::International,
        "W:W14,26,27,32,40,46,47,48,49,50:B1,2,5,6,16,17,23,33,39",
    ),
    (
        Variant::International,
        "B:WK8,27,32,35,46,47,48,49,50:B1,10,16,18,29,33,39",
    ),
    (Variant::International, "B:W19,K22,40,46,49:B6,37,K47"),
    (
        Variant::Russian,
        "B:W19,22,24,29,30,31,32:B1,2,4,6,11,12,14",
    ),
    (
        Variant::Russian,
        "W:W18,19,20,23,24,29,30:B4,9,10,11,12,14,17",
    ),
    (Variant::Brazilian, "B:W9,22,23,29:B3,4,28"),
    (Variant::Brazilian, "W:WK6,19,21,22:B11,14,K27"),
    (
        Variant::Canadian,
        "W:W40,43,45,47,48,49,50,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,22,23,24,25,28,29,30,32",
    ),
    (
        Variant::Canadian,
        "W:W43,44,45,46,47,53,54,55,56,57,58,59,61,62,65,66,67,68,69,70,71,72:B1,2,3,4,5,6,7,8,9,10,11,12,14,16,17,18,19,20,26,27,28,30,32",
    ),
    (
        Variant::Canadian,
        "W:W39,40,43,44,47,54,55,56,58,59,62,65,66,67,68,69,70,71,72:B1,2,3,4,5,6,7,8,10,14,16,17,18,19,26,27,28,29,30,32",
    ),
];

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
    /// Fraction of main-search table probes that hit.
    pub tt_hit_rate: f64,
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    pub depth: u32,
    pub threads: usize,
    pub hash_mib: usize,
    /// The evaluation searched with: `v1`, `pattern`, or `None` for the
    /// engine's default.
    pub eval: Option<&'static str>,
    /// A weights file loaded as the engine's `eval-file` option does.
    pub eval_file: Option<std::path::PathBuf>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            depth: DEFAULT_DEPTH,
            threads: 1,
            hash_mib: 64,
            eval: None,
            eval_file: None,
        }
    }
}

/// Run the bench at `depth`, writing a line per position and a summary.
pub fn run(depth: u32, line: &dyn Fn(&str)) -> Result<BenchResult, String> {
    run_with(
        BenchOptions {
            depth,
            ..BenchOptions::default()
        },
        line,
    )
}

/// Run the bench with the given options.
pub fn run_with(opts: BenchOptions, line: &dyn Fn(&str)) -> Result<BenchResult, String> {
    let mut engine = Engine::new(Options {
        threads: opts.threads,
        hash_mib: opts.hash_mib,
        ..Options::default()
    })
    .map_err(|e| e.to_string())?;
    if let Some(name) = opts.eval {
        engine.set_option("eval", name).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &opts.eval_file {
        engine
            .set_option("eval-file", &path.display().to_string())
            .map_err(|e| e.to_string())?;
    }
    let (mut nodes, mut probes, mut hits) = (0, 0, 0);
    let mut time = Duration::ZERO;
    // The variants' shares differ several times over in cost per node
    // (Canadian's 12x12 board and v1 evaluation), so the total alone would
    // hide the international rate, the one compared with Scan.
    let mut per_variant: Vec<(Variant, u64, Duration)> = Vec::new();
    for (i, (variant, fen)) in POSITIONS.iter().enumerate() {
        engine.set_variant(*variant).map_err(|e| e.to_string())?;
        engine.new_game();
        engine
            .set_position(PositionText::Fen(fen), &[], MoveReading::Any)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        let start = Instant::now();
        let params = Params::think(Limits::depth(opts.depth));
        let out = engine.search(&params, MoveFormat::Hub, &|_| {});
        let spent = start.elapsed();
        nodes += out.nodes;
        probes += out.stats.tt_probes;
        hits += out.stats.tt_hits;
        time += spent;
        match per_variant.iter_mut().find(|(v, ..)| v == variant) {
            Some((_, n, t)) => {
                *n += out.nodes;
                *t += spent;
            }
            None => per_variant.push((*variant, out.nodes, spent)),
        }
        line(&format!(
            "position {:>2} {:<13} nodes {:>10} time {:>7.3} best {}",
            i + 1,
            variant.name(),
            out.nodes,
            spent.as_secs_f64(),
            out.best.as_deref().unwrap_or("-")
        ));
    }
    let rate = |n: u64, t: Duration| n as f64 / t.as_secs_f64().max(1e-9);
    for (variant, n, t) in &per_variant {
        line(&format!(
            "variant {:<13} nodes {n:>10} time {:>7.3} nps {:.0}",
            variant.name(),
            t.as_secs_f64(),
            rate(*n, *t)
        ));
    }
    let nps = rate(nodes, time);
    let tt_hit_rate = if probes == 0 {
        0.0
    } else {
        hits as f64 / probes as f64
    };
    line(&format!(
        "bench nodes {nodes} time {:.3} nps {:.0} tt-hit-rate {:.3}",
        time.as_secs_f64(),
        nps,
        tt_hit_rate
    ));
    Ok(BenchResult {
        nodes,
        time,
        tt_hit_rate,
    })
}

/// Average cost of one static evaluation, in nanoseconds, for each of `v1`
/// and `pattern`, over the international bench positions (the variant the
/// pattern weights matter most for). Each position is evaluated many times
/// in a row, so the figure is the evaluation's own cost with warm caches:
/// a lower bound of what it adds to a search node. With `file`, the
/// pattern row evaluates with that weights file.
pub fn eval_cost(file: Option<&std::path::Path>) -> Result<Vec<(&'static str, f64)>, String> {
    use tiao_core::game::Evaluate;
    use tiao_draughts::board::{International, Position};
    use tiao_draughts::notation::read_fen;
    let positions: Vec<Position<International>> = POSITIONS
        .iter()
        .filter(|(v, _)| *v == Variant::International)
        .map(|(_, fen)| read_fen::<International>(fen).map_err(|e| format!("{fen}: {e}")))
        .collect::<Result<_, _>>()?;
    const ROUNDS: usize = 20_000;
    let mut out = Vec::new();
    for name in ["v1", "pattern"] {
        let eval = match file {
            Some(path) if name == "pattern" => EvalChoice::load(path)?,
            _ => EvalChoice::named(name)?,
        };
        let mut sum = 0i64;
        let start = Instant::now();
        for _ in 0..ROUNDS {
            for pos in &positions {
                sum += i64::from(eval.evaluate(std::hint::black_box(pos)));
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (ROUNDS * positions.len()) as f64;
        std::hint::black_box(sum);
        out.push((name, ns));
    }
    Ok(out)
}

/// Average cost of a transposition-table probe, in nanoseconds, on a table
/// of `mib` MiB filled with entries, probing random keys (half present).
pub fn tt_probe_cost(mib: usize) -> Result<f64, String> {
    use tiao_search::tt::{Bound, TranspositionTable};
    let tt = TranspositionTable::try_with_mib(mib).map_err(|e| e.to_string())?;
    let mut rng = tiao_core::rng::Rng::new(1);
    let mut next = move || rng.next_u64();
    let entries = tt.entries() as u64;
    let mut stored = Vec::with_capacity(entries as usize / 2);
    for _ in 0..entries / 2 {
        let k = next();
        tt.store(k, 1, 0, 1, Bound::Exact);
        stored.push(k);
    }
    let probes = 4_000_000u64;
    let keys: Vec<u64> = (0..probes)
        .map(|i| {
            if i % 2 == 0 {
                stored[(next() % stored.len() as u64) as usize]
            } else {
                next()
            }
        })
        .collect();
    let start = Instant::now();
    let mut found = 0u64;
    for k in &keys {
        found += u64::from(tt.probe(*k).is_some());
    }
    let ns = start.elapsed().as_nanos() as f64 / probes as f64;
    std::hint::black_box(found);
    Ok(ns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// The number after `name` in a line of `key value` pairs.
    fn field(line: &str, name: &str) -> u64 {
        let mut words = line.split_whitespace();
        words.find(|w| *w == name);
        words.next().and_then(|w| w.parse().ok()).unwrap_or(0)
    }

    #[test]
    fn each_variant_gets_a_subtotal_and_the_subtotals_make_the_total() {
        let lines = RefCell::new(Vec::new());
        let result = run(3, &|l| lines.borrow_mut().push(l.to_string())).expect("bench runs");
        let lines = lines.into_inner();
        let subtotals: Vec<&String> = lines.iter().filter(|l| l.starts_with("variant ")).collect();
        let mut variants: Vec<Variant> = POSITIONS.iter().map(|(v, _)| *v).collect();
        variants.dedup();
        assert_eq!(subtotals.len(), variants.len(), "{lines:#?}");
        for (line, v) in subtotals.iter().zip(&variants) {
            assert!(line.contains(v.name()), "{line}");
        }
        let sum: u64 = subtotals.iter().map(|l| field(l, "nodes")).sum();
        assert_eq!(sum, result.nodes);
        assert_eq!(
            field(lines.last().expect("a summary"), "nodes"),
            result.nodes
        );
    }
}
