//! Where generated games start: the opening ballots of `openings/` (format
//! in `docs/openings.md`: one opening per line, moves from the start
//! position or a FEN followed by moves, `#` comments), or random openings
//! of a few plies drawn from the game's own seed; then random plies that
//! spread the games further.

use super::rng::Rng;
use crate::board::{Game, Position, Rules};
use crate::movegen::{MoveList, generate};
use crate::notation::{read_fen, read_move};

/// Whether a token is a PDN move number (`12.`, `12...`), which is skipped.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Whether a token is a FEN (`W:W31-50:B1-20`).
fn is_fen(token: &str) -> bool {
    let mut c = token.chars();
    matches!(c.next(), Some('W' | 'B' | 'w' | 'b')) && c.next() == Some(':')
}

/// Read a ballot file's text into games set up at each opening. Errors
/// name `source` and the line.
pub fn parse_ballot<R: Rules>(text: &str, source: &str) -> Result<Vec<Game<R>>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let err = |m: String| format!("{source}, line {}: {m}", i + 1);
        let mut tokens = body
            .split_whitespace()
            .filter(|t| !is_move_number(t))
            .peekable();
        let start = match tokens.peek() {
            Some(t) if is_fen(t) => {
                let fen = tokens.next().unwrap_or_default();
                read_fen::<R>(fen).map_err(|e| err(e.to_string()))?
            }
            _ => Position::start(),
        };
        let mut game = Game::new(start);
        for (k, t) in tokens.enumerate() {
            let mv = read_move(game.position(), t)
                .map_err(|e| err(format!("move {} ({t}): {e}", k + 1)))?;
            game.play(mv);
        }
        if game.outcome().is_some() {
            return Err(err("the game is already over".into()));
        }
        out.push(game);
    }
    if out.is_empty() {
        return Err(format!("{source}: no openings"));
    }
    Ok(out)
}

/// Read a ballot file.
pub fn load_ballot<R: Rules>(path: &std::path::Path) -> Result<Vec<Game<R>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))?;
    parse_ballot(&text, &path.display().to_string())
}

/// Play `plies` uniformly random legal moves (fewer if the game ends).
pub fn random_plies<R: Rules>(game: &mut Game<R>, rng: &mut Rng, plies: u32) {
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
pub fn random_opening<R: Rules>(rng: &mut Rng, min: u32, max: u32) -> Game<R> {
    let mut game = Game::new(Position::start());
    let plies = min + rng.below((max.saturating_sub(min) + 1) as usize) as u32;
    random_plies(&mut game, rng, plies);
    game
}
