//! Time controls: the `--tc` syntax, and the clock the runner keeps for each
//! side of a game.
//!
//! The runner owns the clocks. It tells an engine what it has left with a
//! Hub `level` line, measures the time from its `go` to the engine's `done`
//! itself, and decides forfeits; what the engine thinks its clock says does
//! not matter.
//!
//! Syntax (seconds are decimals):
//! - `movetime=0.1` — a fixed time for every move;
//! - `60+0.5` — 60 s for the game, 0.5 s added before each move;
//! - `40/60` — 40 moves in 60 s, then the same again; `40/60+0.5` adds an
//!   increment;
//! - `nodes=10000`, `depth=6` — no clock, a search limit per move. The
//!   runner then only guards against hangs (`--move-timeout`).
//!
//! The increment is added *before* each move, as the Hub protocol describes
//! it, so the `time` sent to an engine is exactly what it may spend on the
//! move it is about to make.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control, as given with `--tc`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time for every move.
    MoveTime(Duration),
    /// A clock: `base` for the game (or for each period of `moves` moves),
    /// plus `inc` before each move.
    Clock {
        base: Duration,
        inc: Duration,
        moves: Option<u32>,
    },
    /// A node limit per move; no clock.
    Nodes(u64),
    /// A depth limit per move; no clock.
    Depth(u32),
}

impl TimeControl {
    /// Whether the runner keeps a clock (and so can forfeit on time).
    pub fn is_clocked(&self) -> bool {
        matches!(self, TimeControl::MoveTime(_) | TimeControl::Clock { .. })
    }
}

/// Seconds as a short decimal: `60`, `0.5`, `0.125`.
pub fn format_seconds(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".into() } else { s.into() }
}

/// Read a number of seconds: a finite, non-negative decimal below a year.
pub fn parse_seconds(text: &str, what: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 3.2e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{what} must be a number of seconds, not '{text}'"))
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "movetime={}", format_seconds(*t)),
            TimeControl::Clock { base, inc, moves } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", format_seconds(*base))?;
                if !inc.is_zero() {
                    write!(f, "+{}", format_seconds(*inc))?;
                }
                Ok(())
            }
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

const TC_HELP: &str = "expected movetime=S, BASE+INC (e.g. 60+0.5), MOVES/BASE[+INC] \
                       (e.g. 40/60), nodes=N or depth=N";

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let t = text.trim();
        let bad = |why: &str| format!("bad time control '{text}': {why}");
        if let Some((key, value)) = t.split_once('=') {
            return match key.trim() {
                "movetime" | "move-time" => {
                    let d = parse_seconds(value, "movetime").map_err(|e| bad(&e))?;
                    if d.is_zero() {
                        return Err(bad("movetime must be more than 0"));
                    }
                    Ok(TimeControl::MoveTime(d))
                }
                "nodes" => match value.trim().parse::<u64>() {
                    Ok(n) if n > 0 => Ok(TimeControl::Nodes(n)),
                    _ => Err(bad("nodes must be a whole number above 0")),
                },
                "depth" => match value.trim().parse::<u32>() {
                    Ok(d) if (1..=100).contains(&d) => Ok(TimeControl::Depth(d)),
                    _ => Err(bad("depth must be a whole number from 1 to 100")),
                },
                _ => Err(bad(TC_HELP)),
            };
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, rest)) => match m.trim().parse::<u32>() {
                Ok(m) if m > 0 => (Some(m), rest),
                _ => return Err(bad("the moves before '/' must be a whole number above 0")),
            },
            None => (None, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        if base.trim().is_empty() {
            return Err(bad(TC_HELP));
        }
        let base = parse_seconds(base, "the base time").map_err(|e| bad(&e))?;
        let inc = match inc {
            Some(i) => parse_seconds(i, "the increment").map_err(|e| bad(&e))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && inc.is_zero() {
            return Err(bad("a clock needs a base time or an increment above 0"));
        }
        Ok(TimeControl::Clock { base, inc, moves })
    }
}

