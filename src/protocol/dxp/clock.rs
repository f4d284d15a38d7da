//! Both players' clocks. DXP carries no clock (the seconds in `M` are
//! informational), so each side keeps its own: Tiao's runs from the
//! moment it may move until its move is sent, the peer's from then until
//! the peer's move arrives. They give Tiao's search limits and bound how
//! long Tiao waits for the peer.

use crate::board::Colour;
use crate::search::Limits;
use std::time::Duration;
use tokio::time::Instant;

/// Below this, plan as if the clock were empty (it is about to be).
const NEARLY_EMPTY: Duration = Duration::from_millis(200);
/// Thinking time per move once a clock is (nearly) empty: moving at once
/// is all that is left, and DXP has no time forfeit to fear.
const EMPTY_CLOCK_MOVE_TIME: Duration = Duration::from_millis(50);

/// Two clocks, one running at a time.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Time left for White and for Black (before the running period).
    left: [Duration; 2],
    running: Option<(Colour, Instant)>,
    /// Moves per side the time is for (0: the whole game).
    moves: u32,
}

fn index(c: Colour) -> usize {
    match c {
        Colour::White => 0,
        Colour::Black => 1,
    }
}

impl Clocks {
    /// Both clocks at `time`, for `moves` moves per side (0: the whole game).
    pub fn new(time: Duration, moves: u32) -> Self {
        Clocks {
            left: [time; 2],
            running: None,
            moves,
        }
    }

    /// Start `side`'s clock (stopping the other one, if it runs).
    pub fn start(&mut self, side: Colour, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// Stop the running clock; returns how long it ran.
    pub fn stop(&mut self, now: Instant) -> Duration {
        match self.running.take() {
            Some((side, since)) => {
                let used = now.saturating_duration_since(since);
                let slot = &mut self.left[index(side)];
                *slot = slot.saturating_sub(used);
                used
            }
            None => Duration::ZERO,
        }
    }

    /// Time left on `side`'s clock at `now` (zero when overstepped).
    pub fn left(&self, side: Colour, now: Instant) -> Duration {
        let base = self.left[index(side)];
        match self.running {
            Some((s, since)) if s == side => {
                base.saturating_sub(now.saturating_duration_since(since))
            }
            _ => base,
        }
    }

    /// Search limits for `side`, which has made `moves_made` moves.
    pub fn limits(&self, side: Colour, moves_made: u32, now: Instant) -> Limits {
        let left = self.left(side, now);
        if left < NEARLY_EMPTY {
            return Limits::move_time(EMPTY_CLOCK_MOVE_TIME);
        }
        // With a move count, the time is for that many moves; past it the
        // rest of the clock is for the rest of the game.
        let moves_to_go = (self.moves > moves_made).then(|| self.moves - moves_made);
        Limits {
            time: Some(left),
            moves_to_go,
            ..Limits::default()
        }
    }

    /// A summary for logs and the PDN record, e.g. `W 58.2s B 59.0s`.
    pub fn describe(&self, now: Instant) -> String {
        format!(
            "White {:.1}s, Black {:.1}s left",
            self.left(Colour::White, now).as_secs_f64(),
            self.left(Colour::Black, now).as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_running_clock_loses_time() {
        let t0 = Instant::now();
        let mut c = Clocks::new(Duration::from_secs(60), 0);
        c.start(Colour::White, t0);
        let t1 = t0 + Duration::from_secs(5);
        assert_eq!(c.left(Colour::White, t1), Duration::from_secs(55));
        c.start(Colour::Black, t1);
        let t2 = t1 + Duration::from_secs(2);
        assert_eq!(c.stop(t2), Duration::from_secs(2));
        assert_eq!(c.left(Colour::White, t2), Duration::from_secs(55));
        assert_eq!(c.left(Colour::Black, t2), Duration::from_secs(58));
    }

    #[test]
    fn limits_count_moves_to_the_control_and_survive_an_empty_clock() {
        let t0 = Instant::now();
        let c = Clocks::new(Duration::from_secs(60), 50);
        let l = c.limits(Colour::White, 10, t0);
        assert_eq!(l.moves_to_go, Some(40));
        assert_eq!(l.time, Some(Duration::from_secs(60)));
        assert_eq!(c.limits(Colour::White, 60, t0).moves_to_go, None);
        let empty = Clocks::new(Duration::ZERO, 0);
        assert_eq!(
            empty.limits(Colour::Black, 0, t0).move_time,
            Some(EMPTY_CLOCK_MOVE_TIME)
        );
    }
}
