#![allow(dead_code)]
//! Independent, deliberately simple reference move generator for draughts.
//!
//! Used by differential tests to check the fast bitboard generator in `src/`.
//! It shares no code with `src/`: the board is a plain 2D array, captures are
//! found by a straightforward recursive search, and nothing is optimised
//! beyond what keeps the tests fast enough in debug builds.
//!
//! Rules: `/work/shared/docs/rules.md`. Numbering: `protocols.md` §1.
//! Perft ground truth: `/work/shared/reference/perft.md`.

use std::fmt;

/// The draughts variants the reference generator knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefRules {
    /// 10x10, majority rule, promotion only at the end of a move.
    International,
    /// 8x8 with international rules.
    Brazilian,
    /// 8x8, free choice of capture, promotion during a capture.
    Russian,
    /// 12x12 with international rules.
    Canadian,
}

impl RefRules {
    /// Board side length.
    pub fn size(self) -> usize {
        match self {
            RefRules::International => 10,
            RefRules::Brazilian | RefRules::Russian => 8,
            RefRules::Canadian => 12,
        }
    }

    /// Whether the majority rule applies (must capture the most pieces).
    pub fn majority_rule(self) -> bool {
        !matches!(self, RefRules::Russian)
    }

    /// Whether a man reaching the far row during a capture is crowned at once
    /// (and continues capturing as a king).
    pub fn crowns_mid_capture(self) -> bool {
        matches!(self, RefRules::Russian)
    }

    /// Number of dark (playable) squares.
    pub fn squares(self) -> usize {
        let s = self.size();
        s * s / 2
    }
}

/// Contents of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    WhiteMan,
    BlackMan,
    WhiteKing,
    BlackKing,
}

impl Cell {
    pub fn is_empty(self) -> bool {
        self == Cell::Empty
    }

    pub fn is_white(self) -> bool {
        matches!(self, Cell::WhiteMan | Cell::WhiteKing)
    }

    pub fn is_black(self) -> bool {
        matches!(self, Cell::BlackMan | Cell::BlackKing)
    }

    pub fn is_king(self) -> bool {
        matches!(self, Cell::WhiteKing | Cell::BlackKing)
    }

    pub fn is_man(self) -> bool {
        matches!(self, Cell::WhiteMan | Cell::BlackMan)
    }

    /// True if the cell holds a piece of the given colour.
    pub fn is_color(self, white: bool) -> bool {
        if white {
            self.is_white()
        } else {
            self.is_black()
        }
    }

    /// The king of the same colour (kings stay kings, Empty stays Empty).
    pub fn crowned(self) -> Cell {
        match self {
            Cell::WhiteMan => Cell::WhiteKing,
            Cell::BlackMan => Cell::BlackKing,
            other => other,
        }
    }
}

/// Numeric square `n` (1-based) to (row, col); row 0 is the top row (Black's
/// back row), col 0 is file a.
pub fn square_to_rc(size: usize, n: usize) -> (usize, usize) {
    assert!(
        n >= 1 && n <= size * size / 2,
        "square {n} out of range for {size}x{size}"
    );
    let half = size / 2;
    let r = (n - 1) / half;
    let c = 2 * ((n - 1) % half) + if r.is_multiple_of(2) { 1 } else { 0 };
    (r, c)
}

/// (row, col) to numeric square; `None` for light squares or off-board.
pub fn rc_to_square(size: usize, r: usize, c: usize) -> Option<usize> {
    if r >= size || c >= size || (r + c).is_multiple_of(2) {
        return None;
    }
    Some(r * (size / 2) + c / 2 + 1)
}

/// A position: plain 2D array of cells plus the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefBoard {
    pub size: usize,
    /// `cells[row][col]`, row 0 = top (Black's back row), col 0 = file a.
    pub cells: Vec<Vec<Cell>>,
    pub white_to_move: bool,
}

impl RefBoard {
    /// An empty board.
    pub fn empty(size: usize, white_to_move: bool) -> RefBoard {
        RefBoard {
            size,
            cells: vec![vec![Cell::Empty; size]; size],
            white_to_move,
        }
    }

    /// The start position: men on the first `size/2 - 1` rows of each side.
    pub fn start(rules: RefRules) -> RefBoard {
        let size = rules.size();
        let total = rules.squares();
        let per_side = (size / 2 - 1) * (size / 2);
        let mut b = RefBoard::empty(size, true);
        for n in 1..=per_side {
            b.set(n, Cell::BlackMan);
        }
        for n in (total - per_side + 1)..=total {
            b.set(n, Cell::WhiteMan);
        }
        b
    }

