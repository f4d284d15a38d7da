//! The book's text format, line by line: reading lines into raw records
//! (text fields, numbers checked, nothing about the board yet) and writing
//! entries back. The grammar, with examples, is in `docs/book.md`:
//!
//! ```text
//! # comment
//! tiao-book 1
//! variant international
//! W:W31-50:B1-20 ; 32-28 +4 1 ; 33-28 +2 1 ; 34-29 -3 1
//! ```
//!
//! One position per line keeps the file readable and makes a rebuilt book
//! diff well. The format is simple enough for a plain line loop; every
//! problem found is kept (not just the first) so that one pass over a bad
//! file shows all of its bad lines.

use super::error::LineError;
use std::fmt::Write as _;
use tiao_draughts::board::Variant;
use tiao_search::score::WIN;

/// One move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move in Hub form: `32-28`, captures `28x19x23` (captured squares
    /// ascending), square numbers in every variant.
    pub mv: String,
    /// Centi-men (100 = one man) from the point of view of the side to move
    /// in the book position; `None` for a move not scored yet (imported from
    /// games and not yet searched by `tiao book build`).
    pub score: Option<i32>,
    /// Relative preference among moves close enough to be played; 0 = never
    /// play this move (it is in the book only to be known).
    pub weight: u32,
    /// Results of the games in which the move was played (PDN import).
    pub results: Option<Results>,
}

/// First word of the header line.
pub const MAGIC: &str = "tiao-book";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;

/// Game results after a move, from the point of view of the side that
/// played it (PDN import counts them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Results {
    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// Add another tally.
    pub fn add(&mut self, other: Results) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }
}

/// A move item as written: the move text is not yet matched to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawMove<'a> {
    pub text: &'a str,
    pub score: Option<i32>,
    pub weight: u32,
    pub results: Option<Results>,
}

/// An entry line as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawEntry<'a> {
    /// 1-based line number.
    pub line: usize,
    pub fen: &'a str,
    pub moves: Vec<RawMove<'a>>,
}

/// A whole file, read line by line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawBook<'a> {
    pub variant: Variant,
    pub entries: Vec<RawEntry<'a>>,
}

/// What a line is, once comments and blanks are gone.
enum Line<'a> {
    Blank,
    Magic(u32),
    Variant(Variant),
    Entry(RawEntry<'a>),
}

/// The variant named in a book's header, if the text has a readable one
/// (for tools that open a book without being told its variant).
pub fn header_variant(text: &str) -> Option<Variant> {
    for (i, line) in text.lines().enumerate() {
        match classify(i + 1, line) {
            Ok(Line::Variant(v)) => return Some(v),
            Ok(Line::Entry(_)) => return None,
            _ => {}
        }
    }
    None
}

/// Read every line. Entries that read well are returned even when other
/// lines are bad, so that the caller can check them too and report every
/// problem of the file at once. Without a usable header there is no book
/// (`None`): the header says which board the positions are on.
pub(crate) fn read_text(text: &str) -> (Option<RawBook<'_>>, Vec<LineError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut errors = Vec::new();
    let mut version: Option<u32> = None;
    let mut variant: Option<Variant> = None;
    let mut entries = Vec::new();
    let mut header_complained = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let err = |message: String| LineError {
            line: number,
            message,
        };
        match classify(number, line) {
            Err(e) => errors.push(e),
            Ok(Line::Blank) => {}
            Ok(Line::Magic(v)) => {
                if version.is_some() || variant.is_some() || !entries.is_empty() {
                    errors.push(err(format!(
                        "'{MAGIC}' must be the first line that is not a comment"
                    )));
                } else {
                    if v != VERSION {
                        errors.push(err(format!(
                            "book format version {v} is not supported (this Tiao reads version {VERSION})"
                        )));
                    }
                    version = Some(v);
                }
            }
            Ok(Line::Variant(v)) => {
                if variant.is_some() {
                    errors.push(err("a second 'variant' line".to_string()));
                } else if !entries.is_empty() {
                    errors.push(err(
                        "the 'variant' line must come before the positions".to_string()
                    ));
                } else {
                    variant = Some(v);
                }
            }
            Ok(Line::Entry(e)) => {
                if (version.is_none() || variant.is_none()) && !header_complained {
                    header_complained = true;
                    errors.push(err(format!(
                        "a position before the header: a book starts with the lines \
                         '{MAGIC} {VERSION}' and 'variant NAME'"
                    )));
                }
                entries.push(e);
            }
        }
    }
    match (version, variant) {
        (Some(VERSION), Some(variant)) => (Some(RawBook { variant, entries }), errors),
        (Some(_), Some(_)) => (None, errors),
        _ => {
            if !header_complained {
                errors.push(LineError {
                    line: text.lines().count().max(1),
                    message: format!(
                        "no header: a book starts with the lines '{MAGIC} {VERSION}' and \
                         'variant NAME' (is this a book file?)"
                    ),
                });
            }
            (None, errors)
        }
    }
}

