//! Shared by the tests of `tiao match`'s picture: a strict reader of the
//! XML that SVG files are, written here (independently of the writer in
//! `match_runner/picture.rs`) so that "well-formed" is checked, not assumed:
//! one root element, every tag closed in order, attributes quoted, no `<`
//! or stray `&` in text, only the predefined or numeric entities.

#![allow(dead_code)]

/// One element: its name, its attributes (values unescaped) and the text
/// directly inside it (unescaped).
#[derive(Clone, Debug, Default)]
pub struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
}

impl Element {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..]
            .find(';')
            .ok_or_else(|| format!("'&' without ';' in {s:?}"))?;
        let entity = &rest[i + 1..i + end];
        match entity {
            "amp" => out.push('&'),
            "lt" => out.push('<'),
            "gt" => out.push('>'),
            "quot" => out.push('"'),
            "apos" => out.push('\''),
            _ => {
                let code = entity
                    .strip_prefix('#')
                    .and_then(|d| d.parse::<u32>().ok())
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("unknown entity &{entity}; in {s:?}"))?;
                out.push(code);
            }
        }
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    if out
        .chars()
        .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(format!("a control character in {s:?}"));
    }
    Ok(out)
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
}

/// The attributes of a start tag's inside (after its name).
fn attributes(mut s: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(out);
        }
        let eq = s
            .find('=')
            .ok_or_else(|| format!("attribute without '=': {s:?}"))?;
        let name = s[..eq].trim();
        if !is_name(name) {
            return Err(format!("bad attribute name {name:?}"));
        }
        let after = s[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or_else(|| format!("attribute {name} is not quoted"))?;
        let close = after[1..]
            .find(quote)
            .ok_or_else(|| format!("attribute {name} is not closed"))?;
        let value = &after[1..1 + close];
        if value.contains('<') {
            return Err(format!("'<' in attribute {name}"));
        }
        if out.iter().any(|(n, _)| n == name) {
            return Err(format!("attribute {name} twice"));
        }
        out.push((name.to_string(), unescape(value)?));
        s = &after[close + 2..];
        if !s.is_empty() && !s.starts_with(char::is_whitespace) {
            return Err(format!("no space after attribute {name}"));
        }
    }
}

/// Every element of a well-formed document, in document order; an error
/// says what makes it not well-formed.
pub fn read_xml(doc: &str) -> Result<Vec<Element>, String> {
    let mut rest = doc.trim_start();
    if let Some(after) = rest.strip_prefix("<?xml") {
        let end = after
            .find("?>")
            .ok_or("the XML declaration is not closed")?;
        rest = &after[end + 2..];
    }
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut roots = 0;
    loop {
        let Some(lt) = rest.find('<') else {
            if !rest.trim().is_empty() {
                return Err(format!("text after the root element: {rest:?}"));
            }
            break;
        };
        let text = &rest[..lt];
        if text.contains('>') {
            return Err(format!("'>' in text {text:?}"));
        }
        match open.last() {
            Some(&i) => elements[i].text.push_str(&unescape(text)?),
            None if !text.trim().is_empty() => {
                return Err(format!("text outside the root: {text:?}"));
            }
            None => {}
        }
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or("a comment is not closed")?;
            rest = &after[end + 3..];
            continue;
        }
        let gt = rest.find('>').ok_or("a tag is not closed")?;
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let i = open
                .pop()
                .ok_or_else(|| format!("</{name}> closes nothing"))?;
            if elements[i].name != name.trim() {
                return Err(format!("</{name}> closes <{}>", elements[i].name));
            }
            continue;
        }
        if open.is_empty() {
            roots += 1;
            if roots > 1 {
                return Err("more than one root element".into());
            }
        }
        let (tag, empty) = match tag.strip_suffix('/') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = &tag[..name_end];
        if !is_name(name) {
            return Err(format!("bad element name {name:?}"));
        }
        elements.push(Element {
            name: name.to_string(),
            attributes: attributes(&tag[name_end..])?,
            text: String::new(),
        });
        if !empty {
            open.push(elements.len() - 1);
        }
    }
    if let Some(&i) = open.last() {
        return Err(format!("<{}> is never closed", elements[i].name));
    }
    if roots == 0 {
        return Err("no root element".into());
    }
    Ok(elements)
}

#[test]
fn the_reader_refuses_what_is_not_well_formed() {
    assert!(read_xml(r#"<svg a="1"><text>x &amp; y</text></svg>"#).is_ok());
    for bad in [
        "<svg><text></svg></text>",
        "<svg><text>a < b</text></svg>",
        "<svg><text>a & b</text></svg>",
        "<svg a=1></svg>",
        "<svg></svg><svg></svg>",
        "<svg>",
        "<svg><text>\u{1}</text></svg>",
    ] {
        assert!(read_xml(bad).is_err(), "{bad}");
    }
}
