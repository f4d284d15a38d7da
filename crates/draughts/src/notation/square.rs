//! Square names: numbers (`1`..=SQUARES, protocols.md §1) and algebraic
//! coordinates (`a1` = White's left corner, files `a`.., ranks `1`..SIZE from
//! the bottom), converted to and from the bit indices of the board layout.
//!
//! Readers accept both forms for every board, because real files mix them
//! (Russian FEN is algebraic, perft tables number 8x8 squares); writers use
//! the variant's style unless the caller asks for the other one.

use super::syntax::PResult;
use crate::board::{Geometry, Rules, SquareStyle};
use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::{all_consuming, map};
use nom::error::context;
use std::fmt;

/// Why a text does not name a square of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Neither a number nor a letter followed by a number.
    Malformed(String),
    /// A well-formed name outside the board, e.g. square 51 on 10x10.
    NotOnBoard { square: String, size: u32 },
    /// An algebraic name of a light square, where no piece ever stands.
    LightSquare { square: String },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(text) => write!(
                f,
                "'{text}' is not a square (expected a number such as 32 or a name such as c3)"
            ),
            SquareError::NotOnBoard { square, size } => {
                write!(f, "square {square} does not exist on a {size}x{size} board")
            }
            SquareError::LightSquare { square } => write!(
                f,
                "square {square} is a light square; pieces stand on the dark squares only"
            ),
        }
    }
}

impl std::error::Error for SquareError {}

/// A square as written, before it is checked against a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SquareToken<'a> {
    /// Decimal digits (leading zeros allowed).
    Number(&'a str),
    /// A file letter and rank digits.
    Algebraic { file: char, rank: &'a str },
}

/// File letters a square name may start with. `x` is left out because it
/// separates the squares of a capture (`c3xe5`); no supported board is that wide.
fn is_file_letter(c: char) -> bool {
    c.is_ascii_lowercase() && c != 'x' && c != 'y' && c != 'z'
}

/// nom parser of one square name.
pub(crate) fn square_token(input: &str) -> PResult<'_, SquareToken<'_>> {
    context(
        "a square",
        alt((
            map(digit1, SquareToken::Number),
            map((satisfy(is_file_letter), digit1), |(file, rank)| {
                SquareToken::Algebraic { file, rank }
            }),
        )),
    )
    .parse(input)
}

impl SquareToken<'_> {
    /// The bit index this name denotes on board `G`.
    pub(crate) fn resolve<G: Geometry>(&self) -> Result<u32, SquareError> {
        let off_board = |square: String| SquareError::NotOnBoard {
            square,
            size: G::SIZE,
        };
        match *self {
            SquareToken::Number(digits) => {
                // Leading zeros are accepted; an overlong number is just off the board.
                let trimmed = digits.trim_start_matches('0');
                let shown = if trimmed.is_empty() { "0" } else { trimmed };
                let n: u32 = shown.parse().map_err(|_| off_board(shown.to_string()))?;
                bit_of_number::<G>(n).ok_or_else(|| off_board(n.to_string()))
            }
            SquareToken::Algebraic { file, rank } => {
                let name = format!("{file}{rank}");
                let file_index = u32::from(file) - u32::from('a');
                let rank_n: u32 = rank.parse().map_err(|_| off_board(name.clone()))?;
                if rank.starts_with('0')
                    || !(1..=G::SIZE).contains(&rank_n)
                    || file_index >= G::SIZE
                {
                    return Err(off_board(name));
                }
                let row = (G::SIZE - rank_n) as i32;
                G::bit_at(row, file_index as i32).ok_or(SquareError::LightSquare { square: name })
            }
        }
    }
}

/// Bit index of square number `n` (1-based), if the board has it.
pub fn bit_of_number<G: Geometry>(n: u32) -> Option<u32> {
    (1..=G::SQUARES).contains(&n).then(|| G::bit_of(n - 1))
}

/// Square number (1-based) of a bit index.
pub fn number_of_bit<G: Geometry>(bit: u32) -> u32 {
    G::square_of(bit) + 1
}

/// Algebraic name (`a1` = White's left corner) of a bit index.
pub fn algebraic_of_bit<G: Geometry>(bit: u32) -> String {
    let (row, file) = G::row_file(bit);
    // Files past `w` never occur (boards are at most 12 wide).
    let letter = char::from_u32(u32::from('a') + file).unwrap_or('?');
    format!("{letter}{}", G::SIZE - row)
}