fn classify(number: usize, line: &str) -> Result<Line<'_>, LineError> {
    let err = |message: String| LineError {
        line: number,
        message,
    };
    // A comment runs to the end of the line; nothing in the format uses '#'.
    let content = match line.find('#') {
        Some(at) => &line[..at],
        None => line,
    }
    .trim();
    if content.is_empty() {
        return Ok(Line::Blank);
    }
    if content.contains(';') {
        return read_entry(number, content).map(Line::Entry);
    }
    let mut words = content.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(MAGIC), Some(v), None) => v
            .parse::<u32>()
            .map(Line::Magic)
            .map_err(|_| err(format!("'{MAGIC}' needs a version number, not '{v}'"))),
        (Some("variant"), Some(name), None) => name
            .parse::<Variant>()
            .map(Line::Variant)
            .map_err(|e| err(e.to_string())),
        _ => Err(err(format!(
            "expected a position line 'FEN ; MOVE SCORE WEIGHT ; ...', a comment or a \
             header line, not '{}'",
            shorten(content)
        ))),
    }
}

/// An entry: `FEN ; item ; item ...`, each item `MOVE SCORE WEIGHT [W/D/L]`.
fn read_entry(number: usize, content: &str) -> Result<RawEntry<'_>, LineError> {
    let err = |message: String| LineError {
        line: number,
        message,
    };
    let mut fields = content.split(';');
    let fen = fields.next().unwrap_or("").trim();
    if fen.is_empty() {
        return Err(err(
            "the position (FEN) before the first ';' is missing".into()
        ));
    }
    let mut moves = Vec::new();
    for (k, field) in fields.enumerate() {
        let field = field.trim();
        let item = k + 1;
        if field.is_empty() {
            // A trailing ';' is harmless; an empty item in the middle is a slip.
            continue;
        }
        moves
            .push(read_item(field).map_err(|m| err(format!("move item {item} ('{field}'): {m}")))?);
    }
    if moves.is_empty() {
        return Err(err(
            "a position needs at least one move item after ';'".into()
        ));
    }
    Ok(RawEntry {
        line: number,
        fen,
        moves,
    })
}

fn read_item(field: &str) -> Result<RawMove<'_>, String> {
    let words: Vec<&str> = field.split_whitespace().collect();
    let (text, score, weight, results) = match words.as_slice() {
        [m, s, w] => (*m, *s, *w, None),
        [m, s, w, r] => (*m, *s, *w, Some(*r)),
        _ => {
            return Err(format!(
                "expected MOVE SCORE WEIGHT [WINS/DRAWS/LOSSES], got {} words",
                words.len()
            ));
        }
    };
    Ok(RawMove {
        text,
        score: read_score(score)?,
        weight: weight
            .parse::<u32>()
            .map_err(|_| format!("the weight must be a whole number >= 0, not '{weight}'"))?,
        results: results.map(read_results).transpose()?,
    })
}

