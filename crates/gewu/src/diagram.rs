//! A text picture of a Gewu position, for text mode and logs:
//!
//! ```text
//!   1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
//!   W  W  W  W  W  .  .  .  .  .  .  .  .  .  B  B  B  B  B
//!  [ White home  ]                           [ Black home  ]
//! White to move
//! ```

use super::position::GewuPosition;
use super::track::{CELLS, HOME_CELLS};
use tiao_core::Colour;

/// The track as text: cell numbers, pieces, the two homes and the side to move.
pub fn diagram(pos: &GewuPosition) -> String {
    let numbers: String = (1..=CELLS).map(|i| format!("{i:>3}")).collect();
    let pieces: String = (0..CELLS)
        .map(|i| match pos.piece_at(i) {
            Some(Colour::White) => "  W",
            Some(Colour::Black) => "  B",
            None => "  .",
        })
        .collect();
    // Cell k (1-based) shows in column 3k - 1; a home's brackets sit just
    // outside its first and last cell.
    let mut homes = vec![' '; 3 * CELLS as usize + 1];
    for (first, name) in [(1, "White home"), (CELLS - HOME_CELLS + 1, "Black home")] {
        let open = 3 * (first as usize - 1) + 1;
        let close = 3 * (first + HOME_CELLS - 1) as usize;
        homes[open] = '[';
        homes[close] = ']';
        let label = format!("{name:^w$}", w = close - open - 1);
        for (i, ch) in label.chars().enumerate() {
            homes[open + 1 + i] = ch;
        }
    }
    let homes: String = homes.into_iter().collect::<String>().trim_end().to_string();
    let side = match pos.side() {
        Colour::White => "White",
        Colour::Black => "Black",
    };
    format!("{numbers}\n{pieces}\n{homes}\n{side} to move\n")
}