/// What one move may cost, as the runner sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveBudget {
    /// The pairs of the `level` line to send before `go`.
    pub level: Vec<(&'static str, String)>,
    /// The time the move may take (before the latency margin); `None`
    /// without a clock.
    pub allowed: Option<Duration>,
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Time left, as of the end of the side's last move.
    remaining: Duration,
    /// Moves made by this side so far.
    moves_made: u32,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Self {
        let remaining = match tc {
            TimeControl::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        Clock {
            tc,
            remaining,
            moves_made: 0,
        }
    }

    /// Whether every move has the same fixed time.
    pub fn is_move_time(&self) -> bool {
        matches!(self.tc, TimeControl::MoveTime(_))
    }

    /// Time left on the clock (for clocks; zero otherwise).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Start the side's next move: adds the increment and says what to send
    /// and how long the move may take.
    pub fn start_move(&mut self) -> MoveBudget {
        match self.tc {
            TimeControl::MoveTime(t) => MoveBudget {
                level: vec![("move-time", format_seconds(t))],
                allowed: Some(t),
            },
            TimeControl::Nodes(n) => MoveBudget {
                level: vec![("nodes", n.to_string())],
                allowed: None,
            },
            TimeControl::Depth(d) => MoveBudget {
                level: vec![("depth", d.to_string())],
                allowed: None,
            },
            TimeControl::Clock { inc, moves, .. } => {
                self.remaining += inc;
                let mut level = Vec::with_capacity(3);
                if let Some(m) = moves {
                    level.push(("moves", (m - self.moves_made % m).to_string()));
                }
                level.push(("time", format_seconds(self.remaining)));
                if !inc.is_zero() {
                    level.push(("inc", format_seconds(inc)));
                }
                MoveBudget {
                    level,
                    allowed: Some(self.remaining),
                }
            }
        }
    }

    /// The move took `used`. Returns false when it took longer than allowed
    /// plus `margin` (a time forfeit); otherwise charges the clock.
    pub fn finish_move(&mut self, used: Duration, margin: Duration) -> bool {
        self.moves_made += 1;
        match self.tc {
            TimeControl::MoveTime(t) => used <= t + margin,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => true,
            TimeControl::Clock { base, moves, .. } => {
                if used > self.remaining + margin {
                    return false;
                }
                // Within the margin the clock stops at zero: the margin is
                // forgiveness for latency, not extra time.
                self.remaining = self.remaining.saturating_sub(used);
                if let Some(m) = moves
                    && self.moves_made.is_multiple_of(m)
                {
                    self.remaining += base;
                }
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn every_form_parses_and_prints_back() {
        for text in [
            "movetime=0.1",
            "60+0.5",
            "40/60",
            "40/60+0.5",
            "nodes=10000",
            "depth=6",
            "0+0.1",
        ] {
            let tc: TimeControl = text.parse().expect(text);
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!(
            "60".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                base: ms(60_000),
                inc: ms(0),
                moves: None
            })
        );
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        for text in [
            "",
            "fast",
            "movetime=0",
            "nodes=-3",
            "depth=0",
            "x/60",
            "0/60",
            "60+",
            "+1",
            "0",
            "60+x",
            "inf",
        ] {
            let e = text.parse::<TimeControl>().expect_err(text);
            assert!(e.contains("bad time control"), "{e}");
        }
    }

    #[test]
    fn increment_is_added_before_each_move() {
        let mut c = Clock::new("1+0.5".parse().expect("tc"));
        let b = c.start_move();
        assert_eq!(b.allowed, Some(ms(1_500)));
        assert_eq!(
            b.level,
            vec![("time", "1.5".to_string()), ("inc", "0.5".to_string())]
        );
        assert!(c.finish_move(ms(1_000), ms(50)));
        assert_eq!(c.remaining(), ms(500));
        assert_eq!(c.start_move().allowed, Some(ms(1_000)));
        // Over the clock, but within the margin: no forfeit, the clock stops at 0.
        assert!(c.finish_move(ms(1_040), ms(50)));
        assert_eq!(c.remaining(), ms(0));
        c.start_move();
        assert!(!c.finish_move(ms(600), ms(50)));
    }

    #[test]
    fn moves_per_period_refill_the_clock() {
        let mut c = Clock::new("2/10".parse().expect("tc"));
        let b = c.start_move();
        assert_eq!(b.level[0], ("moves", "2".to_string()));
        assert!(c.finish_move(ms(4_000), ms(0)));
        assert_eq!(c.start_move().level[0], ("moves", "1".to_string()));
        assert!(c.finish_move(ms(5_000), ms(0)));
        // The second move closed the period: 1 s left plus a new 10 s.
        assert_eq!(c.remaining(), ms(11_000));
        assert_eq!(c.start_move().level[0], ("moves", "2".to_string()));
    }

    #[test]
    fn move_time_forfeits_only_past_the_margin() {
        let mut c = Clock::new(TimeControl::MoveTime(ms(100)));
        assert_eq!(c.start_move().level, vec![("move-time", "0.1".into())]);
        assert!(c.finish_move(ms(140), ms(50)));
        assert!(!c.finish_move(ms(151), ms(50)));
        let mut n = Clock::new(TimeControl::Nodes(10));
        assert_eq!(n.start_move().allowed, None);
        assert!(n.finish_move(Duration::from_secs(1000), ms(0)));
    }
}
