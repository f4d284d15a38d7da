//! Move text in every form Tiao reads or writes:
//!
//! - Hub: `32-28`, captures `from x to x captured...` (captured squares
//!   ascending when written, any order when read);
//! - PDN: `28x19` when origin and destination identify the move, otherwise
//!   the full jump path `47x38x24x13x36`; Russian and Brazilian players
//!   write algebraic squares and every landing square, `c3:e5:g7`;
//! - DXP: origin, destination and the captured squares as numbers.
//!
//! Text is never turned into a move by itself: every reader matches it
//! against the legal moves of the position, so whatever is read can be
//! played, and "which move did you mean" has one answer or an error that
//! lists the candidates.

use super::square::{SquareError, SquareToken, number_of_bit, square_token, write_square};
use super::syntax::{PResult, SyntaxError, column_of, into_syntax_error};
use crate::board::{Geometry, Move, Position, Rules, SquareStyle, Variant, Word};
use crate::movegen::{MoveList, capture_paths, generate};
use nom::Parser;
use nom::character::complete::one_of;
use nom::combinator::{cut, eof};
use nom::error::context;
use nom::multi::many0;
use nom::sequence::preceded;
use std::fmt;
use tiao_core::bits::BitWord;

/// How many legal moves an error message lists before it says "and N more".
const LIST_IN_ERRORS: usize = 24;

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text cannot be read as a move at all (bad syntax, no such square).
    Malformed { text: String, reason: String },
    /// A well-formed move that is not legal in the position.
    Illegal { text: String, reason: String },
    /// Several legal moves fit the text; `candidates` are their full forms.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed { text, reason } => write!(f, "malformed move '{text}': {reason}"),
            MoveError::Illegal { text, reason } => write!(f, "illegal move '{text}': {reason}"),
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "ambiguous move '{text}': it could be any of {}",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// How PDN move text is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PdnStyle {
    /// Square numbers or algebraic names.
    pub squares: SquareStyle,
    /// Between the squares of a capture: `x`, or `:` as Russian players write.
    pub capture_separator: char,
    /// Always write every landing square of a capture. When false, a capture
    /// is written `from x to` unless another legal move has the same ends.
    pub full_path: bool,
}

impl PdnStyle {
    /// International PDN: `32-28`, `28x19`, full path only when needed.
    pub const NUMERIC_SHORT: PdnStyle = PdnStyle {
        squares: SquareStyle::Numeric,
        capture_separator: 'x',
        full_path: false,
    };
    /// Numbers with every landing square: `28x19x10`.
    pub const NUMERIC_PATH: PdnStyle = PdnStyle {
        squares: SquareStyle::Numeric,
        capture_separator: 'x',
        full_path: true,
    };
    /// Russian notation: `c3-d4`, `c3:e5:g7`.
    pub const ALGEBRAIC_PATH: PdnStyle = PdnStyle {
        squares: SquareStyle::Algebraic,
        capture_separator: ':',
        full_path: true,
    };

    /// The style the variant's players write: short numeric for international
    /// and Canadian, algebraic full paths with `:` for Russian and Brazilian.
    pub fn for_variant(v: Variant) -> PdnStyle {
        match v.square_style() {
            SquareStyle::Numeric => PdnStyle {
                capture_separator: v.capture_separator(),
                ..PdnStyle::NUMERIC_SHORT
            },
            SquareStyle::Algebraic => PdnStyle {
                capture_separator: v.capture_separator(),
                ..PdnStyle::ALGEBRAIC_PATH
            },
        }
    }
}

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFormat {
    /// Hub protocol: `32-28`, `28x19x23` (captured squares ascending).
    Hub,
    /// PDN in the given style.
    Pdn(PdnStyle),
}

impl MoveFormat {
    /// PDN as the variant's players write it.
    pub fn pdn_for(v: Variant) -> MoveFormat {
        MoveFormat::Pdn(PdnStyle::for_variant(v))
    }
}

