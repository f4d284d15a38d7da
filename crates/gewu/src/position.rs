//! A Gewu position: the pieces of both sides on the track and the side to
//! move, with the unit move (`docs/gewu.md` §3) that both forms of the game
//! are built from.

use super::moves::GewuMove;
use super::outcome::{GewuDrawReason, GewuOutcome, GewuWinReason};
use super::track::{CELLS, FULL, HOME, PIECES, ahead};
use tiao_core::Colour;

/// A Gewu position (the same for the free form and the throw form: the
/// throw is made after the position, at the start of a turn).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct GewuPosition {
    /// Occupied cells by colour, bit `i` = cell `i + 1`.
    pieces: [u32; 2],
    side: Colour,
}

impl GewuPosition {
    /// White on cells 1–5, Black on 15–19, White to move.
    pub fn start() -> Self {
        GewuPosition {
            pieces: HOME,
            side: Colour::White,
        }
    }

    /// A position from the two piece sets (bit `i` = cell `i + 1`). Each side
    /// has one to five pieces, on the track and on distinct cells.
    pub fn new(white: u32, black: u32, side: Colour) -> Result<Self, String> {
        if (white | black) & !FULL != 0 {
            return Err(format!("a piece lies beyond cell {CELLS}"));
        }
        if white & black != 0 {
            return Err("a cell holds both a white and a black piece".into());
        }
        for (set, c) in [(white, Colour::White), (black, Colour::Black)] {
            let n = set.count_ones();
            if n == 0 || n > PIECES {
                return Err(format!(
                    "{} has {n} pieces; a side has 1 to {PIECES}",
                    c.name()
                ));
            }
        }
        Ok(GewuPosition {
            pieces: [white, black],
            side,
        })
    }

    #[inline(always)]
    pub fn side(&self) -> Colour {
        self.side
    }

    /// Cells of `c`'s pieces (bit `i` = cell `i + 1`).
    #[inline(always)]
    pub fn pieces(&self, c: Colour) -> u32 {
        self.pieces[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> u32 {
        self.pieces[0] | self.pieces[1]
    }

    /// The colour on cell index `cell` (0-based), if any.
    pub fn piece_at(&self, cell: u32) -> Option<Colour> {
        if cell >= CELLS {
            None
        } else if self.pieces[0] >> cell & 1 == 1 {
            Some(Colour::White)
        } else if self.pieces[1] >> cell & 1 == 1 {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// A hash that is a bijection of the position (a 39-bit code put through
    /// an invertible mixer), so distinct positions never collide.
    pub fn hash(&self) -> u64 {
        let code = u64::from(self.pieces[0])
            | u64::from(self.pieces[1]) << CELLS
            | (self.side.index() as u64) << (2 * CELLS);
        let mut z = code.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Where one unit move takes `c`'s piece on `cell`: a step to the next
    /// cell if empty, else a jump over an enemy piece there onto the empty
    /// cell beyond; `None` if blocked (own piece ahead, two enemy pieces,
    /// or the end of the track).
    #[inline]
    pub fn unit_move(&self, c: Colour, cell: u32) -> Option<u32> {
        let next = ahead(c, cell, 1)?;
        let occupied = self.occupied();
        if occupied >> next & 1 == 0 {
            return Some(next);
        }
        if self.pieces(!c) >> next & 1 == 0 {
            return None; // own piece: never jumped
        }
        let beyond = ahead(c, cell, 2)?;
        (occupied >> beyond & 1 == 0).then_some(beyond)
    }

    /// Where `units` unit moves in a row take `c`'s piece on `cell`, the
    /// piece stopping early if it enters the enemy's home (the win); `None`
    /// if it cannot make them all. The cells it leaves behind it never
    /// matter, since it only goes forward.
    pub fn advance(&self, c: Colour, cell: u32, units: u32) -> Option<u32> {
        let mut at = cell;
        let mut pos = *self;
        for _ in 0..units {
            let to = pos.unit_move(c, at)?;
            let i = c.index();
            pos.pieces[i] ^= 1 << at | 1 << to;
            at = to;
            if HOME[(!c).index()] >> at & 1 == 1 {
                break;
            }
        }
        Some(at)
    }

    /// Whether any piece of `c` has a unit move.
    pub fn can_move(&self, c: Colour) -> bool {
        let mut set = self.pieces(c);
        while set != 0 {
            let cell = set.trailing_zeros();
            set &= set - 1;
            if self.unit_move(c, cell).is_some() {
                return true;
            }
        }
        false
    }

    /// Whether a piece of `c` stands in the enemy's home: `c` has won.
    #[inline]
    pub fn has_won(&self, c: Colour) -> bool {
        self.pieces(c) & HOME[(!c).index()] != 0
    }

    /// The end of the game, if this position is one: a win (the player who
    /// just moved is judged first; both sides can stand in the enemy's home
    /// only in a composed position), or a deadlock.
    pub fn result(&self) -> Option<GewuOutcome> {
        for c in [!self.side, self.side] {
            if self.has_won(c) {
                return Some(GewuOutcome::Win {
                    winner: c,
                    reason: GewuWinReason::EnteredHome,
                });
            }
        }
        if !self.can_move(Colour::White) && !self.can_move(Colour::Black) {
            return Some(GewuOutcome::Draw(GewuDrawReason::Deadlock));
        }
        None
    }

    /// The position after `mv` (a pass or a lost turn just changes the side
    /// to move). The move must be legal here.
    #[inline]
    pub fn play(&self, mv: &GewuMove) -> Self {
        let mut next = *self;
        if !mv.is_pass() {
            let i = self.side.index();
            debug_assert!(u32::from(mv.from.max(mv.to)) < CELLS);
            debug_assert!(self.pieces[i] >> mv.from & 1 == 1);
            next.pieces[i] ^= 1 << mv.from | 1 << mv.to;
        }
        next.side = !self.side;
        next
    }
}

impl Default for GewuPosition {
    fn default() -> Self {
        Self::start()
    }
}
