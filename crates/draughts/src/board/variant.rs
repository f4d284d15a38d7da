//! Rule sets: the runtime [`Variant`] tag and the compile-time [`Rules`] that
//! the move generator is monomorphised over.
//!
//! A rule set is a board geometry plus a few flags. Move generation, the
//! position and the search are written once and instantiated per rule set, so
//! the flags are constants in the inner loops, never branches on a variant.

use super::geometry::{B8, B10, B12, Geometry};
use std::fmt;
use std::str::FromStr;

/// The draughts variants Tiao plays, as named on the command line and in protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    International,
    Brazilian,
    Russian,
    Canadian,
}

/// How squares are written for a variant in human-facing text (PDN, text mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareStyle {
    /// Square numbers 1..N (international, Canadian).
    Numeric,
    /// Algebraic a1..h8 (Russian, Brazilian).
    Algebraic,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::International,
        Variant::Brazilian,
        Variant::Russian,
        Variant::Canadian,
    ];

    /// The canonical name, as used by `--variant` and the Hub `variant` parameter.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
            Variant::Canadian => "canadian",
        }
    }

    /// Files (and rows) of the board.
    pub fn board_size(self) -> u32 {
        match self {
            Variant::International => 10,
            Variant::Brazilian | Variant::Russian => 8,
            Variant::Canadian => 12,
        }
    }

    /// Number of playable squares.
    pub fn squares(self) -> u32 {
        self.board_size() * self.board_size() / 2
    }

    /// PDN GameType number.
    pub fn pdn_game_type(self) -> u32 {
        match self {
            Variant::International => 20,
            Variant::Russian => 25,
            Variant::Brazilian => 26,
            Variant::Canadian => 27,
        }
    }

    /// The full PDN GameType tag value.
    pub fn pdn_game_type_tag(self) -> &'static str {
        match self {
            Variant::International => "20,W,10,10,N2,0",
            Variant::Russian => "25,W,8,8,A0,0",
            Variant::Brazilian => "26,W,8,8,A0,0",
            Variant::Canadian => "27,W,12,12,N2,0",
        }
    }

    /// The variant of a PDN GameType number, if Tiao plays it.
    pub fn from_pdn_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.pdn_game_type() == n)
    }

    /// How squares are written in PDN and text mode.
    pub fn square_style(self) -> SquareStyle {
        match self {
            Variant::International | Variant::Canadian => SquareStyle::Numeric,
            Variant::Brazilian | Variant::Russian => SquareStyle::Algebraic,
        }
    }

    /// Capture separator in human-facing move text (`x`, or `:` in Russian notation).
    pub fn capture_separator(self) -> char {
        match self {
            Variant::Russian | Variant::Brazilian => ':',
            _ => 'x',
        }
    }

    /// Whether results are written international-style (`2-0`, `1-1`, `0-2`) in PDN.
    pub fn international_results(self) -> bool {
        matches!(self, Variant::International | Variant::Canadian)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of: normal, {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            // `normal` is what Scan and the Hub GUI call international draughts.
            "international" | "normal" | "intl" | "10x10" => Ok(Variant::International),
            "brazilian" | "brazil" => Ok(Variant::Brazilian),
            "russian" | "russia" => Ok(Variant::Russian),
            "canadian" | "canada" | "12x12" => Ok(Variant::Canadian),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Parameters of a rule that declares an endgame drawn after a number of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameRule {
    /// Largest material of the strong side (pieces) that the rule covers.
    pub kind: EndgameKind,
    /// Number of moves allowed once the material arises.
    pub moves: u32,
}

/// Which material configurations an [`EndgameRule`] covers, and how it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameKind {
    /// FMJD: one king against at most three pieces with at most two men
    /// (3 kings, 2 kings + 1 man, 1 king + 2 men); each player makes `moves` moves.
    InternationalThreeAgainstKing,
    /// FMJD: one king against at most two pieces (2 kings, 1 king + 1 man, 1 king);
    /// each player makes `moves` moves.
    InternationalTwoAgainstKing,
    /// Russian: three kings against a lone king; the strong side makes `moves` moves.
    RussianThreeKingsAgainstKing,
}

/// Draw rules of a variant (besides threefold repetition, common to all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// Plies of the "no progress" rule: international counts successive king
    /// moves without capture; Russian counts successive moves without capture.
    pub quiet_plies: u32,
    /// Whether a man move also breaks the no-progress count (international: yes).
    pub man_move_resets: bool,
    /// Endgame rules, checked in order.
    pub endgames: &'static [EndgameRule],
}