/// The fields of a DXP `M` message, as square numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    pub from: u32,
    pub to: u32,
    /// Captured squares, ascending.
    pub captured: Vec<u32>,
}

// ---------------------------------------------------------------- syntax

/// `square (sep square)*` with `-`, `x`, `X` or `:` as separators. Which
/// separator is used does not decide anything: the squares are matched
/// against legal moves, so `28-19` for a capture is still understood.
fn move_syntax(i: &str) -> PResult<'_, Vec<SquareToken<'_>>> {
    let (i, first) = square_token(i)?;
    let (i, rest) = many0(preceded(
        one_of("-xX:"),
        cut(context("a square after the separator", square_token)),
    ))
    .parse(i)?;
    let (i, _) = context("'-', 'x' or ':' followed by a square", eof).parse(i)?;
    let mut squares = Vec::with_capacity(rest.len() + 1);
    squares.push(first);
    squares.extend(rest);
    Ok((i, squares))
}

/// Check that `text` has the shape of a move (squares and separators),
/// without a board. The PDN reader uses it to tell moves from junk.
pub(crate) fn check_move_syntax(text: &str) -> Result<(), String> {
    syntax_squares(text).map(|_| ())
}

fn syntax_squares(text: &str) -> Result<Vec<SquareToken<'_>>, String> {
    if text.is_empty() {
        return Err("empty move text".to_string());
    }
    let squares = match move_syntax(text) {
        Ok((_, squares)) => squares,
        Err(e) => {
            let e: SyntaxError = into_syntax_error(e, text);
            return Err(format!(
                "at column {}: {}",
                column_of(text, e.at),
                e.describe()
            ));
        }
    };
    if squares.len() < 2 {
        return Err("a move needs at least two squares, as in 32-28".to_string());
    }
    Ok(squares)
}

/// The squares of a move text as bit indices of board `R`.
fn parse_squares<R: Rules>(text: &str) -> Result<Vec<u32>, MoveError> {
    let malformed = |reason: String| MoveError::Malformed {
        text: text.to_string(),
        reason,
    };
    let tokens = syntax_squares(text).map_err(malformed)?;
    tokens
        .iter()
        .map(|t| t.resolve::<R::Geometry>())
        .collect::<Result<Vec<u32>, SquareError>>()
        .map_err(|e| malformed(e.to_string()))
}

// ---------------------------------------------------------------- writing

/// The legal moves, in the order people list them: by origin, destination
/// and captured squares, as numbers (generation order means nothing to a reader).
fn legal_moves<R: Rules>(pos: &Position<R>) -> MoveList<R> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list.sort_by_key(move_order::<R>);
    list
}

fn move_order<R: Rules>(mv: &Move<Word<R>>) -> (u32, u32, Vec<u32>) {
    (
        numeric::<R>(mv.from_bit()),
        numeric::<R>(mv.to_bit()),
        captured_numbers::<R>(mv),
    )
}

fn numeric<R: Rules>(bit: u32) -> u32 {
    number_of_bit::<R::Geometry>(bit)
}

/// Captured squares of a move, as ascending square numbers.
fn captured_numbers<R: Rules>(mv: &Move<Word<R>>) -> Vec<u32> {
    let mut v: Vec<u32> = mv.captured.iter().map(numeric::<R>).collect();
    v.sort_unstable();
    v
}

/// Hub form: `32-28`, or `28x19x23` with every captured square, ascending.
pub fn write_hub_move<R: Rules>(mv: &Move<Word<R>>) -> String {
    let (from, to) = (numeric::<R>(mv.from_bit()), numeric::<R>(mv.to_bit()));
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut out = format!("{from}x{to}");
    for c in captured_numbers::<R>(mv) {
        out.push_str(&format!("x{c}"));
    }
    out
}

