//! Where generated games start: the opening ballots of `openings/` (format
//! in `docs/openings.md`: one opening per line, moves from the start
//! position or a FEN followed by moves, `#` comments), or random openings
//! of a few plies drawn from the game's own seed; then random plies that
//! spread the games further.

use super::rng::Rng;
use crate::board::{Position, Rules};
use crate::movegen::{MoveList, generate};
use crate::notation::{read_fen, read_move};
use crate::record::GameHistory;
use crate::tools::match_runner::ballot::Ballot;

/// Set up every opening of a ballot (read by the match runner's ballot
/// reader, so both read the same format the same way) as a game of `R`.
/// Errors name the file and the line.
fn ballot_games<R: Rules>(ballot: &Ballot) -> Result<Vec<GameHistory<R>>, String> {
    ballot
        .openings
        .iter()
        .map(|o| {
            let err = |m: String| format!("{}, line {}: {m}", ballot.source, o.line);
            let start = match &o.fen {
                Some(fen) => read_fen::<R>(fen).map_err(|e| err(e.to_string()))?,
                None => Position::start(),
            };
            let mut game = GameHistory::new(start);
            for (k, t) in o.moves.iter().enumerate() {
                let mv = read_move(game.position(), t)
                    .map_err(|e| err(format!("move {} ({t}): {e}", k + 1)))?;
                game.play(mv);
            }
            if game.outcome().is_some() {
                return Err(err("the game is already over".into()));
            }
            Ok(game)
        })
        .collect()
}

/// Read a ballot file.
pub fn load_ballot<R: Rules>(path: &std::path::Path) -> Result<Vec<GameHistory<R>>, String> {
    parse_ballot(&Ballot::read(path)?, &path.display().to_string())
}

/// A ballot from its text (`source` names it in errors): for a caller
/// that keeps the text too, so that both come from one read of the file.
pub fn parse_ballot<R: Rules>(text: &str, source: &str) -> Result<Vec<GameHistory<R>>, String> {
    let ballot = Ballot::parse(text, source)?;
    // A ballot says its variant; openings of one rule set played under
    // another would make data (or a duel) of the wrong game.
    ballot.check_variant(R::VARIANT.into())?;
    ballot_games(&ballot)
}

/// Play `plies` uniformly random legal moves (fewer if the game ends).
pub fn random_plies<R: Rules>(game: &mut GameHistory<R>, rng: &mut Rng, plies: u32) {
    let mut list = MoveList::<R>::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            return;
        }
        list.clear();
        generate(game.position(), &mut list);
        if list.is_empty() {
            return;
        }
        let mv = list[rng.below(list.len())];
        game.play(mv);
    }
}

/// A random opening of `min..=max` plies from the start position.
pub fn random_opening<R: Rules>(rng: &mut Rng, min: u32, max: u32) -> GameHistory<R> {
    let mut game = GameHistory::new(Position::start());
    let plies = min + rng.below((max.saturating_sub(min) + 1) as usize) as u32;
    random_plies(&mut game, rng, plies);
    game
}
