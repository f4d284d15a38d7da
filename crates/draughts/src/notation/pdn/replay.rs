//! Playing a PDN game's moves on the board: each token is read against the
//! legal moves of the position it is played in, so a replayed game is a
//! legal game, and the first move that is not says which one it was.

use super::PdnGame;
use crate::board::{Colour, Move, Position, Rules, Word};
use crate::notation::fen::FenError;
use crate::notation::movetext::{MoveError, PdnStyle, read_pdn_move, write_pdn_move};
use std::fmt;

/// A game played out on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay<R: Rules> {
    /// The moves, in order.
    pub moves: Vec<Move<Word<R>>>,
    /// The start position, then the position after each move
    /// (`positions.len() == moves.len() + 1`).
    pub positions: Vec<Position<R>>,
}

impl<R: Rules> Replay<R> {
    /// The position the game started from.
    pub fn start(&self) -> Option<&Position<R>> {
        self.positions.first()
    }

    /// The position after the last move.
    pub fn end(&self) -> Option<&Position<R>> {
        self.positions.last()
    }
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The `FEN` tag is not a valid position.
    Start(FenError),
    /// A move token is not a legal move where it is played.
    Move {
        /// 0-based index into `PdnGame::moves`.
        ply: usize,
        /// The PDN move number (`12` in `12... 28x19`).
        number: u32,
        side: Colour,
        token: String,
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Start(e) => write!(f, "bad start position: {e}"),
            ReplayError::Move {
                number,
                side,
                error,
                ..
            } => {
                let dots = if *side == Colour::White { "." } else { "..." };
                write!(f, "move {number}{dots} ({}): {error}", side.name())
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Play the main line of `game` under rule set `R` (choose `R` from
/// `game.variant()`), from its `FEN` tag or the start position.
pub fn replay<R: Rules>(game: &PdnGame) -> Result<Replay<R>, ReplayError> {
    let start = game.start_position::<R>().map_err(ReplayError::Start)?;
    let offset = usize::from(start.side() == Colour::Black);
    let mut positions = Vec::with_capacity(game.moves.len() + 1);
    let mut moves = Vec::with_capacity(game.moves.len());
    positions.push(start);
    let mut pos = start;
    for (ply, token) in game.moves.iter().enumerate() {
        let mv = read_pdn_move(&pos, token).map_err(|error| ReplayError::Move {
            ply,
            number: u32::try_from((ply + offset) / 2 + 1).unwrap_or(u32::MAX),
            side: pos.side(),
            token: token.clone(),
            error,
        })?;
        pos = pos.play(&mv);
        moves.push(mv);
        positions.push(pos);
    }
    Ok(Replay { moves, positions })
}

/// The PDN text of moves played in turn from `start`, in the given style.
/// The moves must be legal in turn (as those of a [`Replay`] or a game played).
pub fn record_moves<R: Rules>(
    start: &Position<R>,
    moves: &[Move<Word<R>>],
    style: PdnStyle,
) -> Vec<String> {
    let mut pos = *start;
    moves
        .iter()
        .map(|mv| {
            let text = write_pdn_move(&pos, mv, style);
            pos = pos.play(mv);
            text
        })
        .collect()
}
