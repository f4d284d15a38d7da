//! One search thread: iterative deepening over principal-variation
//! alpha-beta, the quiescence search, move ordering (transposition-table
//! move, killers, history), late-move reductions, ProbCut-style pruning and
//! draw detection along the search path.
//!
//! Lazy SMP runs several of these on the same root; they share only the
//! transposition table, the stop flag, the node counter and, with helpers,
//! the marks of the positions being searched (`busy`) ([`Shared`], set up
//! by `thread`).

use super::busy::{self, Busy};
use super::score::{
    DB_BOUND, DRAW, EVAL_LIMIT, INFINITE, Score, WIN_BOUND, db_score, from_tt, loss_in, to_tt,
    verdict_score, win_in,
};
use super::tt::{Bound, TranspositionTable};
use super::{Clock, Control, Info, MAX_DEPTH, MAX_PLY, Mode, Params, Root, Tablebase};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tiao_core::game::{Evaluate, Game, MoveBuffer};

/// State shared by the workers of one search (made by `thread`).
pub(super) struct Shared {
    pub tt: Arc<TranspositionTable>,
    /// The children being searched (with helper threads only).
    pub busy: Option<Arc<Busy>>,
    pub control: Arc<Control>,
    pub nodes: AtomicU64,
    pub tt_probes: AtomicU64,
    pub tt_hits: AtomicU64,
    pub clock: Clock,
    pub params: Params,
}

/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 1024;
/// History table size (indexed by the low bits of the move key: origin and destination).
const HISTORY_SIZE: usize = 1 << 14;
const HISTORY_MAX: i32 = 1 << 14;
/// ProbCut: a reduced search that beats beta by this much predicts a cutoff.
const PROBCUT_MARGIN: Score = 60;
const PROBCUT_REDUCTION: i32 = 4;
const PROBCUT_MIN_DEPTH: i32 = 5;
/// Quiescence: a threat at the horizon is looked into only while the
/// position is within this much of alpha (a line that far below it fails
/// low whatever the threat does).
const THREAT_MARGIN: Score = 200;
/// Quiescence: the horizon moves (promotions, exchanges) are looked at
/// only while the standing score is within this much of alpha.
const HORIZON_MARGIN: Score = 100;
/// Reverse futility pruning margin per ply of depth.
const FUTILITY_MARGIN: Score = 90;
const FUTILITY_MAX_DEPTH: i32 = 3;
/// Internal iterative reduction: a non-PV node this deep with no move in
/// the table is searched a ply shallower.
const IIR_MIN_DEPTH: i32 = 4;

/// What a node is expected to be (Knuth and Moore's node types), from
/// where it lies in the tree: a PV node, searched with an open window; a
/// cut node, where one move is expected to refute the move before it; an
/// all node, where every move is expected to fail low.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The kind of a child searched with a null window at full depth: a
    /// cut node's refutation leads to an all node, the rest to cut nodes.
    fn child(self) -> Node {
        if self == Node::Cut {
            Node::All
        } else {
            Node::Cut
        }
    }
}

/// A root move with what the last iterations learned of it.
#[derive(Clone, Debug)]
pub(super) struct RootMove<M> {
    pub mv: M,
    pub score: Score,
    pub pv: Vec<M>,
}

/// The deepest line a worker has settled: a completed iteration, or one
/// cut short after a line was settled (the first move's score inside the
/// window, or a later move proven better).
#[derive(Clone, Debug)]
pub(super) struct Completed<M> {
    pub depth: u32,
    pub score: Score,
    pub pv: Vec<M>,
    /// Every root move was searched at `depth`.
    pub full: bool,
}

pub(super) struct Worker<'a, G: Game, E: Evaluate<G>> {
    pub id: usize,
    sh: &'a Shared,
    eval: &'a E,
    root: &'a Root<G>,
    tablebase: Option<&'a dyn Tablebase<G>>,
    /// Nodes searched by this worker.
    pub nodes: u64,
    unflushed: u64,
    /// Transposition-table probes and hits (for the statistics).
    tt_probes: u64,
    tt_hits: u64,
    /// Hashes of the game history and of the search path above the current node.
    path: Vec<u64>,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    /// Triangular principal-variation table.
    pv: Vec<Vec<G::Move>>,
    pub root_moves: Vec<RootMove<G::Move>>,
    sel_depth: usize,
    leaf_plies: u64,
    leaves: u64,
    pub aborted: bool,
    pub completed: Option<Completed<G::Move>>,
    /// Depth of the last iteration reported (main thread), 0 before any.
    pub reported: u32,
}

