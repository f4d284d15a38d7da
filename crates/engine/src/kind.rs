//! Which game a session plays: a draughts variant, Halma on one of its two
//! boards, or Gewu with or without throws. The names are those of the Hub
//! `variant` parameter and the `--variant` options.

use std::fmt;
use std::str::FromStr;
use tiao_draughts::board::Variant;

/// A game Tiao plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Draughts(Variant),
    Halma8,
    Halma10,
    /// Gewu, free form: each player moves one step or one jump.
    Gewu,
    /// Gewu with throws of the four-faced stick.
    GewuDice,
}

impl GameKind {
    /// Every game, in the order the Hub `variant` parameter lists them.
    pub const ALL: [GameKind; 8] = [
        GameKind::Draughts(Variant::International),
        GameKind::Draughts(Variant::Brazilian),
        GameKind::Draughts(Variant::Russian),
        GameKind::Draughts(Variant::Canadian),
        GameKind::Halma8,
        GameKind::Halma10,
        GameKind::Gewu,
        GameKind::GewuDice,
    ];

    /// The names a `variant` setting takes: Scan's `normal` (international
    /// draughts), then every game's own name, in the order of [`GameKind::ALL`].
    pub const NAMES: [&'static str; 9] = {
        let mut names = ["normal"; 9];
        let mut i = 0;
        while i < GameKind::ALL.len() {
            names[i + 1] = GameKind::ALL[i].name();
            i += 1;
        }
        names
    };

    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Draughts(v) => v.name(),
            GameKind::Halma8 => "halma8",
            GameKind::Halma10 => "halma10",
            GameKind::Gewu => "gewu",
            GameKind::GewuDice => "gewu-dice",
        }
    }

    /// The draughts variant, if this is draughts.
    pub fn variant(self) -> Option<Variant> {
        match self {
            GameKind::Draughts(v) => Some(v),
            _ => None,
        }
    }
}

impl From<Variant> for GameKind {
    fn from(v: Variant) -> Self {
        GameKind::Draughts(v)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected one of: {})",
            self.0,
            GameKind::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "halma8" | "halma-8" => Ok(GameKind::Halma8),
            "halma10" | "halma-10" | "halma" => Ok(GameKind::Halma10),
            "gewu" => Ok(GameKind::Gewu),
            "gewu-dice" | "gewudice" | "saixi" => Ok(GameKind::GewuDice),
            _ => s
                .parse::<Variant>()
                .map(GameKind::Draughts)
                .map_err(|_| UnknownGame(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_round_trip() {
        for g in GameKind::ALL {
            assert_eq!(g.name().parse::<GameKind>(), Ok(g));
        }
        assert_eq!(
            "normal".parse::<GameKind>(),
            Ok(GameKind::Draughts(Variant::International))
        );
        assert!("chess".parse::<GameKind>().is_err());
        for name in GameKind::NAMES {
            assert!(name.parse::<GameKind>().is_ok(), "{name}");
        }
        assert_eq!(GameKind::NAMES[1..].len(), GameKind::ALL.len());
    }
}
