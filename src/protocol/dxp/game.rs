//! One DXP game against the engine: its terms ([`GameSpec`], agreed by
//! the connection, played by `play`), translation between DXP fields and
//! the engine's Hub-form text (positions, moves, take-back move numbers),
//! and the verdict of the rules. No rules live here: legality, game end
//! and draws are the engine's ([`Engine::play`], [`Engine::outcome`]).

use super::message::{BackRequest, EndReason, MoveMessage, SQUARES, Setup};
use crate::board::Colour;
use crate::engine::{Engine, MoveReading, PositionError, PositionText};
use crate::notation::MoveError;
use std::time::Duration;
use tiao_core::GameResult;

/// The terms of one game.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec {
    /// Tiao's colour.
    pub tiao: Colour,
    /// Thinking time per player, and the moves it is for (0: the game).
    pub time: Duration,
    pub moves: u32,
    /// The stop code Tiao sends in its `E` (initiator: after the last game).
    pub stop_after: bool,
}

/// The Hub position string of the international start.
const START_HUB: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

/// A DXP start position as a Hub position string.
pub fn setup_to_hub(setup: &Setup) -> String {
    let mut s = String::with_capacity(1 + SQUARES);
    s.push(match setup.to_move {
        Colour::White => 'W',
        Colour::Black => 'B',
    });
    s.extend(setup.board.chars().map(|c| match c {
        'w' => 'w',
        'W' => 'W',
        'z' => 'b',
        'Z' => 'B',
        _ => 'e',
    }));
    s
}

/// The DXP start of a position (the engine's `hub_position`): `None` for
/// the normal start with White to move (sent with flag `A`).
pub fn setup_of(hub: &str) -> Option<Setup> {
    if hub == START_HUB {
        return None;
    }
    let mut chars = hub.chars();
    let to_move = match chars.next() {
        Some('B') => Colour::Black,
        _ => Colour::White,
    };
    let board = chars
        .map(|c| match c {
            'w' => 'w',
            'W' => 'W',
            'b' => 'z',
            'B' => 'Z',
            _ => 'e',
        })
        .collect();
    Some(Setup { to_move, board })
}

/// Put the engine at a DXP start position (a new game, no moves); on an
/// error it keeps the game it had.
pub fn set_up(engine: &mut Engine, setup: Option<&Setup>) -> Result<(), PositionError> {
    match setup {
        None => engine.set_position(PositionText::Start, &[], MoveReading::Hub),
        Some(s) => engine.set_position(PositionText::Hub(&setup_to_hub(s)), &[], MoveReading::Hub),
    }
}

