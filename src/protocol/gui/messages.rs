//! The GUI's WebSocket protocol: JSON objects with a `"type"`, the page's
//! intents ([`Intent`]) and the server's replies ([`Reply`]); every one is
//! documented in docs/gui.md. Reading is strict about what it needs and
//! says in its error which message and which field were wrong.

use crate::engine::{BoardView, MoveView};
use crate::search::score::{DB_BOUND, WIN_BOUND, format_men, plies_to_end};
use serde::{Deserialize, Serialize};

/// What the page asks for.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Intent {
    /// A new game of a draughts variant (`international`, `brazilian`,
    /// `russian`, `canadian`; `normal` too), at its start position.
    NewGame {
        variant: String,
    },
    /// Play a move: its text in any notation Tiao reads, or the squares
    /// (numbers) of its path, from the origin to the destination.
    Move {
        #[serde(rename = "move", default)]
        text: Option<String>,
        #[serde(default)]
        path: Option<Vec<u32>>,
    },
    Undo,
    Redo,
    /// Set up a position from a FEN (the game restarts from it).
    SetFen {
        fen: String,
    },
    /// Set up a position from pieces placed on squares.
    SetPieces {
        side: Side,
        pieces: Vec<Placed>,
    },
    LoadPdn {
        pdn: String,
    },
    /// Ask for the game as PDN (answered by a `pdn` reply).
    SavePdn {
        #[serde(default)]
        white: Option<String>,
        #[serde(default)]
        black: Option<String>,
    },
    /// Analyse the current position with `multipv` lines until `stop`
    /// (or to `depth`).
    #[serde(alias = "analyze")]
    Analyse {
        #[serde(default = "one")]
        multipv: usize,
        #[serde(default)]
        depth: Option<u32>,
    },
    /// Tiao chooses and plays a move, in `time` seconds or to `depth`.
    EngineMove {
        #[serde(default)]
        time: Option<f64>,
        #[serde(default)]
        depth: Option<u32>,
    },
    /// Search every position of the game to `depth`, for the graph.
    EvalGame {
        #[serde(default)]
        depth: Option<u32>,
    },
    /// Stop the running search (an engine move is still played).
    Stop,
    /// Send the state again.
    State,
}

fn one() -> usize {
    1
}

/// A side, as the page names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

impl From<crate::board::Colour> for Side {
    fn from(c: crate::board::Colour) -> Self {
        match c {
            crate::board::Colour::White => Side::White,
            crate::board::Colour::Black => Side::Black,
        }
    }
}

/// A piece placed on a square (by number) in a set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub struct Placed {
    pub square: u32,
    pub colour: Side,
    #[serde(default)]
    pub king: bool,
}

/// Read one message of the page. The error is the text of the `error`
/// reply: what was wrong, and where.
pub fn read_intent(text: &str) -> Result<Intent, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("malformed message (not JSON): {e}"))?;
    let Some(kind) = value.get("type").and_then(|t| t.as_str()) else {
        return Err("malformed message: a JSON object with a \"type\" string is expected".into());
    };
    let kind = kind.to_string();
    serde_json::from_value(value).map_err(|e| {
        if e.to_string().starts_with("unknown variant") {
            format!("unknown message type '{kind}'")
        } else {
            format!("bad '{kind}' message: {e}")
        }
    })
}

/// What the server sends.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// First message on a new socket.
    Hello {
        version: &'static str,
        variants: Vec<&'static str>,
    },
    /// The whole game as it stands, after every change.
    State(Box<State>),
    /// One line of a running search (streamed).
    Info(Line),
    /// An engine move was chosen (and played; a `state` follows).
    #[serde(rename = "bestmove")]
    BestMove {
        #[serde(rename = "move")]
        mv: Option<String>,
        /// `book`, `database` or `search`.
        source: &'static str,
    },
    /// A point of the evaluation graph.
    Eval(EvalPoint),
    Pdn {
        pdn: String,
    },
    Error {
        message: String,
    },
}

impl Reply {
    pub fn error(message: impl Into<String>) -> Reply {
        Reply::Error {
            message: message.into(),
        }
    }

    pub fn to_json(&self) -> String {
        // Serialising these plain structs cannot fail; an error is still
        // reported rather than unwrapped.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!("{{\"type\":\"error\",\"message\":\"cannot write a reply: {e}\"}}")
        })
    }
}