    /// Contents of numeric square `n`.
    pub fn get(&self, n: usize) -> Cell {
        let (r, c) = square_to_rc(self.size, n);
        self.cells[r][c]
    }

    /// Sets numeric square `n`.
    pub fn set(&mut self, n: usize, cell: Cell) {
        let (r, c) = square_to_rc(self.size, n);
        self.cells[r][c] = cell;
    }

    /// Number of dark squares.
    pub fn squares(&self) -> usize {
        self.size * self.size / 2
    }

    /// Parses a numeric PDN FEN such as `W:W31-50:B1-20`, `W:WK31,K32:B1` or
    /// `B:W27,28:BK25`. Ranges, `K` prefixes, either section order and empty
    /// lists are accepted; a trailing `.` is tolerated.
    pub fn from_fen(rules: RefRules, fen: &str) -> Result<RefBoard, String> {
        let size = rules.size();
        let total = rules.squares();
        let s = fen.trim();
        let s = s.strip_suffix('.').unwrap_or(s);
        let mut parts = s.split(':');
        let side = parts.next().unwrap_or("").trim();
        let white_to_move = match side {
            "W" | "w" => true,
            "B" | "b" => false,
            _ => return Err(format!("bad side to move {side:?} in FEN {fen:?}")),
        };
        let mut board = RefBoard::empty(size, white_to_move);
        let mut seen_white = false;
        let mut seen_black = false;
        for part in parts {
            let part = part.trim();
            let white = match part.chars().next() {
                Some('W') | Some('w') => true,
                Some('B') | Some('b') => false,
                _ => return Err(format!("bad section {part:?} in FEN {fen:?}")),
            };
            let seen = if white {
                &mut seen_white
            } else {
                &mut seen_black
            };
            if *seen {
                return Err(format!("duplicate colour section in FEN {fen:?}"));
            }
            *seen = true;
            let list = part[1..].trim();
            if list.is_empty() {
                continue;
            }
            for item in list.split(',') {
                let item = item.trim();
                let (king, body) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let parse = |t: &str| -> Result<usize, String> {
                    let t = t.trim();
                    let t = t.strip_prefix(['K', 'k']).unwrap_or(t);
                    let n: usize = t
                        .parse()
                        .map_err(|_| format!("bad square {item:?} in FEN {fen:?}"))?;
                    if n == 0 || n > total {
                        return Err(format!("square {n} out of range in FEN {fen:?}"));
                    }
                    Ok(n)
                };
                let (lo, hi) = match body.split_once('-') {
                    Some((a, b)) => (parse(a)?, parse(b)?),
                    None => {
                        let n = parse(body)?;
                        (n, n)
                    }
                };
                if lo > hi {
                    return Err(format!("bad range {item:?} in FEN {fen:?}"));
                }
                let cell = match (white, king) {
                    (true, false) => Cell::WhiteMan,
                    (true, true) => Cell::WhiteKing,
                    (false, false) => Cell::BlackMan,
                    (false, true) => Cell::BlackKing,
                };
                for n in lo..=hi {
                    if !board.get(n).is_empty() {
                        return Err(format!("square {n} given twice in FEN {fen:?}"));
                    }
                    board.set(n, cell);
                }
            }
        }
        Ok(board)
    }
}

/// Numeric PDN FEN, e.g. `W:W31,32,K40:B1,2` (squares ascending).
pub fn to_fen(b: &RefBoard) -> String {
    let mut white = Vec::new();
    let mut black = Vec::new();
    for n in 1..=b.squares() {
        let cell = b.get(n);
        let text = if cell.is_king() {
            format!("K{n}")
        } else {
            format!("{n}")
        };
        if cell.is_white() {
            white.push(text);
        } else if cell.is_black() {
            black.push(text);
        }
    }
    format!(
        "{}:W{}:B{}",
        if b.white_to_move { "W" } else { "B" },
        white.join(","),
        black.join(",")
    )
}

impl fmt::Display for RefBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", to_fen(self))
    }
}

/// The start position of a variant (same as [`RefBoard::start`]).
pub fn start(rules: RefRules) -> RefBoard {
    RefBoard::start(rules)
}

/// One legal move. Two moves are the same when all fields are equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    /// Captured squares (numeric), sorted ascending; empty for a quiet move.
    pub captured: Vec<usize>,
    /// The moving piece ends the move as a king having started it as a man.
    pub crowned: bool,
}

impl RefMove {
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
}

/// Hub-style text: `32-28`, or `28x19x23` (from, to, captured squares).
impl fmt::Display for RefMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured.is_empty() {
            write!(f, "{}-{}", self.from, self.to)
        } else {
            write!(f, "{}x{}", self.from, self.to)?;
            for c in &self.captured {
                write!(f, "x{c}")?;
            }
            Ok(())
        }
    }
}

