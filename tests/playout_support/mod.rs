//! Positions from random games, for tests that need many realistic
//! positions of every phase (men and kings): `mod playout_support;`.

use tiao::board::{Position, Rules};
use tiao::movegen::{MoveList, generate};
use tiao::record::GameHistory;
use tiao::tools::train::rng::Rng;

/// `count` positions from random play-outs of up to 200 plies (about one
/// position in three kept), reproducible from `seed`.
pub fn random_positions<R: Rules>(count: usize, seed: u64) -> Vec<Position<R>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut game = GameHistory::new(Position::<R>::start());
        let mut list = MoveList::<R>::new();
        for _ in 0..200 {
            list.clear();
            generate(game.position(), &mut list);
            if list.is_empty() || game.outcome().is_some() {
                break;
            }
            game.play(list[rng.below(list.len())]);
            if rng.below(3) == 0 {
                out.push(*game.position());
            }
        }
    }
    out.truncate(count);
    out
}
