//! Shared plumbing of the nom parsers: an error type that remembers where a
//! parse stopped and what was expected there, so that every reader can say
//! "at column 7: expected a square, found 'x'" instead of a nom error kind.

use nom::IResult;
use nom::error::{ContextError, ErrorKind, ParseError};

/// A nom error: the input left where parsing failed and, if a `context`
/// combinator named it, what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError<'a> {
    pub(crate) at: &'a str,
    pub(crate) expected: Option<&'static str>,
}

/// Result of a parser over `&str` with [`SyntaxError`].
pub(crate) type PResult<'a, O> = IResult<&'a str, O, SyntaxError<'a>>;

impl<'a> ParseError<&'a str> for SyntaxError<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        SyntaxError {
            at: input,
            expected: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two failed alternatives, report the one that got further: it is
    /// the one the writer most probably meant.
    fn or(self, other: Self) -> Self {
        match self.at.len().cmp(&other.at.len()) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            std::cmp::Ordering::Equal if other.expected.is_none() => self,
            std::cmp::Ordering::Equal => other,
        }
    }
}

impl<'a> ContextError<&'a str> for SyntaxError<'a> {
    /// The innermost context is the most precise description, so an outer
    /// one only fills in a missing expectation.
    fn add_context(_input: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.expected.is_none() {
            other.expected = Some(ctx);
        }
        other
    }
}

impl SyntaxError<'_> {
    /// "expected X, found 'y'" (or "found end of text").
    pub(crate) fn describe(&self) -> String {
        let found = describe_found(self.at);
        match self.expected {
            Some(what) => format!("expected {what}, found {found}"),
            None => format!("unexpected {found}"),
        }
    }
}

/// Unwrap a nom result into the error value, whether it was recoverable or a `cut`.
pub(crate) fn into_syntax_error<'a>(
    e: nom::Err<SyntaxError<'a>>,
    rest: &'a str,
) -> SyntaxError<'a> {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e,
        // Only streaming parsers ask for more input; these are all complete.
        nom::Err::Incomplete(_) => SyntaxError {
            at: rest,
            expected: None,
        },
    }
}

/// 1-based column (in characters) where `rest`, a slice of `full` (not
/// necessarily a suffix: readers trim quotes and blanks first), begins.
pub(crate) fn column_of(full: &str, rest: &str) -> usize {
    let offset = (rest.as_ptr() as usize)
        .saturating_sub(full.as_ptr() as usize)
        .min(full.len());
    full.get(..offset).map_or(offset, |s| s.chars().count()) + 1
}

/// The next character of `rest`, quoted, or "end of text".
pub(crate) fn describe_found(rest: &str) -> String {
    match rest.chars().next() {
        None => "end of text".to_string(),
        Some(c) if c.is_control() || c.is_whitespace() => format!("{c:?}"),
        Some(c) => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_counts_characters_not_bytes() {
        let full = "ä:W1";
        assert_eq!(column_of(full, &full[2..]), 2);
        assert_eq!(column_of(full, &full[full.len()..]), 5);
        let inner = &full[2..3];
        assert_eq!(column_of(full, inner), 2);
    }

    #[test]
    fn or_prefers_the_alternative_that_got_further() {
        let full = "abcdef";
        let near = SyntaxError {
            at: &full[1..],
            expected: Some("x"),
        };
        let far = SyntaxError {
            at: &full[3..],
            expected: None,
        };
        assert_eq!(near.clone().or(far.clone()), far);
        assert_eq!(far.clone().or(near), far);
    }
}
