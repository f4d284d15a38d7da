//! Opening ballot files (format in `docs/openings.md`): one opening per line,
//! either a move sequence from the start position (`32-28 19-23 33-29`) or
//! a FEN optionally followed by moves; `#` starts a comment, and the header
//! comment `# variant: NAME` says which variant the file is for.
//!
//! Every opening is played out on the board when the file is loaded, so a
//! bad line is reported with its number before any game starts. Without
//! `--openings`, the match uses the set shipped in `openings/` for its
//! variant, compiled into the binary.

use crate::board::Variant;
use crate::engine::{GameKind, MoveReading, Session, new_game_session};
use crate::notation::MoveFormat;

/// One opening, as read from its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line in its file.
    pub line: usize,
    /// The line as written, comment removed.
    pub text: String,
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// An opening set up on the board.
pub struct Setup {
    /// The game: the start position with the opening's moves played.
    pub session: Box<dyn Session>,
    /// The Hub position string of the start position (before the moves).
    pub start_hub: String,
    /// The FEN of the start position when the opening gives one.
    pub start_fen: Option<String>,
    /// The opening's moves in Hub notation (what engines are sent).
    pub hub_moves: Vec<String>,
}

impl Opening {
    /// The start position only.
    pub fn start_position() -> Opening {
        Opening {
            line: 0,
            text: String::new(),
            fen: None,
            moves: Vec::new(),
        }
    }

    /// Set the opening up for `game`.
    pub fn setup(&self, game: GameKind) -> Result<Setup, String> {
        let mut session = new_game_session(game);
        let mut start_fen = None;
        if let Some(fen) = &self.fen {
            session.set_fen(fen)?;
            // Written back in Tiao's own form, whatever form the file used.
            start_fen = Some(session.fen());
        }
        let start_hub = session.hub_position();
        let mut hub_moves = Vec::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            let hub = session
                .convert(m, MoveReading::Any, MoveFormat::Hub)
                .and_then(|h| session.play(&h, MoveReading::Hub).map(|_| h))
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
            hub_moves.push(hub);
        }
        if let Some(o) = session.outcome() {
            return Err(format!("the game is already over after it ({o:?})"));
        }
        Ok(Setup {
            session,
            start_hub,
            start_fen,
            hub_moves,
        })
    }
}

/// A set of openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    /// Where it came from (a path, or `built-in NAME`).
    pub source: String,
    /// The game its header names, if any.
    pub variant: Option<GameKind>,
    pub openings: Vec<Opening>,
}

/// Whether a token is a PDN move number (`12.`, `12...`), which is skipped.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Whether a token is a FEN (`W:W31-50:B1-20`, `B:...`).
fn is_fen(token: &str) -> bool {
    let mut c = token.chars();
    matches!(c.next(), Some('W' | 'B' | 'w' | 'b')) && c.next() == Some(':')
}