fn read_score(s: &str) -> Result<Option<i32>, String> {
    if s == "?" {
        return Ok(None);
    }
    let bad = || format!("the score must be centi-men (as in +12, -5, 0) or '?', not '{s}'");
    let n: i32 = s.parse().map_err(|_| bad())?;
    // Not `n.abs()`: it overflows for i32::MIN (a panic, or in a release
    // build a score of -2147483648 accepted).
    if !(-WIN..=WIN).contains(&n) {
        return Err(format!("the score {n} is beyond ±{WIN}"));
    }
    Ok(Some(n))
}

fn read_results(s: &str) -> Result<Results, String> {
    let bad = || format!("results must be WINS/DRAWS/LOSSES, as in 3/5/1, not '{s}'");
    let parts: Vec<&str> = s.split('/').collect();
    let [w, d, l] = parts.as_slice() else {
        return Err(bad());
    };
    let n = |t: &str| t.parse::<u32>().map_err(|_| bad());
    Ok(Results {
        wins: n(w)?,
        draws: n(d)?,
        losses: n(l)?,
    })
}

/// A line for an error message, cut when long.
fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

// ---------------------------------------------------------------- writing

/// The header: free comment lines, then the magic and variant lines.
pub(crate) fn write_header(out: &mut String, variant: Variant, comments: &[String]) {
    for c in comments {
        // Comments come from our own code; keep them one line each.
        for part in c.lines() {
            let _ = writeln!(out, "# {part}");
        }
    }
    let _ = writeln!(out, "{MAGIC} {VERSION}");
    let _ = writeln!(out, "variant {}", variant.name());
}

/// One entry line, moves in the given order.
pub(crate) fn write_entry(out: &mut String, fen: &str, moves: &[BookMove]) {
    out.push_str(fen);
    for m in moves {
        out.push_str(" ; ");
        out.push_str(&m.mv);
        match m.score {
            Some(s) => {
                let _ = write!(out, " {s:+}");
            }
            None => out.push_str(" ?"),
        }
        let _ = write!(out, " {}", m.weight);
        if let Some(r) = m.results {
            let _ = write!(out, " {}/{}/{}", r.wins, r.draws, r.losses);
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_entry_with_every_kind_of_item() {
        let text = "# c\ntiao-book 1\nvariant russian\n\nW:W21-32:B1-12 ; 22-18 +5 3 2/1/0 ; 21-17 ? 0 # x\n";
        let (book, errors) = read_text(text);
        assert!(errors.is_empty());
        let book = book.unwrap();
        assert_eq!(book.variant, Variant::Russian);
        let e = &book.entries[0];
        assert_eq!((e.line, e.fen), (5, "W:W21-32:B1-12"));
        assert_eq!(e.moves[0].score, Some(5));
        assert_eq!(e.moves[0].results.map(|r| r.games()), Some(3));
        assert_eq!(e.moves[1].score, None);
    }

    #[test]
    fn every_bad_line_is_reported() {
        let text = "tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 32-28 x 1\nfoo\nW:W31-50:B1-20 ;\n";
        let (book, errors) = read_text(text);
        assert_eq!(book.map(|b| b.entries.len()), Some(0));
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 4, 5]);
    }

    #[test]
    fn scores_beyond_a_win_are_rejected_the_most_negative_too() {
        for score in ["-2147483648", "+2147483647", "-10001", "10001"] {
            let text =
                format!("tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 32-28 {score} 1\n");
            let (_, errors) = read_text(&text);
            assert_eq!(errors.len(), 1, "{score}: {errors:?}");
            assert_eq!(errors[0].line, 3);
            assert!(
                errors[0].message.contains("beyond"),
                "{}",
                errors[0].message
            );
        }
        for score in ["-10000", "+10000", "0"] {
            let text =
                format!("tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 32-28 {score} 1\n");
            assert!(read_text(&text).1.is_empty(), "{score}");
        }
    }

    #[test]
    fn a_header_is_required() {
        let (book, errors) = read_text("W:W31-50:B1-20 ; 32-28 +1 1\n");
        assert!(book.is_none());
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].message.contains("header"),
            "{}",
            errors[0].message
        );
        assert!(read_text("").0.is_none());
    }
}
