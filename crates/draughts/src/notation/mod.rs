//! Notation: squares, FEN, Hub position strings, move text and PDN.
//!
//! Everything here turns text into board values and back. Readers never
//! panic: any input, however broken, gives a descriptive error. Moves are
//! always read by matching against the legal moves of the position, so a
//! move that is read is a move that can be played.

pub mod fen;
pub mod hub;
pub mod movetext;
pub mod pdn;
pub mod square;
mod syntax;

pub use fen::{FenError, read_fen, write_fen, write_fen_with};
pub use hub::{HubPositionError, read_hub_position, write_hub_position};
pub use movetext::{
    DxpMove, MoveError, MoveFormat, PdnStyle, dxp_fields, legal_moves_text, read_dxp,
    read_hub_move, read_move, read_pdn_move, write_hub_move, write_move, write_pdn_move,
};
pub use pdn::{
    GameTypeError, PdnError, PdnGame, Replay, ReplayError, parse_pdn, record_moves, replay,
    write_game, write_games,
};
pub use square::{SquareError, parse_square, square_text, write_square};
