//! PDN FEN: `W:W31-50:B1-20` — the side to move, then the white and the
//! black pieces (`K` marks a king, `a-b` a range of square numbers).
//!
//! The reader is lenient about what real files contain (algebraic squares,
//! sections in either order, empty lists, unknown trailing sections such as
//! `:H0:F1`, a missing colour section, quotes, blanks, a final `.`) and strict about what the position
//! means: every square must exist and the position must pass
//! `Position::from_bitboards`. The writer emits one canonical form.

use super::square::{SquareError, SquareToken, algebraic_of_bit, number_of_bit, square_token};
use super::syntax::{PResult, SyntaxError, column_of, into_syntax_error};
use crate::board::{Colour, Geometry, Position, PositionError, Rules, SquareStyle, Word};
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while};
use nom::character::complete::{char, multispace0, one_of};
use nom::combinator::{cut, eof, map, opt, peek, value};
use nom::error::context;
use nom::multi::many0;
use nom::sequence::preceded;
use std::fmt;
use tiao_core::bits::BitWord;

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not FEN; `column` (1-based, in characters of the text
    /// given) says where reading stopped.
    Malformed { column: usize, message: String },
    /// A square that the board does not have.
    Square(SquareError),
    /// Well-formed, but not a valid position (square twice, man on its
    /// crowning row, too many pieces).
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Malformed { column, message } => {
                write!(f, "malformed FEN at column {column}: {message}")
            }
            FenError::Square(e) => write!(f, "bad FEN: {e}"),
            FenError::Position(e) => write!(f, "bad FEN: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<SquareError> for FenError {
    fn from(e: SquareError) -> Self {
        FenError::Square(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> Self {
        FenError::Position(e)
    }
}

/// One entry of a piece list: a square or a range, maybe of kings.
struct Item<'a> {
    king: bool,
    first: SquareToken<'a>,
    last: Option<SquareToken<'a>>,
    /// Where the entry starts, for error columns.
    at: &'a str,
}

/// A `:`-separated section: a colour's pieces, or one Tiao does not know.
struct Section<'a> {
    colour: Option<Colour>,
    items: Vec<Item<'a>>,
}

fn side_to_move(i: &str) -> PResult<'_, Colour> {
    context(
        "'W' or 'B' (the side to move)",
        alt((
            value(Colour::White, one_of("Ww")),
            value(Colour::Black, one_of("Bb")),
        )),
    )
    .parse(i)
}

fn item(i: &str) -> PResult<'_, Item<'_>> {
    let at = i;
    let (i, king) = map(opt(char('K')), |k| k.is_some()).parse(i)?;
    let (i, first) = square_token(i)?;
    // Once a `-` follows a square, the end of the range must come.
    let (i, last) = opt(preceded(
        (multispace0, char('-'), multispace0, opt(char('K'))),
        cut(context("the last square of a range", square_token)),
    ))
    .parse(i)?;
    Ok((
        i,
        Item {
            king,
            first,
            last,
            at,
        },
    ))
}

fn list_separator(i: &str) -> PResult<'_, char> {
    preceded(multispace0, char(',')).parse(i)
}

fn piece_list(i: &str) -> PResult<'_, Vec<Item<'_>>> {
    let (mut i, first) = opt(preceded(multispace0, item)).parse(i)?;
    let mut items = Vec::new();
    if let Some(first) = first {
        items.push(first);
        let (rest, more) = many0(preceded(
            list_separator,
            cut(preceded(multispace0, context("a square after ','", item))),
        ))
        .parse(i)?;
        items.extend(more);
        i = rest;
    }
    Ok((i, items))
}

fn colour_section(i: &str) -> PResult<'_, Section<'_>> {
    let (i, colour) = alt((
        value(Colour::White, char('W')),
        value(Colour::Black, char('B')),
    ))
    .parse(i)?;
    // After the colour letter this can only be a piece list: no backtracking
    // into "unknown section", which would silently drop the pieces.
    let (i, items) = cut(piece_list).parse(i)?;
    let (i, _) = cut(context(
        "',' or ':' after a square",
        peek(preceded(multispace0, alt((tag(":"), tag("."), eof)))),
    ))
    .parse(i)?;
    Ok((
        i,
        Section {
            colour: Some(colour),
            items,
        },
    ))
}

fn unknown_section(i: &str) -> PResult<'_, Section<'_>> {
    map(take_while(|c| c != ':'), |_| Section {
        colour: None,
        items: Vec::new(),
    })
    .parse(i)
}

fn fen_body(i: &str) -> PResult<'_, (Colour, Vec<Section<'_>>)> {
    let (i, side) = side_to_move(i)?;
    let (i, sections) = many0(preceded(
        (multispace0, char(':'), multispace0),
        alt((colour_section, unknown_section)),
    ))
    .parse(i)?;
    let (i, _) = (
        opt(preceded(multispace0, char('.'))),
        multispace0,
        context("':' and a list of pieces, or the end of the FEN", eof),
    )
        .parse(i)?;
    Ok((i, (side, sections)))
}

