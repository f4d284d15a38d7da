//! The dense terms of the pattern evaluation: what the 4x4 regions cannot
//! see. Material (regions read kings as empty squares), tempo (a sum over
//! the whole board), runaway men (a free path can be longer than a region),
//! king mobility (a king slides across regions) and the side to move.
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
];
/// Number of dense terms.
pub const DENSE: usize = 6;
pub const MAN: usize = 0;
pub const KING: usize = 1;
pub const TEMPO: usize = 2;
pub const RUNAWAY: usize = 3;
pub const KING_MOBILITY: usize = 4;
pub const SIDE_TO_MOVE: usize = 5;

/// Bit planes of one board size: `planes[c][k]` holds the squares whose
/// advance (rows from colour c's back row) has bit k set.
struct Planes {
    planes: [[u64; 4]; 2],
}

impl Planes {
    fn build<G: Geometry>() -> Planes {
        let mut planes = [[0u64; 4]; 2];
        for sq in 0..G::SQUARES {
            let bit = G::bit_of(sq);
            let (row, _) = G::row_file(bit);
            // White advances upwards (towards row 0), Black downwards.
            for (c, adv) in [G::SIZE - 1 - row, row].into_iter().enumerate() {
                for (k, plane) in planes[c].iter_mut().enumerate() {
                    if adv & (1 << k) != 0 {
                        *plane |= 1u64 << bit;
                    }
                }
            }
        }
        Planes { planes }
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

/// Sum over the squares of `set` of their advance for colour `c`.
#[inline(always)]
fn advance_sum(p: &Planes, c: usize, set: u64) -> i32 {
    let pl = &p.planes[c];
    ((set & pl[0]).count_ones()
        + 2 * (set & pl[1]).count_ones()
        + 4 * (set & pl[2]).count_ones()
        + 8 * (set & pl[3]).count_ones()) as i32
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
    f[MAN] = men.count() as i32;
    f[KING] = kings.count() as i32;
    f[TEMPO] = advance_sum(p, c, men.to_u128() as u64);
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
        let mut m = 0;
        for d in Dir::ALL {
            m += (R::Geometry::slide(kings, d, empty) & empty).count() as i32;
        }
        f[KING_MOBILITY] = m;
    }
    f
}

/// The dense terms of a position, White minus Black (side to move: +1 when
/// White moves, -1 when Black does). Boards of 8x8 and 10x10 only.
#[inline]
pub fn dense<R: Rules>(pos: &Position<R>) -> [i32; DENSE] {
    let p = planes::<R::Geometry>();
    let w = side(pos, Colour::White, p);
    let b = side(pos, Colour::Black, p);
    let mut f = [0i32; DENSE];
    for i in 0..DENSE {
        f[i] = w[i] - b[i];
    }
    f[SIDE_TO_MOVE] = if pos.side() == Colour::White { 1 } else { -1 };
    f
}
