//! The dense terms of the pattern evaluation: what the 4x4 regions cannot
//! see. Material (regions read kings as empty squares), tempo (a sum over
//! the whole board), runaway men (a free path can be longer than a region),
//! king mobility (a king slides across regions) and the side to move; and,
//! since format version 2, the first king (worth more than the others), the
//! king moves onto squares where a man could take it, the kings on the long
//! diagonal, and the left-right balance of the men (the whole width of the
//! board, which no region spans).
//!
//! They mean the same as the v1 features of those names
//! (`features.rs`; a test checks they agree), but are computed with whole-
//! board bit operations instead of loops over pieces: sums of per-row counts
//! become a few popcounts of bit planes (the squares whose row number has
//! bit k set), and the squares with an enemy piece in their forward cone are
//! one flood fill of the enemy pieces backwards. The evaluation runs at every
//! leaf of the search, so this matters: the v1 feature code would cost as
//! much as all the region lookups together. The region-local v1 features
//! (centre, outposts, locked men, back rank) are left to the regions.

use std::sync::OnceLock;
use tiao_core::bits::BitWord;
use tiao_draughts::board::{B8, B10, Colour, Dir, Geometry, Position, Rules};

/// The dense terms, in weights-file order.
pub const NAMES: [&str; DENSE] = [
    "man",
    "king",
    "tempo",
    "runaway",
    "king-mobility",
    "side-to-move",
    "has-king",
    "king-denied",
    "long-diagonal",
    "balance",
];
/// Number of dense terms.
pub const DENSE: usize = 10;
/// Dense terms of weights files of format version 1 (the first six).
pub const DENSE_V1: usize = 6;
pub const MAN: usize = 0;
pub const KING: usize = 1;
pub const TEMPO: usize = 2;
pub const RUNAWAY: usize = 3;
pub const KING_MOBILITY: usize = 4;
pub const SIDE_TO_MOVE: usize = 5;
pub const HAS_KING: usize = 6;
pub const KING_DENIED: usize = 7;
pub const LONG_DIAGONAL: usize = 8;
pub const BALANCE: usize = 9;

/// Bit planes of one board size: `planes[c][k]` holds the squares whose
/// advance (rows from colour c's back row) has bit k set, `files[k]` those
/// whose file (from the left) has bit k set.
struct Planes {
    planes: [[u64; 4]; 2],
    files: [u64; 4],
    /// The long diagonal (from White's left corner to Black's): the same
    /// squares seen from either side.
    diagonal: u64,
    /// The files of the board less one: twice the centre file.
    width: i32,
}

impl Planes {
    fn build<G: Geometry>() -> Planes {
        let mut planes = [[0u64; 4]; 2];
        let mut files = [0u64; 4];
        let mut diagonal = 0u64;
        for sq in 0..G::SQUARES {
            let bit = G::bit_of(sq);
            let (row, file) = G::row_file(bit);
            for (k, plane) in files.iter_mut().enumerate() {
                if file & (1 << k) != 0 {
                    *plane |= 1u64 << bit;
                }
            }
            if row + file == G::SIZE - 1 {
                diagonal |= 1u64 << bit;
            }
            // White advances upwards (towards row 0), Black downwards.
            for (c, adv) in [G::SIZE - 1 - row, row].into_iter().enumerate() {
                for (k, plane) in planes[c].iter_mut().enumerate() {
                    if adv & (1 << k) != 0 {
                        *plane |= 1u64 << bit;
                    }
                }
            }
        }
        Planes {
            planes,
            files,
            diagonal,
            width: G::SIZE as i32 - 1,
        }
    }
}

fn planes<G: Geometry>() -> &'static Planes {
    static P8: OnceLock<Planes> = OnceLock::new();
    static P10: OnceLock<Planes> = OnceLock::new();
    match G::SIZE {
        8 => P8.get_or_init(Planes::build::<B8>),
        _ => P10.get_or_init(Planes::build::<B10>),
    }
}

