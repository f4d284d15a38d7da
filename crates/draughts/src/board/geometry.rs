//! Board geometry: square numbering and the bit layout of each board size.
//!
//! Squares are stored row by row from the top (Black's back row), with one
//! unused *ghost* bit after every pair of rows. With that gap a diagonal step
//! is always the same shift: `HALF` or `HALF + 1` bits, up or down, and a step
//! off the left or right edge lands on a ghost bit, which is never empty. So
//! move generation needs no edge masks, only the set of real squares.
//!
//! ```text
//! 10x10, bit indices:        row
//!    0   1   2   3   4        0   (squares 1..5)
//!  5   6   7   8   9          1   (squares 6..10)   ghost 10
//!   11  12  13  14  15        2
//! 16  17  18  19  20          3                     ghost 21
//! ```

use std::fmt::Debug;
use tiao_core::bits::BitWord;

/// One of the four diagonal directions, as seen from White (up = towards row 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    /// The direction pointing the opposite way.
    #[inline(always)]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }

    /// The two directions at right angles to this one.
    #[inline(always)]
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::UpLeft | Dir::DownRight => [Dir::UpRight, Dir::DownLeft],
            Dir::UpRight | Dir::DownLeft => [Dir::UpLeft, Dir::DownRight],
        }
    }

    /// Row and file deltas (row grows downwards, file grows to the right).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::UpLeft => (-1, -1),
            Dir::UpRight => (-1, 1),
            Dir::DownLeft => (1, -1),
            Dir::DownRight => (1, 1),
        }
    }
}

/// A board size with its bit layout. Implemented by [`B8`], [`B10`] and [`B12`].
pub trait Geometry: Copy + Default + Debug + Send + Sync + 'static {
    /// The bitboard word: `u64` for 8x8 and 10x10, `u128` for 12x12.
    type W: BitWord;
    /// Files (and rows) of the board.
    const SIZE: u32;
    /// Dark squares per row.
    const HALF: u32 = Self::SIZE / 2;
    /// Number of playable squares.
    const SQUARES: u32 = Self::SIZE * Self::SIZE / 2;
    /// Number of bit positions the layout spans (squares plus inner ghosts).
    const BITS: u32 = Self::SQUARES + Self::SQUARES / Self::SIZE - 1;
    /// All playable squares.
    const ALL: Self::W;
    /// Row 0, where White's men are crowned.
    const TOP_ROW: Self::W;
    /// The last row, where Black's men are crowned.
    const BOTTOM_ROW: Self::W;

    /// Bit index of a 0-based square index (square number minus one).
    #[inline(always)]
    fn bit_of(square: u32) -> u32 {
        square + square / Self::SIZE
    }

    /// 0-based square index of a bit index (the bit must be a real square).
    #[inline(always)]
    fn square_of(bit: u32) -> u32 {
        bit - bit / (Self::SIZE + 1)
    }

    /// Whether `bit` is a playable square of this board.
    #[inline(always)]
    fn is_square(bit: u32) -> bool {
        bit < Self::W::WIDTH && Self::ALL.has(bit)
    }

    /// Row (0 = top) and file (0 = a) of a bit index.
    #[inline]
    fn row_file(bit: u32) -> (u32, u32) {
        let sq = Self::square_of(bit);
        let row = sq / Self::HALF;
        let file = 2 * (sq % Self::HALF) + u32::from(row % 2 == 0);
        (row, file)
    }

    /// Bit index of the square at `row` and `file`, if that square is dark and on the board.
    #[inline]
    fn bit_at(row: i32, file: i32) -> Option<u32> {
        let n = Self::SIZE as i32;
        if !(0..n).contains(&row) || !(0..n).contains(&file) || (row + file) % 2 == 0 {
            return None;
        }
        let sq = row as u32 * Self::HALF + file as u32 / 2;
        Some(Self::bit_of(sq))
    }

    /// Shift every square of `w` one step in direction `d`. Squares that leave
    /// the board end on ghost or out-of-range bits; callers mask with a set of
    /// real squares (usually the empty squares).
    #[inline(always)]
    fn step(w: Self::W, d: Dir) -> Self::W {
        match d {
            Dir::UpLeft => w >> (Self::HALF + 1),
            Dir::UpRight => w >> Self::HALF,
            Dir::DownLeft => w << Self::HALF,
            Dir::DownRight => w << (Self::HALF + 1),
        }
    }

    /// Shift every square of `w` by `n` steps in direction `d`.
    #[inline(always)]
    fn step_by(w: Self::W, d: Dir, n: u32) -> Self::W {
        match d {
            Dir::UpLeft => w >> (n * (Self::HALF + 1)),
            Dir::UpRight => w >> (n * Self::HALF),
            Dir::DownLeft => w << (n * Self::HALF),
            Dir::DownRight => w << (n * (Self::HALF + 1)),
        }
    }

    /// Bit-index difference of one step in direction `d`.
    #[inline(always)]
    fn offset(d: Dir) -> i32 {
        match d {
            Dir::UpLeft => -(Self::HALF as i32 + 1),
            Dir::UpRight => -(Self::HALF as i32),
            Dir::DownLeft => Self::HALF as i32,
            Dir::DownRight => Self::HALF as i32 + 1,
        }
    }

    /// Every square reachable from a square of `from` by sliding along `d`
    /// over `empty` squares, plus the first square beyond (the blocker, a
    /// ghost bit or nothing). An occluded fill: log2 steps, no loop over squares.
    #[inline(always)]
    fn slide(from: Self::W, d: Dir, empty: Self::W) -> Self::W {
        let mut g = from;
        let mut p = empty;
        g |= p & Self::step_by(g, d, 1);
        p &= Self::step_by(p, d, 1);
        g |= p & Self::step_by(g, d, 2);
        p &= Self::step_by(p, d, 2);
        g |= p & Self::step_by(g, d, 4);
        p &= Self::step_by(p, d, 4);
        g |= p & Self::step_by(g, d, 8);
        Self::step(g, d)
    }

    /// The bit index one step from `bit` in direction `d`, if it is a square.
    #[inline]
    fn neighbour(bit: u32, d: Dir) -> Option<u32> {
        let (r, f) = Self::row_file(bit);
        let (dr, df) = d.delta();
        Self::bit_at(r as i32 + dr, f as i32 + df)
    }

    /// The row where a man of the given colour is crowned.
    #[inline(always)]
    fn promotion_row(white: bool) -> Self::W {
        if white {
            Self::TOP_ROW
        } else {
            Self::BOTTOM_ROW
        }
    }
}