/// Ordering keys of a move list, parallel to it.
type ScoreList = arrayvec::ArrayVec<i32, 1024>;

/// Bring the best-scored of `moves[i..]` to position `i` (first of equals wins).
#[inline]
fn pick_next<M>(moves: &mut [M], scores: &mut ScoreList, i: usize) {
    if i >= scores.len() {
        return;
    }
    // One maximum over (score, reversed index) keys, so the loop needs no
    // branch on the scores' order, which is hard to predict (the range is
    // never empty: i < len).
    let key = |j: usize| (i64::from(scores[j]) << 32) | i64::from(u32::MAX - j as u32);
    let top = (i..scores.len()).map(key).max().unwrap_or(i64::MIN);
    let best = (u32::MAX - top as u32) as usize;
    if best != i {
        moves.swap(i, best);
        scores.swap(i, best);
    }
}

/// Late-move reduction of games without [`Game::EARLY_REDUCTIONS`]: grows
/// with depth and move number.
fn log_reduction(depth: i32, index: usize) -> i32 {
    let r = (f64::from(depth).ln() * (index as f64).ln() / 2.2) as i32;
    r.max(0)
}

impl<'a, G: Game, E: Evaluate<G>> Worker<'a, G, E> {
    pub fn new(
        id: usize,
        sh: &'a Shared,
        eval: &'a E,
        root: &'a Root<G>,
        tablebase: Option<&'a dyn Tablebase<G>>,
        moves: &[G::Move],
    ) -> Self {
        let root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        Worker {
            id,
            sh,
            eval,
            root,
            tablebase,
            nodes: 0,
            unflushed: 0,
            tt_probes: 0,
            tt_hits: 0,
            path: Vec::with_capacity(root.history.len() + MAX_PLY + 2),
            killers: vec![[0; 2]; MAX_PLY + 2],
            history: vec![0; 2 * HISTORY_SIZE],
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY + 1))
                .collect(),
            root_moves,
            sel_depth: 0,
            leaf_plies: 0,
            leaves: 0,
            aborted: false,
            completed: None,
            reported: 0,
        }
    }

    /// Iterative deepening. Worker 0 reports each line settled and each
    /// completed iteration, and decides when to stop; helpers search until
    /// stopped.
    pub fn run(&mut self, report: &(dyn Fn(&Info<G::Move>) + Sync)) {
        let limits = &self.sh.params.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = self.lines();
        // Helpers start one ply deeper every other thread, so threads spread over depths.
        let first = 1 + (self.id as u32 % 2);
        let mut prev_score: Score = 0;
        for depth in first..=max_depth {
            self.path.clear();
            self.path.extend_from_slice(&self.root.history);
            for pv_index in 0..multipv {
                self.sel_depth = 0;
                self.leaf_plies = 0;
                self.leaves = 0;
                let score = if multipv == 1 && depth >= 5 && prev_score.abs() < DB_BOUND {
                    self.aspiration(depth as i32, prev_score, report)
                } else {
                    self.root_search(depth as i32, -INFINITE, INFINITE, pv_index, report)
                };
                if self.aborted {
                    break;
                }
                // Stable: moves that failed low keep their order from the last iteration.
                self.root_moves[pv_index..].sort_by_key(|m| std::cmp::Reverse(m.score));
                if pv_index == 0 {
                    prev_score = score;
                    self.completed = Some(Completed {
                        depth,
                        score,
                        pv: self.root_moves[0].pv.clone(),
                        full: true,
                    });
                }
                if self.id == 0 {
                    self.report_line(depth, pv_index, pv_index, report);
                    self.reported = depth;
                }
            }
            if self.aborted || self.sh.control.is_stopped() {
                break;
            }
            if self.id == 0 && self.should_stop_after_iteration(depth, prev_score) {
                break;
            }
            // A helper one ply ahead that completes the requested depth ends a
            // fixed-depth search for everyone: its result is as deep as the
            // main thread's would be, and sooner (the deepest completed
            // iteration is played). Ponder and analysis keep their own ends.
            if self.id != 0
                && self.sh.params.mode == Mode::Think
                && limits.depth.is_some_and(|d| depth >= d)
            {
                self.sh.control.stop();
                break;
            }
        }
        self.flush();
        if self.id == 0 {
            // Analysis and pondering never answer before they are told to.
            while self.sh.params.mode != Mode::Think
                && !self.sh.control.is_stopped()
                && (self.sh.params.limits.is_unbounded() || self.sh.control.is_pondering())
            {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            self.sh.control.stop();
        }
    }

    /// The lines this worker searches: the main thread those asked for, as
    /// many as there are root moves at most; a helper one.
    fn lines(&self) -> usize {
        if self.id == 0 {
            self.sh
                .params
                .multipv
                .clamp(1, self.root_moves.len().max(1))
        } else {
            1
        }
    }

    /// Report root move `index` as line `pv_index` of a multi-PV search.
    fn report_line(
        &self,
        depth: u32,
        index: usize,
        pv_index: usize,
        report: &(dyn Fn(&Info<G::Move>) + Sync),
    ) {
        let rm = &self.root_moves[index];
        let mean_depth = if self.leaves > 0 {
            self.leaf_plies as f64 / self.leaves as f64
        } else {
            f64::from(depth)
        };
        report(&Info {
            depth,
            mean_depth,
            sel_depth: self.sel_depth as u32,
            score: rm.score,
            nodes: self.sh.nodes.load(Ordering::Relaxed) + self.unflushed,
            time: self.sh.clock.elapsed(),
            pv: rm.pv.clone(),
            multipv: pv_index + 1,
        });
    }

    /// Limits checked between iterations (worker 0 only).
    fn should_stop_after_iteration(&self, depth: u32, score: Score) -> bool {
        let sh = self.sh;
        let limits = &sh.params.limits;
        if limits.depth.is_some_and(|d| depth >= d) {
            return true;
        }
        if sh.params.mode == Mode::Think && self.root_moves.len() == 1 && !limits.is_unbounded() {
            return true;
        }
        // A forced win or loss found within the depth searched will not change.
        if sh.params.mode == Mode::Think
            && score.abs() > WIN_BOUND
            && super::score::plies_to_end(score).is_some_and(|p| p < depth)
        {
            return true;
        }
        if let (Some(soft), Some(t)) = (sh.clock.deadlines.soft, sh.clock.counted(&sh.control)) {
            // The next iteration takes a few times longer than this one: don't start it late.
            if t >= soft.mul_f64(0.6) {
                return true;
            }
        }
        false
    }

    fn aspiration(
        &mut self,
        depth: i32,
        prev: Score,
        report: &(dyn Fn(&Info<G::Move>) + Sync),
    ) -> Score {
        let mut delta = 25;
        let mut alpha = (prev - delta).max(-INFINITE);
        let mut beta = (prev + delta).min(INFINITE);
        loop {
            let score = self.root_search(depth, alpha, beta, 0, report);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 400 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Search the root moves from `pv_index` on (earlier ones are the lines
    /// already reported).
    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        pv_index: usize,
        report: &(dyn Fn(&Info<G::Move>) + Sync),
    ) -> Score {
        let pos = self.root.position;
        let counters = self.root.counters;
        let state = self.eval.state(&pos);
        // Settled lines are reported as they come when one line is searched
        // (a multi-PV search reports its lines per iteration).
        let report_settled = self.id == 0 && self.lines() == 1;
        let mut best = -INFINITE;
        self.path.push(pos.hash());
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = pos.play(&mv);
            self.visit();
            let cc = pos.next_counters(&counters, &mv, &child);
            let cs = self.eval.state_after(&state, &pos, &child);
            let score = if i == pv_index {
                -self.search(&child, &cs, &cc, -beta, -alpha, depth - 1, 1, Node::Pv)
            } else {
                let s = -self.search(
                    &child,
                    &cs,
                    &cc,
                    -alpha - 1,
                    -alpha,
                    depth - 1,
                    1,
                    Node::Cut,
                );
                if s > alpha && s < beta && !self.aborted {
                    -self.search(&child, &cs, &cc, -beta, -alpha, depth - 1, 1, Node::Pv)
                } else {
                    s
                }
            };
            if self.aborted {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            // A line is settled before the iteration ends when the first
            // move (the last iteration's choice) scores inside the window,
            // or a later move is proven better: if the iteration is cut
            // short, that line is the one to play, a ply deeper than the
            // last iteration's. It is reported at once, as Scan reports a
            // depth as soon as its first move is searched, so that the
            // depths the two engines report mean the same. (After a window
            // failed high on a later move, the first move searched again
            // settles nothing: that move is known to be better.)
            let first_at_depth = self
                .completed
                .as_ref()
                .is_none_or(|c| c.depth < depth as u32);
            let settled = i > 0 || (score < beta && first_at_depth);
            if pv_index == 0 && score > alpha && settled {
                self.completed = Some(Completed {
                    depth: depth as u32,
                    score,
                    pv: self.root_moves[i].pv.clone(),
                    full: false,
                });
                if report_settled {
                    self.report_line(depth as u32, i, 0, report);
                    self.reported = depth as u32;
                }
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.path.pop();
        best
    }

    /// Count a move made (nodes are moves made, as Scan counts them: a
    /// position searched again, by a re-search or a ProbCut probe, is not
    /// counted again), and look at the stop conditions now and then.
    #[inline]
    fn visit(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= POLL_INTERVAL {
            self.poll();
        }
    }

    fn flush(&mut self) {
        self.sh.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        self.sh
            .tt_probes
            .fetch_add(std::mem::take(&mut self.tt_probes), Ordering::Relaxed);
        self.sh
            .tt_hits
            .fetch_add(std::mem::take(&mut self.tt_hits), Ordering::Relaxed);
    }

    /// Publish the node count and look at the stop conditions.
    fn poll(&mut self) {
        self.flush();
        let sh = self.sh;
        if sh.control.is_stopped() {
            self.aborted = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if sh
            .params
            .limits
            .nodes
            .is_some_and(|n| sh.nodes.load(Ordering::Relaxed) >= n)
        {
            sh.control.stop();
            self.aborted = true;
            return;
        }
        if let (Some(hard), Some(t)) = (sh.clock.deadlines.hard, sh.clock.counted(&sh.control))
            && t >= hard
        {
            sh.control.stop();
            self.aborted = true;
        }
    }

    #[inline]
    fn evaluate(&self, pos: &G, state: &E::State) -> Score {
        self.eval
            .evaluate_with(state, pos)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Whether the position (with hash `key`) occurred earlier within reach
    /// of a repetition: on the search path or in the game.
    #[inline]
    fn repeated(&self, key: u64, counters: &G::Counters) -> bool {
        let reach = G::reversible_plies(counters) as usize;
        let n = self.path.len();
        let mut back = 2;
        while back <= reach && back <= n {
            if self.path[n - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    fn history_index(&self, pos: &G, key: u32) -> usize {
        pos.side() as usize * HISTORY_SIZE + (key as usize & (HISTORY_SIZE - 1))
    }

    fn update_history(&mut self, index: usize, bonus: i32) {
        let h = &mut self.history[index];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Ordering keys of the moves: the table move, then tactical moves,
    /// killers and history. The moves are then picked best-first
    /// (`pick_next`), so a cutoff early in the list saves the sorting of the rest.
    /// Returns where the table move is, if it is in the list: it is the
    /// first pick, found without a pass over the keys.
    fn score_moves(
        &self,
        pos: &G,
        moves: &[G::Move],
        tt_move: u32,
        ply: usize,
        scores: &mut ScoreList,
    ) -> Option<usize> {
        let killers = self.killers[ply];
        scores.clear();
        let mut tt_index = None;
        for mv in moves {
            let key = G::move_key(mv);
            let is_tt_move = key == tt_move && tt_move != 0;
            let score = if is_tt_move {
                i32::MAX
            } else if pos.is_tactical(mv) {
                1 << 28
            } else if key == killers[0] {
                1 << 27
            } else if key == killers[1] {
                (1 << 27) - 1
            } else {
                self.history[self.history_index(pos, key)]
            };
            // Lists longer than the score list are searched unordered at the end.
            if scores.try_push(score).is_err() {
                break;
            }
            // No other kind of move scores this high, so the first move
            // with the table move's key (keys may collide) is the first pick.
            if is_tt_move && tt_index.is_none() {
                tt_index = Some(scores.len() - 1);
            }
        }
        tt_index
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &G,
        state: &E::State,
        counters: &G::Counters,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> Score {
        let pv_node = node == Node::Pv;
        self.pv[ply].clear();
        if depth <= 0 {
            return self.qsearch(pos, state, counters, alpha, beta, ply, true);
        }
        if self.aborted {
            return DRAW;
        }
        let key = pos.hash();
        if let Some(v) = pos.rule_verdict(counters) {
            return verdict_score(v, ply);
        }
        if G::REPETITION_DRAWS && self.repeated(key, counters) {
            return DRAW;
        }
        // No line through here can beat a win found nearer the root.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if let Some(v) = self.tablebase.and_then(|tb| tb.probe(pos, counters)) {
            return db_score(v, ply);
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, state);
        }

        let mut tt_move = 0;
        self.tt_probes += 1;
        if let Some(hit) = self.sh.tt.probe(key) {
            self.tt_hits += 1;
            tt_move = hit.mv;
            if !pv_node && hit.depth >= depth {
                let s = from_tt(hit.score, ply);
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        if list.is_empty() {
            return verdict_score(pos.no_move_verdict(), ply);
        }
        let mut depth = depth;
        // A forced move costs nothing to look through.
        if list.len() == 1 && ply < MAX_PLY / 2 {
            depth += 1;
        } else if G::ITERATIVE_REDUCTION
            && list.len() > 1
            && !pv_node
            && tt_move == 0
            && depth >= IIR_MIN_DEPTH
        {
            // Without a table move the ordering is a guess and most of the
            // effort could be wasted; a shallower search leaves a move in
            // the table for when the node is met again, deeper.
            depth -= 1;
        }

        let quiet = pos.is_quiet();
        if !pv_node && quiet && beta.abs() < DB_BOUND && alpha.abs() < DB_BOUND {
            let static_eval = self.evaluate(pos, state);
            if depth <= FUTILITY_MAX_DEPTH && static_eval - FUTILITY_MARGIN * depth >= beta {
                return static_eval;
            }
            if depth >= PROBCUT_MIN_DEPTH && static_eval >= beta {
                let rbeta = beta + PROBCUT_MARGIN;
                let s = self.search(
                    pos,
                    state,
                    counters,
                    rbeta - 1,
                    rbeta,
                    depth - PROBCUT_REDUCTION,
                    ply,
                    Node::Cut,
                );
                if self.aborted {
                    return DRAW;
                }
                if s >= rbeta {
                    return s;
                }
            }
        }

        let mut scores = ScoreList::new();
        let tt_index = self.score_moves(pos, list.as_slice(), tt_move, ply, &mut scores);
        self.path.push(key);
        let alpha_orig = alpha;
        let mut best = -INFINITE;
        let mut best_key = 0;
        let mut quiets_tried: arrayvec::ArrayVec<usize, 64> = arrayvec::ArrayVec::new();
        // With helpers: a later move whose position another thread is
        // searching waits until the others are done (`busy`).
        let marks = self.sh.busy.as_deref().filter(|_| depth >= busy::MIN_DEPTH);
        let mut deferred: arrayvec::ArrayVec<(usize, G::Move), 32> = arrayvec::ArrayVec::new();
        let mut next_deferred = 0;
        let n = list.len();
        let mut next = 0;
        loop {
            let (i, mv, child) = if next < n {
                let i = next;
                next += 1;
                match tt_index {
                    // The table move holds the highest key, first of equals:
                    // it is what `pick_next` would bring to the front.
                    Some(t) if i == 0 => {
                        list.as_mut_slice().swap(0, t);
                        scores.swap(0, t);
                    }
                    _ => pick_next(list.as_mut_slice(), &mut scores, i),
                }
                let mv = list.as_slice()[i];
                let child = pos.play(&mv);
                if depth >= 2 {
                    // Each child probes the table first thing, a memory miss
                    // most of the time. The first move usually cuts off: fetch
                    // its bucket as it is played. Past it the node will likely
                    // search every move: fetch the next sibling's bucket while
                    // this child's subtree is searched (the keys fix the order,
                    // so picking it early changes nothing).
                    if i <= 1 {
                        self.sh.tt.prefetch(child.hash());
                    }
                    if i >= 1 && i + 1 < n {
                        pick_next(list.as_mut_slice(), &mut scores, i + 1);
                        let sibling = pos.play(&list.as_slice()[i + 1]);
                        self.sh.tt.prefetch(sibling.hash());
                    }
                }
                if i > 0
                    && marks.is_some_and(|b| b.contains(child.hash()))
                    && deferred.try_push((i, mv)).is_ok()
                {
                    continue;
                }
                (i, mv, child)
            } else if let Some(&(i, mv)) = deferred.get(next_deferred) {
                next_deferred += 1;
                (i, mv, pos.play(&mv))
            } else {
                break;
            };
            let tactical = pos.is_tactical(&mv);
            let mv_key = G::move_key(&mv);
            if let Some(b) = marks {
                b.enter(child.hash());
            }
            let score = self.search_move(
                pos, state, counters, &mv, mv_key, &child, i, tactical, alpha, beta, depth, ply,
                node,
            );
            if let Some(b) = marks {
                b.leave(child.hash());
            }
            if self.aborted {
                self.path.pop();
                return DRAW;
            }
            if score > best {
                best = score;
                best_key = mv_key;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        line.extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        if !tactical {
                            self.reward_quiet(pos, mv_key, ply, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !tactical {
                let _ = quiets_tried.try_push(self.history_index(pos, mv_key));
            }
        }
        self.path.pop();

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The best of moves that all failed low is noise: the table keeps
        // the move it had (`store` with no move).
        let mv = if bound == Bound::Upper { 0 } else { best_key };
        self.sh.tt.store(key, mv, to_tt(best, ply), depth, bound);
        best
    }

    /// Search move `i` of a node (in the order searched, deferred moves
    /// keeping their place): the first with the node's window, a later one
    /// with a null window, some plies less when it is late and quiet (more
    /// the later it comes, the worse its history or at an expected cut
    /// node, one less for a killer), and again at full depth, then with the
    /// full window, while it beats alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        pos: &G,
        state: &E::State,
        counters: &G::Counters,
        mv: &G::Move,
        mv_key: u32,
        child: &G,
        i: usize,
        tactical: bool,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        node: Node,
    ) -> Score {
        let pv_node = node == Node::Pv;
        self.visit();
        let cc = pos.next_counters(counters, mv, child);
        let cs = self.eval.state_after(state, pos, child);
        if i == 0 {
            let kind = if pv_node { Node::Pv } else { node.child() };
            return -self.search(child, &cs, &cc, -beta, -alpha, depth - 1, ply + 1, kind);
        }
        let mut r = 0;
        if G::EARLY_REDUCTIONS {
            // As Scan: a quiet move after the first (the fourth at
            // a PV node) one ply less, two from the seventh at a
            // non-PV node.
            if depth >= 3 && !tactical && i >= if pv_node { 3 } else { 1 } {
                r = if !pv_node && i >= 6 { 2 } else { 1 };
            }
        } else if depth >= 3 && !tactical && i >= 2 {
            r = log_reduction(depth, i);
            if pv_node {
                r -= 1;
            }
        }
        // A killer one ply less; at a non-PV node, a move that has failed
        // more often than it cut off (negative history) one ply more; in
        // draughts, at an expected cut node one ply more again: the
        // refutation is expected among the first moves, and a late quiet
        // move rarely is one.
        let late = r > 0;
        if late && self.killers[ply].contains(&mv_key) {
            r -= 1;
        }
        if late && !pv_node && self.history[self.history_index(pos, mv_key)] < 0 {
            r += 1;
        }
        if late && G::EARLY_REDUCTIONS && node == Node::Cut {
            r += 1;
        }
        r = r.clamp(0, (depth - 2).max(0));
        let mut score = -self.search(
            child,
            &cs,
            &cc,
            -alpha - 1,
            -alpha,
            depth - 1 - r,
            ply + 1,
            // The child of a reduced move is expected to refute it: a cut node.
            if r > 0 { Node::Cut } else { node.child() },
        );
        if score > alpha && r > 0 && !self.aborted {
            score = -self.search(
                child,
                &cs,
                &cc,
                -alpha - 1,
                -alpha,
                depth - 1,
                ply + 1,
                node.child(),
            );
        }
        if pv_node && score > alpha && score < beta && !self.aborted {
            score = -self.search(child, &cs, &cc, -beta, -alpha, depth - 1, ply + 1, Node::Pv);
        }
        score
    }

    /// A quiet move caused a cutoff: remember it as a killer and credit its
    /// history, debiting the quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &G, key: u32, ply: usize, depth: i32, tried: &[usize]) {
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
        let bonus = (depth * depth).min(400) * 8;
        let index = self.history_index(pos, key);
        self.update_history(index, bonus);
        for &i in tried {
            self.update_history(i, -bonus);
        }
    }

    /// Quiescence: resolve pending captures (they are forced, so there is no
    /// standing pat while one exists); in a quiet position trust the
    /// evaluation, unless the opponent threatens a capture at the horizon
    /// and the position is within reach of alpha, in which case look one
    /// move further, once; otherwise, within a man of alpha, stand pat and
    /// look at the game's horizon moves (promotions and, without kings,
    /// exchanges in draughts), as Scan 2.0 does.
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        pos: &G,
        state: &E::State,
        counters: &G::Counters,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        threat_check: bool,
    ) -> Score {
        self.pv[ply].clear();
        if self.aborted {
            return DRAW;
        }
        if ply > self.sel_depth {
            self.sel_depth = ply;
        }
        if let Some(v) = pos.rule_verdict(counters) {
            return verdict_score(v, ply);
        }
        if let Some(v) = self.tablebase.and_then(|tb| tb.probe(pos, counters)) {
            return db_score(v, ply);
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, state);
        }
        let quiet = pos.is_quiet();
        let mut list = G::MoveList::default();
        let mut best = -INFINITE;
        if quiet {
            self.leaf_plies += ply as u64;
            self.leaves += 1;
            let stand = self.evaluate(pos, state);
            if stand >= beta {
                return stand;
            }
            let threatened = threat_check && stand + THREAT_MARGIN > alpha && pos.is_threatened();
            if !threatened {
                if stand + HORIZON_MARGIN <= alpha {
                    return stand;
                }
                pos.horizon_moves(&mut list);
                if list.is_empty() {
                    return stand;
                }
                best = stand;
                alpha = alpha.max(stand);
            }
        }
        if list.is_empty() {
            pos.generate(&mut list);
            if list.is_empty() {
                return verdict_score(pos.no_move_verdict(), ply);
            }
        }
        for mv in list.as_slice() {
            let child = pos.play(mv);
            self.visit();
            let cc = pos.next_counters(counters, mv, &child);
            let cs = self.eval.state_after(state, pos, &child);
            // After a quiet move played to meet a threat, no second look.
            let next_check = threat_check && !quiet;
            let score = -self.qsearch(&child, &cs, &cc, -beta, -alpha, ply + 1, next_check);
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(*mv);
                    line.extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A null-window child at full depth: a cut node's refutation leads
    /// to an all node, an all node's moves and a PV node's later moves to
    /// cut nodes.
    #[test]
    fn a_cut_nodes_children_are_all_nodes_and_the_others_cut_nodes() {
        assert_eq!(Node::Cut.child(), Node::All);
        assert_eq!(Node::All.child(), Node::Cut);
        assert_eq!(Node::Pv.child(), Node::Cut);
    }

    /// Each pick brings the highest score of the rest to the front, the
    /// first of equals when several share it, whatever the signs.
    #[test]
    fn the_next_move_is_the_first_of_the_best_scored() {
        let raw = [3, -5, 7, i32::MAX, 7, 0, -5, i32::MIN, 3, 7];
        let mut moves: Vec<usize> = (0..raw.len()).collect();
        let mut scores: ScoreList = raw.iter().copied().collect();
        for i in 0..moves.len() {
            let rest = &scores[i..];
            let best = *rest.iter().max().unwrap();
            let first = i + rest.iter().position(|&s| s == best).unwrap();
            let expected = moves[first];
            pick_next(&mut moves, &mut scores, i);
            assert_eq!((moves[i], scores[i]), (expected, best), "pick {i}");
        }
    }
}
