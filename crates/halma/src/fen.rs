//! Halma position strings, FEN-like:
//!
//! ```text
//! W:Wa1,b1,c1,d1,a2,b2,c2,a3,b3,a4:Be8,f8,g8,h8,f7,g7,h7,g6,h6,h5:M0,0
//! ```
//!
//! The side to move, then White's and Black's squares, then `M` with the
//! number of moves White and Black have made (the yard rule's counters).
//! The `M` field may be left out: it is then `0,0` with White to move and
//! `1,0` with Black to move. Since White moves first and nobody ever
//! passes, the counts must agree with the side to move: equal with White to
//! move, White one ahead with Black to move.

use super::board::HalmaBoard;
use super::error::HalmaError;
use super::notation::{parse_square, square_name};
use super::position::HalmaPosition;
use super::rules::HalmaCounters;
use std::fmt;
use tiao_core::Colour;
use tiao_core::bits::BitWord;

/// `W:W...:B...`: the side and the pieces, without the counters.
pub fn pieces_text<B: HalmaBoard>(pos: &HalmaPosition<B>) -> String {
    let list = |c: Colour| {
        pos.pieces(c)
            .iter()
            .map(|sq| square_name::<B>(sq))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        pos.side().letter(),
        list(Colour::White),
        list(Colour::Black)
    )
}

/// The position string of a position with its counters.
pub fn to_fen<B: HalmaBoard>(pos: &HalmaPosition<B>, counters: &HalmaCounters) -> String {
    format!(
        "{}:M{},{}",
        pieces_text(pos),
        counters.moves[0],
        counters.moves[1]
    )
}

fn side_of(text: &str) -> Result<Colour, HalmaError> {
    match text.trim() {
        "W" | "w" => Ok(Colour::White),
        "B" | "b" => Ok(Colour::Black),
        other => Err(HalmaError::Position(format!(
            "the side to move is '{other}', not W or B"
        ))),
    }
}

fn squares<B: HalmaBoard>(list: &str, colour: Colour) -> Result<B::W, HalmaError> {
    let mut set = B::W::ZERO;
    if list.trim().is_empty() {
        return Ok(set);
    }
    for name in list.split(',') {
        let sq = parse_square::<B>(name)
            .map_err(|e| HalmaError::Position(format!("{} pieces: {e}", colour.name())))?;
        if set.has(sq) {
            return Err(HalmaError::Position(format!(
                "{} lists {} twice",
                colour.name(),
                square_name::<B>(sq)
            )));
        }
        set |= B::W::bit(sq);
    }
    Ok(set)
}

fn counters_of(text: &str, side: Colour) -> Result<HalmaCounters, HalmaError> {
    let bad = || {
        HalmaError::Position(format!(
            "the move counters '{text}' should be M<white moves>,<black moves>, like M12,11"
        ))
    };
    let body = text.trim().strip_prefix('M').ok_or_else(bad)?;
    let (w, b) = body.split_once(',').ok_or_else(bad)?;
    let w: u16 = w.trim().parse().map_err(|_| bad())?;
    let b: u16 = b.trim().parse().map_err(|_| bad())?;
    let consistent = match side {
        Colour::White => w == b,
        Colour::Black => w.checked_sub(1) == Some(b),
    };
    if !consistent {
        return Err(HalmaError::Position(format!(
            "with {} to move the counters cannot be {w},{b}: White moves first, so they are \
             equal with White to move and White is one ahead with Black to move",
            side.name()
        )));
    }
    Ok(HalmaCounters {
        moves: [w, b],
        reversible: 0,
    })
}

/// Reads a position string (see the module comment) on board size `B`.
pub fn from_fen<B: HalmaBoard>(
    text: &str,
) -> Result<(HalmaPosition<B>, HalmaCounters), HalmaError> {
    let t = text.trim();
    let fields: Vec<&str> = t.split(':').collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(HalmaError::Position(format!(
            "'{t}' should have 3 or 4 fields separated by ':' (side, W pieces, B pieces, M counters)"
        )));
    }
    let side = side_of(fields[0])?;
    let white_list = fields[1].trim().strip_prefix('W').ok_or_else(|| {
        HalmaError::Position(format!(
            "the second field '{}' should start with W",
            fields[1]
        ))
    })?;
    let black_list = fields[2].trim().strip_prefix('B').ok_or_else(|| {
        HalmaError::Position(format!(
            "the third field '{}' should start with B",
            fields[2]
        ))
    })?;
    let white = squares::<B>(white_list, Colour::White)?;
    let black = squares::<B>(black_list, Colour::Black)?;
    let pos = HalmaPosition::<B>::new(white, black, side)?;
    let counters = match fields.get(3) {
        Some(m) => counters_of(m, side)?,
        None => HalmaCounters {
            moves: [u16::from(side == Colour::Black), 0],
            reversible: 0,
        },
    };
    Ok((pos, counters))
}

// Debug shows the position as its FEN, so test failures read as positions.
impl<B: HalmaBoard> fmt::Debug for HalmaPosition<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HalmaPosition<{}>({})", B::NAME, pieces_text(self))
    }
}
