//! A text picture of a Halma position, for text mode and logs.
//!
//! ```text
//!     a b c d e f g h
//!   +-----------------+
//! 8 | + + + + B B B B |
//! 7 | + + + + + B B B |
//! ```
//! White pieces `W`, Black pieces `B`, empty squares `.`, empty squares of
//! a yard `+` (so the yards stay visible as they empty).

use super::board::{HalmaBoard, square_at};
use super::position::HalmaPosition;
use std::fmt::Write;
use tiao_core::Colour;
use tiao_core::bits::BitWord;

/// The board as text, White's corner (a1) at the bottom left, with the side
/// to move below.
pub fn diagram<B: HalmaBoard>(pos: &HalmaPosition<B>) -> String {
    let n = B::N as i32;
    let yards = B::YARD[0] | B::YARD[1];
    let files: String = (0..n)
        .map(|f| format!(" {}", (b'a' + f as u8) as char))
        .collect();
    let border = format!("   +{}+", "-".repeat(2 * n as usize + 1));
    let mut out = String::new();
    let _ = writeln!(out, "    {files}");
    let _ = writeln!(out, "{border}");
    for rank in (0..n).rev() {
        let _ = write!(out, "{:>2} |", rank + 1);
        for file in 0..n {
            let c = match square_at::<B>(file, rank) {
                Some(sq) => match pos.piece_at(sq) {
                    Some(Colour::White) => 'W',
                    Some(Colour::Black) => 'B',
                    None if yards.has(sq) => '+',
                    None => '.',
                },
                None => '?',
            };
            let _ = write!(out, " {c}");
        }
        let _ = writeln!(out, " |");
    }
    let _ = writeln!(out, "{border}");
    let side = match pos.side() {
        Colour::White => "White",
        Colour::Black => "Black",
    };
    let _ = writeln!(out, "{side} to move");
    out
}
