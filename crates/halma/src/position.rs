//! A Halma position: the two piece sets, the side to move and the Zobrist
//! hash, kept up to date move by move.
//!
//! The move counters the yard rule needs are not part of the position (two
//! positions with the same pieces are the same position for the
//! transposition table); they travel beside it as [`super::HalmaCounters`].

use super::board::{HalmaBoard, own_yard, target_yard};
use super::error::HalmaError;
use super::moves::HalmaMove;
use super::zobrist;
use std::marker::PhantomData;
use tiao_core::Colour;
use tiao_core::bits::BitWord;

/// A Halma position on board size `B`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HalmaPosition<B: HalmaBoard> {
    pieces: [B::W; 2],
    side: Colour,
    hash: u64,
    size: PhantomData<B>,
}

impl<B: HalmaBoard> HalmaPosition<B> {
    /// The start: each yard full of its owner's pieces, White to move.
    pub fn start() -> Self {
        Self::with_hash([B::YARD[0], B::YARD[1]], Colour::White)
    }

    /// A position from the two piece sets. Each side needs one to
    /// `B::PIECES` pieces (the yard size: more could never all fit in the
    /// target), on the board and on distinct squares.
    pub fn new(white: B::W, black: B::W, side: Colour) -> Result<Self, HalmaError> {
        if (white | black) & !B::FULL != B::W::ZERO {
            return Err(HalmaError::Position(format!(
                "a piece lies outside the {} board",
                B::NAME
            )));
        }
        if (white & black).any() {
            return Err(HalmaError::Position(
                "a square holds both a white and a black piece".into(),
            ));
        }
        for (set, colour) in [(white, Colour::White), (black, Colour::Black)] {
            let n = set.count();
            if n == 0 || n > B::PIECES {
                return Err(HalmaError::Position(format!(
                    "{} has {n} pieces; a side has 1 to {} on {}",
                    colour.name(),
                    B::PIECES,
                    B::NAME
                )));
            }
        }
        Ok(Self::with_hash([white, black], side))
    }

    fn with_hash(pieces: [B::W; 2], side: Colour) -> Self {
        let mut pos = HalmaPosition {
            pieces,
            side,
            hash: 0,
            size: PhantomData,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The Zobrist hash computed from the pieces, not incrementally.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Colour::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for c in [Colour::White, Colour::Black] {
            for sq in self.pieces[c.index()].iter() {
                h ^= zobrist::PIECE[c.index()][sq as usize];
            }
        }
        h
    }

    #[inline(always)]
    pub fn side(&self) -> Colour {
        self.side
    }

    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The squares of `c`'s pieces.
    #[inline(always)]
    pub fn pieces(&self, c: Colour) -> B::W {
        self.pieces[c.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> B::W {
        self.pieces[0] | self.pieces[1]
    }

    #[inline(always)]
    pub fn empty(&self) -> B::W {
        B::FULL & !self.occupied()
    }

    /// The colour of the piece on `sq`, if any.
    pub fn piece_at(&self, sq: u32) -> Option<Colour> {
        if sq >= B::SQUARES {
            None
        } else if self.pieces[0].has(sq) {
            Some(Colour::White)
        } else if self.pieces[1].has(sq) {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// How many of `c`'s pieces are still (or again) in `c`'s own yard.
    #[inline]
    pub fn in_own_yard(&self, c: Colour) -> u32 {
        (self.pieces(c) & own_yard::<B>(c)).count()
    }

    /// How many of `c`'s pieces stand in `c`'s target (the opponent's yard).
    #[inline]
    pub fn in_target(&self, c: Colour) -> u32 {
        (self.pieces(c) & target_yard::<B>(c)).count()
    }

    /// Whether every piece of `c` stands in the opponent's yard: the win.
    #[inline]
    pub fn has_won(&self, c: Colour) -> bool {
        let own = self.pieces(c);
        own.any() && (own & !target_yard::<B>(c)).is_zero()
    }

    /// The position after `mv`, which must be legal here (the search and
    /// the game only play generated or parsed moves).
    #[inline]
    pub fn play(&self, mv: &HalmaMove) -> Self {
        let s = self.side.index();
        let (from, to) = (u32::from(mv.from), u32::from(mv.to));
        debug_assert!(self.pieces[s].has(from) && !self.occupied().has(to));
        let mut next = *self;
        next.pieces[s] ^= B::W::bit(from) | B::W::bit(to);
        next.hash ^= zobrist::PIECE[s][from as usize]
            ^ zobrist::PIECE[s][to as usize]
            ^ zobrist::BLACK_TO_MOVE;
        next.side = !self.side;
        next
    }
}

impl<B: HalmaBoard> Default for HalmaPosition<B> {
    fn default() -> Self {
        Self::start()
    }
}
