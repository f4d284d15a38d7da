//! The book as a game tree, for the builder: minimax values backed up from
//! the searched leaves, and drop-out expansion priorities.
//!
//! Drop-out expansion (Lincke, 2001) grows the book where games are likely
//! to go: a position not yet in the book costs the plies it lies from the
//! start plus, at every book position on the way, how much worse the move
//! taken is than the best there (its "drop"). The cheapest positions are
//! searched next, so the main lines grow deep while a move one man worse
//! than the best is only expanded once the book is large.
//!
//! Positions are kept by hash, so transpositions share one node and its
//! value: the tree is in fact a graph (acyclic in practice, as men only move
//! forward; the value computation still guards against cycles of kings).

use super::store::Book;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use tiao_draughts::board::{Move, Position, Rules, Word};
use tiao_draughts::movegen::{MoveList, generate};
use tiao_draughts::notation::{MoveFormat, legal_moves_text, read_fen};
use tiao_draughts::with_rules;
use tiao_search::score::DB_BOUND;

/// A book move as the tree sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge<R: Rules> {
    /// Index of the move in the entry's move list.
    pub index: usize,
    /// The position the move leads to, after any forced replies (see
    /// [`follow_forced`]).
    pub child: Position<R>,
    /// Plies from the book position to `child`: 1 plus the forced ones.
    pub plies: u32,
}

/// Longest run of forced moves followed (a guard: real runs are short).
const MAX_FORCED: u32 = 64;

/// Follow single-move positions from `pos` (a forced capture, typically),
/// up to the first position with a choice, a game end, or a position of
/// `book`. Returns that position and the plies played. A position with one
/// legal move needs no book (engines play it at once), so the builder never
/// spends a search or a book line on it.
pub(crate) fn follow_forced<R: Rules>(pos: Position<R>, book: &Book) -> (Position<R>, u32) {
    let mut pos = pos;
    let mut plies = 0;
    let mut list = MoveList::<R>::new();
    while plies < MAX_FORCED && !book.contains(pos.hash()) {
        list.clear();
        generate(&pos, &mut list);
        match list.as_slice() {
            [only] => {
                pos = pos.play(only);
                plies += 1;
            }
            _ => break,
        }
    }
    (pos, plies)
}

/// A book position with its moves resolved on the board.
#[derive(Clone, Debug)]
pub(crate) struct Node<R: Rules> {
    pub edges: Vec<Edge<R>>,
}

/// Expansion settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Priorities {
    /// Cost of one ply, in centi-men of drop.
    pub ply_cost: i64,
    /// A move more than this much worse than the best is never expanded.
    pub max_drop: i64,
    /// Positions deeper than this (plies from the start) are not expanded.
    pub max_ply: u32,
}

/// A position outside the book that the builder may search next.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<R: Rules> {
    pub cost: i64,
    pub ply: u32,
    pub position: Position<R>,
}

/// The book's positions resolved on the board, by hash.
pub(crate) struct Tree<R: Rules> {
    nodes: HashMap<u64, Node<R>>,
}

impl<R: Rules> Tree<R> {
    /// Resolve every entry of the book (its FEN and moves were checked when
    /// the book was loaded or built, so nothing here can fail for a valid book;
    /// an entry that somehow does not resolve is left out).
    pub fn new(book: &Book) -> Self {
        let mut tree = Tree {
            nodes: HashMap::with_capacity(book.len()),
        };
        for e in book.entries() {
            tree.update(book, e.hash);
        }
        tree
    }

    /// (Re)resolve the entry with this hash, after it was added or changed.
    pub fn update(&mut self, book: &Book, hash: u64) {
        let Some(entry) = book.entry(hash) else {
            return;
        };
        let Ok(pos) = read_fen::<R>(&entry.fen) else {
            return;
        };
        let legal = legal_moves_text(&pos, MoveFormat::Hub);
        let edges = entry
            .moves
            .iter()
            .enumerate()
            .filter_map(|(index, m)| {
                let (mv, _) = legal.iter().find(|(_, t)| *t == m.mv)?;
                let (child, forced) = follow_forced(pos.play(mv), book);
                Some(Edge {
                    index,
                    child,
                    plies: 1 + forced,
                })
            })
            .collect();
        self.nodes.insert(hash, Node { edges });
    }

    /// Minimax value of every book position, side to move's view: the best
    /// over its moves of the child's value (negated) when the child is in
    /// the book, else the move's own score. `None` when no move has a value.
    pub fn values(&self, book: &Book) -> HashMap<u64, Option<i32>> {
        let mut memo: HashMap<u64, Option<i32>> = HashMap::with_capacity(self.nodes.len());
        let mut on_path: Vec<u64> = Vec::new();
        for &hash in self.nodes.keys() {
            self.value(book, hash, &mut memo, &mut on_path);
        }
        memo
    }

