//! Start positions an initiator proposes: one FEN (`--fen`) or a ballot
//! file (`--ballots`). A ballot file has one start per line, either a FEN
//! (`W:W31-50:B1-20`, recognised by its `:`) or a sequence of moves played
//! from the normal start (`32-28 19-23 28x19 14x23`, PDN or Hub move text;
//! move numbers such as `1.` and a final result token are skipped). Blank
//! lines and lines starting with `#` or `;` are comments. Every start is
//! checked when the file is read, so a bad ballot stops Tiao before any
//! game is played. The position reached is sent with flag `B` (flag `A`
//! when it is the normal start).

use super::game::setup_of;
use super::message::Setup;
use crate::board::Variant;
use crate::engine::{MoveReading, Session, new_session};
use std::path::Path;

/// A start from a FEN.
pub fn from_fen(fen: &str) -> Result<Option<Setup>, String> {
    let mut s = new_session(Variant::International);
    s.set_fen(fen.trim())?;
    check_playable(s.as_ref())?;
    Ok(setup_of(&s.hub_position()))
}

/// Tokens of a move sequence that are not moves: move numbers and results.
fn is_noise(token: &str) -> bool {
    matches!(
        token,
        "*" | "2-0" | "0-2" | "1-1" | "1-0" | "0-1" | "0-0" | "1/2-1/2"
    ) || (token.ends_with('.')
        && token
            .trim_end_matches('.')
            .bytes()
            .all(|b| b.is_ascii_digit()))
}

/// `12.32-28` → `32-28`: a move number glued to the move.
fn strip_number(token: &str) -> &str {
    match token.find('.') {
        Some(i) if token[..i].bytes().all(|b| b.is_ascii_digit()) => {
            token[i..].trim_start_matches('.')
        }
        _ => token,
    }
}

/// A start from a move sequence played from the normal start.
pub fn from_moves(line: &str) -> Result<Option<Setup>, String> {
    let mut s = new_session(Variant::International);
    for token in line.split_whitespace().filter(|t| !is_noise(t)) {
        let mv = strip_number(token);
        if mv.is_empty() {
            continue;
        }
        s.play(mv, MoveReading::Any)
            .map_err(|e| format!("move {mv:?}: {e}"))?;
    }
    check_playable(s.as_ref())?;
    Ok(setup_of(&s.hub_position()))
}

/// A start must leave the side to move a move: a finished game is no game.
fn check_playable(s: &dyn Session) -> Result<(), String> {
    match s.result_text() {
        Some(why) => Err(format!("the game is already over there ({why})")),
        None => Ok(()),
    }
}

/// The starts of a ballot file, in file order.
pub fn load_ballots(path: &Path) -> Result<Vec<Option<Setup>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read ballot file {}: {e}", path.display()))?;
    let mut starts = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let start = if line.contains(':') && line.starts_with(['W', 'B', 'w', 'b']) {
            from_fen(line)
        } else {
            from_moves(line)
        };
        starts.push(start.map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
    }
    if starts.is_empty() {
        return Err(format!(
            "ballot file {} has no start position",
            path.display()
        ));
    }
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Colour;

    #[test]
    fn move_sequences_and_fens() {
        assert_eq!(from_moves("").expect("empty"), None);
        let s = from_moves("1. 32-28 19-23 2. 28x19 14x23 *")
            .expect("moves")
            .expect("setup");
        assert_eq!(s.to_move, Colour::White);
        assert_eq!(&s.board[18..19], "e");
        let f = from_fen("B:W31-50:B1-20").expect("fen").expect("setup");
        assert_eq!(f.to_move, Colour::Black);
        assert_eq!(from_fen("W:W31-50:B1-20").expect("fen"), None);
        assert!(from_moves("32-27 32-28").is_err());
        assert!(from_fen("W:W:B1").is_err(), "White has no move");
    }
}