/// The Hub text of a DXP move: `from-to` without captured squares (the
/// engine then finds the capture with those ends, if only one has them),
/// else `fromxto` followed by `x` and each captured square.
pub fn hub_text(m: &MoveMessage) -> String {
    if m.captured.is_empty() {
        return format!("{}-{}", m.from, m.to);
    }
    let mut s = format!("{}x{}", m.from, m.to);
    for c in &m.captured {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// The DXP fields of a move in Hub form (`32-28`, `28x19x23`).
pub fn move_message(hub: &str, seconds: u32) -> Option<MoveMessage> {
    let squares: Vec<u32> = hub
        .split(['-', 'x'])
        .map(|s| s.trim().parse::<u32>().ok())
        .collect::<Option<Vec<u32>>>()?;
    match squares.as_slice() {
        [from, to, captured @ ..] => {
            let mut captured = captured.to_vec();
            captured.sort_unstable();
            Some(MoveMessage {
                seconds,
                from: *from,
                to: *to,
                captured,
            })
        }
        _ => None,
    }
}

/// Play the peer's move on the engine; on error the game is unchanged.
pub fn play_peer_move(engine: &mut Engine, m: &MoveMessage) -> Result<String, MoveError> {
    engine.play(&hub_text(m), MoveReading::Hub)
}

/// Plies from the start to the point a take-back request names: `colour`
/// to make move `move_number`, move 1 being the first move of the game
/// (whoever makes it). `None` when that point is before the start.
pub fn back_ply(start: Colour, req: &BackRequest) -> Option<usize> {
    let index = 2 * i64::from(req.move_number) - 2 + i64::from(req.colour == Colour::Black)
        - i64::from(start == Colour::Black);
    usize::try_from(index).ok()
}

/// Moves `side` has made in the game so far.
pub fn moves_made(start: Colour, plies: usize, side: Colour) -> u32 {
    let first = usize::from(start != side);
    (plies.saturating_sub(first)).div_ceil(2) as u32
}

/// How the rules ended the game, if they did: who won, and why in the
/// engine's words (the Termination tag text).
pub fn ended_by_rules(engine: &Engine) -> Option<(GameResult, String)> {
    let result = engine.outcome()?;
    Some((result, engine.result_text().unwrap_or_default()))
}

/// The `E` reason Tiao sends on its own turn when the rules have ended the
/// game (`E10` without a move, `E20` for a draw, `E30` when the peer is
/// the one without a move).
pub fn reason_for(result: GameResult, tiao: Colour) -> EndReason {
    match result {
        GameResult::Win(c) if c == tiao => EndReason::Win,
        GameResult::Win(_) => EndReason::Lose,
        GameResult::Draw => EndReason::Draw,
    }
}

/// The result of a game the peer ended with `reason` (its point of view):
/// the board decides when the rules have ended the game; otherwise only a
/// resignation (the peer says it loses) is taken at its word.
pub fn result_of_peer_end(
    by_rules: Option<(GameResult, String)>,
    reason: EndReason,
    tiao: Colour,
) -> (Option<GameResult>, String) {
    if let Some((result, why)) = by_rules {
        return (Some(result), why);
    }
    match reason {
        EndReason::Lose => (
            Some(GameResult::Win(tiao)),
            format!("{} resigned", (!tiao).name()),
        ),
        EndReason::Draw => (
            None,
            "the peer ended the game as a draw; not a draw by the rules".into(),
        ),
        EndReason::Win => (
            None,
            "the peer ended the game claiming a win; not over by the rules".into(),
        ),
        EndReason::None => (None, "the peer ended the game without a reason".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;

    #[test]
    fn hub_and_dxp_moves() {
        let m = move_message("28x19x23x14", 3).expect("move");
        assert_eq!((m.from, m.to, m.captured.clone()), (28, 19, vec![14, 23]));
        assert_eq!(hub_text(&m), "28x19x14x23");
        assert_eq!(move_message("32-28", 0).map(|m| m.captured.len()), Some(0));
        assert_eq!(move_message("bad", 0), None);
    }

    #[test]
    fn take_back_points() {
        let req = |n, c| BackRequest {
            move_number: n,
            colour: c,
        };
        assert_eq!(back_ply(Colour::White, &req(1, Colour::White)), Some(0));
        assert_eq!(back_ply(Colour::White, &req(5, Colour::Black)), Some(9));
        assert_eq!(back_ply(Colour::Black, &req(1, Colour::Black)), Some(0));
        assert_eq!(back_ply(Colour::Black, &req(1, Colour::White)), None);
        assert_eq!(back_ply(Colour::White, &req(0, Colour::White)), None);
        assert_eq!(moves_made(Colour::White, 3, Colour::White), 2);
        assert_eq!(moves_made(Colour::White, 3, Colour::Black), 1);
        assert_eq!(moves_made(Colour::Black, 1, Colour::Black), 1);
        assert_eq!(moves_made(Colour::Black, 1, Colour::White), 0);
    }

    #[test]
    fn setups_round_trip() {
        let engine = || Engine::new(Options::default()).expect("engine");
        let mut s = engine();
        assert_eq!(setup_of(&s.hub_position()), None);
        s.set_position(PositionText::Fen("B:W28,K46:B19,K5"), &[], MoveReading::Any)
            .expect("fen");
        let setup = setup_of(&s.hub_position()).expect("setup");
        assert_eq!(setup.to_move, Colour::Black);
        let mut t = engine();
        set_up(&mut t, Some(&setup)).expect("set up");
        assert_eq!(t.fen(), s.fen());
    }
}
