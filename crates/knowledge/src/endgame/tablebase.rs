//! The databases as the search sees them: a [`Tablebase`] for draughts
//! positions. The tables store game-theoretic values without the draw rules;
//! where a distance is known, a win that an endgame move-count rule would
//! cut short is reported as the draw it will be.

use super::{Distance, Egdb, Wdl};
use tiao_core::game::Verdict;
use tiao_draughts::board::{DrawCounters, Position, Rules};
use tiao_search::Tablebase;

impl<R: Rules> Tablebase<Position<R>> for Egdb<R> {
    #[inline]
    fn probe(&self, pos: &Position<R>, counters: &DrawCounters) -> Option<Verdict> {
        // The common case in the tree: too many pieces, answered with one popcount.
        if pos.piece_count() > self.pieces() {
            return None;
        }
        let wdl = Egdb::probe(self, pos)?;
        if let Some(left) = counters.endgame_plies_left::<R>()
            && wdl != Wdl::Draw
            && let Some(Distance::Win(plies) | Distance::Loss(plies)) = self.probe_dtw(pos)
            && plies > left
        {
            return Some(Verdict::Draw);
        }
        Some(match wdl {
            Wdl::Win => Verdict::Win,
            Wdl::Loss => Verdict::Loss,
            Wdl::Draw => Verdict::Draw,
        })
    }
}
