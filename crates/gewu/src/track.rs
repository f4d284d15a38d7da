//! The Gewu track: 19 cells in a line, numbered 1 to 19 from White's end
//! (bit 0 is cell 1), each side's home being the five cells it starts on.
//! See `docs/gewu.md` §1–2 for why.

use tiao_core::Colour;

/// Cells on the track.
pub const CELLS: u32 = 19;
/// Pieces per side at the start (the most a side may have).
pub const PIECES: u32 = 5;
/// Cells in each home.
pub const HOME_CELLS: u32 = 5;
/// Every cell.
pub const FULL: u32 = (1 << CELLS) - 1;
/// The homes by colour: White's cells 1–5, Black's cells 15–19.
pub const HOME: [u32; 2] = [
    (1 << HOME_CELLS) - 1,
    ((1 << HOME_CELLS) - 1) << (CELLS - HOME_CELLS),
];

/// A colour's direction of travel along the bit indices.
#[inline(always)]
pub const fn forward(c: Colour) -> i32 {
    match c {
        Colour::White => 1,
        Colour::Black => -1,
    }
}

/// The cell `steps` cells ahead of `cell` for `c`, if on the track.
#[inline(always)]
pub fn ahead(c: Colour, cell: u32, steps: u32) -> Option<u32> {
    let to = cell as i32 + forward(c) * steps as i32;
    (0..CELLS as i32).contains(&to).then_some(to as u32)
}

/// How far `c` still has to go from `cell` to the first cell of the enemy's
/// home (0 once inside it).
#[inline(always)]
pub fn distance_home(c: Colour, cell: u32) -> u32 {
    match c {
        Colour::White => (CELLS - HOME_CELLS).saturating_sub(cell),
        Colour::Black => cell.saturating_sub(HOME_CELLS - 1),
    }
}
