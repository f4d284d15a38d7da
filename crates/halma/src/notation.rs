//! Halma squares and moves as text.
//!
//! Squares are algebraic: a file letter (`a`..`h` or `a`..`j`) and a rank
//! number (`1`..`8` or `1`..`10`), `a1` being White's corner. A step is
//! written `b2-c3`; a jump chain gives every landing square, `a1-c3-e5`.
//!
//! Writing gives a shortest jump path (see `HalmaPosition::jump_path`).
//! Reading accepts any valid path: each hop a jump over an occupied square
//! onto an empty one, no square landed on twice (the start included), in
//! this position with the moving piece lifted off its start square.

use super::board::{HalmaBoard, coords, square_at};
use super::error::HalmaError;
use super::moves::HalmaMove;
use super::position::HalmaPosition;
use tiao_core::bits::BitWord;

/// The name of a square, e.g. `c3` or `j10`.
pub fn square_name<B: HalmaBoard>(sq: u32) -> String {
    let (f, r) = coords::<B>(sq);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// The square a name denotes, on board `B`.
pub fn parse_square<B: HalmaBoard>(text: &str) -> Result<u32, HalmaError> {
    let t = text.trim();
    let mut chars = t.chars();
    let file = match chars.next() {
        Some(c @ 'a'..='z') => c as i32 - 'a' as i32,
        Some(c @ 'A'..='Z') => c as i32 - 'A' as i32,
        _ => {
            return Err(HalmaError::Square(format!(
                "'{t}' does not start with a file letter"
            )));
        }
    };
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HalmaError::Square(format!(
            "'{t}' needs a rank number after the file letter"
        )));
    }
    let rank: i32 = digits
        .parse()
        .map_err(|_| HalmaError::Square(format!("'{t}' has a bad rank number")))?;
    square_at::<B>(file, rank - 1)
        .ok_or_else(|| HalmaError::Square(format!("'{t}' is off the {} board", B::NAME)))
}

/// A legal move of `pos` as text: `b2-c3`, or a jump chain with every
/// landing square. A move that is not legal in `pos` is written from-to.
pub fn move_text<B: HalmaBoard>(pos: &HalmaPosition<B>, mv: &HalmaMove) -> String {
    let (from, to) = (u32::from(mv.from), u32::from(mv.to));
    let path = if mv.jump {
        pos.jump_path(from, to).unwrap_or_else(|| vec![from, to])
    } else {
        vec![from, to]
    };
    path.iter()
        .map(|&sq| square_name::<B>(sq))
        .collect::<Vec<_>>()
        .join("-")
}

/// Reads a move of the side to move of `pos`.
pub fn parse_move<B: HalmaBoard>(
    pos: &HalmaPosition<B>,
    text: &str,
) -> Result<HalmaMove, HalmaError> {
    let t = text.trim();
    let parts: Vec<&str> = t.split('-').collect();
    if parts.len() < 2 {
        return Err(HalmaError::MalformedMove(format!(
            "'{t}' should be squares joined by '-', like b2-c3 or a1-c3-e5"
        )));
    }
    let squares = parts
        .iter()
        .map(|p| parse_square::<B>(p))
        .collect::<Result<Vec<u32>, _>>()
        .map_err(|e| HalmaError::MalformedMove(format!("in '{t}': {e}")))?;
    let from = squares[0];
    let to = squares[squares.len() - 1];
    let side = pos.side();
    if pos.piece_at(from) != Some(side) {
        return Err(HalmaError::IllegalMove(format!(
            "'{t}': no {} piece on {}",
            side.name(),
            square_name::<B>(from)
        )));
    }
    let others = pos.occupied() & !B::W::bit(from);
    let (f0, r0) = coords::<B>(from);
    let (f1, r1) = coords::<B>(to);
    let adjacent = (f0 - f1).abs() <= 1 && (r0 - r1).abs() <= 1;
    if squares.len() == 2 && adjacent {
        if others.has(to) || from == to {
            return Err(HalmaError::IllegalMove(format!(
                "'{t}': {} is not empty",
                square_name::<B>(to)
            )));
        }
        return Ok(HalmaMove {
            from: from as u8,
            to: to as u8,
            jump: false,
        });
    }
    // A jump chain: check every hop.
    let mut landed = B::W::bit(from);
    for hop in squares.windows(2) {
        let (a, b) = (hop[0], hop[1]);
        let (fa, ra) = coords::<B>(a);
        let (fb, rb) = coords::<B>(b);
        let (df, dr) = (fb - fa, rb - ra);
        let is_jump_shape =
            (df == 0 || df.abs() == 2) && (dr == 0 || dr.abs() == 2) && (df, dr) != (0, 0);
        let name = |sq| square_name::<B>(sq);
        if !is_jump_shape {
            return Err(HalmaError::IllegalMove(format!(
                "'{t}': {}-{} is neither a step nor a jump (a step cannot be combined with jumps)",
                name(a),
                name(b)
            )));
        }
        let over = square_at::<B>(fa + df / 2, ra + dr / 2).unwrap_or(a);
        if !others.has(over) {
            return Err(HalmaError::IllegalMove(format!(
                "'{t}': no piece on {} to jump over",
                name(over)
            )));
        }
        if others.has(b) {
            return Err(HalmaError::IllegalMove(format!(
                "'{t}': {} is not empty",
                name(b)
            )));
        }
        if landed.has(b) {
            return Err(HalmaError::IllegalMove(format!(
                "'{t}': the chain lands on {} twice",
                name(b)
            )));
        }
        landed |= B::W::bit(b);
    }
    let mv = HalmaMove {
        from: from as u8,
        to: to as u8,
        jump: true,
    };
    // Every hop was checked, so this holds; it guards against any gap
    // between this reader and the generator.
    if !pos.is_legal(&mv) {
        return Err(HalmaError::IllegalMove(format!(
            "'{t}' is not a legal move"
        )));
    }
    Ok(mv)
}
