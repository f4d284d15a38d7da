//! The two Halma board sizes as compile-time parameters, and the bit layout
//! they share.
//!
//! A square is `rank * N + file`, with `a1` (White's corner) at bit 0. One
//! bit per square: the 64 squares of 8x8 fill a `u64`, the 100 of 10x10 fit
//! a `u128`. Everything the generator and the rules need per size (masks,
//! yards, distance tables, the move limits) is an associated constant
//! computed at compile time, so each size is monomorphised with its own word
//! and its own constants.

use std::fmt::Debug;
use std::hash::Hash;
use tiao_core::Colour;
use tiao_core::bits::BitWord;

/// A Halma board size.
pub trait HalmaBoard:
    Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// The bitboard word: one bit per square.
    type W: BitWord;
    /// Side length.
    const N: u32;
    /// Number of squares, `N * N`.
    const SQUARES: u32 = Self::N * Self::N;
    /// Rows of the staircase yard (4 on 8x8, 5 on 10x10).
    const YARD_ROWS: u32;
    /// Squares in a yard, which is also each side's number of pieces.
    const PIECES: u32 = Self::YARD_ROWS * (Self::YARD_ROWS + 1) / 2;
    /// The yard rule: after this many of his own moves a player must have
    /// no piece in his own yard (30 on 8x8, 50 on 10x10).
    const YARD_LIMIT: u16;
    /// Tiao's move limit: once both players have made this many moves
    /// without a winner, the game is drawn.
    const MOVE_CAP: u16;
    /// Every square.
    const FULL: Self::W;
    /// Every square except those on file `a` (may shift west).
    const NOT_FILE_A: Self::W;
    /// Every square except those on the last file (may shift east).
    const NOT_FILE_LAST: Self::W;
    /// The yards, by colour: White's in the bottom-left corner, Black's in
    /// the top-right.
    const YARD: [Self::W; 2];
    /// Per colour, per square: steps (king moves, ignoring other pieces and
    /// jumps) from the square to the nearest square of the target yard.
    const DIST: [&'static [u8]; 2];
    /// Per colour, per square: how deep inside the target yard the square
    /// lies (0 outside or on its outer edge, `YARD_ROWS - 1` in the corner).
    const DEPTH: [&'static [u8]; 2];
    /// Per colour, per square: rows of progress along the diagonal towards
    /// the target corner (file + rank for White, from Black's corner for
    /// Black; 0 in the own corner, `2 * (N - 1)` in the target corner).
    const ADVANCE: [&'static [u8]; 2];
    /// Steps (Chebyshev distance) between two squares, at
    /// `a * SQUARES + b`: the evaluation's inner loop, as a table.
    const STEPS: &'static [u8];
    /// A name for messages.
    const NAME: &'static str;
}

/// 8x8 Halma: yards of 10, yard rule after move 30.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Halma8;

/// 10x10 Halma: yards of 15, yard rule after move 50.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Halma10;

impl HalmaBoard for Halma8 {
    type W = u64;
    const N: u32 = 8;
    const YARD_ROWS: u32 = 4;
    const YARD_LIMIT: u16 = 30;
    const MOVE_CAP: u16 = 150;
    const FULL: u64 = full_mask(8) as u64;
    const NOT_FILE_A: u64 = (full_mask(8) & !file_mask(8, 0)) as u64;
    const NOT_FILE_LAST: u64 = (full_mask(8) & !file_mask(8, 7)) as u64;
    const YARD: [u64; 2] = [yard_mask(8, 4, 0) as u64, yard_mask(8, 4, 1) as u64];
    const DIST: [&'static [u8]; 2] = [&dist_table::<64>(8, 4, 0), &dist_table::<64>(8, 4, 1)];
    const DEPTH: [&'static [u8]; 2] = [&depth_table::<64>(8, 4, 0), &depth_table::<64>(8, 4, 1)];
    const ADVANCE: [&'static [u8]; 2] = [&advance_table::<64>(8, 0), &advance_table::<64>(8, 1)];
    const STEPS: &'static [u8] = &steps_table::<4096>(8);
    const NAME: &'static str = "8x8";
}

impl HalmaBoard for Halma10 {
    type W = u128;
    const N: u32 = 10;
    const YARD_ROWS: u32 = 5;
    const YARD_LIMIT: u16 = 50;
    const MOVE_CAP: u16 = 250;
    const FULL: u128 = full_mask(10);
    const NOT_FILE_A: u128 = full_mask(10) & !file_mask(10, 0);
    const NOT_FILE_LAST: u128 = full_mask(10) & !file_mask(10, 9);
    const YARD: [u128; 2] = [yard_mask(10, 5, 0), yard_mask(10, 5, 1)];
    const DIST: [&'static [u8]; 2] = [&dist_table::<100>(10, 5, 0), &dist_table::<100>(10, 5, 1)];
    const DEPTH: [&'static [u8]; 2] =
        [&depth_table::<100>(10, 5, 0), &depth_table::<100>(10, 5, 1)];
    const ADVANCE: [&'static [u8]; 2] =
        [&advance_table::<100>(10, 0), &advance_table::<100>(10, 1)];
    const STEPS: &'static [u8] = &steps_table::<10000>(10);
    const NAME: &'static str = "10x10";
}

/// The eight directions, as (file, rank) offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// (file, rank) offset of one step.
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }
}

/// Every square of `set` moved one step in `dir`; squares that would leave
/// the board are dropped (the file masks stop east-west wrap-around, the
/// full mask drops bits shifted past the last rank).
#[inline(always)]
pub fn shift<B: HalmaBoard>(set: B::W, dir: Dir) -> B::W {
    let n = B::N;
    match dir {
        Dir::N => (set << n) & B::FULL,
        Dir::S => set >> n,
        Dir::E => (set & B::NOT_FILE_LAST) << 1,
        Dir::W => (set & B::NOT_FILE_A) >> 1,
        Dir::NE => ((set & B::NOT_FILE_LAST) << (n + 1)) & B::FULL,
        Dir::NW => ((set & B::NOT_FILE_A) << (n - 1)) & B::FULL,
        Dir::SE => (set & B::NOT_FILE_LAST) >> (n - 1),
        Dir::SW => (set & B::NOT_FILE_A) >> (n + 1),
    }
}

/// The squares one step from any square of `set` (the set itself excluded
/// unless a square of it neighbours another).
#[inline(always)]
pub fn neighbours<B: HalmaBoard>(set: B::W) -> B::W {
    // A row of three, then that row moved up and down: four shifts, not eight.
    let row = set | shift::<B>(set, Dir::E) | shift::<B>(set, Dir::W);
    let block = row | shift::<B>(row, Dir::N) | shift::<B>(row, Dir::S);
    block & !set
}

/// The square at (file, rank), if on the board.
#[inline]
pub fn square_at<B: HalmaBoard>(file: i32, rank: i32) -> Option<u32> {
    let n = B::N as i32;
    ((0..n).contains(&file) && (0..n).contains(&rank)).then(|| (rank * n + file) as u32)
}

/// (file, rank) of a square.
#[inline]
pub fn coords<B: HalmaBoard>(sq: u32) -> (i32, i32) {
    ((sq % B::N) as i32, (sq / B::N) as i32)
}

/// A colour's own yard (where it starts).
#[inline(always)]
pub fn own_yard<B: HalmaBoard>(c: Colour) -> B::W {
    B::YARD[c.index()]
}

/// A colour's target: the opponent's yard.
#[inline(always)]
pub fn target_yard<B: HalmaBoard>(c: Colour) -> B::W {
    B::YARD[(!c).index()]
}

// Compile-time tables. They work on u128 (wide enough for both sizes) and
// are narrowed in the impls above.

const fn full_mask(n: u32) -> u128 {
    (1u128 << (n * n)) - 1
}

const fn file_mask(n: u32, file: u32) -> u128 {
    let mut m = 0u128;
    let mut rank = 0;
    while rank < n {
        m |= 1u128 << (rank * n + file);
        rank += 1;
    }
    m
}

/// Distance of (file, rank) from the corner of `colour`'s yard, counted as
/// file offset + rank offset (the yard is the squares where this is below
/// `rows`).
const fn corner_sum(n: u32, colour: u32, file: u32, rank: u32) -> u32 {
    if colour == 0 {
        file + rank
    } else {
        (n - 1 - file) + (n - 1 - rank)
    }
}

const fn yard_mask(n: u32, rows: u32, colour: u32) -> u128 {
    let mut m = 0u128;
    let mut sq = 0;
    while sq < n * n {
        if corner_sum(n, colour, sq % n, sq / n) < rows {
            m |= 1u128 << sq;
        }
        sq += 1;
    }
    m
}

/// Steps from each square to the nearest square of the yard of the
/// opponent of `colour` (index 0 White, 1 Black): the Chebyshev distance to
/// that staircase, since a step goes one square in any of 8 directions.
const fn dist_table<const S: usize>(n: u32, rows: u32, colour: u32) -> [u8; S] {
    let mut t = [0u8; S];
    let target = 1 - colour;
    let mut sq = 0;
    while sq < n * n {
        let (f, r) = (sq % n, sq / n);
        let mut best = u32::MAX;
        let mut y = 0;
        while y < n * n {
            let (yf, yr) = (y % n, y / n);
            if corner_sum(n, target, yf, yr) < rows {
                let df = f.abs_diff(yf);
                let dr = r.abs_diff(yr);
                let d = if df > dr { df } else { dr };
                if d < best {
                    best = d;
                }
            }
            y += 1;
        }
        t[sq as usize] = best as u8;
        sq += 1;
    }
    t
}

/// Progress of each square along the diagonal for `colour`: the distance
/// from its own corner, counted as file offset + rank offset.
const fn advance_table<const S: usize>(n: u32, colour: u32) -> [u8; S] {
    let mut t = [0u8; S];
    let mut sq = 0;
    while sq < n * n {
        t[sq as usize] = corner_sum(n, colour, sq % n, sq / n) as u8;
        sq += 1;
    }
    t
}

/// Chebyshev distance between every pair of squares.
const fn steps_table<const S: usize>(n: u32) -> [u8; S] {
    let mut t = [0u8; S];
    let mut a = 0;
    while a < n * n {
        let mut b = 0;
        while b < n * n {
            let df = (a % n).abs_diff(b % n);
            let dr = (a / n).abs_diff(b / n);
            t[(a * n * n + b) as usize] = if df > dr { df } else { dr } as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

/// Depth of each square inside the target yard of `colour`.
const fn depth_table<const S: usize>(n: u32, rows: u32, colour: u32) -> [u8; S] {
    let mut t = [0u8; S];
    let target = 1 - colour;
    let mut sq = 0;
    while sq < n * n {
        let s = corner_sum(n, target, sq % n, sq / n);
        if s < rows {
            t[sq as usize] = (rows - 1 - s) as u8;
        }
        sq += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yards_have_the_staircase_shape() {
        assert_eq!(Halma8::YARD[0].count(), 10);
        assert_eq!(Halma10::YARD[1].count(), 15);
        // a1..d1, a2..c2, a3, b3, a4 on 8x8.
        assert_eq!(Halma8::YARD[0], 0b1111 | 0b111 << 8 | 0b11 << 16 | 1 << 24);
        assert!(Halma8::YARD[1].has(63) && !Halma8::YARD[1].has(59));
    }

    #[test]
    fn shifts_do_not_wrap() {
        let h1: u64 = 1 << 7;
        assert_eq!(shift::<Halma8>(h1, Dir::E), 0);
        assert_eq!(shift::<Halma8>(h1, Dir::NE), 0);
        assert_eq!(shift::<Halma8>(h1, Dir::N), 1 << 15);
        let j10: u128 = 1 << 99;
        assert_eq!(shift::<Halma10>(j10, Dir::N), 0);
        assert_eq!(shift::<Halma10>(j10, Dir::NW), 0);
        assert_eq!(shift::<Halma10>(j10, Dir::SW), 1 << 88);
    }

    #[test]
    fn distances_reach_zero_in_the_target() {
        let d = Halma8::DIST[0];
        assert_eq!(d[63], 0);
        assert_eq!(d[0], 6);
        assert_eq!(d[7], 4); // h1 to h5
        assert_eq!(Halma8::DEPTH[0][63], 3);
        assert_eq!(Halma8::DEPTH[1][0], 3);
        assert_eq!(Halma10::STEPS[99], 9); // a1 to j10
        assert_eq!((Halma8::ADVANCE[0][63], Halma8::ADVANCE[1][63]), (14, 0));
        assert_eq!(Halma10::STEPS[12 * 100 + 34], 2); // c2 to e4
    }
}
