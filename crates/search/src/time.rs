//! Search limits and time management: how long to think from the `level`
//! a GUI gave (fixed depth, nodes, time per move, or a clock with increment
//! and moves to the next control).
//!
//! Two deadlines come out: a *soft* one, after which no new iteration is
//! started (a new iteration would rarely finish), and a *hard* one, at which
//! the search stops wherever it is. The hard deadline keeps a safety margin
//! for the latency between engine and GUI, so Tiao never loses on time.

use std::time::Duration;

/// What the search may spend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub move_time: Option<Duration>,
    /// Time left on the clock.
    pub time: Option<Duration>,
    /// Increment added after each move.
    pub inc: Duration,
    /// Moves until the next time control (None: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
}

impl Limits {
    pub fn depth(d: u32) -> Self {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    pub fn nodes(n: u64) -> Self {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    pub fn move_time(t: Duration) -> Self {
        Limits {
            move_time: Some(t),
            ..Limits::default()
        }
    }

    /// Whether nothing bounds the search (it runs until stopped).
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.move_time.is_none()
                && self.time.is_none())
    }
}

/// Time margin kept for communication latency.
pub const LATENCY: Duration = Duration::from_millis(30);
/// Below this many increments on the clock, a move spends at most one
/// increment (see [`allocate`]).
const LOW_CLOCK_INCREMENTS: u32 = 5;
/// Moves assumed left in the game when the GUI does not say.
const DEFAULT_MOVES_LEFT: u32 = 30;

/// When to stop, relative to the start of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Deadlines {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

/// Allocate time for one move.
pub fn allocate(limits: &Limits) -> Deadlines {
    if limits.infinite {
        return Deadlines::default();
    }
    let mut d = Deadlines::default();
    if let Some(t) = limits.move_time {
        // A fixed time per move: use it all, minus a little for the reply
        // (no soft deadline: there is nothing to save time for).
        let t = t
            .saturating_sub(Duration::from_millis(5))
            .max(Duration::from_millis(1));
        d.hard = Some(t);
    }
    if let Some(left) = limits.time {
        let usable = left.saturating_sub(LATENCY);
        let moves = limits
            .moves_to_go
            .unwrap_or(DEFAULT_MOVES_LEFT)
            .clamp(1, DEFAULT_MOVES_LEFT);
        let (soft, hard) =
            if limits.inc > Duration::ZERO && left < limits.inc * LOW_CLOCK_INCREMENTS && moves > 1
            {
                // A clock down to a few increments: a move may spend at most
                // one increment, so the clock never shrinks and rebuilds a
                // reserve for moves a loaded machine answers late.
                // (At least a millisecond: a first iteration beats any move.)
                let hard = limits
                    .inc
                    .min(usable.mul_f64(0.4))
                    .max(Duration::from_millis(1));
                (hard / 2, hard)
            } else {
                // With a control a few moves away, spread the time evenly over them;
                // otherwise aim for a steady share plus most of the increment.
                let share = usable / moves + limits.inc.mul_f64(0.8);
                // Never more than a fraction of the clock on one move: the last
                // move before a control may take most of what is left, others less.
                let cap = if moves == 1 {
                    usable.mul_f64(0.9)
                } else {
                    usable.mul_f64(0.4)
                };
                let soft = share.min(cap);
                (soft, (soft * 4).min(cap).max(soft))
            };
        d.soft = Some(soft);
        d.hard = Some(d.hard.map_or(hard, |h| h.min(hard)));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn move_time_is_used_almost_entirely() {
        let d = allocate(&Limits::move_time(ms(1000)));
        assert_eq!(d.soft, None);
        assert_eq!(d.hard, Some(ms(995)));
    }

    #[test]
    fn a_clock_is_spread_over_the_remaining_moves() {
        let d = allocate(&Limits {
            time: Some(ms(60_000)),
            ..Limits::default()
        });
        let soft = d.soft.expect("soft");
        let hard = d.hard.expect("hard");
        assert!(soft >= ms(1_500) && soft <= ms(2_500), "{soft:?}");
        assert!(hard > soft && hard <= ms(24_000), "{hard:?}");
    }

    #[test]
    fn the_last_move_before_a_control_may_use_most_of_the_clock_but_not_all() {
        let d = allocate(&Limits {
            time: Some(ms(10_000)),
            moves_to_go: Some(1),
            ..Limits::default()
        });
        let hard = d.hard.expect("hard");
        assert!(hard > ms(5_000) && hard < ms(10_000) - LATENCY, "{hard:?}");
    }

    #[test]
    fn a_nearly_empty_clock_never_overruns() {
        let d = allocate(&Limits {
            time: Some(ms(40)),
            inc: ms(0),
            ..Limits::default()
        });
        assert!(d.hard.expect("hard") <= ms(10));
    }

    #[test]
    fn increment_adds_to_the_share() {
        let without = allocate(&Limits {
            time: Some(ms(30_000)),
            ..Limits::default()
        });
        let with = allocate(&Limits {
            time: Some(ms(30_000)),
            inc: ms(1_000),
            ..Limits::default()
        });
        assert!(with.soft > without.soft);
    }

    /// At 2+0.02 on a loaded machine engines lost on time with a clock of
    /// a few increments: there a move never spends more than the
    /// increment, so the clock cannot run down.
    #[test]
    fn a_clock_of_a_few_increments_never_shrinks() {
        let inc = ms(20);
        for left in [25, 40, 60, 80, 99] {
            let d = allocate(&Limits {
                time: Some(ms(left)),
                inc,
                ..Limits::default()
            });
            let hard = d.hard.expect("hard");
            assert!(hard <= inc, "{left} ms left: {hard:?}");
            assert!(
                hard <= ms(left).saturating_sub(LATENCY).max(ms(1)),
                "{left} ms left: {hard:?}"
            );
            assert!(d.soft.expect("soft") <= hard);
        }
        // Above five increments the usual share applies, more than one increment.
        let d = allocate(&Limits {
            time: Some(ms(2_000)),
            inc,
            ..Limits::default()
        });
        assert!(d.soft.expect("soft") > inc);
    }

    /// Played out move by move at 2+0.02, each move taking its whole hard
    /// deadline plus 10 ms of lag (half the increment), the clock never
    /// reaches zero.
    #[test]
    fn a_fast_game_with_lag_never_forfeits() {
        let inc = ms(20);
        let lag = ms(10);
        let mut left = ms(2_000);
        for _ in 0..300 {
            let d = allocate(&Limits {
                time: Some(left),
                inc,
                ..Limits::default()
            });
            let spent = d.hard.expect("hard") + lag;
            assert!(spent < left, "forfeit with {left:?} left");
            left = left - spent + inc;
        }
    }

    #[test]
    fn depth_and_node_limits_set_no_deadline() {
        assert_eq!(allocate(&Limits::depth(6)), Deadlines::default());
        assert_eq!(allocate(&Limits::nodes(1000)), Deadlines::default());
    }
}
