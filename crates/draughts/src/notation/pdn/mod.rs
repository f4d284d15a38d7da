//! PDN 3.0 games: the game record ([`PdnGame`]), and in submodules the
//! reader of PDN files (`parse`), the writer (`write`) and the replay of a
//! game's moves on the board (`replay`).
//!
//! A game is kept as text — tags and the raw move tokens of the main line —
//! because a PDN file does not say which rule set its moves follow until
//! its `GameType` tag is read; the caller picks the rule set from
//! [`PdnGame::variant`] and replays with it.

mod date;
mod parse;
mod replay;
mod write;

pub use date::{civil_from_days, today};
pub use parse::{PdnError, parse_pdn};
pub use replay::{Replay, ReplayError, record_moves, replay};
pub use write::{write_game, write_games};

use super::fen::{FenError, read_fen, write_fen};
use super::movetext::PdnStyle;
use crate::board::{Move, Position, Rules, Variant, Word};
use std::fmt;

/// The seven-tag roster, written first and in this order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// One game of a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The move tokens of the main line as written (move numbers, comments,
    /// variations, NAGs and annotations removed).
    pub moves: Vec<String>,
    /// The result token at the end of the movetext, if there was one.
    pub result: Option<String>,
}

/// Why a `GameType` tag does not name a variant Tiao plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTypeError {
    pub value: String,
}

impl fmt::Display for GameTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GameType \"{}\" is not a variant Tiao plays (20 international, 25 Russian, \
             26 Brazilian, 27 Canadian)",
            self.value
        )
    }
}

impl std::error::Error for GameTypeError {}

impl PdnGame {
    /// The value of a tag (names compared without regard to case; the first wins).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Set a tag, replacing the first one of that name or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The variant from the `GameType` tag: a bare number (`20`) or the full
    /// form (`20,W,10,10,N2,0`). Without the tag, international (type 20, the
    /// PDN default).
    pub fn variant(&self) -> Result<Variant, GameTypeError> {
        let Some(value) = self.tag("GameType") else {
            return Ok(Variant::International);
        };
        let number = value.split(',').next().unwrap_or("").trim();
        number
            .parse::<u32>()
            .ok()
            .and_then(Variant::from_pdn_game_type)
            .ok_or_else(|| GameTypeError {
                value: value.to_string(),
            })
    }

    /// The start position: the `FEN` tag if there is one, else the variant's
    /// start. (`SetUp` is ignored: the FEN tag alone decides.)
    pub fn start_position<R: Rules>(&self) -> Result<Position<R>, FenError> {
        match self.tag("FEN") {
            Some(fen) => read_fen(fen),
            None => Ok(Position::start()),
        }
    }

    /// Whether Black makes the first move (the `FEN` tag says `B` to move).
    /// Used for move numbers, which need no rule set.
    pub fn black_starts(&self) -> bool {
        self.tag("FEN")
            .map(|f| f.trim().trim_start_matches('"').trim_start())
            .is_some_and(|f| f.starts_with(['B', 'b']))
    }

    /// A game record for moves played from `start`: `GameType` and (for a
    /// position other than the start) `FEN` tags, the moves written as the
    /// variant's players write them, and the result. Add the roster tags
    /// with [`PdnGame::set_tag`]. The moves must be legal in turn.
    pub fn from_moves<R: Rules>(
        start: &Position<R>,
        moves: &[Move<Word<R>>],
        result: Option<&str>,
    ) -> PdnGame {
        let mut game = PdnGame::default();
        if let Some(r) = result {
            game.set_tag("Result", r);
        }
        game.set_tag("GameType", R::VARIANT.pdn_game_type_tag());
        if *start != Position::start() {
            game.set_tag("FEN", write_fen(start));
        }
        game.moves = record_moves(start, moves, PdnStyle::for_variant(R::VARIANT));
        game.result = result.map(str::to_string);
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_type_bare_or_full() {
        let mut g = PdnGame::default();
        assert_eq!(g.variant(), Ok(Variant::International));
        g.set_tag("GameType", "25");
        assert_eq!(g.variant(), Ok(Variant::Russian));
        g.set_tag("gametype", "27,W,12,12,N2,0");
        assert_eq!(g.variant(), Ok(Variant::Canadian));
        assert_eq!(g.tags.len(), 1);
        g.set_tag("GameType", "21");
        assert!(g.variant().is_err());
        g.set_tag("GameType", "x");
        assert!(g.variant().is_err());
    }

    #[test]
    fn black_starts_from_the_fen_tag() {
        let mut g = PdnGame::default();
        assert!(!g.black_starts());
        g.set_tag("FEN", "B:W27,28:BK25");
        assert!(g.black_starts());
    }
}