/// Read a square name (number or algebraic) of rule set `R` into a bit index.
/// Surrounding whitespace is ignored.
pub fn parse_square<R: Rules>(text: &str) -> Result<u32, SquareError> {
    let trimmed = text.trim();
    match all_consuming(square_token).parse(trimmed) {
        Ok((_, token)) => token.resolve::<R::Geometry>(),
        Err(_) => Err(SquareError::Malformed(trimmed.to_string())),
    }
}

/// Write the square at `bit` in the given style.
pub fn write_square<R: Rules>(bit: u32, style: SquareStyle) -> String {
    match style {
        SquareStyle::Numeric => number_of_bit::<R::Geometry>(bit).to_string(),
        SquareStyle::Algebraic => algebraic_of_bit::<R::Geometry>(bit),
    }
}

/// Write the square at `bit` in the variant's own style (numbers for
/// international and Canadian, algebraic for Russian and Brazilian).
pub fn square_text<R: Rules>(bit: u32) -> String {
    write_square::<R>(bit, R::VARIANT.square_style())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Brazilian, Canadian, International, Russian};

    #[test]
    fn numbering_follows_protocols_section_1() {
        // 10x10: 1 = b10, 5 = j10, 46 = a1, 50 = i1.
        for (n, name) in [(1, "b10"), (5, "j10"), (6, "a9"), (46, "a1"), (50, "i1")] {
            let bit = parse_square::<International>(&n.to_string()).unwrap();
            assert_eq!(
                write_square::<International>(bit, SquareStyle::Algebraic),
                name
            );
            assert_eq!(parse_square::<International>(name), Ok(bit));
        }
        // 8x8: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
        for (n, name) in [(1, "b8"), (4, "h8"), (5, "a7"), (29, "a1"), (32, "g1")] {
            let bit = parse_square::<Russian>(name).unwrap();
            assert_eq!(
                write_square::<Russian>(bit, SquareStyle::Numeric),
                n.to_string()
            );
        }
        // 12x12: 1 = b12, 67 = a1.
        let bit = parse_square::<Canadian>("a1").unwrap();
        assert_eq!(square_text::<Canadian>(bit), "67");
        assert_eq!(
            square_text::<Canadian>(parse_square::<Canadian>("1").unwrap()),
            "1"
        );
        assert_eq!(
            square_text::<Brazilian>(parse_square::<Brazilian>("32").unwrap()),
            "g1"
        );
    }

    #[test]
    fn leading_zeros_are_accepted() {
        assert_eq!(
            parse_square::<International>("05"),
            parse_square::<International>("5")
        );
    }

    #[test]
    fn errors_name_the_square_and_the_board() {
        assert_eq!(
            parse_square::<International>("51").unwrap_err().to_string(),
            "square 51 does not exist on a 10x10 board"
        );
        assert!(matches!(
            parse_square::<International>("0"),
            Err(SquareError::NotOnBoard { .. })
        ));
        assert!(matches!(
            parse_square::<Russian>("i1"),
            Err(SquareError::NotOnBoard { .. })
        ));
        assert!(matches!(
            parse_square::<Russian>("a9"),
            Err(SquareError::NotOnBoard { .. })
        ));
        assert!(matches!(
            parse_square::<Russian>("b1"),
            Err(SquareError::LightSquare { .. })
        ));
        assert!(matches!(
            parse_square::<Russian>("3x"),
            Err(SquareError::Malformed(_))
        ));
        assert!(matches!(
            parse_square::<Russian>("99999999999999999999999"),
            Err(SquareError::NotOnBoard { .. })
        ));
    }

    #[test]
    fn every_square_round_trips_in_both_styles() {
        fn check<R: Rules>() {
            for sq in 0..R::Geometry::SQUARES {
                let bit = R::Geometry::bit_of(sq);
                for style in [SquareStyle::Numeric, SquareStyle::Algebraic] {
                    assert_eq!(parse_square::<R>(&write_square::<R>(bit, style)), Ok(bit));
                }
            }
        }
        check::<International>();
        check::<Russian>();
        check::<Brazilian>();
        check::<Canadian>();
    }
}