/// Mask of the bits of rows `first..=last` for a board of `size` files, as a `u128`.
const fn rows_mask(size: u32, first: u32, last: u32) -> u128 {
    let half = size / 2;
    let mut m = 0u128;
    let mut sq = first * half;
    while sq < (last + 1) * half {
        m |= 1u128 << (sq + sq / size);
        sq += 1;
    }
    m
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $size:expr, $word:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Geometry for $name {
            type W = $word;
            const SIZE: u32 = $size;
            const ALL: $word = rows_mask($size, 0, $size - 1) as $word;
            const TOP_ROW: $word = rows_mask($size, 0, 0) as $word;
            const BOTTOM_ROW: $word = rows_mask($size, $size - 1, $size - 1) as $word;
        }
    };
}

geometry!(
    /// 8x8 board (Russian, Brazilian): 32 squares in 35 bits.
    B8, 8, u64
);
geometry!(
    /// 10x10 board (international): 50 squares in 54 bits.
    B10, 10, u64
);
geometry!(
    /// 12x12 board (Canadian): 72 squares in 77 bits of a `u128`.
    B12, 12, u128
);

#[cfg(test)]
mod tests {
    use super::*;

    fn check_layout<G: Geometry>() {
        assert_eq!(G::ALL.count(), G::SQUARES);
        assert!(G::BITS <= G::W::WIDTH);
        for sq in 0..G::SQUARES {
            let b = G::bit_of(sq);
            assert!(G::is_square(b));
            assert_eq!(G::square_of(b), sq);
            let (r, f) = G::row_file(b);
            assert_eq!(G::bit_at(r as i32, f as i32), Some(b));
            // A diagonal step is a shift, and leaving the board never lands on a square.
            for d in Dir::ALL {
                let shifted = G::step(G::W::bit(b), d) & G::ALL;
                match G::neighbour(b, d) {
                    Some(n) => assert_eq!(shifted, G::W::bit(n), "square {sq} dir {d:?}"),
                    None => assert!(shifted.is_zero(), "square {sq} dir {d:?} leaves the board"),
                }
            }
        }
    }

    #[test]
    fn every_diagonal_step_is_a_shift_8x8() {
        check_layout::<B8>();
    }

    #[test]
    fn every_diagonal_step_is_a_shift_10x10() {
        check_layout::<B10>();
        assert_eq!(B10::BITS, 54);
    }

    #[test]
    fn every_diagonal_step_is_a_shift_12x12() {
        check_layout::<B12>();
        assert_eq!(B12::BITS, 77);
    }

    #[test]
    fn square_one_is_second_file_of_top_row() {
        assert_eq!(B10::row_file(B10::bit_of(0)), (0, 1));
        assert_eq!(B10::row_file(B10::bit_of(45)), (9, 0)); // 46 = a1
        assert_eq!(B10::row_file(B10::bit_of(49)), (9, 8)); // 50 = i1
        assert_eq!(B8::row_file(B8::bit_of(28)), (7, 0)); // 29 = a1
    }
}