const FMJD_DRAWS: DrawRules = DrawRules {
    quiet_plies: 50,
    man_move_resets: true,
    endgames: &[
        EndgameRule {
            kind: EndgameKind::InternationalTwoAgainstKing,
            moves: 5,
        },
        EndgameRule {
            kind: EndgameKind::InternationalThreeAgainstKing,
            moves: 16,
        },
    ],
};

const RUSSIAN_DRAWS: DrawRules = DrawRules {
    quiet_plies: 60,
    man_move_resets: false,
    endgames: &[EndgameRule {
        kind: EndgameKind::RussianThreeKingsAgainstKing,
        moves: 18,
    }],
};

/// A compile-time rule set: geometry plus the flags that make the variants differ.
pub trait Rules: Copy + Default + fmt::Debug + Send + Sync + 'static {
    type Geometry: Geometry;
    const VARIANT: Variant;
    /// Majority rule: only captures taking the most pieces are legal.
    const MAJORITY: bool;
    /// Russian rule: a man reaching the far row during a capture is crowned at
    /// once and continues capturing as a king.
    const CROWN_IN_CAPTURE: bool;
    /// Men per side at the start.
    const MEN: u32;
    const DRAWS: DrawRules;
}

macro_rules! rules {
    ($(#[$doc:meta])* $name:ident, $geo:ty, $variant:expr, majority = $maj:expr,
     crown_in_capture = $crown:expr, men = $men:expr, draws = $draws:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Rules for $name {
            type Geometry = $geo;
            const VARIANT: Variant = $variant;
            const MAJORITY: bool = $maj;
            const CROWN_IN_CAPTURE: bool = $crown;
            const MEN: u32 = $men;
            const DRAWS: DrawRules = $draws;
        }
    };
}

rules!(
    /// International draughts (FMJD), 10x10.
    International, B10, Variant::International,
    majority = true, crown_in_capture = false, men = 20, draws = FMJD_DRAWS
);
rules!(
    /// Brazilian draughts: international rules on 8x8.
    Brazilian, B8, Variant::Brazilian,
    majority = true, crown_in_capture = false, men = 12, draws = FMJD_DRAWS
);
rules!(
    /// Russian draughts, 8x8: free choice of capture, crowning during a capture.
    Russian, B8, Variant::Russian,
    majority = false, crown_in_capture = true, men = 12, draws = RUSSIAN_DRAWS
);
rules!(
    /// Canadian draughts: international rules on 12x12.
    Canadian, B12, Variant::Canadian,
    majority = true, crown_in_capture = false, men = 30, draws = FMJD_DRAWS
);

/// Run `$body` with `$R` the rule-set type of the [`Variant`] `$variant`:
/// the one place a variant known at run time becomes its compile-time
/// [`Rules`], so that everything below is monomorphised. For example
/// `with_rules!(variant, R => perft::<R>(&Position::<R>::start(), 3))`.
#[macro_export]
macro_rules! with_rules {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::board::Variant::International => {
                type $R = $crate::board::International;
                $body
            }
            $crate::board::Variant::Brazilian => {
                type $R = $crate::board::Brazilian;
                $body
            }
            $crate::board::Variant::Russian => {
                type $R = $crate::board::Russian;
                $body
            }
            $crate::board::Variant::Canadian => {
                type $R = $crate::board::Canadian;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(Variant::from_pdn_game_type(v.pdn_game_type()), Some(v));
        }
        assert_eq!("normal".parse::<Variant>(), Ok(Variant::International));
        assert!("frisian".parse::<Variant>().is_err());
    }
}