const DIRECTIONS: [(isize, isize); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// One diagonal step from (r, c), or `None` off the board.
fn step(size: usize, r: usize, c: usize, dr: isize, dc: isize) -> Option<(usize, usize)> {
    let nr = r as isize + dr;
    let nc = c as isize + dc;
    if nr < 0 || nc < 0 || nr >= size as isize || nc >= size as isize {
        None
    } else {
        Some((nr as usize, nc as usize))
    }
}

/// The row on which men of the given colour are crowned.
fn far_row(size: usize, white: bool) -> usize {
    if white { 0 } else { size - 1 }
}

/// One jump of a capture sequence: the piece jumped and the landing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Jump {
    over: (usize, usize),
    land: (usize, usize),
    /// Whether the piece moves as a king after this jump (a king stays one;
    /// a Russian man becomes one on reaching the far row).
    king_after: bool,
}

/// State of the recursive capture search for one piece.
struct CaptureSearch<'a> {
    rules: RefRules,
    /// The position with the moving piece lifted off its origin square (so
    /// the origin counts as empty). Captured pieces stay on this board.
    board: &'a RefBoard,
    white: bool,
    from: usize,
    started_as_king: bool,
    /// Pieces jumped so far (still on the board: Turkish strike).
    captured: Vec<(usize, usize)>,
    out: Vec<RefMove>,
}

impl CaptureSearch<'_> {
    /// An enemy piece that has not been jumped yet.
    fn is_capturable(&self, r: usize, c: usize) -> bool {
        self.board.cells[r][c].is_color(!self.white) && !self.captured.contains(&(r, c))
    }

    fn is_empty(&self, r: usize, c: usize) -> bool {
        self.board.cells[r][c].is_empty()
    }

    /// Every single jump from (r, c) given the pieces captured so far, with
    /// every landing square for a king.
    fn jumps(&self, r: usize, c: usize, king: bool) -> Vec<Jump> {
        let size = self.board.size;
        let mut out = Vec::new();
        for (dr, dc) in DIRECTIONS {
            if king {
                // Slide over empty squares up to the first occupied one.
                let mut pos = step(size, r, c, dr, dc);
                while let Some((pr, pc)) = pos {
                    if !self.is_empty(pr, pc) {
                        break;
                    }
                    pos = step(size, pr, pc, dr, dc);
                }
                // Own pieces and already jumped pieces block.
                let Some((er, ec)) = pos else { continue };
                if !self.is_capturable(er, ec) {
                    continue;
                }
                // Any empty square beyond it, up to the next piece or the edge.
                let mut land = step(size, er, ec, dr, dc);
                while let Some((lr, lc)) = land {
                    if !self.is_empty(lr, lc) {
                        break;
                    }
                    out.push(Jump {
                        over: (er, ec),
                        land: (lr, lc),
                        king_after: true,
                    });
                    land = step(size, lr, lc, dr, dc);
                }
            } else {
                // A man jumps an adjacent enemy onto the square right behind,
                // forwards or backwards.
                let Some((er, ec)) = step(size, r, c, dr, dc) else {
                    continue;
                };
                if !self.is_capturable(er, ec) {
                    continue;
                }
                let Some((lr, lc)) = step(size, er, ec, dr, dc) else {
                    continue;
                };
                if !self.is_empty(lr, lc) {
                    continue;
                }
                out.push(Jump {
                    over: (er, ec),
                    land: (lr, lc),
                    king_after: self.rules.crowns_mid_capture() && lr == far_row(size, self.white),
                });
            }
        }
        out
    }

    /// Whether the capture can go on after `jump`.
    fn continues_after(&mut self, jump: Jump) -> bool {
        self.captured.push(jump.over);
        let more = !self
            .jumps(jump.land.0, jump.land.1, jump.king_after)
            .is_empty();
        self.captured.pop();
        more
    }

    /// Searches all continuations from (r, c); `king` tells whether the piece
    /// moves as a king now. Records a move wherever the sequence ends.
    fn search(&mut self, r: usize, c: usize, king: bool) {
        let jumps = self.jumps(r, c, king);
        if jumps.is_empty() {
            if !self.captured.is_empty() {
                self.record(r, c, king);
            }
            return;
        }
        // A king that has jumped a piece must land on a square from which it
        // can capture again, if there is such a square beyond that piece
        // (the capture must go on). Under the majority rule this changes
        // nothing, as stopping early never captures the most pieces; under
        // Russian rules it is what makes the sequence "continue".
        let continues: Vec<bool> = jumps.iter().map(|&j| self.continues_after(j)).collect();
        for (i, &jump) in jumps.iter().enumerate() {
            let another_landing_continues = jumps
                .iter()
                .zip(&continues)
                .any(|(other, &more)| other.over == jump.over && more);
            if another_landing_continues && !continues[i] {
                continue;
            }
            self.captured.push(jump.over);
            self.search(jump.land.0, jump.land.1, jump.king_after);
            self.captured.pop();
        }
    }

    /// Records the move ending on (r, c).
    fn record(&mut self, r: usize, c: usize, king: bool) {
        let size = self.board.size;
        let mut captured: Vec<usize> = self
            .captured
            .iter()
            .map(|&(cr, cc)| rc_to_square(size, cr, cc).expect("dark square"))
            .collect();
        captured.sort_unstable();
        let crowned = !self.started_as_king && (king || r == far_row(size, self.white));
        self.out.push(RefMove {
            from: self.from,
            to: rc_to_square(size, r, c).expect("dark square"),
            captured,
            crowned,
        });
    }
}

