//! Untrusted text made safe to echo. Tiao quotes what it was sent in its
//! error messages, chats and logs; a control character copied from the
//! input into the output could end a protocol line early (a bare CR makes
//! a client that splits lines at CR read a forged line), move a terminal's
//! cursor, or hide text. Everything that is not printable is written as a
//! visible escape (`\r`, `\t`, `\x1b`, `\u{2028}`) instead.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must be escaped: control characters (C0, DEL and C1,
/// including NEL) and the Unicode line and paragraph separators, which
/// some clients also split lines at.
fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` with every non-printable character escaped (a backslash is left
/// as it is: the escapes only need to be visible, not reversible).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs_escape(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// Several lines of output (a board diagram, a help text): each line
/// escaped on its own, the line breaks kept.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<str>> = text.split('\n').map(escape).collect();
    Cow::Owned(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_unchanged_and_not_copied() {
        assert!(matches!(escape("32-28 x=\"a b\" 跳"), Cow::Borrowed(_)));
    }

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(escape("x\rpong\r"), "x\\rpong\\r");
        assert_eq!(escape("a\nb\tc\0"), "a\\nb\\tc\\0");
        assert_eq!(escape("\x1b[2J\x7f"), "\\x1b[2J\\x7f");
        assert_eq!(escape("\u{85}"), "\\x85");
        assert_eq!(escape("a\u{2028}b"), "a\\u{2028}b");
    }

    #[test]
    fn lines_keep_their_breaks_but_not_their_carriage_returns() {
        assert_eq!(escape_lines("a\nb"), "a\nb");
        assert_eq!(escape_lines("a\r\nb\x07"), "a\\r\nb\\x07");
    }
}
