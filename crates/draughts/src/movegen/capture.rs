//! The capture search: every complete capture sequence of every piece,
//! under the Turkish strike rule, with the majority rule and the Russian
//! crowning-in-capture rule switched by the rule set's constants.
//!
//! Captured pieces stay on the board until the move ends, so they are
//! neither empty (nothing passes or lands on them) nor capturable again:
//! the search carries the captured set and masks it out of `opp`.
//!
//! A king that has just jumped may land on any empty square behind the
//! piece. From each landing square it may turn left or right; going straight
//! on is examined once, from the last landing square, because every landing
//! square on the line would find the same piece and produce the same move.
//! This keeps duplicates out except for genuinely different jump orders
//! (rings of four or more pieces), which `add` removes.

use super::{MoveList, Sides};
use crate::board::{Dir, Geometry, Move, Rules, Word};
use tiao_core::bits::BitWord;

struct Search<'a, R: Rules> {
    opp: Word<R>,
    /// Empty squares, counting the moving piece's origin as empty.
    empty: Word<R>,
    promo: Word<R>,
    from: u32,
    /// The moving piece is a man crowned during this capture (Russian).
    crowned: bool,
    /// Most pieces captured by a move in the list (majority rule).
    best: u32,
    list: &'a mut MoveList<R>,
}

/// Generate all legal captures of the side described by `s` (which has at least one).
pub(super) fn generate<R: Rules>(s: &Sides<Word<R>>, white: bool, list: &mut MoveList<R>) {
    let mut search = Search::<R> {
        opp: s.opp,
        empty: s.empty,
        promo: R::Geometry::promotion_row(white),
        from: 0,
        crowned: false,
        best: 0,
        list,
    };

    // Men with an enemy piece next to them and an empty square behind it.
    let mut capturing_men = Word::<R>::ZERO;
    for d in Dir::ALL {
        let back = d.reverse();
        capturing_men |= R::Geometry::step(R::Geometry::step(s.empty, back) & s.opp, back);
    }
    for m in (capturing_men & s.men).iter() {
        let origin = Word::<R>::bit(m);
        search.from = m;
        search.empty = s.empty | origin;
        search.man(origin, Word::<R>::ZERO);
    }

    for k in s.kings.iter() {
        let origin = Word::<R>::bit(k);
        search.from = k;
        search.empty = s.empty | origin;
        search.crowned = false;
        for d in Dir::ALL {
            search.king_jump(origin, d, Word::<R>::ZERO);
        }
    }
}

impl<R: Rules> Search<'_, R> {
    /// Record a finished capture.
    #[inline(always)]
    fn add(&mut self, to: u32, captured: Word<R>, promotes: bool) {
        let n = captured.count();
        if R::MAJORITY {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.best = n;
                self.list.clear();
            }
        }
        let mv = Move::new(self.from, to, captured, promotes);
        // Two jump orders can only reach the same move when they take at
        // least three pieces; shorter captures need no duplicate check.
        if n >= 3 && self.list.contains(&mv) {
            return;
        }
        let _ = self.list.try_push(mv);
    }

    /// A man on `sq` (one bit) that has captured `captured` so far.
    fn man(&mut self, sq: Word<R>, captured: Word<R>) {
        // The four landings first, branch-free: most calls find none (the
        // end of a capture), and one test then replaces four
        // data-dependent branches that the predictor keeps missing.
        let targets = self.opp & !captured;
        let land =
            Dir::ALL.map(|d| R::Geometry::step(R::Geometry::step(sq, d) & targets, d) & self.empty);
        if (land[0] | land[1] | land[2] | land[3]).is_zero() {
            if captured.any() {
                self.add(sq.lsb(), captured, (sq & self.promo).any());
            }
            return;
        }
        for (d, land) in Dir::ALL.into_iter().zip(land) {
            if land.is_zero() {
                continue;
            }
            let taken = captured | R::Geometry::step(land, d.reverse());
            if R::CROWN_IN_CAPTURE && (land & self.promo).any() {
                // Crowned at once; it must go on capturing as a king if it can.
                self.crowned = true;
                let mut more = false;
                for d2 in d.perpendicular() {
                    more |= self.king_jump(land, d2, taken);
                }
                if !more {
                    self.add(land.lsb(), taken, true);
                }
                self.crowned = false;
            } else {
                self.man(land, taken);
            }
        }
    }

    /// A king on `sq` looks along `d` for a piece to jump. Returns whether it
    /// found a capture (all its continuations are then searched).
    #[inline]
    fn king_jump(&mut self, sq: Word<R>, d: Dir, captured: Word<R>) -> bool {
        let mut x = R::Geometry::step(sq, d);
        while (x & self.empty).any() {
            x = R::Geometry::step(x, d);
        }
        let victim = x & self.opp & !captured;
        if victim.is_zero() {
            return false;
        }
        let land = R::Geometry::step(victim, d) & self.empty;
        if land.is_zero() {
            return false;
        }
        self.king_land(land, d, captured | victim);
        true
    }

    /// A king has jumped along `d`; `first` is the first empty square behind
    /// the victim. Try every landing square; if none continues the capture,
    /// each one ends a move. (If some landing square continues, the capture
    /// must go on, so the others are not moves.)
    fn king_land(&mut self, first: Word<R>, d: Dir, captured: Word<R>) {
        let [left, right] = d.perpendicular();
        let mut found = false;
        let mut last = first;
        loop {
            found |= self.king_jump(last, left, captured);
            found |= self.king_jump(last, right, captured);
            let next = R::Geometry::step(last, d);
            if (next & self.empty).any() {
                last = next;
            } else {
                break;
            }
        }
        // Straight on: the next piece along the line, jumped from `last`.
        found |= self.king_jump(last, d, captured);
        if !found {
            let mut x = first;
            loop {
                self.add(x.lsb(), captured, self.crowned);
                if x == last {
                    break;
                }
                x = R::Geometry::step(x, d);
            }
        }
    }
}