impl Ballot {
    /// Read a ballot file's text. `source` names it in messages.
    pub fn parse(text: &str, source: &str) -> Result<Ballot, String> {
        let mut variant = None;
        let mut openings = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let (body, comment) = match raw.split_once('#') {
                Some((b, c)) => (b, Some(c)),
                None => (raw, None),
            };
            if let Some(c) = comment
                && body.trim().is_empty()
                && let Some(v) = c.trim().strip_prefix("variant:")
            {
                variant = Some(
                    v.trim()
                        .parse::<GameKind>()
                        .map_err(|e| format!("{source}, line {line}: {e}"))?,
                );
            }
            let body = body.trim();
            if body.is_empty() {
                continue;
            }
            let mut tokens = body.split_whitespace().filter(|t| !is_move_number(t));
            let mut fen = None;
            let mut moves = Vec::new();
            if let Some(first) = tokens.next() {
                if is_fen(first) {
                    fen = Some(first.to_string());
                } else {
                    moves.push(first.to_string());
                }
            }
            moves.extend(tokens.map(str::to_string));
            openings.push(Opening {
                line,
                text: body.to_string(),
                fen,
                moves,
            });
        }
        if openings.is_empty() {
            return Err(format!("{source}: no openings in the file"));
        }
        Ok(Ballot {
            source: source.to_string(),
            variant,
            openings,
        })
    }

    /// Read a ballot file.
    pub fn load(path: &std::path::Path) -> Result<Ballot, String> {
        Ballot::parse(&Ballot::read(path)?, &path.display().to_string())
    }

    /// A ballot file's text, for [`Ballot::parse`].
    pub fn read(path: &std::path::Path) -> Result<String, String> {
        std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings file {}: {e}", path.display()))
    }

    /// A ballot of one game from the start position (`--openings none`).
    pub fn start_only() -> Ballot {
        Ballot {
            source: "start position".into(),
            variant: None,
            openings: vec![Opening::start_position()],
        }
    }

    /// The set shipped for a game (draughts; other games start from their start position).
    pub fn builtin(game: GameKind) -> Ballot {
        let Some(variant) = game.variant() else {
            return Ballot::start_only();
        };
        let (name, text) = match variant {
            Variant::International => (
                "openings/international-3move.txt",
                include_str!("../../../openings/international-3move.txt"),
            ),
            Variant::Brazilian => (
                "openings/brazilian-4move.txt",
                include_str!("../../../openings/brazilian-4move.txt"),
            ),
            Variant::Russian => (
                "openings/russian-4move.txt",
                include_str!("../../../openings/russian-4move.txt"),
            ),
            Variant::Canadian => (
                "openings/canadian-2move.txt",
                include_str!("../../../openings/canadian-2move.txt"),
            ),
        };
        let source = format!("built-in {name}");
        // The shipped files are checked by the tests; should one ever be
        // broken, fall back to the start position rather than fail.
        Ballot::parse(text, &source).unwrap_or_else(|_| Ballot::start_only())
    }

    /// Check that the ballot is for `variant` and that every opening can be
    /// played. Errors name the file and line.
    pub fn check(&self, variant: GameKind) -> Result<(), String> {
        self.check_variant(variant)?;
        for o in &self.openings {
            o.setup(variant)
                .map_err(|e| format!("{}, line {}: '{}': {e}", self.source, o.line, o.text))?;
        }
        Ok(())
    }

    /// Whether the game the header names (if any) is `variant`.
    pub fn check_variant(&self, variant: GameKind) -> Result<(), String> {
        match self.variant {
            Some(v) if v != variant => Err(format!(
                "{} is a ballot for {v}, not {variant} (use --variant {v})",
                self.source
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_fens() {
        let text = "# variant: international\n\n32-28 19-23 # +0.05\n1. 33-29 2. 18-23\n\
                    W:W31-50:B1-20 31-27\n";
        let b = Ballot::parse(text, "t").expect("ballot");
        assert_eq!(b.variant, Some(Variant::International.into()));
        assert_eq!(b.openings.len(), 3);
        assert_eq!(b.openings[0].moves, vec!["32-28", "19-23"]);
        assert_eq!(b.openings[0].line, 3);
        assert_eq!(b.openings[1].moves, vec!["33-29", "18-23"]);
        assert_eq!(b.openings[2].fen.as_deref(), Some("W:W31-50:B1-20"));
        assert_eq!(b.openings[2].moves, vec!["31-27"]);
        assert_eq!(b.check(Variant::International.into()), Ok(()));
        let err = b.check(Variant::Russian.into()).expect_err("variant");
        assert!(err.contains("--variant international"), "{err}");
    }

    #[test]
    fn a_bad_line_is_named() {
        let b = Ballot::parse("32-28\n32-28 32-28\n", "f.txt").expect("ballot");
        let err = b.check(Variant::International.into()).expect_err("illegal");
        assert!(err.starts_with("f.txt, line 2"), "{err}");
        assert!(Ballot::parse("# nothing\n", "e").is_err());
    }

    #[test]
    fn setup_gives_hub_moves() {
        let b = Ballot::parse("c3-d4 f6-e5 d4:f6 g7:e5\n", "r").expect("ballot");
        let s = b.openings[0].setup(Variant::Russian.into()).expect("setup");
        assert_eq!(s.hub_moves.len(), 4);
        assert_eq!(s.start_hub.len(), 33);
        assert!(s.hub_moves[2].contains('x'), "{:?}", s.hub_moves);
    }

    #[test]
    fn the_shipped_sets_are_sound() {
        for v in Variant::ALL {
            let b = Ballot::builtin(v.into());
            assert!(b.openings.len() > 10, "{v}: {}", b.source);
            assert_eq!(b.check(v.into()), Ok(()), "{v}");
        }
    }
}
