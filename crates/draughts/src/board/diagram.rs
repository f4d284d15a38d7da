//! A text picture of a position, for text mode and logs.
//!
//! ```text
//!      a b c d e f g h i j
//!   +---------------------+
//! 10|   b   b   b   b   b |  1- 5
//!  9| b   b   b   b   b   |  6-10
//! ```
//! Men are `w`/`b`, kings `W`/`B`, empty dark squares `.`; the square
//! numbers of each row are shown on the right for numbered boards.

use super::geometry::Geometry;
use super::position::Position;
use super::variant::{Rules, SquareStyle};
use std::fmt::Write;

/// The board as text, White at the bottom, with the side to move below.
pub fn diagram<R: Rules>(pos: &Position<R>) -> String {
    let n = R::Geometry::SIZE;
    let half = R::Geometry::HALF;
    let numbered = R::VARIANT.square_style() == SquareStyle::Numeric;
    let width = if R::Geometry::SQUARES >= 100 { 3 } else { 2 };
    let files: String = (0..n)
        .map(|f| format!(" {}", (b'a' + f as u8) as char))
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "    {files}");
    let border = format!("   +{}+", "-".repeat(2 * n as usize + 1));
    let _ = writeln!(out, "{border}");
    for row in 0..n {
        let _ = write!(out, "{:>3}|", n - row);
        for file in 0..n {
            let c = match R::Geometry::bit_at(row as i32, file as i32) {
                None => ' ',
                Some(bit) => pos.piece_at(bit).map_or('.', |p| p.hub_char()),
            };
            let _ = write!(out, " {c}");
        }
        out.push_str(" |");
        if numbered {
            let first = row * half + 1;
            let _ = write!(out, " {first:>width$}-{:<width$}", first + half - 1);
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{border}");
    let _ = writeln!(
        out,
        "{} to move",
        if pos.side() == super::Colour::White {
            "White"
        } else {
            "Black"
        }
    );
    out
}
