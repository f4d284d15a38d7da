//! Halma perft: the number of leaves of the legal move tree, the standard
//! check of a move generator. The tree ignores the end of the game (wins,
//! the yard rule): it counts moves only, so its values depend on the
//! generator alone (reference values in `docs/halma.md`).

use super::board::HalmaBoard;
use super::moves::{HalmaMove, HalmaMoveList};
use super::position::HalmaPosition;

/// perft(depth) of `pos`, counting the last ply in bulk.
pub fn perft<B: HalmaBoard>(pos: &HalmaPosition<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut list = HalmaMoveList::new();
            pos.generate(&mut list);
            list.iter().map(|mv| perft(&pos.play(mv), depth - 1)).sum()
        }
    }
}

/// perft of each root move, in generation order.
pub fn perft_divide<B: HalmaBoard>(pos: &HalmaPosition<B>, depth: u32) -> Vec<(HalmaMove, u64)> {
    let mut list = HalmaMoveList::new();
    pos.generate(&mut list);
    list.iter()
        .map(|mv| (*mv, perft(&pos.play(mv), depth.saturating_sub(1))))
        .collect()
}
