//! The Halma evaluation: how far each side still has to go.
//!
//! Halma is a race, so the evaluation measures progress, per side:
//!
//! - **distance**: the steps (king moves) the pieces outside the target
//!   still need, each weighed `STEP * d + STEP_SQUARED * d * d` so that one
//!   far piece weighs more than several near ones. Before any piece has
//!   arrived, a piece's distance is to the nearest target square. Once some
//!   have, the squares they hold are no longer destinations, and two late
//!   pieces cannot both use the one free square next to them: when few
//!   squares are left (at most `MATCH_LIMIT`) the pieces are matched to the
//!   free squares at least total cost (an exact assignment by dynamic
//!   programming over subsets). Without that, a piece next to the only free
//!   square would not enter it, because its neighbour would then be far from
//!   the remaining free square, and a game could stall one move from the end;
//! - **straggler**: the largest single distance (the last piece decides when
//!   the race ends, and the seed warns against leaving one behind);
//! - **advance**: a small bonus per row of progress along the board's
//!   diagonal (file + rank towards the target corner). It breaks the ties
//!   of the step distance: when the straight path of a late piece is
//!   blocked, a sideways step that keeps the step distance but heads round
//!   the obstacle still counts as progress, so a shallow search does not
//!   shuffle;
//! - **depth**: a bonus for pieces deep inside the target, so that arrivals
//!   move to the back and keep the entrance free (the seed: the pieces
//!   already in must make room for those outside). A piece parked on the
//!   edge of the target blocks its own side;
//! - **yard danger**: a penalty for every piece still in its own yard. The
//!   evaluation does not see the move counters (`Evaluate` takes only the
//!   position), so the yard rule itself is left to `rule_verdict`; this term
//!   makes leaving the yard early attractive long before the deadline.
//!
//! The score is the side to move's total minus the opponent's, in
//! centi-units where a step of progress of one piece is worth about 10.

use super::board::{HalmaBoard, neighbours, target_yard};
use super::position::HalmaPosition;
use tiao_core::Colour;
use tiao_core::bits::BitWord;
use tiao_core::game::Evaluate;

/// The Halma evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct HalmaEval;

/// Per step of distance of each piece.
const STEP: i32 = 10;
/// Per squared step of distance of each piece.
const STEP_SQUARED: i32 = 1;
/// Per step of the farthest piece's distance.
const STRAGGLER: i32 = 6;
/// Per level of depth of a piece inside the target yard.
const DEPTH: i32 = 4;
/// Per row of advance along the diagonal towards the target corner.
const ADVANCE: i32 = 2;
/// Per piece still in its own yard.
const YARD: i32 = 25;
/// Pieces are matched to free target squares exactly when at most this
/// many squares are free (the matching costs `2^n * n` steps).
const MATCH_LIMIT: u32 = 6;

/// The weight of a piece `d` steps away.
#[inline(always)]
fn cost(d: i32) -> i32 {
    STEP * d + STEP_SQUARED * d * d
}

/// Chebyshev distance between two squares.
#[inline(always)]
fn steps<B: HalmaBoard>(a: u32, b: u32) -> i32 {
    i32::from(B::STEPS[(a * B::SQUARES + b) as usize])
}

/// One side's progress score (higher is better for `c`).
pub fn side_score<B: HalmaBoard>(pos: &HalmaPosition<B>, c: Colour) -> i32 {
    let own = pos.pieces(c);
    let target = target_yard::<B>(c);
    let outside = own & !target;
    let free = target & !own;
    let depth = B::DEPTH[c.index()];
    let deep: i32 = (own & target)
        .iter()
        .map(|sq| i32::from(depth[sq as usize]))
        .sum();
    let rows = B::ADVANCE[c.index()];
    let advance: i32 = own.iter().map(|sq| i32::from(rows[sq as usize])).sum();
    let (distance, farthest) = if (own & target).is_zero() {
        // Nobody has arrived: the precomputed distance to the target.
        let dist = B::DIST[c.index()];
        outside.iter().fold((0, 0), |(total, far), sq| {
            let d = i32::from(dist[sq as usize]);
            (total + cost(d), far.max(d))
        })
    } else if free.count() <= MATCH_LIMIT {
        matched(outside, free, steps::<B>)
    } else {
        nearest(outside, free, neighbours::<B>)
    };
    let in_yard = pos.in_own_yard(c) as i32;
    DEPTH * deep + ADVANCE * advance - distance - STRAGGLER * farthest - YARD * in_yard
}

/// The total cost of the distances of `pieces` to their nearest square of
/// `free`, and the largest such distance. Set-wise: `free` is grown one
/// step at a time (`grow` adds the neighbours of a set), and the pieces it
/// covers after `k` steps are `k` steps away.
fn nearest<W: BitWord>(pieces: W, free: W, grow: impl Fn(W) -> W) -> (i32, i32) {
    let (mut total, mut farthest) = (0, 0);
    let mut reach = free;
    let mut left = pieces;
    let mut k = 0;
    while left.any() && reach.any() && k < 64 {
        let hit = left & reach;
        if hit.any() {
            total += hit.count() as i32 * cost(k);
            farthest = k;
            left ^= hit;
        }
        reach |= grow(reach);
        k += 1;
    }
    (total, farthest)
}

/// The least total cost of sending each piece of `pieces` to its own
/// square of `free` (which has at least as many squares, at most
/// `MATCH_LIMIT`), and the largest nearest-square distance of a piece.
/// Fixed-size arrays: the evaluation runs at every leaf and must not
/// allocate.
fn matched<W: BitWord>(pieces: W, free: W, dist: impl Fn(u32, u32) -> i32) -> (i32, i32) {
    const M: usize = MATCH_LIMIT as usize;
    let mut squares = [0u32; M];
    let mut m = 0;
    for s in free.iter().take(M) {
        squares[m] = s;
        m += 1;
    }
    let mut farthest = 0;
    // best[used] = least cost of placing the first popcount(used) pieces on
    // the squares in `used`.
    let mut best = [i32::MAX; 1 << M];
    best[0] = 0;
    let mut placed = 0;
    for p in pieces.iter().take(m) {
        let mut d = [0i32; M];
        for j in 0..m {
            d[j] = dist(p, squares[j]);
        }
        farthest = farthest.max(d[..m].iter().copied().min().unwrap_or(0));
        for used in 0..(1usize << m) {
            if best[used] == i32::MAX || used.count_ones() != placed {
                continue;
            }
            for (j, &dj) in d[..m].iter().enumerate() {
                if used & 1 << j == 0 {
                    let next = used | 1 << j;
                    best[next] = best[next].min(best[used] + cost(dj));
                }
            }
        }
        placed += 1;
    }
    let total = (0..(1usize << m))
        .filter(|u| u.count_ones() == placed)
        .map(|u| best[u])
        .min()
        .unwrap_or(0);
    (if total == i32::MAX { 0 } else { total }, farthest)
}

impl<B: HalmaBoard> Evaluate<HalmaPosition<B>> for HalmaEval {
    type State = ();

    fn evaluate(&self, pos: &HalmaPosition<B>) -> i32 {
        let me = pos.side();
        side_score(pos, me) - side_score(pos, !me)
    }
}
