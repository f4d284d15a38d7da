//! The search: iterative deepening, principal-variation alpha-beta with a
//! quiescence search, a shared lock-free transposition table and Lazy SMP.
//!
//! It is generic over [`Game`] and [`Evaluate`]: draughts of every rule set,
//! Halma and Gewu are searched by this one core. Front ends call
//! [`Searcher::search`] on a thread of their own and keep a [`Control`]
//! handle to stop it or to switch a ponder search to timed play.

mod busy;
pub mod score;
mod thread;
pub mod time;
pub mod tt;
mod worker;

pub use score::Score;
pub use thread::{Searcher, SearcherError};
pub use time::{Deadlines, Limits};

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tiao_core::game::{Game, Verdict};

/// Deepest search (plies from the root, extensions included).
pub const MAX_PLY: usize = 128;
/// Deepest nominal iteration.
pub const MAX_DEPTH: u32 = 100;

/// What kind of search the front end asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Find a move to play now.
    #[default]
    Think,
    /// Think on the opponent's time; obey the limits only after `ponder_hit`.
    Ponder,
    /// Analyse until the limits or `stop`, never returning early.
    Analyze,
}

/// The root of a search: the position, its rule counters and the hashes of
/// the earlier positions of the game that a repetition could reach.
#[derive(Clone, Debug)]
pub struct Root<G: Game> {
    pub position: G,
    pub counters: G::Counters,
    /// Hashes of earlier positions, oldest first (the current one excluded).
    pub history: Vec<u64>,
}

impl<G: Game> Root<G> {
    /// A root with no game history.
    pub fn new(position: G) -> Self {
        Root {
            counters: position.initial_counters(),
            position,
            history: Vec::new(),
        }
    }
}

/// Perfect knowledge of some positions: endgame databases.
pub trait Tablebase<G: Game>: Send + Sync {
    /// The value of `pos` for the side to move, if the table knows it. The
    /// counters let a table respect move-count draw rules it does not store.
    fn probe(&self, pos: &G, counters: &G::Counters) -> Option<Verdict>;
}

/// Optional inputs of a search besides the position and the evaluation.
pub struct Extras<'a, G: Game> {
    /// Endgame databases to probe in the tree.
    pub tablebase: Option<&'a dyn Tablebase<G>>,
    /// Search only these root moves (e.g. the ones a database proves best).
    pub root_moves: Option<&'a [G::Move]>,
}

impl<G: Game> Default for Extras<'_, G> {
    fn default() -> Self {
        Extras {
            tablebase: None,
            root_moves: None,
        }
    }
}

/// Search parameters besides the limits.
#[derive(Clone, Debug)]
pub struct Params {
    pub limits: Limits,
    pub mode: Mode,
    /// Lines to report in analysis (1 = normal search).
    pub multipv: usize,
}

impl Params {
    pub fn think(limits: Limits) -> Self {
        Params {
            limits,
            mode: Mode::Think,
            multipv: 1,
        }
    }

    /// Analysis of one line within `limits` (it never ends early).
    pub fn analyze(limits: Limits) -> Self {
        Params {
            limits,
            mode: Mode::Analyze,
            multipv: 1,
        }
    }
}

/// Progress of a search: reported as soon as a line is settled at a new
/// depth (the first move searched inside the window, as Scan counts a
/// depth, or a later move proven better) and again when the iteration
/// completes.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    /// Average depth of the leaves (quiescence entry points) of the iteration.
    pub mean_depth: f64,
    /// Deepest ply reached.
    pub sel_depth: u32,
    pub score: Score,
    /// Moves made by every thread so far (one node per move made, as Scan
    /// counts, so that node rates compare).
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
    /// 1-based line number in multi-PV analysis.
    pub multipv: usize,
}

impl<M> Info<M> {
    /// The same report with the principal variation written another way
    /// (as text, say): front ends show moves the search keeps typed.
    pub fn with_pv<N>(&self, pv: Vec<N>) -> Info<N> {
        Info {
            depth: self.depth,
            mean_depth: self.mean_depth,
            sel_depth: self.sel_depth,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            pv,
            multipv: self.multipv,
        }
    }

    /// Millions of nodes per second.
    pub fn mnps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s / 1e6
        } else {
            0.0
        }
    }
}

/// Counters of a search, for tuning and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Transposition-table probes in the main search (not quiescence).
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
}

impl Stats {
    /// Fraction of probes that hit.
    pub fn tt_hit_rate(&self) -> f64 {
        if self.tt_probes == 0 {
            0.0
        } else {
            self.tt_hits as f64 / self.tt_probes as f64
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// Table statistics over all threads.
    pub stats: Stats,
    /// The move to play; `None` when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, if known.
    pub ponder: Option<M>,
    pub score: Score,
    /// Depth of the iteration the move comes from (0: no search was needed).
    pub depth: u32,
    /// Moves made by every thread (see [`Info::nodes`]).
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    /// The same answer with the principal variation written another way;
    /// the best move and the expected reply are its first two moves.
    pub fn with_pv<N: Clone>(&self, pv: Vec<N>) -> SearchResult<N> {
        SearchResult {
            stats: self.stats,
            best: pv.first().cloned(),
            ponder: pv.get(1).cloned(),
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            time: self.time,
            pv,
        }
    }
}

/// Shared switches of a running search, for front ends: stop it, or tell a
/// ponder search that the opponent played the expected move.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When pondering ended: timed play counts from there.
    ponder_hit_at: Mutex<Option<Instant>>,
}

impl Control {
    /// Stop the search now; it still returns its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
    /// The opponent played the expected move: obey the time limits from now on.
    pub fn ponder_hit(&self) {
        if let Ok(mut at) = self.ponder_hit_at.lock() {
            at.get_or_insert_with(Instant::now);
        }
        self.pondering.store(false, Ordering::Release);
    }
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }
    fn reset(&self, mode: Mode) {
        if let Ok(mut at) = self.ponder_hit_at.lock() {
            *at = None;
        }
        self.stop.store(false, Ordering::Release);
        self.pondering
            .store(mode == Mode::Ponder, Ordering::Release);
    }
}

/// Where a search's time counts from, and its deadlines (which start only
/// once pondering ends).
pub(crate) struct Clock {
    start: Instant,
    deadlines: Deadlines,
}

impl Clock {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time counted against the deadlines: since the start, or since the
    /// ponder hit when the search began as a ponder search; `None` while pondering.
    fn counted(&self, control: &Control) -> Option<Duration> {
        if control.is_pondering() {
            return None;
        }
        let hit = control.ponder_hit_at.lock().ok().and_then(|at| *at);
        Some(hit.map_or_else(|| self.elapsed(), |t| t.elapsed()))
    }
}
