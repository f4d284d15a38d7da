//! Lazy SMP: `threads` workers on a dedicated rayon pool search the same
//! root, sharing the transposition table, the stop flag, the node counter
//! and the marks of the positions being searched (`busy`).
//! They diverge through timing and start depths, and fill the table for each
//! other. The answer comes from the deepest line settled (`worker::Completed`).

use super::busy::Busy;
use super::time::allocate;
use super::tt::{TableTooLarge, TranspositionTable};
use super::worker::{Completed, Shared, Worker};
use super::{Clock, Control, Extras, Info, Mode, Params, Root, SearchResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tiao_core::game::{Evaluate, Game, MoveBuffer};

/// Stack of each search thread: move lists live on the stack, 128 plies deep.
const STACK_BYTES: usize = 64 << 20;

/// What a worker hands back: its id, its deepest settled line and (main
/// thread) the depth it last reported.
type Slot<M> = Option<(u32, Option<Completed<M>>, u32)>;

/// The long-lived search engine: thread pool, transposition table, control.
pub struct Searcher {
    pool: rayon::ThreadPool,
    threads: usize,
    tt: Arc<TranspositionTable>,
    /// The children being searched, when there are helper threads.
    busy: Option<Arc<Busy>>,
    control: Arc<Control>,
}

/// Why a searcher could not be made as asked.
#[derive(Debug)]
pub enum SearcherError {
    /// The operating system would not start the threads.
    Threads { threads: usize, message: String },
    /// The table does not fit in memory.
    Table(TableTooLarge),
}

impl std::fmt::Display for SearcherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearcherError::Threads { threads, message } => {
                write!(f, "cannot start {threads} search threads: {message}")
            }
            SearcherError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SearcherError {}

fn build_pool(threads: usize) -> Result<rayon::ThreadPool, SearcherError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("tiao-search-{i}"))
        .build()
        .map_err(|e| SearcherError::Threads {
            threads,
            message: e.to_string(),
        })
}

/// Marks of the children being searched, needed only with helper threads.
fn busy_marks(threads: usize) -> Option<Arc<Busy>> {
    (threads > 1).then(|| Arc::new(Busy::new()))
}

impl Searcher {
    /// A searcher with `threads` threads and a table of `hash_mib` MiB.
    pub fn new(threads: usize, hash_mib: usize) -> Result<Self, SearcherError> {
        let threads = threads.max(1);
        Ok(Searcher {
            pool: build_pool(threads)?,
            threads,
            tt: Arc::new(TranspositionTable::try_with_mib(hash_mib).map_err(SearcherError::Table)?),
            busy: busy_marks(threads),
            control: Arc::new(Control::default()),
        })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Restart the pool with `threads` threads; on failure the old pool stays.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), SearcherError> {
        let threads = threads.max(1);
        if threads != self.threads {
            self.pool = build_pool(threads)?;
            self.threads = threads;
            self.busy = busy_marks(threads);
        }
        Ok(())
    }

    /// Replace the table by one of `mib` MiB. The new table is made
    /// before the old one goes, so if the memory is not there the engine
    /// keeps its table, and the error says what was free.
    pub fn set_hash_mib(&mut self, mib: usize) -> Result<(), TableTooLarge> {
        self.tt = Arc::new(TranspositionTable::try_with_mib(mib)?);
        Ok(())
    }

