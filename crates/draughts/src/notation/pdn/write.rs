//! Writing PDN: tag pairs (the seven-tag roster first, then the others in
//! their order), movetext with move numbers wrapped at 80 columns, and the
//! result token. What it writes reads back as the same game.

use super::{PdnGame, SEVEN_TAG_ROSTER};

/// Longest movetext line.
const LINE_WIDTH: usize = 80;

/// A tag value with `"` and `\` escaped. Line breaks become blanks: a tag
/// pair is one line, and readers (Tiao's too) do not let a value span lines.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Tags in writing order: roster tags in roster order, then the rest as given.
fn ordered_tags(game: &PdnGame) -> Vec<&(String, String)> {
    let is_roster = |name: &str| {
        SEVEN_TAG_ROSTER
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
    };
    let mut out: Vec<&(String, String)> = Vec::with_capacity(game.tags.len());
    for roster in SEVEN_TAG_ROSTER {
        out.extend(
            game.tags
                .iter()
                .filter(|(n, _)| n.eq_ignore_ascii_case(roster)),
        );
    }
    out.extend(game.tags.iter().filter(|(n, _)| !is_roster(n)));
    out
}

/// Movetext units: each move with its number when it has one, then the result.
fn movetext_units(game: &PdnGame) -> Vec<String> {
    // Ply 0 is Black's when the FEN says Black moves first.
    let offset = usize::from(game.black_starts());
    let mut units = Vec::with_capacity(game.moves.len() + 1);
    for (k, mv) in game.moves.iter().enumerate() {
        let ply = k + offset;
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            units.push(format!("{number}. {mv}"));
        } else if k == 0 {
            units.push(format!("{number}... {mv}"));
        } else {
            units.push(mv.clone());
        }
    }
    if let Some(r) = &game.result {
        units.push(r.clone());
    }
    units
}

/// Write one game.
pub fn write_game(game: &PdnGame) -> String {
    let mut out = String::new();
    for (name, value) in ordered_tags(game) {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    let units = movetext_units(game);
    if !units.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        let mut line = String::new();
        for unit in units {
            if !line.is_empty() && line.len() + 1 + unit.len() > LINE_WIDTH {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&unit);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Write several games, separated by blank lines.
pub fn write_games(games: &[PdnGame]) -> String {
    games.iter().map(write_game).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roster_first_and_lines_wrapped() {
        let game = PdnGame {
            tags: vec![
                ("GameType".into(), "20".into()),
                ("White".into(), "A \"B\"".into()),
                ("Event".into(), "E".into()),
            ],
            moves: vec!["32-28".to_string(); 40],
            result: Some("1-1".into()),
        };
        let text = write_game(&game);
        assert!(text.starts_with(
            "[Event \"E\"]\n[White \"A \\\"B\\\"\"]\n[GameType \"20\"]\n\n1. 32-28 32-28 2."
        ));
        assert!(text.lines().all(|l| l.len() <= LINE_WIDTH));
        assert!(text.trim_end().ends_with("1-1"));
    }

    #[test]
    fn black_first_starts_with_ellipsis() {
        let game = PdnGame {
            tags: vec![("FEN".into(), "B:W28:B19".into())],
            moves: vec!["19-23".into(), "28x19".into()],
            result: None,
        };
        assert!(write_game(&game).ends_with("\n1... 19-23 2. 28x19\n"));
    }
}
