//! `--resume`: a match goes on from its PDN file. The games an earlier run
//! wrote are read back, and each is checked against what this match would
//! write for its game number (the engines in their seats, the variant, the
//! time controls, the opening), so that a game of another match is never
//! counted. They count as played; only the rest of the schedule is played,
//! appended to the same file. A long SPRT can so be spread over several
//! sittings, and a run that was killed loses only its games under way.

use super::arbiter::{GameResult, TerminationKind, read_pdn_result};
use crate::engine::GameKind;
use crate::notation::{PdnGame, parse_pdn};
use std::collections::BTreeMap;
use std::path::Path;

/// The tags that tie a game to its match: a game read back must have each
/// as this match would write it (absent where it would be absent).
const IDENTITY: [&str; 9] = [
    "White",
    "Black",
    "GameType",
    "Variant",
    "TimeControl",
    "WhiteTimeControl",
    "BlackTimeControl",
    "Opening",
    "OpeningSource",
];

/// A game of an earlier run: its number in the schedule and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PastGame {
    pub round: u32,
    pub result: GameResult,
    pub kind: TerminationKind,
}

/// The games of the PDN file at `path`, by game number; none when there is
/// no file yet (the first run of a match started with `--resume`).
/// `expected(round)` is the header the match writes for game `round`
/// ([`super::pdn_out::header`]), `None` past its schedule.
pub fn read(
    path: &Path,
    variant: GameKind,
    expected: impl Fn(u32) -> Option<PdnGame>,
) -> Result<Vec<PastGame>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("--resume: cannot read {}: {e}", path.display())),
    };
    parse(&text, &path.display().to_string(), variant, expected)
}

/// The games of PDN `text` (from `source`, for messages), as [`read`].
pub fn parse(
    text: &str,
    source: &str,
    variant: GameKind,
    expected: impl Fn(u32) -> Option<PdnGame>,
) -> Result<Vec<PastGame>, String> {
    // The runner writes a game and its newline in one flush; a file that
    // ends elsewhere was cut while a game was written.
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!(
            "--resume: {source} ends inside a game (a run killed while writing leaves its \
             last game cut): delete that game from the file and resume"
        ));
    }
    let parsed = parse_pdn(text)
        .into_iter()
        .collect::<Result<Vec<PdnGame>, _>>()
        .map_err(|e| format!("--resume: {source} is not a PDN file of this match ({e})"))?;
    let round_of = |g: &PdnGame| {
        g.tag("Round")
            .and_then(|r| r.parse::<u32>().ok())
            .filter(|&r| r > 0)
    };
    let last = parsed.iter().filter_map(round_of).max().unwrap_or(0);
    let mut games = BTreeMap::new();
    for (i, g) in parsed.iter().enumerate() {
        let round = round_of(g).ok_or_else(|| {
            format!(
                "--resume: game {} of {source} has no game number (Round)",
                i + 1
            )
        })?;
        let Some(want) = expected(round) else {
            return Err(format!(
                "--resume: {source} holds game {round}, past this match's schedule: \
                 give --games {last} or more"
            ));
        };
        for tag in IDENTITY {
            if g.tag(tag) != want.tag(tag) {
                return Err(format!(
                    "--resume: game {round} of {source} is not this match's: its {tag} is {}, \
                     this match would write {}",
                    shown(g.tag(tag)),
                    shown(want.tag(tag))
                ));
            }
        }
        let result = g
            .tag("Result")
            .filter(|&r| g.result.as_deref() == Some(r))
            .and_then(|r| read_pdn_result(r, variant))
            .ok_or_else(|| {
                format!(
                    "--resume: game {round} of {source} has no result (or its moves do not \
                     end with it): delete the game from the file and resume"
                )
            })?;
        let kind = g
            .tag("Termination")
            .and_then(TerminationKind::from_pdn)
            .ok_or_else(|| {
                format!(
                    "--resume: game {round} of {source} does not say how it ended \
                     (Termination {})",
                    shown(g.tag("Termination"))
                )
            })?;
        let past = PastGame {
            round,
            result,
            kind,
        };
        if games.insert(round, past).is_some() {
            return Err(format!("--resume: {source} holds game {round} twice"));
        }
    }
    Ok(games.into_values().collect())
}

