//! Values of positions: win/loss/draw, distance to win, and the compact
//! code used in memory and in the files.
//!
//! A value is always from the point of view of the side to move. The
//! distance is counted in plies until the losing side is left without a
//! legal move (all its pieces captured or blocked), the winner choosing the
//! fastest win and the loser the slowest loss; draw rules are ignored. With
//! that definition every win is at an odd distance and every loss at an even
//! one, which the code uses: `0` is a draw, an odd code `d` is a win in `d`
//! plies, an even code `d + 2` a loss in `d` plies (a position without legal
//! moves is a loss in 0, code 2). Tables without distances store `1` for any
//! win and `2` for any loss.

use std::fmt;

/// Game-theoretic result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The value for the other side.
    pub fn negate(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// Result with the distance in plies (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distance {
    /// The side to move wins in this many plies (odd).
    Win(u32),
    /// The side to move loses in this many plies (even), defending best.
    Loss(u32),
    Draw,
}

impl Distance {
    pub fn wdl(self) -> Wdl {
        match self {
            Distance::Win(_) => Wdl::Win,
            Distance::Loss(_) => Wdl::Loss,
            Distance::Draw => Wdl::Draw,
        }
    }

    /// The value for the other side after one more ply: what a move to a
    /// position of this value is worth to the player who made it.
    pub fn for_mover(self) -> Distance {
        match self {
            Distance::Win(d) => Distance::Loss(d + 1),
            Distance::Loss(d) => Distance::Win(d + 1),
            Distance::Draw => Distance::Draw,
        }
    }
}

impl fmt::Display for Distance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Distance::Win(d) => write!(f, "win in {d} plies"),
            Distance::Loss(d) => write!(f, "loss in {d} plies"),
            Distance::Draw => f.write_str("draw"),
        }
    }
}

/// A value code (see the module documentation). Bit 15 is free for flags.
pub(crate) type Code = u16;

/// Largest code a value may have (bit 15 is a flag in the generator).
pub(crate) const MAX_CODE: u32 = 0x7FFF;
pub(crate) const DRAW: Code = 0;
/// "Win" in a table without distances.
pub(crate) const WIN_ANY: Code = 1;
/// "Loss" in a table without distances (also: loss in 0 plies).
pub(crate) const LOSS_ANY: Code = 2;

/// Code of a win in `d` plies (`d` odd), or `None` when it does not fit.
#[inline]
pub(crate) fn win_code(d: u32) -> Option<Code> {
    (d <= MAX_CODE).then_some(d as Code)
}

/// Code of a loss in `d` plies (`d` even), or `None` when it does not fit.
#[inline]
pub(crate) fn loss_code(d: u32) -> Option<Code> {
    (d + 2 <= MAX_CODE).then_some((d + 2) as Code)
}

#[inline]
pub(crate) fn code_wdl(c: Code) -> Wdl {
    if c == 0 {
        Wdl::Draw
    } else if c & 1 == 1 {
        Wdl::Win
    } else {
        Wdl::Loss
    }
}

#[inline]
pub(crate) fn code_distance(c: Code) -> Distance {
    let c = u32::from(c);
    if c == 0 {
        Distance::Draw
    } else if c & 1 == 1 {
        Distance::Win(c)
    } else {
        Distance::Loss(c - 2)
    }
}

/// The code with its distance dropped (for tables without distances).
#[inline]
pub(crate) fn wdl_only(c: Code) -> Code {
    match code_wdl(c) {
        Wdl::Draw => DRAW,
        Wdl::Win => WIN_ANY,
        Wdl::Loss => LOSS_ANY,
    }
}

/// Negamax over the values of the successors of a position: the best value
/// for the side to move, fastest win or slowest loss.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Negamax {
    /// Fastest win found (plies), `u32::MAX` when none.
    win: u32,
    draw: bool,
    /// Slowest loss found (plies); 0 when none (a position without moves is a loss in 0).
    loss: u32,
}

impl Default for Negamax {
    fn default() -> Self {
        Negamax {
            win: u32::MAX,
            draw: false,
            loss: 0,
        }
    }
}

impl Negamax {
    /// Add a successor, given by its code (from the opponent's view).
    #[inline]
    pub(crate) fn add(&mut self, succ: Code) {
        match code_distance(succ) {
            Distance::Loss(d) => self.win = self.win.min(d + 1),
            Distance::Draw => self.draw = true,
            Distance::Win(d) => self.loss = self.loss.max(d + 1),
        }
    }

    /// Fastest win found, if any.
    #[inline]
    pub(crate) fn win(&self) -> Option<u32> {
        (self.win != u32::MAX).then_some(self.win)
    }

    #[inline]
    pub(crate) fn draw(&self) -> bool {
        self.draw
    }

    /// Slowest loss among the successors seen (0 when none).
    #[inline]
    pub(crate) fn loss(&self) -> u32 {
        self.loss
    }

    /// The value, assuming every successor was added.
    #[inline]
    pub(crate) fn code(&self) -> Option<Code> {
        match self.win() {
            Some(d) => win_code(d),
            None if self.draw => Some(DRAW),
            None => loss_code(self.loss),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for d in (1..999).step_by(2) {
            assert_eq!(code_distance(win_code(d).unwrap()), Distance::Win(d));
        }
        for d in (0..999).step_by(2) {
            assert_eq!(code_distance(loss_code(d).unwrap()), Distance::Loss(d));
        }
        assert_eq!(code_distance(DRAW), Distance::Draw);
        assert_eq!(wdl_only(7), WIN_ANY);
        assert_eq!(wdl_only(8), LOSS_ANY);
    }

    #[test]
    fn negamax_prefers_fast_wins_and_slow_losses() {
        let mut n = Negamax::default();
        assert_eq!(n.code(), loss_code(0));
        n.add(win_code(3).unwrap());
        n.add(win_code(7).unwrap());
        assert_eq!(n.code(), loss_code(8));
        n.add(DRAW);
        assert_eq!(n.code(), Some(DRAW));
        n.add(loss_code(4).unwrap());
        n.add(loss_code(2).unwrap());
        assert_eq!(n.code(), win_code(3));
    }
}