/// The long diagonal of boards of geometry `G`, as a board word: the same
/// squares from either side.
#[inline(always)]
pub fn long_diagonal<G: Geometry>() -> u64 {
    planes::<G>().diagonal
}

/// Sum over the squares of `set` of their advance for colour `c`.
#[inline(always)]
fn advance_sum(p: &Planes, c: usize, set: u64) -> i32 {
    plane_sum(&p.planes[c], set)
}

/// Sum over the squares of `set` of the number the planes spell.
#[inline(always)]
fn plane_sum(pl: &[u64; 4], set: u64) -> i32 {
    ((set & pl[0]).count_ones()
        + 2 * (set & pl[1]).count_ones()
        + 4 * (set & pl[2]).count_ones()
        + 8 * (set & pl[3]).count_ones()) as i32
}

/// The game's phase by the men's advancement (Scan's "pip" count), 256 with
/// every man at home, 0 when no man has a row left to go: the rows the men
/// of both sides still have to cross to crown, as a share of that count in
/// the start position.
#[inline]
pub fn advancement_phase<R: Rules>(pos: &Position<R>) -> i32 {
    let p = planes::<R::Geometry>();
    // Only the men and their advance: the other dense terms are not needed.
    let to_go = [Colour::White, Colour::Black].map(|c| {
        let men = pos.men(c);
        rows_to_go::<R>(
            men.count() as i32,
            advance_sum(p, c.index(), men.to_u128() as u64),
        )
    });
    phase_of_rows::<R>(to_go[0] + to_go[1])
}

/// The rows one side's `men` still have to go: each man's distance to the
/// crowning row is the board's last row less its advance, which `tempo`
/// (the tempo term) sums.
#[inline(always)]
fn rows_to_go<R: Rules>(men: i32, tempo: i32) -> i32 {
    (R::Geometry::SIZE as i32 - 1) * men - tempo
}

/// The advancement phase of `to_go` rows left for both sides' men.
#[inline(always)]
fn phase_of_rows<R: Rules>(to_go: i32) -> i32 {
    // At the start each side's men fill its first rows, a row's squares each.
    let last = R::Geometry::SIZE as i32 - 1;
    let per_row = R::Geometry::SIZE as i32 / 2;
    let rows = R::MEN as i32 / per_row;
    let start = 2 * per_row * (0..rows).map(|k| last - k).sum::<i32>();
    (to_go * 256 / start).min(256)
}

/// Squares that have a piece of `enemy` in their forward cone, for men
/// moving in direction `forward` (the enemy pieces flooded backwards).
#[inline(always)]
fn shadow<G: Geometry>(enemy: G::W, forward: (Dir, Dir)) -> G::W {
    let (a, b) = (forward.0.reverse(), forward.1.reverse());
    let mut s = enemy;
    for _ in 1..G::SIZE {
        s |= (G::step(s, a) | G::step(s, b)) & G::ALL;
    }
    s
}

