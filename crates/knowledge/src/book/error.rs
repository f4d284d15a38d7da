//! Errors of the opening book: a file that cannot be read, a header that is
//! missing or names another variant, and bad entry lines, each with its
//! line number so that a hand-edited book can be fixed quickly.

use std::fmt;
use tiao_draughts::board::Variant;

/// How many bad lines an error lists before it says "and N more": enough to
/// see a pattern, few enough to read.
pub const LISTED_LINE_ERRORS: usize = 20;

/// One bad line of a book file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Why a book could not be loaded (or saved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read or written (missing, unreadable, ...).
    Io { path: String, message: String },
    /// The book is for another variant than the one asked for.
    WrongVariant { expected: Variant, found: Variant },
    /// The text is not a valid book: the header or some lines are bad. The
    /// whole book is rejected (see `docs/book.md`, "Errors").
    Invalid {
        /// The file, when the text came from one.
        path: Option<String>,
        /// The first bad lines, in file order (at most [`LISTED_LINE_ERRORS`]).
        errors: Vec<LineError>,
        /// Bad lines beyond those listed.
        more: usize,
    },
}

impl BookError {
    /// The same error, said of the file `path`.
    pub fn in_file(self, path: &str) -> BookError {
        match self {
            BookError::Invalid { errors, more, .. } => BookError::Invalid {
                path: Some(path.to_string()),
                errors,
                more,
            },
            other => other,
        }
    }

    /// An invalid-book error from every bad line found (listing the first ones).
    pub(crate) fn from_lines(mut errors: Vec<LineError>) -> BookError {
        errors.sort_by_key(|e| e.line);
        let more = errors.len().saturating_sub(LISTED_LINE_ERRORS);
        errors.truncate(LISTED_LINE_ERRORS);
        BookError::Invalid {
            path: None,
            errors,
            more,
        }
    }

    /// Bad-line errors, if this is one.
    pub fn line_errors(&self) -> &[LineError] {
        match self {
            BookError::Invalid { errors, .. } => errors,
            _ => &[],
        }
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "book {path}: {message}"),
            BookError::WrongVariant { expected, found } => write!(
                f,
                "the book is for {found} draughts, not {expected} (its 'variant' line)"
            ),
            BookError::Invalid { path, errors, more } => {
                match path {
                    Some(p) => write!(f, "book {p} is invalid")?,
                    None => write!(f, "the book is invalid")?,
                }
                for e in errors {
                    write!(f, "\n  {e}")?;
                }
                if *more > 0 {
                    write!(f, "\n  ... and {more} more bad lines")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BookError {}