/// All captures of the side to move (every piece, every maximal sequence),
/// before the majority rule and without removing duplicates.
fn all_captures(rules: RefRules, b: &RefBoard) -> Vec<RefMove> {
    let white = b.white_to_move;
    let mut work = b.clone();
    let mut out = Vec::new();
    for n in 1..=b.squares() {
        let piece = b.get(n);
        if !piece.is_color(white) {
            continue;
        }
        let (r, c) = square_to_rc(b.size, n);
        work.cells[r][c] = Cell::Empty;
        let mut search = CaptureSearch {
            rules,
            board: &work,
            white,
            from: n,
            started_as_king: piece.is_king(),
            captured: Vec::new(),
            out: Vec::new(),
        };
        search.search(r, c, piece.is_king());
        out.append(&mut search.out);
        work.cells[r][c] = piece;
    }
    out
}

/// All quiet (non-capturing) moves of the side to move.
fn quiet_moves(b: &RefBoard) -> Vec<RefMove> {
    let white = b.white_to_move;
    let size = b.size;
    let mut out = Vec::new();
    for n in 1..=b.squares() {
        let piece = b.get(n);
        if !piece.is_color(white) {
            continue;
        }
        let (r, c) = square_to_rc(size, n);
        for (dr, dc) in DIRECTIONS {
            if piece.is_king() {
                let mut pos = step(size, r, c, dr, dc);
                while let Some((pr, pc)) = pos {
                    if !b.cells[pr][pc].is_empty() {
                        break;
                    }
                    out.push(RefMove {
                        from: n,
                        to: rc_to_square(size, pr, pc).expect("dark square"),
                        captured: Vec::new(),
                        crowned: false,
                    });
                    pos = step(size, pr, pc, dr, dc);
                }
            } else {
                let forward = if white { -1 } else { 1 };
                if dr != forward {
                    continue;
                }
                if let Some((pr, pc)) = step(size, r, c, dr, dc)
                    && b.cells[pr][pc].is_empty()
                {
                    out.push(RefMove {
                        from: n,
                        to: rc_to_square(size, pr, pc).expect("dark square"),
                        captured: Vec::new(),
                        crowned: pr == far_row(size, white),
                    });
                }
            }
        }
    }
    out
}

/// All legal moves, sorted, duplicates removed.
pub fn legal_moves(rules: RefRules, b: &RefBoard) -> Vec<RefMove> {
    assert_eq!(b.size, rules.size(), "board size does not match the rules");
    let mut moves = all_captures(rules, b);
    if moves.is_empty() {
        moves = quiet_moves(b);
    } else if rules.majority_rule() {
        let best = moves.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        moves.retain(|m| m.captured.len() == best);
    }
    moves.sort();
    moves.dedup();
    moves
}

/// Plays `m` (assumed legal): moves the piece, removes the captured pieces,
/// crowns if needed and switches the side to move.
pub fn apply(b: &RefBoard, m: &RefMove) -> RefBoard {
    let mut next = b.clone();
    let piece = next.get(m.from);
    assert!(
        piece.is_color(b.white_to_move),
        "no piece of the side to move on {} in {}",
        m.from,
        to_fen(b)
    );
    next.set(m.from, Cell::Empty);
    for &sq in &m.captured {
        next.set(sq, Cell::Empty);
    }
    next.set(m.to, if m.crowned { piece.crowned() } else { piece });
    next.white_to_move = !b.white_to_move;
    next
}

/// Number of leaf nodes exactly `depth` plies from `b`.
pub fn perft(rules: RefRules, b: &RefBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(rules, b);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(rules, &apply(b, m), depth - 1))
        .sum()
}
