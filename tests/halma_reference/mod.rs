#![allow(dead_code)]
//! Independent, deliberately simple reference move generator for Halma.
//!
//! Used by the differential test in `tests/halma.rs` to check the bitboard
//! generator in `crates/halma/`. It shares no code with the engine's crates: the board is a
//! plain 2D array indexed `[file][rank]`, steps are tried one direction at a
//! time, and jump destinations are found by a textbook breadth-first search
//! over single jumps with a queue and a visited array. Rules:
//! `docs/halma.md`.

use std::collections::VecDeque;

/// Contents of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    White,
    Black,
}

/// A move from (file, rank) to (file, rank); `jump` for a jump chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove {
    pub from: (usize, usize),
    pub to: (usize, usize),
    pub jump: bool,
}

/// A board of side `n` and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub n: usize,
    pub cells: Vec<Vec<Cell>>,
    pub white_to_move: bool,
}

const DIRECTIONS: [(i64, i64); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

impl RefBoard {
    pub fn empty(n: usize, white_to_move: bool) -> Self {
        RefBoard {
            n,
            cells: vec![vec![Cell::Empty; n]; n],
            white_to_move,
        }
    }

    /// The start: the staircase yards (`rows` rows) filled, White to move.
    pub fn start(n: usize, rows: usize) -> Self {
        let mut b = RefBoard::empty(n, true);
        for f in 0..n {
            for r in 0..n {
                if f + r < rows {
                    b.cells[f][r] = Cell::White;
                }
                if (n - 1 - f) + (n - 1 - r) < rows {
                    b.cells[f][r] = Cell::Black;
                }
            }
        }
        b
    }

    pub fn get(&self, f: i64, r: i64) -> Option<Cell> {
        if f < 0 || r < 0 || f >= self.n as i64 || r >= self.n as i64 {
            None
        } else {
            Some(self.cells[f as usize][r as usize])
        }
    }

    fn mover(&self) -> Cell {
        if self.white_to_move {
            Cell::White
        } else {
            Cell::Black
        }
    }

    /// Every legal move, sorted.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        let me = self.mover();
        for f in 0..self.n {
            for r in 0..self.n {
                if self.cells[f][r] != me {
                    continue;
                }
                // Steps.
                for (df, dr) in DIRECTIONS {
                    let (tf, tr) = (f as i64 + df, r as i64 + dr);
                    if self.get(tf, tr) == Some(Cell::Empty) {
                        out.push(RefMove {
                            from: (f, r),
                            to: (tf as usize, tr as usize),
                            jump: false,
                        });
                    }
                }
                // Jumps: the piece is lifted off its square, then BFS.
                let mut lifted = self.clone();
                lifted.cells[f][r] = Cell::Empty;
                let mut visited = vec![vec![false; self.n]; self.n];
                visited[f][r] = true;
                let mut queue = VecDeque::new();
                queue.push_back((f as i64, r as i64));
                while let Some((cf, cr)) = queue.pop_front() {
                    for (df, dr) in DIRECTIONS {
                        let over = lifted.get(cf + df, cr + dr);
                        let land = lifted.get(cf + 2 * df, cr + 2 * dr);
                        let is_piece = matches!(over, Some(Cell::White) | Some(Cell::Black));
                        if is_piece && land == Some(Cell::Empty) {
                            let (lf, lr) = ((cf + 2 * df) as usize, (cr + 2 * dr) as usize);
                            if !visited[lf][lr] {
                                visited[lf][lr] = true;
                                queue.push_back((lf as i64, lr as i64));
                                out.push(RefMove {
                                    from: (f, r),
                                    to: (lf, lr),
                                    jump: true,
                                });
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// The board after a move (which must be legal).
    pub fn play(&self, mv: &RefMove) -> RefBoard {
        let mut b = self.clone();
        let piece = b.cells[mv.from.0][mv.from.1];
        b.cells[mv.from.0][mv.from.1] = Cell::Empty;
        b.cells[mv.to.0][mv.to.1] = piece;
        b.white_to_move = !b.white_to_move;
        b
    }

    /// perft: leaves of the move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}
