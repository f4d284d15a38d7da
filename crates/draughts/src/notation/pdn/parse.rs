//! Reading PDN files: tag pairs, then movetext with move numbers, comments
//! (`{...}` and `;` to the end of the line), nested variations, NAGs,
//! annotations and a result token, for any number of games.
//!
//! Real files are messy, so one bad game must not cost the others: a game
//! that cannot be read becomes an error entry, and reading resumes at the
//! next line that starts a tag. Tokens are read with small nom parsers; the
//! game structure around them is a plain loop, and variations are skipped
//! with a depth counter rather than recursion so that deep nesting in
//! hostile input cannot overflow the stack.

use super::PdnGame;
use crate::notation::movetext::check_move_syntax;
use crate::notation::syntax::{PResult, SyntaxError, describe_found, into_syntax_error};
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_while, take_while1};
use nom::character::complete::{char, digit1, multispace0, none_of, satisfy};
use nom::combinator::{cut, eof, opt, peek, recognize, value};
use nom::error::context;
use nom::multi::fold_many0;
use nom::sequence::preceded;
use std::fmt;

/// A game (or stretch of junk) that could not be read, with the place in
/// the file where reading stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PDN line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for PdnError {}

/// Where a game stopped being readable.
struct Stop<'a> {
    at: &'a str,
    message: String,
    /// The failure was among the tag pairs (resynchronisation must first
    /// skip the rest of this game's tags).
    in_tags: bool,
}

/// Line and column of the slice `at` within `src`.
fn line_column(src: &str, at: &str) -> (usize, usize) {
    let offset = (at.as_ptr() as usize)
        .saturating_sub(src.as_ptr() as usize)
        .min(src.len());
    let before = src.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, column)
}

// ---------------------------------------------------------------- tokens

/// Characters that end a token: anything that starts the next one.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || "{}()[];$".contains(c)
}

/// The end of a token: a delimiter follows, or the text ends.
fn token_end(i: &str) -> PResult<'_, ()> {
    value((), peek(alt((eof, recognize(satisfy(is_delimiter)))))).parse(i)
}

/// A quoted tag value; `\"` and `\\` are escapes. A value does not span lines.
fn quoted(i: &str) -> PResult<'_, String> {
    let (i, _) = context("a quoted tag value", char('"')).parse(i)?;
    let (i, s) = fold_many0(
        alt((preceded(char('\\'), none_of("\n")), none_of("\"\\\n"))),
        String::new,
        |mut s, c| {
            s.push(c);
            s
        },
    )
    .parse(i)?;
    let (i, _) = cut(context("'\"' closing the tag value", char('"'))).parse(i)?;
    Ok((i, s))
}

/// `[Name "value"]`.
fn tag_pair(i: &str) -> PResult<'_, (String, String)> {
    let (i, _) = char('[').parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, name) = cut(context(
        "a tag name",
        take_while1(|c: char| c.is_alphanumeric() || c == '_'),
    ))
    .parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, value) = cut(quoted).parse(i)?;
    let (i, _) = take_while(|c: char| c == ' ' || c == '\t').parse(i)?;
    let (i, _) = cut(context("']' closing the tag", char(']'))).parse(i)?;
    Ok((i, (name.to_string(), value)))
}

/// `{...}`.
fn brace_comment(i: &str) -> PResult<'_, ()> {
    let (i, _) = char('{').parse(i)?;
    let (i, _) = take_till(|c| c == '}').parse(i)?;
    let (i, _) = cut(context("'}' closing the comment", char('}'))).parse(i)?;
    Ok((i, ()))
}

/// `;` to the end of the line.
fn line_comment(i: &str) -> PResult<'_, ()> {
    value((), (char(';'), take_till(|c| c == '\n'))).parse(i)
}

/// `$n`.
fn nag(i: &str) -> PResult<'_, ()> {
    value((), (char('$'), cut(context("a number after '$'", digit1)))).parse(i)
}

/// `!`, `?`, `!!`, `??`, `!?`, `?!`.
fn annotation(i: &str) -> PResult<'_, &str> {
    alt((
        tag("!!"),
        tag("??"),
        tag("!?"),
        tag("?!"),
        tag("!"),
        tag("?"),
    ))
    .parse(i)
}

/// `12.` or `12...` (a move may follow without a blank: `1.32-28`).
fn move_number(i: &str) -> PResult<'_, ()> {
    value((), (digit1, take_while1(|c| c == '.'))).parse(i)
}

/// A result, as a whole token: `1-18` is a move, not `1-1`.
fn result_token(i: &str) -> PResult<'_, &str> {
    let (i, r) = alt((
        tag("1/2-1/2"),
        tag("2-0"),
        tag("0-2"),
        tag("1-1"),
        tag("0-0"),
        tag("1-0"),
        tag("0-1"),
        tag("*"),
    ))
    .parse(i)?;
    let (i, _) = token_end(i)?;
    Ok((i, r))
}

/// Whether a whole token is a result.
fn is_result(token: &str) -> bool {
    matches!(result_token(token), Ok(("", _)))
}