/// The dense terms of one side (not the side to move).
#[inline(always)]
fn side<R: Rules>(pos: &Position<R>, colour: Colour, p: &Planes) -> [i32; DENSE] {
    let c = colour.index();
    let men = pos.men(colour);
    let kings = pos.kings(colour);
    let mut f = [0i32; DENSE];
    let men64 = men.to_u128() as u64;
    f[MAN] = men.count() as i32;
    f[KING] = kings.count() as i32;
    f[TEMPO] = advance_sum(p, c, men64);
    // Men spread over both wings are harder to attack than men piled on
    // one: the distance of the men's mean file from the centre, times
    // their number (Scan's skew), counts against a side.
    f[BALANCE] = -(2 * plane_sum(&p.files, men64) - p.width * f[MAN]).abs();
    // Runaways only count while the opponent has no king to chase them.
    if pos.kings(!colour).is_zero() && men.any() {
        let forward = if colour == Colour::White {
            (Dir::UpLeft, Dir::UpRight)
        } else {
            (Dir::DownLeft, Dir::DownRight)
        };
        let free = men & !shadow::<R::Geometry>(pos.pieces(!colour), forward);
        f[RUNAWAY] = advance_sum(p, c, free.to_u128() as u64);
    }
    if kings.any() {
        let empty = pos.empty_squares();
        // An enemy man next to a square, with the square beyond empty,
        // takes a king that stops there (men take in all directions on
        // the boards this evaluation plays).
        let enemy_men = pos.men(!colour);
        let mut attacked = <R::Geometry as Geometry>::W::ZERO;
        for d in Dir::ALL {
            attacked |= R::Geometry::step(enemy_men, d) & R::Geometry::step(empty, d.reverse());
        }
        let (mut m, mut denied) = (0, 0);
        for d in Dir::ALL {
            let reach = R::Geometry::slide(kings, d, empty) & empty;
            m += reach.count() as i32;
            denied += (reach & attacked).count() as i32;
        }
        f[KING_MOBILITY] = m;
        f[KING_DENIED] = denied;
        f[HAS_KING] = 1;
        f[LONG_DIAGONAL] = (kings.to_u128() as u64 & p.diagonal).count_ones() as i32;
    }
    f
}

/// The dense terms of a position, White minus Black (side to move: +1 when
/// White moves, -1 when Black does). Boards of 8x8 and 10x10 only.
#[inline]
pub fn dense<R: Rules>(pos: &Position<R>) -> [i32; DENSE] {
    dense_and_advancement(pos).0
}

/// The dense terms and the advancement phase ([`advancement_phase`]) in
/// one pass: the phase is read off the men and tempo counts the terms
/// have just made.
#[inline]
pub fn dense_and_advancement<R: Rules>(pos: &Position<R>) -> ([i32; DENSE], i32) {
    let p = planes::<R::Geometry>();
    let w = side(pos, Colour::White, p);
    let b = side(pos, Colour::Black, p);
    let mut f = [0i32; DENSE];
    for i in 0..DENSE {
        f[i] = w[i] - b[i];
    }
    f[SIDE_TO_MOVE] = if pos.side() == Colour::White { 1 } else { -1 };
    (
        f,
        phase_of_rows::<R>(rows_to_go::<R>(w[MAN], w[TEMPO]) + rows_to_go::<R>(b[MAN], b[TEMPO])),
    )
}

#[cfg(test)]
mod tests {
    use super::advancement_phase;
    use tiao_draughts::board::{Brazilian, International, Position, Rules, Russian};
    use tiao_draughts::notation::fen::read_fen;

    fn check<R: Rules>(all_kings: &str, one_man_left_to_go: (&str, i32)) {
        let start = Position::<R>::start();
        assert_eq!(advancement_phase(&start), 256, "{}", R::VARIANT);
        assert_eq!(advancement_phase(&start.flipped()), 256);
        let kings = read_fen::<R>(all_kings).expect("fen");
        assert_eq!(advancement_phase(&kings), 0, "{all_kings}");
        let (fen, want) = one_man_left_to_go;
        let p = read_fen::<R>(fen).expect("fen");
        assert_eq!(advancement_phase(&p), want, "{fen}");
        assert_eq!(advancement_phase(&p.flipped()), want, "{fen} flipped");
    }

    #[test]
    fn the_advancement_phase_counts_the_rows_the_men_have_to_go() {
        // Two white men six rows from crowning, the rest kings: 12 of the
        // start's 300 rows (10x10); a man of each side at home: 18 of 300,
        // 14 of 144 (8x8).
        check::<International>("W:WK1,K2:BK50", ("W:W31,32:BK50", 12 * 256 / 300));
        check::<International>("W:WK1:BK50", ("W:W46:B5", 2 * 9 * 256 / 300));
        check::<Russian>("W:WKa1:BKh8", ("W:Wa1:Bh8", 2 * 7 * 256 / 144));
        check::<Brazilian>("W:WK1:BK32", ("W:W29:B4", 2 * 7 * 256 / 144));
    }
}