/// The text without surrounding blanks and quotes.
fn unwrap_text(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_prefix('"').unwrap_or(t);
    let t = t.strip_suffix('"').unwrap_or(t);
    t.trim()
}

/// Read a PDN FEN for rule set `R`.
pub fn read_fen<R: Rules>(text: &str) -> Result<Position<R>, FenError> {
    let body = unwrap_text(text);
    let malformed = |at: &str, message: String| FenError::Malformed {
        column: column_of(text, at),
        message,
    };
    let (side, sections) = match fen_body(body) {
        Ok((_, parsed)) => parsed,
        Err(e) => {
            let e: SyntaxError = into_syntax_error(e, body);
            return Err(malformed(e.at, e.describe()));
        }
    };

    // men[c], kings[c] by colour index.
    let mut men = [Word::<R>::ZERO; 2];
    let mut kings = [Word::<R>::ZERO; 2];
    let mut seen = [false; 2];
    for section in &sections {
        let Some(colour) = section.colour else {
            continue;
        };
        seen[colour.index()] = true;
        for it in &section.items {
            let first = it.first.resolve::<R::Geometry>()?;
            let bits: Vec<u32> = match it.last {
                None => vec![first],
                Some(last_tok) => {
                    let last = last_tok.resolve::<R::Geometry>()?;
                    let both_numbers = matches!(it.first, SquareToken::Number(_))
                        && matches!(last_tok, SquareToken::Number(_));
                    if !both_numbers {
                        return Err(malformed(
                            it.at,
                            "a range needs square numbers, as in 31-50".into(),
                        ));
                    }
                    let (a, b) = (
                        number_of_bit::<R::Geometry>(first),
                        number_of_bit::<R::Geometry>(last),
                    );
                    if a > b {
                        return Err(malformed(
                            it.at,
                            format!("the range {a}-{b} runs backwards"),
                        ));
                    }
                    (a..=b).map(|n| R::Geometry::bit_of(n - 1)).collect()
                }
            };
            for bit in bits {
                let occupied = men[0] | men[1] | kings[0] | kings[1];
                if occupied.has(bit) {
                    return Err(
                        PositionError::SquareTwice(number_of_bit::<R::Geometry>(bit)).into(),
                    );
                }
                let set = if it.king { &mut kings } else { &mut men };
                set[colour.index()] |= Word::<R>::bit(bit);
            }
        }
    }
    // A missing section is an empty one (perft.md writes `W:W28`), but a
    // FEN with neither is just a side letter, which is more likely junk.
    if !seen.iter().any(|&s| s) {
        let end = &body[body.len()..];
        return Err(malformed(
            end,
            "no pieces: expected ':W' or ':B' and a list of squares".into(),
        ));
    }
    let w = Colour::White.index();
    let b = Colour::Black.index();
    Ok(Position::from_bitboards(
        men[w], kings[w], men[b], kings[b], side,
    )?)
}

/// Write a position as FEN in the variant's square style (numbers for
/// international and Canadian, algebraic for Russian and Brazilian).
pub fn write_fen<R: Rules>(pos: &Position<R>) -> String {
    write_fen_with(pos, R::VARIANT.square_style())
}

/// Write a position as FEN with squares in the given style: `W:W31,32,K33:B1,2`.
/// Squares go in numeric order, or for algebraic squares from a1 rank by rank.
pub fn write_fen_with<R: Rules>(pos: &Position<R>, style: SquareStyle) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for colour in [Colour::White, Colour::Black] {
        out.push(':');
        out.push(colour.letter());
        let kings = pos.kings(colour);
        let mut bits: Vec<u32> = pos.pieces(colour).iter().collect();
        if style == SquareStyle::Algebraic {
            // Rank 1 first (bottom row = highest row index), then by file.
            bits.sort_by_key(|&b| {
                let (row, file) = R::Geometry::row_file(b);
                (std::cmp::Reverse(row), file)
            });
        }
        let names: Vec<String> = bits
            .iter()
            .map(|&b| {
                let k = if kings.has(b) { "K" } else { "" };
                let sq = match style {
                    SquareStyle::Numeric => number_of_bit::<R::Geometry>(b).to_string(),
                    SquareStyle::Algebraic => algebraic_of_bit::<R::Geometry>(b),
                };
                format!("{k}{sq}")
            })
            .collect();
        out.push_str(&names.join(","));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{International, Russian};

    #[test]
    fn reads_the_start_position() {
        let p = read_fen::<International>("W:W31-50:B1-20").unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(write_fen(&p).matches(',').count(), 38);
    }

    #[test]
    fn russian_fen_is_algebraic() {
        let p = read_fen::<Russian>("W:Wa1,c1:Bb6").unwrap();
        assert_eq!(write_fen(&p), "W:Wa1,c1:Bb6");
        assert_eq!(write_fen_with(&p, SquareStyle::Numeric), "W:W29,30:B9");
    }

    #[test]
    fn malformed_text_says_where() {
        match read_fen::<International>("W:W31,x:B1") {
            Err(FenError::Malformed { column, .. }) => assert_eq!(column, 7),
            other => panic!("{other:?}"),
        }
    }
}
