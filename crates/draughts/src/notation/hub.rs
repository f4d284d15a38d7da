//! Hub position strings (protocols.md §2): the side to move (`W`/`B`)
//! followed by one character per square in numeric order — `w`/`b` men,
//! `W`/`B` kings, `e` empty. Only the position string; the Hub protocol
//! itself lives elsewhere.
//!
//! The format is a fixed-width character table, so it is read with a plain
//! loop rather than a parser combinator.

use crate::board::{Colour, Geometry, Piece, Position, PositionError, Rules, Word};
use std::fmt;
use tiao_core::bits::BitWord;

/// Why a Hub position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubPositionError {
    /// The string must have 1 + SQUARES characters.
    WrongLength { expected: usize, got: usize },
    /// The first character is not `W` or `B`.
    BadSide(char),
    /// A square character other than `w`, `b`, `W`, `B`, `e`; `index` is the
    /// 1-based character position, `square` the square it stands for.
    BadChar { ch: char, index: usize, square: u32 },
    /// Valid characters, invalid position.
    Position(PositionError),
}

impl fmt::Display for HubPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubPositionError::WrongLength { expected, got } => write!(
                f,
                "bad position: expected {expected} characters (side to move and one per square), got {got}"
            ),
            HubPositionError::BadSide(c) => {
                write!(
                    f,
                    "bad position: the side to move must be 'W' or 'B', not {c:?}"
                )
            }
            HubPositionError::BadChar { ch, index, square } => write!(
                f,
                "bad position: character {ch:?} at position {index} (square {square}); \
                 expected one of w b W B e"
            ),
            HubPositionError::Position(e) => write!(f, "bad position: {e}"),
        }
    }
}

impl std::error::Error for HubPositionError {}

/// Read a Hub position string for rule set `R`. Surrounding blanks are ignored.
pub fn read_hub_position<R: Rules>(text: &str) -> Result<Position<R>, HubPositionError> {
    let text = text.trim();
    let expected = 1 + R::Geometry::SQUARES as usize;
    let got = text.chars().count();
    if got != expected {
        return Err(HubPositionError::WrongLength { expected, got });
    }
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('W') => Colour::White,
        Some('B') => Colour::Black,
        Some(c) => return Err(HubPositionError::BadSide(c)),
        None => return Err(HubPositionError::WrongLength { expected, got }),
    };
    // [white men, white kings, black men, black kings]
    let mut sets = [Word::<R>::ZERO; 4];
    for (sq, ch) in (0..R::Geometry::SQUARES).zip(chars) {
        let slot = match ch {
            'w' => 0,
            'W' => 1,
            'b' => 2,
            'B' => 3,
            'e' => continue,
            _ => {
                return Err(HubPositionError::BadChar {
                    ch,
                    index: sq as usize + 2,
                    square: sq + 1,
                });
            }
        };
        sets[slot] |= Word::<R>::bit(R::Geometry::bit_of(sq));
    }
    Position::from_bitboards(sets[0], sets[1], sets[2], sets[3], side)
        .map_err(HubPositionError::Position)
}

/// Write a position as a Hub position string.
pub fn write_hub_position<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::with_capacity(1 + R::Geometry::SQUARES as usize);
    out.push(pos.side().letter());
    for sq in 0..R::Geometry::SQUARES {
        out.push(
            pos.piece_at(R::Geometry::bit_of(sq))
                .map_or('e', Piece::hub_char),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{International, Russian};

    #[test]
    fn the_international_start_string() {
        let s = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let p = read_hub_position::<International>(s).unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(write_hub_position(&p), s);
    }

    #[test]
    fn length_is_one_plus_squares() {
        assert_eq!(
            read_hub_position::<Russian>("We"),
            Err(HubPositionError::WrongLength {
                expected: 33,
                got: 2
            })
        );
    }
}