    /// Replace the table by one of `2^log2` entries (Scan's `tt-size`), as
    /// [`Searcher::set_hash_mib`] does.
    pub fn set_tt_log2_entries(&mut self, log2: u32) -> Result<(), TableTooLarge> {
        self.tt = Arc::new(TranspositionTable::try_with_log2_entries(log2)?);
        Ok(())
    }

    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forget all previous searches (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// The handle front ends use to stop a running search or signal a ponder hit.
    pub fn control(&self) -> Arc<Control> {
        self.control.clone()
    }

    /// Arm the control for a new search of the given mode: clears a previous
    /// `stop`. Front ends call this before handing the search to another
    /// thread, so that a `stop` arriving right after `go` is never lost.
    pub fn prepare(&self, mode: Mode) {
        self.control.reset(mode);
    }

    /// Search `root` and return the best move (call [`Searcher::prepare`]
    /// first). Blocks until the search ends; `report` is called from a search
    /// thread whenever a line is settled at a new depth, after each
    /// iteration, and at the end if the line played was not the last one.
    pub fn search<G: Game, E: Evaluate<G>>(
        &mut self,
        root: &Root<G>,
        eval: &E,
        params: &Params,
        report: &(dyn Fn(&Info<G::Move>) + Sync),
    ) -> SearchResult<G::Move> {
        self.search_with(root, eval, &Extras::default(), params, report)
    }

    /// [`Searcher::search`] with a tablebase and/or a restricted set of root moves.
    pub fn search_with<G: Game, E: Evaluate<G>>(
        &mut self,
        root: &Root<G>,
        eval: &E,
        extras: &Extras<'_, G>,
        params: &Params,
        report: &(dyn Fn(&Info<G::Move>) + Sync),
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut list = G::MoveList::default();
        root.position.generate(&mut list);
        if let Some(only) = extras.root_moves {
            let kept: Vec<G::Move> = list
                .as_slice()
                .iter()
                .copied()
                .filter(|m| only.contains(m))
                .collect();
            if !kept.is_empty() {
                list.clear();
                for m in kept {
                    list.push(m);
                }
            }
        }
        let moves = list.as_slice();
        // Nothing to think about: no move, or a single move to play now.
        if moves.is_empty() || (moves.len() == 1 && params.mode == Mode::Think) {
            let ponder = moves.first().and_then(|mv| self.expected_reply(root, mv));
            let score = if moves.is_empty() {
                super::score::verdict_score(root.position.no_move_verdict(), 0)
            } else {
                0
            };
            return SearchResult {
                stats: super::Stats::default(),
                best: moves.first().copied(),
                ponder,
                score,
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: moves.iter().copied().chain(ponder).collect(),
            };
        }

        self.tt.new_search();
        let shared = Shared {
            tt: self.tt.clone(),
            busy: self.busy.clone(),
            control: self.control.clone(),
            nodes: AtomicU64::new(0),
            tt_probes: AtomicU64::new(0),
            tt_hits: AtomicU64::new(0),
            clock: Clock {
                start,
                deadlines: allocate(&params.limits),
            },
            params: params.clone(),
        };
        let threads = self.threads;
        let results = self.pool.install(|| {
            let mut slots: Vec<Slot<G::Move>> = (0..threads).map(|_| None).collect();
            rayon::scope(|s| {
                let (main_slot, helper_slots) = slots.split_at_mut(1);
                for (i, slot) in helper_slots.iter_mut().enumerate() {
                    let shared = &shared;
                    s.spawn(move |_| {
                        let mut w = Worker::new(i + 1, shared, eval, root, extras.tablebase, moves);
                        w.run(&|_| {});
                        *slot = Some((w.id as u32, w.completed.take(), 0));
                    });
                }
                let mut w = Worker::new(0, &shared, eval, root, extras.tablebase, moves);
                w.run(report);
                main_slot[0] = Some((0, w.completed.take(), w.reported));
            });
            slots
        });

        // The deepest settled line wins, a completed iteration before one cut
        // short, then the main thread.
        let reported = results
            .first()
            .and_then(|r| r.as_ref())
            .map_or(0, |&(_, _, depth)| depth);
        let best = results
            .into_iter()
            .flatten()
            .filter_map(|(id, c, _)| c.map(|c| (id, c)))
            .max_by(|(ia, a), (ib, b)| (a.depth, a.full).cmp(&(b.depth, b.full)).then(ib.cmp(ia)));
        let nodes = shared.nodes.load(Ordering::Relaxed);
        // The line played is always the last one reported. The main thread
        // reports its settled lines as they come, except in multi-PV
        // analysis of more than one line (its lines are reported per
        // iteration), where a new best move of an iteration cut short is
        // reported here, as is a helper's.
        if let Some((id, c)) = &best
            && (*id != 0 || c.depth > reported)
        {
            report(&super::Info {
                depth: c.depth,
                mean_depth: f64::from(c.depth),
                sel_depth: c.depth,
                score: c.score,
                nodes,
                time: start.elapsed(),
                pv: c.pv.clone(),
                multipv: 1,
            });
        }
        let best = best.map(|(_, c)| c);
        let stats = super::Stats {
            tt_probes: shared.tt_probes.load(Ordering::Relaxed),
            tt_hits: shared.tt_hits.load(Ordering::Relaxed),
        };
        match best {
            Some(c) => SearchResult {
                stats,
                best: c.pv.first().copied(),
                ponder: c.pv.get(1).copied(),
                score: c.score,
                depth: c.depth,
                nodes,
                time: start.elapsed(),
                pv: c.pv,
            },
            // Stopped before the first iteration completed: any legal move.
            None => SearchResult {
                stats,
                best: moves.first().copied(),
                ponder: None,
                score: 0,
                depth: 0,
                nodes,
                time: start.elapsed(),
                pv: moves.first().copied().into_iter().collect(),
            },
        }
    }

    /// The best reply after `mv` according to the transposition table.
    fn expected_reply<G: Game>(&self, root: &Root<G>, mv: &G::Move) -> Option<G::Move> {
        let child = root.position.play(mv);
        let hit = self.tt.probe(child.hash())?;
        let mut replies = G::MoveList::default();
        child.generate(&mut replies);
        replies
            .as_slice()
            .iter()
            .copied()
            .find(|r| G::move_key(r) == hit.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use tiao_core::Colour;
    use tiao_core::bits::BitWord;
    use tiao_draughts::board::{International, Position};

    /// Men and kings (a king three men), the side to move's view.
    struct Material;

    impl Evaluate<Position<International>> for Material {
        type State = ();
        fn evaluate(&self, pos: &Position<International>) -> i32 {
            let side =
                |c: Colour| 100 * pos.men(c).count() as i32 + 300 * pos.kings(c).count() as i32;
            let s = side(Colour::White) - side(Colour::Black);
            if pos.side() == Colour::White { s } else { -s }
        }
    }

    fn search_start(
        s: &mut Searcher,
        depth: u32,
    ) -> SearchResult<<Position<International> as Game>::Move> {
        s.clear();
        s.prepare(Mode::Analyze);
        let params = Params::analyze(Limits::depth(depth));
        s.search(&Root::new(Position::start()), &Material, &params, &|_| {})
    }

    #[test]
    fn moves_another_thread_is_searching_are_searched_last_not_skipped() {
        // Every later move reads as busy, so each node defers them all and
        // searches them after its first, in the same order: the same tree.
        let mut plain = Searcher::new(1, 16).expect("searcher");
        let mut deferring = Searcher::new(1, 16).expect("searcher");
        let mut busy = Busy::new();
        busy.everything = true;
        deferring.busy = Some(Arc::new(busy));
        let (a, b) = (search_start(&mut plain, 9), search_start(&mut deferring, 9));
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    }
}