fn shown(tag: Option<&str>) -> String {
    match tag {
        Some(v) => format!("\"{v}\""),
        None => "missing".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Colour, Variant};
    use crate::notation::write_game;

    /// The header of game `round` of a two-engine match: `a` has White in
    /// odd games; four games in all.
    fn header(round: u32) -> Option<PdnGame> {
        if round > 4 {
            return None;
        }
        let (w, b) = if round % 2 == 1 {
            ("a", "b")
        } else {
            ("b", "a")
        };
        let mut g = PdnGame::default();
        for (k, v) in [
            ("Round", round.to_string()),
            ("White", w.into()),
            ("Black", b.into()),
            ("GameType", "20".into()),
            ("TimeControl", "movetime=0.1".into()),
        ] {
            g.set_tag(k, v);
        }
        Some(g)
    }

    fn game(round: u32, result: &str, termination: &str) -> String {
        let mut g = header(round).unwrap_or_else(|| {
            let mut g = header(1).expect("game 1");
            g.set_tag("Round", round.to_string());
            g
        });
        g.set_tag("Result", result);
        g.set_tag("Termination", termination);
        g.moves = vec!["32-28".into(), "19-23".into()];
        g.result = Some(result.into());
        write_game(&g)
    }

    fn parse_text(text: &str) -> Result<Vec<PastGame>, String> {
        parse(
            text,
            "m.pdn",
            GameKind::Draughts(Variant::International),
            header,
        )
    }

    #[test]
    fn games_are_read_in_game_number_order_with_their_ending() {
        let text = [
            game(2, "0-2", "normal"),
            game(1, "1-1", "adjudication"),
            game(3, "2-0", "time forfeit"),
        ]
        .join("\n");
        let past = parse_text(&text).expect("readable");
        let seen: Vec<(u32, GameResult, TerminationKind)> =
            past.iter().map(|g| (g.round, g.result, g.kind)).collect();
        assert_eq!(
            seen,
            vec![
                (1, GameResult::Draw, TerminationKind::Adjudication),
                (2, GameResult::Win(Colour::Black), TerminationKind::Normal),
                (
                    3,
                    GameResult::Win(Colour::White),
                    TerminationKind::TimeForfeit
                ),
            ]
        );
    }

    #[test]
    fn no_file_text_is_no_game() {
        assert_eq!(parse_text(""), Ok(Vec::new()));
    }

    #[test]
    fn a_game_of_another_match_is_refused() {
        let swapped = game(1, "2-0", "normal").replace("\"a\"", "\"c\"");
        let e = parse_text(&swapped).expect_err("another engine");
        assert!(e.contains("game 1") && e.contains("White is \"c\""), "{e}");
        let slower = game(2, "1-1", "normal").replace("movetime=0.1", "movetime=1");
        let e = parse_text(&slower).expect_err("another time control");
        assert!(e.contains("TimeControl"), "{e}");
    }

    #[test]
    fn a_game_past_the_schedule_asks_for_more_games() {
        let e = parse_text(&game(5, "1-1", "normal")).expect_err("past the schedule");
        assert!(e.contains("--games 5"), "{e}");
    }

    #[test]
    fn a_game_read_twice_is_refused() {
        let text = [game(1, "1-1", "normal"), game(1, "1-1", "normal")].join("\n");
        let e = parse_text(&text).expect_err("twice");
        assert!(e.contains("game 1 twice"), "{e}");
    }

    #[test]
    fn a_game_cut_by_a_killed_run_is_refused() {
        let text = [game(1, "1-1", "normal"), game(2, "0-2", "normal")].join("\n");
        let cut = &text[..text.len() - 4];
        let e = parse_text(cut).expect_err("cut");
        assert!(e.contains("ends inside a game"), "{e}");
        // Cut at a line's end: the moves lack their result.
        let cut = text
            .trim_end()
            .rsplit_once(' ')
            .expect("moves")
            .0
            .to_string()
            + "\n";
        let e = parse_text(&cut).expect_err("cut at a line end");
        assert!(e.contains("game 2") && e.contains("no result"), "{e}");
    }

    #[test]
    fn an_unknown_ending_or_result_is_refused() {
        let e = parse_text(&game(1, "1-1", "resigned")).expect_err("ending");
        assert!(e.contains("Termination \"resigned\""), "{e}");
        // 1-0 is the 8x8 games' token, not international draughts'.
        let e = parse_text(&game(1, "1-0", "normal")).expect_err("result");
        assert!(e.contains("no result"), "{e}");
    }
}
