//! Gewu position strings (`docs/gewu.md` §9): `W:WWWWW.........BBBBB`, the
//! side to move, a colon, and the 19 cells from cell 1 (`W`, `B` or `.`).

use super::error::GewuError;
use super::position::GewuPosition;
use super::track::CELLS;
use std::fmt;
use tiao_core::Colour;

/// The position string of `pos`.
pub fn to_fen(pos: &GewuPosition) -> String {
    let cells: String = (0..CELLS)
        .map(|i| match pos.piece_at(i) {
            Some(Colour::White) => 'W',
            Some(Colour::Black) => 'B',
            None => '.',
        })
        .collect();
    format!("{}:{cells}", pos.side().letter())
}

/// Reads a position string.
pub fn from_fen(text: &str) -> Result<GewuPosition, GewuError> {
    let t = text.trim();
    let (side, cells) = t.split_once(':').ok_or_else(|| {
        GewuError::Position(format!(
            "'{t}' should be the side to move, ':', then the {CELLS} cells, like W:WWWWW.........BBBBB"
        ))
    })?;
    let side = match side.trim() {
        "W" | "w" => Colour::White,
        "B" | "b" => Colour::Black,
        other => {
            return Err(GewuError::Position(format!(
                "the side to move is '{other}', not W or B"
            )));
        }
    };
    let cells = cells.trim();
    let n = cells.chars().count();
    if n != CELLS as usize {
        return Err(GewuError::Position(format!(
            "'{cells}' has {n} cells; the track has {CELLS}"
        )));
    }
    let (mut white, mut black) = (0u32, 0u32);
    for (i, ch) in cells.chars().enumerate() {
        match ch {
            'W' | 'w' => white |= 1 << i,
            'B' | 'b' => black |= 1 << i,
            '.' => {}
            other => {
                return Err(GewuError::Position(format!(
                    "cell {} is '{other}'; use W, B or .",
                    i + 1
                )));
            }
        }
    }
    GewuPosition::new(white, black, side).map_err(GewuError::Position)
}

// Debug shows the position as its FEN, so test failures read as positions.
impl fmt::Debug for GewuPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GewuPosition({})", to_fen(self))
    }
}
