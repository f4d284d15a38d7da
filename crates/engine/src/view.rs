//! What a graphical front end draws and lets a person do: the board of a
//! draughts position square by square ([`BoardView`]) and its legal moves
//! with every landing path ([`MoveView`]), so that a GUI can show the
//! destinations and let a capture be clicked through without knowing any
//! rule. Squares are named by number, as every draughts notation can
//! read them, and by the variant's own name for showing.

use crate::Engine;
use tiao_core::game::Verdict;
use tiao_draughts::board::{Colour, Geometry, Move, Position, Rules, Word};
use tiao_draughts::movegen::capture_paths;
use tiao_draughts::notation::square::number_of_bit;
use tiao_draughts::notation::{MoveFormat, dxp_fields, legal_moves_text, square_text};

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub colour: Colour,
    pub king: bool,
}

/// One playable (dark) square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareView {
    /// The square's number (1 = the top row's first dark square, as White sees the board).
    pub number: u32,
    /// Its name in the variant's notation (`32`, or `c3` for Russian and Brazilian).
    pub name: String,
    /// Row from the top (0 = Black's side) and file from the left (0 = `a`), as White sees it.
    pub row: u32,
    pub file: u32,
    pub piece: Option<PieceView>,
}

/// A draughts board: its size and every playable square, in number order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Files and rows (8, 10 or 12).
    pub size: u32,
    pub squares: Vec<SquareView>,
}

/// A legal move of the current position as a GUI plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// The move in the variant's notation (what the history shows, and
    /// what a front end sends back to play it).
    pub text: String,
    /// Origin and destination square numbers.
    pub from: u32,
    pub to: u32,
    /// The captured squares' numbers, ascending (empty for a quiet move).
    pub captured: Vec<u32>,
    /// Every way the piece can go: square numbers from the origin to the
    /// destination, each landing square in between (a quiet move has one
    /// path of two squares).
    pub paths: Vec<Vec<u32>>,
}

/// The board of `pos`.
pub(crate) fn board_of<R: Rules>(pos: &Position<R>) -> BoardView {
    let squares = (1..=R::Geometry::SQUARES)
        .map(|number| {
            let bit = R::Geometry::bit_of(number - 1);
            let (row, file) = R::Geometry::row_file(bit);
            SquareView {
                number,
                name: square_text::<R>(bit),
                row,
                file,
                piece: pos.piece_at(bit).map(|p| PieceView {
                    colour: p.colour,
                    king: p.king,
                }),
            }
        })
        .collect();
    BoardView {
        size: R::Geometry::SIZE,
        squares,
    }
}

/// The legal moves of `pos`, written in `format`, with their paths.
pub(crate) fn moves_of<R: Rules>(pos: &Position<R>, format: MoveFormat) -> Vec<MoveView> {
    legal_moves_text(pos, format)
        .into_iter()
        .map(|(mv, text)| move_of(pos, &mv, text))
        .collect()
}

pub(crate) fn move_of<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>, text: String) -> MoveView {
    let number = |bit: u32| number_of_bit::<R::Geometry>(bit);
    // DXP's fields are the numbers a GUI needs: ends and captured squares.
    let fields = dxp_fields::<R>(mv);
    let (from, to) = (fields.from, fields.to);
    let paths = if mv.is_capture() {
        capture_paths(pos, mv)
            .into_iter()
            .map(|landings| {
                std::iter::once(from)
                    .chain(landings.into_iter().map(number))
                    .collect()
            })
            .collect()
    } else {
        vec![vec![from, to]]
    };
    MoveView {
        text,
        from,
        to,
        captured: fields.captured,
        paths,
    }
}

impl Engine {
    /// The notation the game's moves are written in (the variant's PDN).
    pub fn notation(&self) -> MoveFormat {
        self.session.notation()
    }

    /// The current board, square by square (draughts only).
    pub fn board_view(&self) -> Option<BoardView> {
        self.session.board_view()
    }

    /// The legal moves in the game's notation, with their landing paths
    /// (draughts only).
    pub fn move_views(&self) -> Vec<MoveView> {
        self.session.move_views(self.session.notation())
    }

    /// The last move played, with its paths (draughts only).
    pub fn last_move_view(&self) -> Option<MoveView> {
        self.session.last_move_view()
    }

    /// The FEN of the position the game started from.
    pub fn start_fen(&self) -> String {
        self.session.start_fen()
    }

    /// The endgame databases' value of the current position for the side
    /// to move, when they are open and cover it.
    pub fn tables_verdict(&self) -> Option<Verdict> {
        self.session.tables_verdict()
    }
}