/// PDN text of `mv` given the legal moves of `pos` (to see whether the
/// short form is enough).
fn pdn_text<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Word<R>>],
    mv: &Move<Word<R>>,
    style: PdnStyle,
) -> String {
    let sq = |b: u32| write_square::<R>(b, style.squares);
    if !mv.is_capture() {
        return format!("{}-{}", sq(mv.from_bit()), sq(mv.to_bit()));
    }
    let sep = style.capture_separator;
    let shared_ends = legal
        .iter()
        .any(|m| m != mv && m.from == mv.from && m.to == mv.to);
    if style.full_path || shared_ends {
        // Any path of the move will do: a path fixes the captured pieces, so
        // no other move has it.
        if let Some(path) = capture_paths(pos, mv).into_iter().next() {
            let mut out = sq(mv.from_bit());
            for b in path {
                out.push(sep);
                out.push_str(&sq(b));
            }
            return out;
        }
    }
    format!("{}{sep}{}", sq(mv.from_bit()), sq(mv.to_bit()))
}

/// PDN form of a legal move of `pos` in the given style.
pub fn write_pdn_move<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>, style: PdnStyle) -> String {
    let legal = legal_moves(pos);
    pdn_text(pos, &legal, mv, style)
}

/// A legal move of `pos` in the given format.
pub fn write_move<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>, format: MoveFormat) -> String {
    match format {
        MoveFormat::Hub => write_hub_move::<R>(mv),
        MoveFormat::Pdn(style) => write_pdn_move(pos, mv, style),
    }
}

/// Every legal move of `pos` with its text in `format`, ordered by origin,
/// destination and captured squares (as numbers). Handy for listing moves.
pub fn legal_moves_text<R: Rules>(
    pos: &Position<R>,
    format: MoveFormat,
) -> Vec<(Move<Word<R>>, String)> {
    let legal = legal_moves(pos);
    legal
        .iter()
        .map(|mv| {
            let text = match format {
                MoveFormat::Hub => write_hub_move::<R>(mv),
                MoveFormat::Pdn(style) => pdn_text(pos, &legal, mv, style),
            };
            (*mv, text)
        })
        .collect()
}

/// The DXP fields of a move.
pub fn dxp_fields<R: Rules>(mv: &Move<Word<R>>) -> DxpMove {
    DxpMove {
        from: numeric::<R>(mv.from_bit()),
        to: numeric::<R>(mv.to_bit()),
        captured: captured_numbers::<R>(mv),
    }
}

// ---------------------------------------------------------------- reading

/// Which reading of the squares after the origin a reader applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Destination, then the captured squares (Hub, DXP).
    Captured,
    /// Landing squares, the destination last (PDN).
    Path,
    /// Either (text mode, where the user may type both).
    Either,
}

/// Legal moves whose origin, destination and captured set are as given.
/// No captured squares given: every move with those ends.
fn captured_matches<R: Rules>(
    legal: &[Move<Word<R>>],
    from: u32,
    to: u32,
    captured: &[u32],
) -> Vec<Move<Word<R>>> {
    let mut set = Word::<R>::ZERO;
    for &c in captured {
        set |= Word::<R>::bit(c);
    }
    // A square listed twice makes the set smaller than the list: no move.
    let exact = set.count() as usize == captured.len();
    legal
        .iter()
        .filter(|m| m.from_bit() == from && m.to_bit() == to)
        .filter(|m| captured.is_empty() || (exact && m.captured == set))
        .copied()
        .collect()
}

/// Whether `part` is a subsequence of `whole`.
fn is_subsequence(part: &[u32], whole: &[u32]) -> bool {
    let mut it = whole.iter();
    part.iter().all(|p| it.any(|w| w == p))
}

/// Legal moves one of whose jump paths is the given path (landing squares,
/// destination last). If no path matches exactly, a path that contains the
/// given squares in order (some landing squares left out) counts.
fn path_matches<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Word<R>>],
    from: u32,
    path: &[u32],
) -> Vec<Move<Word<R>>> {
    let Some(&to) = path.last() else {
        return Vec::new();
    };
    let ends: Vec<Move<Word<R>>> = legal
        .iter()
        .filter(|m| m.from_bit() == from && m.to_bit() == to)
        .copied()
        .collect();
    if path.len() == 1 {
        return ends;
    }
    let mut exact = Vec::new();
    let mut loose = Vec::new();
    for m in ends {
        let paths = capture_paths(pos, &m);
        if paths.iter().any(|p| p == path) {
            exact.push(m);
        } else if paths.iter().any(|p| is_subsequence(path, p)) {
            loose.push(m);
        }
    }
    if exact.is_empty() { loose } else { exact }
}

