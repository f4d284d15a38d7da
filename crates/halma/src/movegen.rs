//! Halma move generation: steps and jump chains, set-wise on bitboards.
//!
//! Jumps are found by a flood fill over jump landings: from the set of
//! squares reached so far, every direction's "occupied neighbour, then empty
//! square beyond" is one set operation, and the fill stops when a round adds
//! no new square. Each reachable square is thus found once however many
//! paths lead to it, which is exactly the rule that a move is its start and
//! end square (`moves.rs`).

use super::board::{Dir, HalmaBoard, coords, neighbours, shift, square_at};
use super::moves::HalmaMove;
use super::position::HalmaPosition;
use tiao_core::bits::BitWord;
use tiao_core::game::MoveBuffer;

/// The squares a piece on `from` (a single bit) can reach by one or more
/// jumps, given `others`, every occupied square except `from` itself (the
/// jumping piece has left its square: it can neither jump over it nor is it
/// blocked by it). The start square itself is never a destination.
#[inline]
pub fn jump_destinations<B: HalmaBoard>(from: B::W, others: B::W) -> B::W {
    let empty = B::FULL & !others;
    let mut reached = from;
    let mut frontier = from;
    while frontier.any() {
        let mut next = B::W::ZERO;
        for dir in Dir::ALL {
            next |= shift::<B>(shift::<B>(frontier, dir) & others, dir) & empty;
        }
        frontier = next & !reached;
        reached |= frontier;
    }
    reached & !from
}

impl<B: HalmaBoard> HalmaPosition<B> {
    /// Every legal move of the side to move: per piece, its steps, then its
    /// jump destinations, each in square order.
    pub fn generate<L: MoveBuffer<HalmaMove>>(&self, list: &mut L) {
        list.clear();
        let own = self.pieces(self.side());
        let occupied = self.occupied();
        let empty = self.empty();
        for from in own.iter() {
            let bit = B::W::bit(from);
            for to in (neighbours::<B>(bit) & empty).iter() {
                list.push(HalmaMove {
                    from: from as u8,
                    to: to as u8,
                    jump: false,
                });
            }
            for to in jump_destinations::<B>(bit, occupied ^ bit).iter() {
                list.push(HalmaMove {
                    from: from as u8,
                    to: to as u8,
                    jump: true,
                });
            }
        }
    }

    /// The number of legal moves (perft's bulk count).
    pub fn count_moves(&self) -> u64 {
        let own = self.pieces(self.side());
        let occupied = self.occupied();
        let empty = self.empty();
        own.iter()
            .map(|from| {
                let bit = B::W::bit(from);
                let steps = (neighbours::<B>(bit) & empty).count();
                let jumps = jump_destinations::<B>(bit, occupied ^ bit).count();
                u64::from(steps + jumps)
            })
            .sum()
    }

    /// Whether `mv` is one of the legal moves here.
    pub fn is_legal(&self, mv: &HalmaMove) -> bool {
        let (from, to) = (u32::from(mv.from), u32::from(mv.to));
        if from >= B::SQUARES || to >= B::SQUARES || !self.pieces(self.side()).has(from) {
            return false;
        }
        let bit = B::W::bit(from);
        if mv.jump {
            jump_destinations::<B>(bit, self.occupied() ^ bit).has(to)
        } else {
            (neighbours::<B>(bit) & self.empty()).has(to)
        }
    }

    /// A shortest jump path from `from` to `to` (every landing square, the
    /// start first), if `to` can be reached by jumps. Among shortest paths
    /// the one found first in direction order (N, NE, E, ... NW) is given, so
    /// the notation of a move is always the same.
    pub fn jump_path(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        if from >= B::SQUARES || to >= B::SQUARES || from == to {
            return None;
        }
        let others = self.occupied() & !B::W::bit(from);
        // Breadth-first search with parent links over at most 100 squares.
        let mut parent = [u8::MAX; 128];
        let mut seen = B::W::bit(from);
        let mut queue = vec![from];
        let mut head = 0;
        while head < queue.len() {
            let sq = queue[head];
            head += 1;
            let (f, r) = coords::<B>(sq);
            for dir in Dir::ALL {
                let (df, dr) = dir.offset();
                let (Some(over), Some(land)) = (
                    square_at::<B>(f + df, r + dr),
                    square_at::<B>(f + 2 * df, r + 2 * dr),
                ) else {
                    continue;
                };
                if !others.has(over) || others.has(land) || seen.has(land) {
                    continue;
                }
                seen |= B::W::bit(land);
                parent[land as usize] = sq as u8;
                if land == to {
                    let mut path = vec![to];
                    let mut at = to;
                    while at != from {
                        at = u32::from(parent[at as usize]);
                        path.push(at);
                    }
                    path.reverse();
                    return Some(path);
                }
                queue.push(land);
            }
        }
        None
    }
}