/// A move token, with any annotation glued to it (`32-28!?`) dropped.
fn move_token(i: &str) -> PResult<'_, &str> {
    let (i, mv) =
        take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == ':').parse(i)?;
    let (i, _) = opt(annotation).parse(i)?;
    let (i, _) = context("a blank after the move", token_end).parse(i)?;
    Ok((i, mv))
}

fn stop<'a>(e: nom::Err<SyntaxError<'a>>, i: &'a str, in_tags: bool) -> Stop<'a> {
    let e = into_syntax_error(e, i);
    Stop {
        at: e.at,
        message: e.describe(),
        in_tags,
    }
}

/// Skip a `{...}` comment. An unclosed one is reported where it opens, and
/// reading resumes after that line: comments may span lines, so the rest of
/// the file is not silently eaten as one comment.
fn skip_brace_comment(i: &str) -> Result<&str, Stop<'_>> {
    brace_comment(i).map(|(r, _)| r).map_err(|_| Stop {
        at: i,
        message: "comment '{' is never closed".into(),
        in_tags: false,
    })
}

/// Skip `(...)` with everything in it, nested variations and comments
/// included. Iterative on purpose (see the module comment).
fn skip_variation(i: &str) -> Result<&str, Stop<'_>> {
    let mut depth = 0usize;
    let mut rest = i;
    loop {
        let Some(c) = rest.chars().next() else {
            return Err(Stop {
                at: i,
                message: "variation '(' is never closed".into(),
                in_tags: false,
            });
        };
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(&rest[1..]);
                }
            }
            '{' => {
                rest = skip_brace_comment(rest)?;
                continue;
            }
            ';' => {
                rest = line_comment(rest).map_err(|e| stop(e, rest, false))?.0;
                continue;
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
}

/// Skip blanks and comments (between tags, or before a game).
fn skip_blanks(mut i: &str) -> Result<&str, Stop<'_>> {
    loop {
        let (r, _) = multispace0::<&str, SyntaxError>(i).map_err(|e| stop(e, i, false))?;
        i = r;
        if i.starts_with('{') {
            i = skip_brace_comment(i)?;
        } else if i.starts_with(';') {
            i = line_comment(i).map_err(|e| stop(e, i, false))?.0;
        } else {
            return Ok(i);
        }
    }
}

/// Skip everything in movetext that is not a move or a result: blanks,
/// comments, variations, NAGs, lone annotations, move numbers, `...`.
fn skip_movetext_filler(mut i: &str) -> Result<&str, Stop<'_>> {
    loop {
        i = skip_blanks(i)?;
        if i.starts_with('(') {
            i = skip_variation(i)?;
        } else if i.starts_with('$') {
            i = nag(i).map_err(|e| stop(e, i, false))?.0;
        } else if let Ok((r, _)) = annotation(i) {
            i = r;
        } else if let Ok((r, _)) = move_number(i) {
            i = r;
        } else if let Ok((r, _)) =
            take_while1::<_, &str, SyntaxError>(|c| c == '.' || c == '…').parse(i)
        {
            i = r;
        } else {
            return Ok(i);
        }
    }
}

// ---------------------------------------------------------------- games

/// Read one game from `i`. `None` when only blanks and comments were there.
fn game(i: &str) -> Result<(&str, Option<PdnGame>), Stop<'_>> {
    let mut g = PdnGame::default();
    let mut any = false;
    let mut i = i;
    loop {
        i = skip_blanks(i).map_err(|s| Stop { in_tags: true, ..s })?;
        if !i.starts_with('[') {
            break;
        }
        let (r, pair) = tag_pair(i).map_err(|e| stop(e, i, true))?;
        g.tags.push(pair);
        any = true;
        i = r;
    }
    loop {
        i = skip_movetext_filler(i)?;
        if i.is_empty() || i.starts_with('[') {
            // End of file, or the next game's tags: the result is missing.
            break;
        }
        if let Ok((r, res)) = result_token(i) {
            g.result = Some(res.to_string());
            any = true;
            i = r;
            break;
        }
        match move_token(i) {
            Ok((r, mv)) if is_result(mv) => {
                // A result with an annotation glued to it (`2-0!`): still
                // the result, not a move from square 2 to square 0 (which
                // the writer would write back as the result).
                g.result = Some(mv.to_string());
                any = true;
                i = r;
                break;
            }
            Ok((r, mv)) => {
                if let Err(why) = check_move_syntax(mv) {
                    return Err(Stop {
                        at: i,
                        message: format!("'{mv}' is not a move: {why}"),
                        in_tags: false,
                    });
                }
                g.moves.push(mv.to_string());
                any = true;
                i = r;
            }
            Err(nom::Err::Error(_)) => {
                return Err(Stop {
                    at: i,
                    message: format!("unexpected {}", describe_found(i)),
                    in_tags: false,
                });
            }
            Err(e) => return Err(stop(e, i, false)),
        }
    }
    Ok((i, any.then_some(g)))
}

