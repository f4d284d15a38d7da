//! Jump paths of a capture. A move is identified by origin, destination and
//! captured set; notation sometimes needs the landing squares in between
//! (PDN writes them to tell apart two captures with the same ends). This is
//! a plain search over the jumps that take only the move's captured pieces;
//! it runs once per move written or read, never in the search.

use crate::board::{Dir, Geometry, Move, Position, Rules, Word};
use tiao_core::bits::BitWord;

/// At most this many paths are returned (a capture has few in practice).
const MAX_PATHS: usize = 64;

/// The landing squares (bit indices, destination last) of every jump path
/// that plays `mv` in `pos`. Empty for a quiet move or an impossible one.
pub fn capture_paths<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    if !mv.is_capture() {
        return out;
    }
    let us = pos.side();
    let from = Word::<R>::bit(mv.from_bit());
    let walker = Walker::<R> {
        target: *mv,
        opp: pos.pieces(!us),
        empty: pos.empty_squares() | from,
        promo: R::Geometry::promotion_row(us == crate::board::Colour::White),
    };
    let king = pos.kings(us).has(mv.from_bit());
    let mut path = Vec::new();
    walker.walk(from, king, false, Word::<R>::ZERO, &mut path, &mut out);
    out
}

struct Walker<R: Rules> {
    target: Move<Word<R>>,
    opp: Word<R>,
    empty: Word<R>,
    promo: Word<R>,
}

impl<R: Rules> Walker<R> {
    fn walk(
        &self,
        sq: Word<R>,
        king: bool,
        crowned: bool,
        captured: Word<R>,
        path: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if out.len() >= MAX_PATHS {
            return;
        }
        if captured == self.target.captured {
            let promotes = crowned || (!king && (sq & self.promo).any());
            if sq.lsb() == self.target.to_bit() && promotes == self.target.promotes {
                out.push(path.clone());
            }
            return;
        }
        let wanted = self.target.captured & self.opp & !captured;
        for d in Dir::ALL {
            let mut x = R::Geometry::step(sq, d);
            if king {
                while (x & self.empty).any() {
                    x = R::Geometry::step(x, d);
                }
            }
            let victim = x & wanted;
            if victim.is_zero() {
                continue;
            }
            let mut land = R::Geometry::step(victim, d) & self.empty;
            while land.any() {
                path.push(land.lsb());
                let crown_now = R::CROWN_IN_CAPTURE && !king && (land & self.promo).any();
                self.walk(
                    land,
                    king || crown_now,
                    crowned || crown_now,
                    captured | victim,
                    path,
                    out,
                );
                path.pop();
                if !king {
                    break;
                }
                land = R::Geometry::step(land, d) & self.empty;
            }
        }
    }
}
