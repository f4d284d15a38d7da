//! The position: pieces of each colour, kings, the side to move and a Zobrist
//! hash kept up to date by every move. It is a small `Copy` value (40 bytes on
//! 8x8 and 10x10), so search and perft use copy-make. Everything about the
//! game's past (repetitions, move counters) lives in [`DrawCounters`](super::DrawCounters)
//! and in `crate::record`.

use super::geometry::Geometry;
use super::moves::Move;
use super::piece::{Colour, Piece};
use super::variant::Rules;
use super::zobrist;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use tiao_core::bits::BitWord;

/// Bitboard word of a rule set.
pub type Word<R> = <<R as Rules>::Geometry as Geometry>::W;

/// A draughts position under rule set `R`.
pub struct Position<R: Rules> {
    /// All pieces of each colour, indexed by `Colour::index`.
    pieces: [Word<R>; 2],
    /// Kings of both colours.
    kings: Word<R>,
    side: Colour,
    hash: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> Clone for Position<R> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<R: Rules> Copy for Position<R> {}

impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces && self.kings == other.kings && self.side == other.side
    }
}
impl<R: Rules> Eq for Position<R> {}

impl<R: Rules> Hash for Position<R> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Why a set of pieces is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square was given twice (numbered from 1).
    SquareTwice(u32),
    /// A man stands on the row where it would have been crowned.
    ManOnCrowningRow { colour: Colour, square: u32 },
    /// More pieces than a side starts with.
    TooManyPieces {
        colour: Colour,
        count: u32,
        max: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::SquareTwice(sq) => write!(f, "square {sq} is occupied twice"),
            PositionError::ManOnCrowningRow { colour, square } => write!(
                f,
                "a {} man on square {square} stands on its crowning row (it would be a king)",
                colour.name()
            ),
            PositionError::TooManyPieces { colour, count, max } => write!(
                f,
                "{} has {count} pieces; at most {max} are possible in this variant",
                colour.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl<R: Rules> Position<R> {
    /// A board with no pieces.
    pub fn empty(side: Colour) -> Self {
        let mut p = Position {
            pieces: [Word::<R>::ZERO; 2],
            kings: Word::<R>::ZERO,
            side,
            hash: 0,
            rules: PhantomData,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The start position: each side's men on its first rows, White to move.
    pub fn start() -> Self {
        let n = R::MEN;
        let sq = R::Geometry::SQUARES;
        let mut black = Word::<R>::ZERO;
        let mut white = Word::<R>::ZERO;
        for s in 0..n {
            black |= Word::<R>::bit(R::Geometry::bit_of(s));
            white |= Word::<R>::bit(R::Geometry::bit_of(sq - 1 - s));
        }
        // Counts are within limits and men are far from their crowning rows.
        Self::from_bitboards(
            white,
            Word::<R>::ZERO,
            black,
            Word::<R>::ZERO,
            Colour::White,
        )
        .unwrap_or_else(|_| Self::empty(Colour::White))
    }

    /// Build a position from men and kings of each side, validated: no square
    /// twice, no man on its crowning row, no side with more pieces than it
    /// starts with. Bits outside the board are ignored.
    pub fn from_bitboards(
        white_men: Word<R>,
        white_kings: Word<R>,
        black_men: Word<R>,
        black_kings: Word<R>,
        side: Colour,
    ) -> Result<Self, PositionError> {
        let all = R::Geometry::ALL;
        let (wm, wk, bm, bk) = (
            white_men & all,
            white_kings & all,
            black_men & all,
            black_kings & all,
        );
        let twice = (wm & wk) | (wm & bm) | (wm & bk) | (wk & bm) | (wk & bk) | (bm & bk);
        if twice.any() {
            return Err(PositionError::SquareTwice(
                R::Geometry::square_of(twice.lsb()) + 1,
            ));
        }
        for (colour, men) in [(Colour::White, wm), (Colour::Black, bm)] {
            let bad = men & R::Geometry::promotion_row(colour == Colour::White);
            if bad.any() {
                return Err(PositionError::ManOnCrowningRow {
                    colour,
                    square: R::Geometry::square_of(bad.lsb()) + 1,
                });
            }
        }
        for (colour, set) in [(Colour::White, wm | wk), (Colour::Black, bm | bk)] {
            if set.count() > R::MEN {
                return Err(PositionError::TooManyPieces {
                    colour,
                    count: set.count(),
                    max: R::MEN,
                });
            }
        }
        let mut p = Position {
            pieces: [wm | wk, bm | bk],
            kings: wk | bk,
            side,
            hash: 0,
            rules: PhantomData,
        };
        p.hash = p.compute_hash();
        Ok(p)
    }

    #[inline(always)]
    pub fn side(&self) -> Colour {
        self.side
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// All pieces of a colour.
    #[inline(always)]
    pub fn pieces(&self, c: Colour) -> Word<R> {
        self.pieces[c.index()]
    }
    #[inline(always)]
    pub fn men(&self, c: Colour) -> Word<R> {
        self.pieces[c.index()] & !self.kings
    }
    #[inline(always)]
    pub fn kings(&self, c: Colour) -> Word<R> {
        self.pieces[c.index()] & self.kings
    }
    /// Kings of both colours.
    #[inline(always)]
    pub fn all_kings(&self) -> Word<R> {
        self.kings
    }
    #[inline(always)]
    pub fn occupied(&self) -> Word<R> {
        self.pieces[0] | self.pieces[1]
    }
    #[inline(always)]
    pub fn empty_squares(&self) -> Word<R> {
        R::Geometry::ALL & !self.occupied()
    }

    /// The piece on a bit index, if any.
    pub fn piece_at(&self, bit: u32) -> Option<Piece> {
        let colour = if self.pieces[0].has(bit) {
            Colour::White
        } else if self.pieces[1].has(bit) {
            Colour::Black
        } else {
            return None;
        };
        Some(Piece {
            colour,
            king: self.kings.has(bit),
        })
    }

    /// Total number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupied().count()
    }

    /// The hash recomputed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Colour::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for c in [Colour::White, Colour::Black] {
            for b in self.men(c).iter() {
                h ^= zobrist::PIECE[Piece {
                    colour: c,
                    king: false,
                }
                .key_index()][b as usize];
            }
            for b in self.kings(c).iter() {
                h ^= zobrist::PIECE[Piece {
                    colour: c,
                    king: true,
                }
                .key_index()][b as usize];
            }
        }
        h
    }

    /// Play a move (which must be legal here) in place.
    #[inline(always)]
    pub fn make(&mut self, mv: &Move<Word<R>>) {
        *self = self.play(mv);
    }

    /// The position after a move, which must be legal here (copy-make).
    ///
    /// Built from locals into a fresh value rather than by patching a copy:
    /// patching stores fields piecemeal, and the wide copy that follows then
    /// stalls on store forwarding (measured: a quarter of perft time).
    #[inline(always)]
    pub fn play(&self, mv: &Move<Word<R>>) -> Self {
        let us = self.side;
        let them = !us;
        let from = mv.from_bit();
        let to = mv.to_bit();
        let from_to = Word::<R>::bit(from) ^ Word::<R>::bit(to);
        let keys = &zobrist::PIECE;
        let mut own = self.pieces[us.index()];
        let mut opp = self.pieces[them.index()];
        let mut kings = self.kings;
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;

        if mv.captured.any() {
            opp ^= mv.captured;
            let man_key = &keys[Piece {
                colour: them,
                king: false,
            }
            .key_index()];
            let king_key = &keys[Piece {
                colour: them,
                king: true,
            }
            .key_index()];
            for b in (mv.captured & kings).iter() {
                hash ^= king_key[b as usize];
            }
            for b in (mv.captured & !kings).iter() {
                hash ^= man_key[b as usize];
            }
            kings &= !mv.captured;
        }

        own ^= from_to;
        let man_key = &keys[Piece {
            colour: us,
            king: false,
        }
        .key_index()];
        let king_key = &keys[Piece {
            colour: us,
            king: true,
        }
        .key_index()];
        if kings.has(from) {
            kings ^= from_to;
            hash ^= king_key[from as usize] ^ king_key[to as usize];
        } else if mv.promotes {
            kings |= Word::<R>::bit(to);
            hash ^= man_key[from as usize] ^ king_key[to as usize];
        } else {
            hash ^= man_key[from as usize] ^ man_key[to as usize];
        }

        let pieces = if us == Colour::White {
            [own, opp]
        } else {
            [opp, own]
        };
        Position {
            pieces,
            kings,
            side: them,
            hash,
            rules: PhantomData,
        }
    }

    /// The same position with the side to move changed (a "null move"; the
    /// search uses it for threat detection).
    pub fn with_side(&self, side: Colour) -> Self {
        let mut p = *self;
        if p.side != side {
            p.side = side;
            p.hash ^= zobrist::BLACK_TO_MOVE;
        }
        p
    }

    /// The position seen from the other side: the board turned half a turn
    /// and the colours swapped (White's men become Black's men on the
    /// mirrored squares, and the other side moves). Evaluation must score it
    /// as the negation of the original.
    pub fn flipped(&self) -> Self {
        let n = R::Geometry::SQUARES;
        let mirror = |w: Word<R>| {
            let mut out = Word::<R>::ZERO;
            for b in w.iter() {
                let sq = R::Geometry::square_of(b);
                out |= Word::<R>::bit(R::Geometry::bit_of(n - 1 - sq));
            }
            out
        };
        let mut p = Position {
            pieces: [mirror(self.pieces[1]), mirror(self.pieces[0])],
            kings: mirror(self.kings),
            side: !self.side,
            hash: 0,
            rules: PhantomData,
        };
        p.hash = p.compute_hash();
        p
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position<{}>({}", R::VARIANT, self.side.letter())?;
        for sq in 0..R::Geometry::SQUARES {
            let c = self
                .piece_at(R::Geometry::bit_of(sq))
                .map_or('e', Piece::hub_char);
            write!(f, "{c}")?;
        }
        write!(f, ")")
    }
}