/// The rest of `src` after the line containing `at`.
fn after_line<'a>(src: &'a str, at: &str) -> &'a str {
    let offset = (at.as_ptr() as usize)
        .saturating_sub(src.as_ptr() as usize)
        .min(src.len());
    let tail = src.get(offset..).unwrap_or("");
    match tail.find('\n') {
        Some(n) => &tail[n + 1..],
        None => &tail[tail.len()..],
    }
}

/// Where to resume after a failure: the next line that starts with `[`.
/// After a failure among tags, the rest of that game's tag lines (up to a
/// blank or non-tag line) are skipped first, so they do not pose as a game.
fn resync<'a>(src: &'a str, stop: &Stop<'_>) -> &'a str {
    let mut rest = after_line(src, stop.at);
    let mut skipping_tags = stop.in_tags;
    loop {
        if rest.is_empty() {
            return rest;
        }
        let line = rest.trim_start_matches([' ', '\t']);
        let is_tag = line.starts_with('[');
        let is_blank = line.trim().is_empty();
        if is_tag && !skipping_tags {
            return line;
        }
        if !is_tag || is_blank {
            skipping_tags = false;
        }
        rest = after_line(src, rest);
    }
}

/// Read every game of a PDN file. Each entry is a game, or the error that
/// made a game (or junk between games) unreadable; reading goes on after an
/// error. A byte-order mark and CRLF line ends are fine.
pub fn parse_pdn(text: &str) -> Vec<Result<PdnGame, PdnError>> {
    let src = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut rest = src;
    loop {
        rest = match skip_blanks(rest) {
            Ok(r) => r,
            Err(s) => {
                let (line, column) = line_column(src, s.at);
                out.push(Err(PdnError {
                    line,
                    column,
                    message: s.message.clone(),
                }));
                resync(src, &s)
            }
        };
        if rest.is_empty() {
            return out;
        }
        match game(rest) {
            Ok((r, g)) if r.len() < rest.len() => {
                out.extend(g.map(Ok));
                rest = r;
            }
            Ok(_) => {
                // Nothing consumed: cannot happen, but never loop forever.
                let s = Stop {
                    at: rest,
                    message: format!("unexpected {}", describe_found(rest)),
                    in_tags: false,
                };
                let (line, column) = line_column(src, s.at);
                out.push(Err(PdnError {
                    line,
                    column,
                    message: s.message.clone(),
                }));
                rest = resync(src, &s);
            }
            Err(s) => {
                let (line, column) = line_column(src, s.at);
                out.push(Err(PdnError {
                    line,
                    column,
                    message: s.message.clone(),
                }));
                rest = resync(src, &s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> PdnGame {
        let games = parse_pdn(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.into_iter().next().unwrap().unwrap()
    }

    #[test]
    fn result_is_a_whole_token() {
        let g = one("1. 1-18 2-0");
        assert_eq!(g.moves, ["1-18"]);
        assert_eq!(g.result.as_deref(), Some("2-0"));
        let g = one("1. 32-28 1/2-1/2");
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
    }

    #[test]
    fn a_result_with_an_annotation_is_the_result_not_a_move() {
        for text in [
            "1. 32-28 2-0!",
            "1. 32-28 2-0?! [Event \"next\"]",
            "1. 32-28 0-2!!",
        ] {
            let games = parse_pdn(text);
            let g = games[0].clone().unwrap();
            assert_eq!(g.moves, ["32-28"], "{text}");
            assert!(matches!(g.result.as_deref(), Some("2-0" | "0-2")), "{text}");
            let again = parse_pdn(&super::super::write_game(&g));
            assert_eq!(again, vec![Ok(g)], "{text}");
        }
        // The fuzzer's case: the result, then a broken tag.
        let games = parse_pdn("2-0![Event \"");
        let g = games[0].clone().unwrap();
        assert!(g.moves.is_empty());
        assert_eq!(g.result.as_deref(), Some("2-0"));
        assert!(games[1].is_err());
    }

    #[test]
    fn tags_with_escapes() {
        let g = one("[Event \"The \\\"Open\\\" \\\\ 2024\"]\n*");
        assert_eq!(g.tag("Event"), Some("The \"Open\" \\ 2024"));
        assert_eq!(g.result.as_deref(), Some("*"));
    }

    #[test]
    fn filler_is_skipped() {
        let g = one("1.32-28!? $3 {c (} (1. 31-27 (1. 33-29) {x}) 1... 19-23?? ; rest\n2. 28x19 *");
        assert_eq!(g.moves, ["32-28", "19-23", "28x19"]);
    }

    #[test]
    fn errors_give_line_and_column() {
        let games = parse_pdn("[Event \"a\"]\n1. 32-28 & 2-0\n\n[Event \"b\"]\n1. 31-27 *\n");
        assert_eq!(games.len(), 2);
        let e = games[0].clone().unwrap_err();
        assert_eq!((e.line, e.column), (2, 10));
        assert_eq!(games[1].clone().unwrap().tag("Event"), Some("b"));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let text = "(".repeat(200_000);
        let games = parse_pdn(&text);
        assert!(games.iter().all(|g| g.is_err()));
    }
}
