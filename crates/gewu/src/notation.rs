//! Gewu moves as text (`docs/gewu.md` §8): cells 1–19 from White's end, a
//! move `from-to` (`5-6`, a jump `6-8`, a throw move `5-9`), or `pass`.
//! Reading accepts only moves legal in the position (for the throw form,
//! under the throw made).

use super::error::GewuError;
use super::moves::{GewuMove, GewuMoveList};
use super::position::GewuPosition;
use super::throws::Throw;
use super::track::CELLS;

/// A move as text.
pub fn move_text(mv: &GewuMove) -> String {
    if mv.is_pass() {
        "pass".to_string()
    } else {
        format!("{}-{}", mv.from + 1, mv.to + 1)
    }
}

/// A turn of the throw form as text, e.g. `hei 5-9` or `wu pass`.
pub fn turn_text(throw: Throw, mv: &GewuMove) -> String {
    format!("{} {}", throw.name(), move_text(mv))
}

fn cell(text: &str, whole: &str) -> Result<u8, GewuError> {
    let n: u32 = text.trim().parse().map_err(|_| {
        GewuError::MalformedMove(format!("'{whole}': '{}' is not a cell number", text.trim()))
    })?;
    if !(1..=CELLS).contains(&n) {
        return Err(GewuError::MalformedMove(format!(
            "'{whole}': cell {n} is not on the track (1 to {CELLS})"
        )));
    }
    Ok((n - 1) as u8)
}

/// The move `text` denotes, if it is among `legal`.
fn find(text: &str, legal: &GewuMoveList) -> Result<GewuMove, GewuError> {
    let t = text.trim();
    let mv = if t.eq_ignore_ascii_case("pass") {
        GewuMove::PASS
    } else {
        let (a, b) = t.split_once('-').ok_or_else(|| {
            GewuError::MalformedMove(format!("'{t}' should be from-to cells, like 5-6, or pass"))
        })?;
        GewuMove {
            from: cell(a, t)?,
            to: cell(b, t)?,
        }
    };
    if legal.contains(&mv) {
        return Ok(mv);
    }
    let options: Vec<String> = legal.iter().map(move_text).collect();
    Err(GewuError::IllegalMove(format!(
        "'{t}' is not legal here; legal: {}",
        options.join(", ")
    )))
}

/// Reads a move of the free form.
pub fn parse_move(pos: &GewuPosition, text: &str) -> Result<GewuMove, GewuError> {
    let mut legal = GewuMoveList::new();
    pos.generate(&mut legal);
    find(text, &legal)
}

/// Reads a move of the throw form, made after `throw`.
pub fn parse_throw_move(
    pos: &GewuPosition,
    throw: Throw,
    text: &str,
) -> Result<GewuMove, GewuError> {
    let mut legal = GewuMoveList::new();
    pos.throw_moves(throw, &mut legal);
    find(text, &legal)
}

/// Reads a throw (`sai`, `bai`, `hei`, `wu`, their characters, or 1, 2, 3, 0).
pub fn parse_throw(text: &str) -> Result<Throw, GewuError> {
    text.parse::<Throw>().map_err(GewuError::Throw)
}