    fn value(
        &self,
        book: &Book,
        hash: u64,
        memo: &mut HashMap<u64, Option<i32>>,
        on_path: &mut Vec<u64>,
    ) -> Option<i32> {
        if let Some(v) = memo.get(&hash) {
            return *v;
        }
        let (node, entry) = (self.nodes.get(&hash)?, book.entry(hash)?);
        on_path.push(hash);
        let mut best: Option<i32> = None;
        for e in &node.edges {
            let own = entry.moves.get(e.index).and_then(|m| m.score);
            let child = e.child.hash();
            // A child on the current path is a cycle: use the move's own score.
            let deeper = if self.nodes.contains_key(&child) && !on_path.contains(&child) {
                self.value(book, child, memo, on_path)
                    .map(|v| back_up(v, e.plies))
            } else {
                None
            };
            if let Some(v) = deeper.or(own) {
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        on_path.pop();
        memo.insert(hash, best);
        best
    }

    /// The value of each move of an entry: the child's backed-up value when
    /// the child is in the book, else the move's own score.
    pub fn move_values(
        &self,
        book: &Book,
        hash: u64,
        values: &HashMap<u64, Option<i32>>,
    ) -> Vec<Option<i32>> {
        let (Some(node), Some(entry)) = (self.nodes.get(&hash), book.entry(hash)) else {
            return Vec::new();
        };
        let mut out: Vec<Option<i32>> = entry.moves.iter().map(|m| m.score).collect();
        for e in &node.edges {
            let child = e.child.hash();
            if let Some(Some(v)) = values.get(&child) {
                // A cycle back to this very entry keeps the move's own score.
                if child != hash
                    && let Some(slot) = out.get_mut(e.index)
                {
                    *slot = Some(back_up(*v, e.plies));
                }
            }
        }
        out
    }

    /// Positions outside the book reachable through book moves, cheapest
    /// first (Dijkstra from the start position; ties by hash, so the order is
    /// the same on every run). Game ends, decided positions and positions
    /// past the limits are left out.
    pub fn candidates(
        &self,
        book: &Book,
        values: &HashMap<u64, Option<i32>>,
        p: &Priorities,
    ) -> Vec<Candidate<R>> {
        let start = Position::<R>::start();
        let mut best_cost: HashMap<u64, i64> = HashMap::new();
        let mut leaves: HashMap<u64, Candidate<R>> = HashMap::new();
        let mut heap = BinaryHeap::new();
        if !self.nodes.contains_key(&start.hash()) {
            // An empty book: the start position is the only candidate.
            return if has_moves(&start) {
                vec![Candidate {
                    cost: 0,
                    ply: 0,
                    position: start,
                }]
            } else {
                Vec::new()
            };
        }
        best_cost.insert(start.hash(), 0);
        heap.push(Reverse((0i64, 0u32, start.hash())));
        while let Some(Reverse((cost, ply, hash))) = heap.pop() {
            if best_cost.get(&hash).is_some_and(|&c| c < cost) {
                continue;
            }
            let (Some(node), Some(Some(value))) = (self.nodes.get(&hash), values.get(&hash)) else {
                continue;
            };
            let move_values = self.move_values(book, hash, values);
            for e in &node.edges {
                let Some(Some(v)) = move_values.get(e.index) else {
                    continue;
                };
                let drop = i64::from(*value) - i64::from(*v);
                if drop > p.max_drop {
                    continue;
                }
                let child_cost = cost + p.ply_cost + drop.max(0);
                let child_ply = ply + e.plies;
                let child = e.child.hash();
                if self.nodes.contains_key(&child) {
                    if best_cost.get(&child).is_none_or(|&c| child_cost < c) {
                        best_cost.insert(child, child_cost);
                        heap.push(Reverse((child_cost, child_ply, child)));
                    }
                } else if child_ply <= p.max_ply
                    && i64::from(v.abs()) < i64::from(DB_BOUND)
                    && leaves.get(&child).is_none_or(|c| child_cost < c.cost)
                    && has_moves(&e.child)
                {
                    leaves.insert(
                        child,
                        Candidate {
                            cost: child_cost,
                            ply: child_ply,
                            position: e.child,
                        },
                    );
                }
            }
        }
        let mut out: Vec<Candidate<R>> = leaves.into_values().collect();
        out.sort_by_key(|c| (c.cost, c.position.hash()));
        out
    }
}

/// A value seen `plies` plies up the tree: negated once per ply, and a win
/// or loss that much further away.
fn back_up(v: i32, plies: u32) -> i32 {
    let mut v = v;
    for _ in 0..plies {
        v = if v > DB_BOUND {
            -(v - 1)
        } else if v < -DB_BOUND {
            -(v + 1)
        } else {
            -v
        };
    }
    v
}

fn has_moves<R: Rules>(pos: &Position<R>) -> bool {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    !list.is_empty()
}

/// The legal moves of a position (for the builder).
pub(crate) fn legal_moves<R: Rules>(pos: &Position<R>) -> Vec<Move<Word<R>>> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list.to_vec()
}
impl Book {
    /// Plies from the start position to each position reachable from it
    /// through book moves (shortest way); unreachable positions are absent.
    pub fn distances(&self) -> HashMap<u64, u32> {
        with_rules!(self.variant(), R => distances::<R>(self))
    }
}

/// Plies from the start position to each book position reachable from it
/// through book moves and forced replies (breadth first over book moves: a
/// shortest way counts, with forced plies it is close enough for ordering).
fn distances<R: Rules>(book: &Book) -> HashMap<u64, u32> {
    let mut depth = HashMap::new();
    let start = Position::<R>::start();
    if !book.contains(start.hash()) {
        return depth;
    }
    depth.insert(start.hash(), 0);
    let mut queue = VecDeque::from([start]);
    while let Some(pos) = queue.pop_front() {
        let d = depth.get(&pos.hash()).copied().unwrap_or(0);
        let Some(entry) = book.entry(pos.hash()) else {
            continue;
        };
        for (mv, text) in legal_moves_text(&pos, MoveFormat::Hub) {
            if !entry.moves.iter().any(|m| m.mv == text) {
                continue;
            }
            let (child, forced) = follow_forced(pos.play(&mv), book);
            if book.contains(child.hash()) && !depth.contains_key(&child.hash()) {
                depth.insert(child.hash(), d + 1 + forced);
                queue.push_back(child);
            }
        }
    }
    depth
}
