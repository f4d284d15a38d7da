//! Legal move generation for every draughts rule set.
//!
//! One generator serves all variants: it is generic over [`Rules`] (board
//! geometry and rule flags), and the side to move is a const parameter, so
//! each (variant, colour) pair is compiled to its own straight-line code.
//!
//! Captures are compulsory, so generation first asks, with a few bitboard
//! operations, whether any capture exists (`any_capture`); only then does it
//! run the capture search of `capture`. Otherwise quiet moves come from
//! shifts of the men and from king slides.

mod capture;
mod horizon;
mod path;
mod perft;

pub use horizon::horizon_moves;
pub use path::capture_paths;
pub use perft::{Counting, perft, perft_divide, perft_parallel};

use crate::board::{Colour, Dir, Geometry, Move, Position, Rules, Word};
use arrayvec::ArrayVec;
use tiao_core::bits::BitWord;

/// Most moves a list holds. Quiet moves are bounded by 4 per empty square
/// (at most 280 on 12x12); capture lists are deduplicated and, under the
/// majority rule, only hold the longest captures. A capture beyond this bound
/// (never seen in a reachable position) would be dropped, not crash.
pub const MAX_MOVES: usize = 320;

/// A list of moves on the stack: no heap allocation per node.
pub type MoveList<R> = ArrayVec<Move<Word<R>>, MAX_MOVES>;

/// The directions a man of the given colour moves in.
#[inline(always)]
const fn forward(white: bool) -> [Dir; 2] {
    if white {
        [Dir::UpLeft, Dir::UpRight]
    } else {
        [Dir::DownLeft, Dir::DownRight]
    }
}

/// Side-relative view of a position: what the generator needs, nothing more.
#[derive(Clone, Copy)]
struct Sides<W> {
    men: W,
    kings: W,
    opp: W,
    empty: W,
}

#[inline(always)]
fn sides<R: Rules>(pos: &Position<R>) -> Sides<Word<R>> {
    let us = pos.side();
    Sides {
        men: pos.men(us),
        kings: pos.kings(us),
        opp: pos.pieces(!us),
        empty: pos.empty_squares(),
    }
}

/// Whether the side to move has a capture (and so must capture).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    any_capture::<R>(&sides(pos))
}

#[inline(always)]
fn any_capture<R: Rules>(s: &Sides<Word<R>>) -> bool {
    let mut hits = Word::<R>::ZERO;
    for d in Dir::ALL {
        let next_empty = R::Geometry::step(s.empty, d.reverse());
        // A man jumps an adjacent enemy piece onto the empty square behind it.
        hits |= R::Geometry::step(s.men, d) & s.opp & next_empty;
        // A king jumps the first piece on its diagonal if it is an enemy.
        if s.kings.any() {
            hits |= R::Geometry::slide(s.kings, d, s.empty) & s.opp & next_empty;
        }
    }
    hits.any()
}

/// Generate all legal moves of the side to move into `list` (cleared first).
#[inline]
pub fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList<R>) {
    list.clear();
    let s = sides(pos);
    let white = pos.side() == Colour::White;
    if any_capture::<R>(&s) {
        capture::generate::<R>(&s, white, list);
    } else if white {
        quiet::<R, true>(&s, list);
    } else {
        quiet::<R, false>(&s, list);
    }
}

/// Generate only captures (empty when the side to move has none). When a
/// capture exists these are all the legal moves.
#[inline]
pub fn generate_captures<R: Rules>(pos: &Position<R>, list: &mut MoveList<R>) {
    list.clear();
    let s = sides(pos);
    if any_capture::<R>(&s) {
        capture::generate::<R>(&s, pos.side() == Colour::White, list);
    }
}

/// Number of legal moves, counting quiet moves with population counts
/// instead of listing them (perft's bulk counting).
#[inline]
pub fn count<R: Rules>(pos: &Position<R>) -> u64 {
    let s = sides(pos);
    if any_capture::<R>(&s) {
        let mut list = MoveList::<R>::new();
        capture::generate::<R>(&s, pos.side() == Colour::White, &mut list);
        return list.len() as u64;
    }
    let mut n = 0;
    for d in forward(pos.side() == Colour::White) {
        n += (R::Geometry::step(s.men, d) & s.empty).count();
    }
    if s.kings.any() {
        for d in Dir::ALL {
            n += (R::Geometry::slide(s.kings, d, s.empty) & s.empty).count();
        }
    }
    u64::from(n)
}

/// Whether the side to move has any legal move.
#[inline]
pub fn has_move<R: Rules>(pos: &Position<R>) -> bool {
    let s = sides(pos);
    if any_capture::<R>(&s) {
        return true;
    }
    let mut targets = Word::<R>::ZERO;
    for d in forward(pos.side() == Colour::White) {
        targets |= R::Geometry::step(s.men, d);
    }
    for d in Dir::ALL {
        targets |= R::Geometry::step(s.kings, d);
    }
    (targets & s.empty).any()
}

fn quiet<R: Rules, const WHITE: bool>(s: &Sides<Word<R>>, list: &mut MoveList<R>) {
    let promo = R::Geometry::promotion_row(WHITE);
    for d in forward(WHITE) {
        let back = R::Geometry::offset(d);
        for to in (R::Geometry::step(s.men, d) & s.empty).iter() {
            let from = (to as i32 - back) as u32;
            list.push(Move::new(from, to, Word::<R>::ZERO, promo.has(to)));
        }
    }
    for k in s.kings.iter() {
        let origin = Word::<R>::bit(k);
        for d in Dir::ALL {
            let mut x = R::Geometry::step(origin, d) & s.empty;
            while x.any() {
                list.push(Move::new(k, x.lsb(), Word::<R>::ZERO, false));
                x = R::Geometry::step(x, d) & s.empty;
            }
        }
    }
}