/// A list of moves for an error message, shortened when long.
fn listing(texts: &[String]) -> String {
    if texts.len() <= LIST_IN_ERRORS {
        texts.join(", ")
    } else {
        format!(
            "{}, and {} more",
            texts[..LIST_IN_ERRORS].join(", "),
            texts.len() - LIST_IN_ERRORS
        )
    }
}

/// Why the text (already split into squares) names no legal move.
fn illegal_reason<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Word<R>>],
    squares: &[u32],
    texts: &[String],
) -> String {
    let Some(&from) = squares.first() else {
        return "no squares given".to_string();
    };
    let from_no = numeric::<R>(from);
    if legal.is_empty() {
        return format!("{} has no legal move (the game is over)", pos.side().name());
    }
    match pos.piece_at(from) {
        None => return format!("there is no piece on square {from_no}"),
        Some(p) if p.colour != pos.side() => {
            return format!(
                "the piece on square {from_no} is {}'s, and {} is to move",
                p.colour.name(),
                pos.side().name()
            );
        }
        Some(_) => {}
    }
    let same_ends = legal
        .iter()
        .any(|m| m.from_bit() == from && squares.last().is_some_and(|&t| m.to_bit() == t));
    let must_capture = legal.iter().any(|m| m.is_capture());
    if same_ends {
        format!(
            "no legal capture between those squares takes those pieces; legal moves: {}",
            listing(texts)
        )
    } else if must_capture {
        format!("a capture is compulsory; legal moves: {}", listing(texts))
    } else {
        format!("not a legal move here; legal moves: {}", listing(texts))
    }
}

/// Shared tail of the readers: one match is the move, none is illegal, more are ambiguous.
fn decide<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Word<R>>],
    text: &str,
    squares: &[u32],
    matches: Vec<Move<Word<R>>>,
    describe: impl Fn(&Move<Word<R>>) -> String,
) -> Result<Move<Word<R>>, MoveError> {
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => {
            let texts: Vec<String> = legal.iter().map(&describe).collect();
            Err(MoveError::Illegal {
                text: text.to_string(),
                reason: illegal_reason(pos, legal, squares, &texts),
            })
        }
        several => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: several.iter().map(describe).collect(),
        }),
    }
}

fn read_with<R: Rules>(
    pos: &Position<R>,
    text: &str,
    reading: Reading,
) -> Result<Move<Word<R>>, MoveError> {
    let text = text.trim();
    let squares = parse_squares::<R>(text)?;
    let legal = legal_moves(pos);
    let from = squares[0];
    let mut matches = Vec::new();
    if reading != Reading::Path {
        matches.extend(captured_matches::<R>(
            &legal,
            from,
            squares[1],
            &squares[2..],
        ));
    }
    if reading != Reading::Captured {
        for m in path_matches(pos, &legal, from, &squares[1..]) {
            if !matches.contains(&m) {
                matches.push(m);
            }
        }
    }
    let full_path = PdnStyle {
        full_path: true,
        ..PdnStyle::for_variant(R::VARIANT)
    };
    match reading {
        Reading::Captured => decide(pos, &legal, text, &squares, matches, |m| {
            write_hub_move::<R>(m)
        }),
        Reading::Path | Reading::Either => decide(pos, &legal, text, &squares, matches, |m| {
            pdn_text(pos, &legal, m, full_path)
        }),
    }
}

/// Read a Hub move: `32-28`, or `from x to x captured...` with the captured
/// squares in any order. A capture given without its captured squares
/// (`28x19`) is accepted when only one legal move has those ends.
pub fn read_hub_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move<Word<R>>, MoveError> {
    read_with(pos, text, Reading::Captured)
}

