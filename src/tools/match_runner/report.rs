//! The final report on stdout: one row per pairing (games, W/D/L, score,
//! Elo with its 95% interval, LOS, draw ratio), then per pairing the pair
//! tally, the SPRT's standing and how the games ended — failures by engine
//! first, since a match with forfeits needs a second look.

use super::arbiter::TerminationKind;
use super::results::PairingResults;
use super::stats::format_elo;
use std::fmt::Write;

/// What the report says besides the pairings.
pub struct Heading<'a> {
    pub names: &'a [String],
    /// E.g. `head-to-head, international, tc 10+0.1`.
    pub description: String,
    pub games: u32,
    /// Of `games`, those read back from an earlier run (`--resume`);
    /// `seconds` is this run's time.
    pub resumed: u32,
    pub seconds: f64,
    /// Processes restarted, per engine.
    pub restarts: &'a [u32],
}

impl Heading<'_> {
    /// What was played, how many games and in what time.
    pub fn summary(&self) -> String {
        let games = match self.resumed {
            0 => format!("{} games", self.games),
            n => format!(
                "{} games ({n} read back, {} played)",
                self.games,
                self.games - n
            ),
        };
        format!("{}; {games} in {:.1} s", self.description, self.seconds)
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v))
}

fn times(n: u32) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{n} times")
    }
}

fn describe(counts: &std::collections::BTreeMap<TerminationKind, u32>) -> String {
    counts
        .iter()
        .map(|(k, n)| format!("{} {n}", k.short()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The whole report.
pub fn render(h: &Heading, pairings: &[PairingResults]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Match: {}", h.summary());
    let label = |p: &PairingResults| {
        format!(
            "{} vs {}",
            h.names[p.pairing.first], h.names[p.pairing.second]
        )
    };
    let width = pairings
        .iter()
        .map(|p| label(p).chars().count())
        .max()
        .unwrap_or(0)
        .max("pairing".len());
    let _ = writeln!(
        out,
        "\n{:<width$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}  {:<17} {:>6} {:>6}",
        "pairing", "games", "W", "D", "L", "score", "elo", "95% interval", "LOS", "draws"
    );
    for p in pairings {
        let t = &p.tally;
        let e = p.estimate();
        // Without spread between pairs (identical deterministic engines, or
        // one pair) the interval would claim certainty it does not have.
        let interval = match e {
            Some(e) if e.std_error > 0.0 => {
                format!("[{}, {}]", format_elo(e.elo_low), format_elo(e.elo_high))
            }
            Some(_) => "(no spread)".into(),
            None => "-".into(),
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}  {:<17} {:>6} {:>6}",
            label(p),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            percent(t.score()),
            e.map_or("-".into(), |e| format_elo(e.elo)),
            interval,
            percent(e.map(|e| e.los)),
            percent(t.draw_ratio())
        );
    }
    for p in pairings {
        let t = &p.tally;
        let _ = writeln!(out, "\n{}:", label(p));
        let basis = match p.estimate() {
            Some(e) if e.from_pairs => match t.pair_count() {
                1 => "Elo from 1 game pair".into(),
                n => format!("Elo from {n} game pairs"),
            },
            Some(_) => "Elo from single games (no complete pairs)".into(),
            None => "no games".into(),
        };
        let _ = writeln!(
            out,
            "  pairs by points of {} (0, 1/2, 1, 3/2, 2): {} {} {} {} {}; {basis}",
            h.names[p.pairing.first], t.pairs[0], t.pairs[1], t.pairs[2], t.pairs[3], t.pairs[4]
        );
        if let (Some(sprt), Some(llr)) = (p.sprt, p.llr()) {
            let (lo, hi) = sprt.bounds();
            let _ = write!(
                out,
                "  SPRT {sprt}: LLR {llr:.2} (bounds {lo:.2}, {hi:.2}): "
            );
            match p.sprt_stop {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "{} after {} pairs (LLR {:.2}); games already under way were finished",
                        s.decision.describe(),
                        s.pairs,
                        s.llr
                    );
                }
                None => {
                    let pairs = t.pair_count();
                    let _ = write!(out, "{}", sprt.decide(llr, pairs).describe());
                    if pairs < sprt.min_pairs {
                        let _ = write!(out, "; no decision before {} pairs", sprt.min_pairs);
                    }
                    let _ = writeln!(out);
                }
            }
        }
        let _ = writeln!(out, "  endings: {}", describe(&p.endings));
        for (i, engine) in [p.pairing.first, p.pairing.second].into_iter().enumerate() {
            if !p.failures[i].is_empty() {
                let _ = writeln!(
                    out,
                    "  failures of {}: {}",
                    h.names[engine],
                    describe(&p.failures[i])
                );
            }
        }
    }
    let restarted: Vec<String> = h
        .restarts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| format!("{} {}", h.names[i], times(*n)))
        .collect();
    if !restarted.is_empty() {
        let _ = writeln!(out, "\nengines restarted: {}", restarted.join(", "));
    }
    out
}