/// The game as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub variant: &'static str,
    /// Files and rows.
    pub size: u32,
    pub fen: String,
    pub side: Side,
    pub squares: Vec<SquareOut>,
    pub moves: Vec<MoveOut>,
    /// The moves played since the start (or the set-up position).
    pub history: Vec<String>,
    pub last_move: Option<MoveOut>,
    /// The result by the rules, in words, once the game is over.
    pub result: Option<String>,
    pub can_undo: bool,
    pub can_redo: bool,
    /// The endgame databases' value for the side to move (`win`, `loss`,
    /// `draw`), when they cover the position.
    pub verdict: Option<&'static str>,
    pub evals: Vec<EvalPoint>,
    /// What is running: `analysis`, `engine` or `eval_game`.
    pub searching: Option<&'static str>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SquareOut {
    pub number: u32,
    pub name: String,
    pub row: u32,
    pub file: u32,
    pub piece: Option<PieceOut>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct PieceOut {
    pub colour: Side,
    pub king: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct MoveOut {
    #[serde(rename = "move")]
    pub text: String,
    pub from: u32,
    pub to: u32,
    pub captured: Vec<u32>,
    pub paths: Vec<Vec<u32>>,
}

impl From<MoveView> for MoveOut {
    fn from(m: MoveView) -> Self {
        MoveOut {
            text: m.text,
            from: m.from,
            to: m.to,
            captured: m.captured,
            paths: m.paths,
        }
    }
}

/// The squares of a board view.
pub fn squares_of(board: BoardView) -> Vec<SquareOut> {
    board
        .squares
        .into_iter()
        .map(|s| SquareOut {
            number: s.number,
            name: s.name,
            row: s.row,
            file: s.file,
            piece: s.piece.map(|p| PieceOut {
                colour: p.colour.into(),
                king: p.king,
            }),
        })
        .collect()
}

/// A search line.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// `analysis`, `engine` or `eval_game`.
    pub search: &'static str,
    /// 1-based line number.
    pub multipv: usize,
    pub depth: u32,
    /// Centi-men from the side to move's view (the engine's score).
    pub score: i32,
    /// The same from White's view (what the graph plots).
    pub white_score: i32,
    /// The score as people read it: `0.35`, `win in 7`, `database loss in 12`.
    pub score_text: String,
    pub nodes: u64,
    /// Seconds.
    pub time: f64,
    /// Millions of nodes per second.
    pub mnps: f64,
    pub pv: Vec<String>,
}

/// A point of the evaluation graph: the score (centi-men, White's view)
/// of the position after `ply` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EvalPoint {
    pub ply: usize,
    pub score: i32,
}

/// A score as people read it.
pub fn score_text(score: i32) -> String {
    match plies_to_end(score) {
        Some(p) if score > WIN_BOUND => format!("win in {p}"),
        Some(p) if score < -WIN_BOUND => format!("loss in {p}"),
        _ if score > DB_BOUND => "database win".into(),
        _ if score < -DB_BOUND => "database loss".into(),
        _ => format_men(score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_are_read_and_bad_ones_say_why() {
        assert_eq!(
            read_intent(r#"{"type":"move","move":"32-28"}"#),
            Ok(Intent::Move {
                text: Some("32-28".into()),
                path: None
            })
        );
        assert_eq!(
            read_intent(r#"{"type":"analyse"}"#),
            Ok(Intent::Analyse {
                multipv: 1,
                depth: None
            })
        );
        let e = read_intent("{not json").expect_err("malformed");
        assert!(e.starts_with("malformed message (not JSON)"), "{e}");
        let e = read_intent("[1,2]").expect_err("no type");
        assert!(e.contains("\"type\""), "{e}");
        let e = read_intent(r#"{"type":"fly"}"#).expect_err("unknown");
        assert_eq!(e, "unknown message type 'fly'");
        let e = read_intent(r#"{"type":"set_fen"}"#).expect_err("no fen");
        assert!(
            e.starts_with("bad 'set_fen' message") && e.contains("fen"),
            "{e}"
        );
    }

    #[test]
    fn scores_read_as_people_say_them() {
        assert_eq!(score_text(35), "0.35");
        assert_eq!(score_text(crate::search::score::win_in(7)), "win in 7");
        assert_eq!(score_text(crate::search::score::loss_in(4)), "loss in 4");
    }
}
