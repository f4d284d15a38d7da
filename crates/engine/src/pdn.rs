//! Whole games as PDN, for front ends that load and save them (the GUI):
//! reading the first game of a PDN text into the engine, all or nothing,
//! and writing the game played, in the variant's notation.

use crate::{Engine, GameKind, MoveReading, PositionError, PositionText, new_game_session, set_up};
use std::fmt;
use tiao_draughts::board::Variant;
use tiao_draughts::notation::{PdnGame, parse_pdn, write_game};

/// What [`Engine::load_pdn`] set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnLoad {
    /// The game's tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The moves played from its start.
    pub plies: usize,
}

/// Why a PDN text was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnLoadError {
    /// The text holds no game.
    NoGame,
    /// The first game cannot be read (the reader's message).
    Unreadable(String),
    /// Its `GameType` is not a variant Tiao plays.
    GameType(String),
    /// Its `FEN` tag or one of its moves is not valid.
    Position(PositionError),
}

impl fmt::Display for PdnLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnLoadError::NoGame => f.write_str("bad PDN: no game in the text"),
            PdnLoadError::Unreadable(e) | PdnLoadError::GameType(e) => write!(f, "bad PDN: {e}"),
            PdnLoadError::Position(e) => write!(f, "bad PDN: {e}"),
        }
    }
}

impl std::error::Error for PdnLoadError {}

impl Engine {
    /// Load the first game of a PDN text: its variant (`GameType`), its
    /// start (`FEN`, else the variant's start) and its moves. All or
    /// nothing: on an error the engine keeps the game (and variant) it had.
    pub fn load_pdn(&mut self, text: &str) -> Result<PdnLoad, PdnLoadError> {
        let game = match parse_pdn(text).into_iter().next() {
            None => return Err(PdnLoadError::NoGame),
            Some(Err(e)) => return Err(PdnLoadError::Unreadable(e.to_string())),
            Some(Ok(game)) => game,
        };
        let variant = game
            .variant()
            .map_err(|e| PdnLoadError::GameType(e.to_string()))?;
        let position = game
            .tag("FEN")
            .map_or(PositionText::Start, PositionText::Fen);
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        // Replayed on a session of its own first: the engine's game is
        // only replaced by one known to set up.
        let kind = GameKind::Draughts(variant);
        let mut trial = new_game_session(kind);
        set_up(&mut *trial, position, &moves, MoveReading::Any).map_err(PdnLoadError::Position)?;
        if let Err(e) = self.set_variant(variant) {
            log::warn!("{e}");
        }
        self.set_position(position, &moves, MoveReading::Any)
            .map_err(PdnLoadError::Position)?;
        Ok(PdnLoad {
            plies: moves.len(),
            tags: game.tags.clone(),
        })
    }

    /// The game played as PDN text: `tags` first (the roster's names,
    /// say), then the result (`*` while the game goes on), `GameType`,
    /// `FEN` when the game was set up, and the moves in the variant's
    /// notation.
    pub fn pdn_text(&self, tags: &[(&str, &str)]) -> String {
        let mut game = PdnGame::default();
        for (name, value) in tags {
            game.set_tag(name, *value);
        }
        let two_points = self.variant().is_some_and(Variant::international_results);
        let result = self.outcome().map_or("*", |r| r.pdn(two_points));
        game.set_tag("Result", result);
        match self.variant() {
            Some(v) => game.set_tag("GameType", v.pdn_game_type_tag()),
            // Halma and Gewu have no PDN game type: the variant is named instead.
            None => game.set_tag("Variant", self.game().name()),
        }
        let start = self.start_fen();
        if start != new_game_session(self.game()).fen() {
            game.set_tag("FEN", start);
        }
        game.moves = self.history(self.notation());
        game.result = Some(result.to_string());
        write_game(&game)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Options, PdnLoadError};
    use tiao_draughts::board::Variant;

    /// An engine with the smallest table: these tests do not search.
    fn small_engine() -> Engine {
        Engine::new(Options {
            hash_mib: 1,
            ..Options::default()
        })
        .expect("engine")
    }

    #[test]
    fn a_saved_game_loads_back_as_the_same_game() {
        let mut engine = small_engine();
        engine.set_variant(Variant::Russian).expect("russian");
        for mv in ["c3-d4", "f6-e5", "d4xf6"] {
            engine.play(mv, crate::MoveReading::Any).expect(mv);
        }
        let text = engine.pdn_text(&[("White", "me")]);
        assert!(text.contains("[GameType \"25"), "{text}");
        let fen = engine.fen();
        let mut other = small_engine();
        let loaded = other.load_pdn(&text).expect("loads");
        assert_eq!(loaded.plies, 3);
        assert_eq!(other.variant(), Some(Variant::Russian));
        assert_eq!(other.fen(), fen);
        assert_eq!(
            other.history(other.notation()),
            engine.history(engine.notation())
        );
    }

    #[test]
    fn a_pdn_with_an_illegal_move_leaves_the_game_as_it_was() {
        let mut engine = small_engine();
        engine
            .play("32-28", crate::MoveReading::Any)
            .expect("32-28");
        let fen = engine.fen();
        let bad = "[GameType \"25\"]\n1. c3-d4 c3-d4 *\n";
        let e = engine.load_pdn(bad).expect_err("illegal");
        assert!(matches!(e, PdnLoadError::Position(_)), "{e:?}");
        assert!(e.to_string().contains("illegal move"), "{e}");
        assert_eq!(engine.fen(), fen);
        assert_eq!(engine.variant(), Some(Variant::International));
        assert_eq!(engine.load_pdn(""), Err(PdnLoadError::NoGame));
    }
}
