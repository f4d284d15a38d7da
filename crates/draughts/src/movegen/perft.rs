//! Perft: the number of leaf nodes of the legal move tree, the standard check
//! of a move generator (reference values in `/work/shared/reference/perft.md`).

use super::{MoveList, count, generate};
use crate::board::{Move, Position, Rules, Word};
use rayon::prelude::*;

/// How leaves are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// At depth 1, count the moves without playing them.
    Bulk,
    /// Generate and play every move down to the leaves.
    MakeEveryMove,
}

/// perft(depth) of `pos`.
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32, counting: Counting) -> u64 {
    match (depth, counting) {
        (0, _) => 1,
        (1, Counting::Bulk) => count(pos),
        _ => {
            let mut list = MoveList::<R>::new();
            generate(pos, &mut list);
            if depth == 1 {
                // Play each leaf move so that its cost is measured too.
                let mut n = 0;
                for mv in &list {
                    let child = pos.play(mv);
                    std::hint::black_box(&child);
                    n += 1;
                }
                return n;
            }
            let mut n = 0;
            for mv in &list {
                let child = pos.play(mv);
                n += perft(&child, depth - 1, counting);
            }
            n
        }
    }
}

/// perft of each root move, in generation order.
pub fn perft_divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    counting: Counting,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<(Move<Word<R>>, u64)> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    let sub = depth.saturating_sub(1);
    let run = || {
        list.par_iter()
            .map(|mv| (*mv, perft(&pos.play(mv), sub, counting)))
            .collect::<Vec<_>>()
    };
    match pool {
        Some(pool) => pool.install(run),
        None => list
            .iter()
            .map(|mv| (*mv, perft(&pos.play(mv), sub, counting)))
            .collect(),
    }
}

/// perft with the root moves (and, when they are few, the moves after them)
/// spread over a rayon pool.
pub fn perft_parallel<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    counting: Counting,
    pool: &rayon::ThreadPool,
) -> u64 {
    if depth < 3 {
        return perft(pos, depth, counting);
    }
    // Split two plies deep: enough tasks to balance two to a few dozen threads.
    let mut roots = MoveList::<R>::new();
    generate(pos, &mut roots);
    let mut tasks = Vec::new();
    for mv in &roots {
        let child = pos.play(mv);
        let mut replies = MoveList::<R>::new();
        generate(&child, &mut replies);
        tasks.extend(replies.iter().map(|r| child.play(r)));
    }
    pool.install(|| {
        tasks
            .par_iter()
            .map(|p| perft(p, depth - 2, counting))
            .sum()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Brazilian, Canadian, International, Russian};

    fn check<R: Rules>(expected: &[u64]) {
        let start = Position::<R>::start();
        for (i, &n) in expected.iter().enumerate() {
            let d = i as u32 + 1;
            assert_eq!(
                perft(&start, d, Counting::Bulk),
                n,
                "{:?} bulk d{d}",
                R::VARIANT
            );
            assert_eq!(
                perft(&start, d, Counting::MakeEveryMove),
                n,
                "{:?} d{d}",
                R::VARIANT
            );
        }
    }

    #[test]
    fn start_positions_match_reference_counts() {
        check::<International>(&[9, 81, 658, 4265, 27117]);
        check::<Russian>(&[7, 49, 302, 1469, 7482, 37986]);
        check::<Brazilian>(&[7, 49, 302, 1469, 7473, 37628]);
        check::<Canadian>(&[11, 121, 1222, 10053]);
    }
}