/// Read a PDN move: `32-28`, `28x19`, or a jump path `47x38x24x13x36`
/// (every landing square; also accepted when some are left out, if the
/// move is still unique). `:` works as a separator, squares may be
/// numbers (leading zeros allowed) or algebraic names.
pub fn read_pdn_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move<Word<R>>, MoveError> {
    read_with(pos, text, Reading::Path)
}

/// Read a move typed in either form (Hub captured squares or PDN path);
/// ambiguous if the two readings give different moves.
pub fn read_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move<Word<R>>, MoveError> {
    read_with(pos, text, Reading::Either)
}

/// The legal move with DXP fields `from`, `to` and `captured` (square
/// numbers, captured in any order). An empty captured list matches a capture
/// when it is the only legal move with those ends.
pub fn read_dxp<R: Rules>(
    pos: &Position<R>,
    from: u32,
    to: u32,
    captured: &[u32],
) -> Result<Move<Word<R>>, MoveError> {
    let mut text = format!("{from}-{to}");
    for c in captured {
        text.push_str(&format!("x{c}"));
    }
    let mut squares = Vec::with_capacity(2 + captured.len());
    for &n in [from, to].iter().chain(captured) {
        match super::square::bit_of_number::<R::Geometry>(n) {
            Some(b) => squares.push(b),
            None => {
                return Err(MoveError::Malformed {
                    text,
                    reason: SquareError::NotOnBoard {
                        square: n.to_string(),
                        size: R::Geometry::SIZE,
                    }
                    .to_string(),
                });
            }
        }
    }
    let legal = legal_moves(pos);
    let matches = captured_matches::<R>(&legal, squares[0], squares[1], &squares[2..]);
    decide(pos, &legal, &text, &squares, matches, |m| {
        write_hub_move::<R>(m)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::International;
    use crate::notation::fen::read_fen;

    fn pos(fen: &str) -> Position<International> {
        read_fen(fen).unwrap()
    }

    #[test]
    fn hub_capture_lists_captured_squares_ascending() {
        let p = pos("W:W28:B23,14");
        let mv = read_pdn_move(&p, "28x19x10").unwrap();
        assert_eq!(write_hub_move::<International>(&mv), "28x10x14x23");
        assert_eq!(read_hub_move(&p, "28x10x23x14"), Ok(mv));
        assert_eq!(write_pdn_move(&p, &mv, PdnStyle::NUMERIC_SHORT), "28x10");
        assert_eq!(write_pdn_move(&p, &mv, PdnStyle::NUMERIC_PATH), "28x19x10");
    }

    #[test]
    fn quiet_text_when_a_capture_is_compulsory_is_illegal() {
        let p = pos("W:W28,32:B23");
        match read_pdn_move(&p, "32-27") {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains("compulsory"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn syntax_errors_are_malformed() {
        let p = Position::<International>::start();
        for t in [
            "", "32", "32-", "-28", "32--28", "32-28 x", "32_28", "51-46",
        ] {
            assert!(
                matches!(read_move(&p, t), Err(MoveError::Malformed { .. })),
                "{t}"
            );
        }
    }

    #[test]
    fn dxp_fields_round_trip() {
        let p = pos("W:W28:B23,14");
        let mv = read_pdn_move(&p, "28x10").unwrap();
        let f = dxp_fields::<International>(&mv);
        assert_eq!(
            f,
            DxpMove {
                from: 28,
                to: 10,
                captured: vec![14, 23]
            }
        );
        assert_eq!(read_dxp(&p, 28, 10, &[23, 14]), Ok(mv));
        assert_eq!(read_dxp(&p, 28, 10, &[]), Ok(mv));
        assert!(matches!(
            read_dxp(&p, 28, 10, &[23]),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            read_dxp(&p, 0, 10, &[]),
            Err(MoveError::Malformed { .. })
        ));
    }
}
