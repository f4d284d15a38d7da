//! Hub protocol line syntax: `command name=value name="quoted value" flag`.
//!
//! A value is quoted with `"` when it is empty or contains a blank or `=`;
//! there is no escaping inside quotes. Pair order is free and extra blanks
//! do not matter. Parsing never fails on content, only on broken syntax (an
//! unterminated quote, a pair without a name), which gets a clear message.

use nom::branch::alt;
use nom::bytes::complete::{is_not, take_till1, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{map, opt};
use nom::sequence::{delimited, preceded};
use nom::{IResult, Parser};
use std::fmt::Write;

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    pub command: String,
    /// Pairs in order; a bare flag has an empty value.
    pub pairs: Vec<(String, String)>,
}

impl HubLine {
    /// The value of the first pair called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the line has a pair or flag called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn blanks(i: &str) -> IResult<&str, &str> {
    take_while(is_blank)(i)
}

fn name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !is_blank(c) && c != '=' && c != '"')(i)
}

fn value(i: &str) -> IResult<&str, String> {
    alt((
        map(
            delimited(char('"'), opt(is_not("\"")), char('"')),
            |v: Option<&str>| v.unwrap_or("").to_string(),
        ),
        map(take_till1(is_blank), |v: &str| v.to_string()),
    ))
    .parse(i)
}

fn pair(i: &str) -> IResult<&str, (String, String)> {
    let (i, n) = name(i)?;
    let (i, v) = opt(preceded(char('='), value)).parse(i)?;
    Ok((i, (n.to_string(), v.unwrap_or_default())))
}

/// Parse one line. An empty (or blank) line gives `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<HubLine>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let (mut rest, _) = blanks(line).map_err(|_| "unreadable line".to_string())?;
    if rest.is_empty() {
        return Ok(None);
    }
    let (r, command) = name(rest).map_err(|_| {
        format!(
            "a line must start with a command, not '{}'",
            first_word(rest)
        )
    })?;
    rest = r;
    let mut pairs = Vec::new();
    loop {
        let (r, _) = blanks(rest).map_err(|_| "unreadable line".to_string())?;
        rest = r;
        if rest.is_empty() {
            break;
        }
        if rest.starts_with('"') {
            return Err(format!(
                "a quoted value without a name near '{}'",
                first_word(rest)
            ));
        }
        if rest.starts_with('=') {
            return Err(format!(
                "a value without a name near '{}'",
                first_word(rest)
            ));
        }
        let (r, p) = pair(rest).map_err(|_| format!("bad pair near '{}'", first_word(rest)))?;
        if r.starts_with('"') || (p.1.starts_with('"') && !p.1.ends_with('"')) {
            return Err(format!("unterminated quote in '{}'", p.0));
        }
        // A quote opened but never closed leaves the rest of the line unparsed.
        if r.len() == rest.len() {
            return Err(format!("cannot read '{}'", first_word(rest)));
        }
        pairs.push(p);
        rest = r;
        if let Some(c) = rest.chars().next()
            && !is_blank(c)
        {
            return Err(format!(
                "unterminated quote or stray text near '{}'",
                first_word(rest)
            ));
        }
    }
    Ok(Some(HubLine {
        command: command.to_string(),
        pairs,
    }))
}

fn first_word(s: &str) -> &str {
    s.split(is_blank).next().unwrap_or(s)
}

/// Quote a value if the syntax requires it. Quotes inside a value cannot be
/// escaped in Hub, so they are replaced by apostrophes.
pub fn quote(value: &str) -> String {
    // A value is one line: a multi-line message (a book's list of bad
    // lines) becomes one line of `; `-separated parts.
    let v = value
        .replace('"', "'")
        .replace("\n  ", "; ")
        .replace('\n', "; ");
    if v.is_empty() || v.contains([' ', '\t', '=']) {
        format!("\"{v}\"")
    } else {
        v
    }
}

/// Build a line from a command and pairs (values quoted as needed).
pub fn format_line(command: &str, pairs: &[(&str, String)]) -> String {
    let mut s = command.to_string();
    for (n, v) in pairs {
        let _ = write!(s, " {n}={}", quote(v));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(s: &str) -> HubLine {
        parse_line(s).expect("parses").expect("not empty")
    }

    #[test]
    fn pairs_flags_and_quotes() {
        let l = parsed("pos pos=Wbbe moves=\"32-28 19-23\"  start");
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbe"));
        assert_eq!(l.get("moves"), Some("32-28 19-23"));
        assert!(l.has("start"));
        assert_eq!(
            parsed("set-param name=book value=\"\"").get("value"),
            Some("")
        );
    }

    #[test]
    fn blank_lines_are_nothing() {
        assert_eq!(parse_line("   \r\n"), Ok(None));
    }

    #[test]
    fn broken_syntax_is_an_error() {
        assert!(parse_line("pos moves=\"32-28").is_err());
        assert!(parse_line("level =5").is_err());
        assert!(parse_line("go \"think\"").is_err());
        assert!(parse_line("=x").is_err());
    }

    #[test]
    fn values_are_quoted_when_needed() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
        assert_eq!(
            format_line("error", &[("message", "bad position".into())]),
            "error message=\"bad position\""
        );
    }
}
