//! One page's game: the engine (whose session is the game), the moves
//! taken back (for redo), the points of the evaluation graph, and the
//! search running for the page, if any. It turns the page's intents into
//! replies; the socket loop (`server.rs`) only carries them.
//!
//! A search runs on a thread of its own with the engine moved into it (as
//! `tiao hub` does), streaming its lines through the connection's channel
//! and handing the engine back when it ends. `stop` stops it (an engine
//! move found so far is still played); any other intent stops it, drops
//! its move and is then carried out, so the page never waits on a search.

use super::messages::{
    EvalPoint, Intent, Line, MoveOut, Placed, Reply, Side, State, score_text, squares_of,
};
use crate::board::Colour;
use crate::engine::{Decision, Engine, GameKind, MoveReading, Options, PositionText, Purpose};
use crate::game::Verdict;
use crate::search::{Control, Info, Limits, MAX_DEPTH, Mode, Params};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// Most analysis lines a page may ask for.
pub const MAX_MULTIPV: usize = 10;
/// The depth of each position's search when the whole game is evaluated.
pub const EVAL_GAME_DEPTH: u32 = 6;
/// Tiao's thinking time when the page names neither time nor depth.
const DEFAULT_ENGINE_TIME: f64 = 1.0;
/// Longest thinking time a page may ask for, in seconds.
const MAX_ENGINE_TIME: f64 = 3600.0;

/// What a search thread sends back.
pub enum Event {
    /// A reply to pass on (search lines, graph points).
    Send(Reply),
    /// The search ended: the engine comes back, with what was found.
    Done(Box<Engine>, Finished),
}

/// What a finished search found.
pub enum Finished {
    Analysis,
    EngineMove(Decision),
    EvalGame,
    /// The search thread failed (a bug); the engine is kept.
    Failed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchKind {
    Analysis,
    Engine,
    EvalGame,
}

impl SearchKind {
    fn name(self) -> &'static str {
        match self {
            SearchKind::Analysis => "analysis",
            SearchKind::Engine => "engine",
            SearchKind::EvalGame => "eval_game",
        }
    }
}

struct Running {
    kind: SearchKind,
    control: Arc<Control>,
    /// Set by every stop: a walk over the game's positions (eval_game)
    /// checks it between searches, each of which re-arms `control`.
    cancel: Arc<AtomicBool>,
    /// The ply of the position searched (where its lines are graph points).
    ply: usize,
    /// The state sent when the search started: the answer to `state`
    /// while it runs (the engine is the search's meanwhile).
    state: Reply,
    /// The move found is not to be played (another intent came first).
    discard: bool,
}

impl Running {
    fn stop(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.control.stop();
    }
}

/// How every engine of the GUI is set up: option changes from the command
/// line (`--set name=value`), applied in order.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub options: Vec<(String, String)>,
}

impl Settings {
    /// A new engine with these settings and its knowledge (book, tables) open.
    pub fn engine(&self) -> Result<Engine, String> {
        let mut engine = Engine::new(Options::default()).map_err(|e| e.to_string())?;
        for (name, value) in &self.options {
            engine
                .set_option(name, value)
                .map_err(|e| format!("--set {name}={value}: {e}"))?;
        }
        if engine.variant().is_none() {
            return Err(not_draughts(engine.game()));
        }
        for opened in engine.open_knowledge() {
            match opened {
                Ok(found) => log::info!("{found}"),
                Err(e) => log::warn!("{e}"),
            }
        }
        Ok(engine)
    }
}

/// The game of one page.
pub struct Game {
    /// The engine, while no search holds it.
    engine: Option<Engine>,
    running: Option<Running>,
    /// Moves taken back, the next one to redo last.
    redo: Vec<String>,
    /// Graph points: score (White's view) by ply.
    evals: BTreeMap<usize, i32>,
    events: UnboundedSender<Event>,
}

impl Drop for Game {
    /// A page that goes away stops its search; the thread ends on its own.
    fn drop(&mut self) {
        if let Some(r) = &self.running {
            r.stop();
        }
    }
}

impl Game {
    pub fn new(engine: Engine, events: UnboundedSender<Event>) -> Self {
        Game {
            engine: Some(engine),
            running: None,
            redo: Vec::new(),
            evals: BTreeMap::new(),
            events,
        }
    }

    /// The current state (an error while a search holds the engine).
    pub fn state(&self) -> Reply {
        match &self.engine {
            Some(engine) => self.state_of(engine, self.running.as_ref().map(|r| r.kind)),
            None => Reply::error("a search is running"),
        }
    }

    fn state_of(&self, engine: &Engine, searching: Option<SearchKind>) -> Reply {
        let board = engine.board_view();
        let size = board.as_ref().map_or(0, |b| b.size);
        let history = engine.history(engine.notation());
        Reply::State(Box::new(State {
            variant: engine.game().name(),
            size,
            fen: engine.fen(),
            side: engine.side_to_move().into(),
            squares: board.map(squares_of).unwrap_or_default(),
            moves: engine.move_views().into_iter().map(MoveOut::from).collect(),
            can_undo: !history.is_empty(),
            history,
            last_move: engine.last_move_view().map(MoveOut::from),
            result: engine.result_text(),
            can_redo: !self.redo.is_empty(),
            verdict: engine.tables_verdict().map(|v| match v {
                Verdict::Win => "win",
                Verdict::Loss => "loss",
                Verdict::Draw => "draw",
            }),
            evals: self
                .evals
                .iter()
                .map(|(&ply, &score)| EvalPoint { ply, score })
                .collect(),
            searching: searching.map(SearchKind::name),
        }))
    }

    /// Carry out one intent of the page.
    pub async fn handle(
        &mut self,
        intent: Intent,
        events: &mut UnboundedReceiver<Event>,
    ) -> Vec<Reply> {
        let mut out = Vec::new();
        // Neither stops nor waits for a search.
        match (&intent, &self.running) {
            (Intent::Stop, Some(r)) => {
                r.stop();
                return out;
            }
            (Intent::State, Some(r)) => return vec![r.state.clone()],
            (Intent::Stop | Intent::State, None) => return vec![self.state()],
            _ => {}
        }
        self.interrupt(events, &mut out).await;
        let done = match intent {
            Intent::Stop | Intent::State => Ok(()),
            Intent::NewGame { variant } => self.new_game(&variant),
            Intent::Move { text, path } => self.play(text, path),
            Intent::Undo => self.undo(),
            Intent::Redo => self.redo(),
            Intent::SetFen { fen } => {
                self.set_up(|e| e.set_position(PositionText::Fen(&fen), &[], MoveReading::Any))
            }
            Intent::SetPieces { side, pieces } => self.set_pieces(side, &pieces),
            Intent::LoadPdn { pdn } => self.set_up(|e| e.load_pdn(&pdn).map(|_| ())),
            // Answered by the PDN, then the state as usual (a search it
            // stopped may be started again by the page).
            Intent::SavePdn { white, black } => {
                self.save_pdn(white, black).map(|pdn| out.push(pdn))
            }
            Intent::Analyse { multipv, depth } => self.analyse(multipv, depth),
            Intent::EngineMove { time, depth } => self.engine_move(time, depth),
            Intent::EvalGame { depth } => self.eval_game(depth),
        };
        match done {
            // A search that started has sent its state already.
            Ok(()) if self.running.is_some() => {}
            Ok(()) => out.push(self.state()),
            Err(e) => {
                out.push(Reply::error(e));
                if self.running.is_none() {
                    out.push(self.state());
                }
            }
        }
        out
    }

    /// Stop a running search, drop what it found and take the engine back.
    async fn interrupt(&mut self, events: &mut UnboundedReceiver<Event>, out: &mut Vec<Reply>) {
        let Some(r) = self.running.as_mut() else {
            return;
        };
        r.discard = true;
        r.stop();
        while self.running.is_some() {
            match events.recv().await {
                Some(event) => out.extend(self.on_event(event)),
                // The channel's sender is ours: it cannot close while we live.
                None => break,
            }
        }
    }

    /// An event of the search thread: replies to pass on.
    pub fn on_event(&mut self, event: Event) -> Vec<Reply> {
        match event {
            Event::Send(reply) => {
                let mut out = Vec::new();
                if let (Reply::Info(line), Some(r)) = (&reply, &self.running)
                    && line.multipv == 1
                    && r.kind != SearchKind::EvalGame
                {
                    let point = EvalPoint {
                        ply: r.ply,
                        score: line.white_score,
                    };
                    self.evals.insert(point.ply, point.score);
                    out.push(reply);
                    out.push(Reply::Eval(point));
                    return out;
                }
                if let Reply::Eval(p) = &reply {
                    self.evals.insert(p.ply, p.score);
                }
                out.push(reply);
                out
            }
            Event::Done(engine, finished) => self.finish(*engine, finished),
        }
    }

    fn finish(&mut self, engine: Engine, finished: Finished) -> Vec<Reply> {
        self.engine = Some(engine);
        let Some(r) = self.running.take() else {
            return vec![self.state()];
        };
        // An interrupted search says nothing more: the intent that stopped
        // it sends the state. A state of the game before that intent would
        // make the page act on it (start Tiao on a move about to be taken
        // back, say).
        if r.discard {
            return match finished {
                Finished::Failed => vec![Reply::error("the search failed; the game is kept")],
                _ => Vec::new(),
            };
        }
        let mut out = Vec::new();
        match finished {
            Finished::Analysis | Finished::EvalGame => {}
            Finished::Failed => out.push(Reply::error("the search failed; the game is kept")),
            Finished::EngineMove(decision) => {
                let source = match &decision {
                    Decision::Book(_) => "book",
                    Decision::Database(_) => "database",
                    Decision::Search(_) => "search",
                };
                let mv = decision.best().map(str::to_string);
                out.push(Reply::BestMove {
                    mv: mv.clone(),
                    source,
                });
                if let Some(mv) = mv
                    && let Err(e) = self.play(Some(mv), None)
                {
                    out.push(Reply::error(format!("the engine's move was refused: {e}")));
                }
            }
        }
        out.push(self.state());
        out
    }

    fn engine(&mut self) -> Result<&mut Engine, String> {
        self.engine
            .as_mut()
            .ok_or_else(|| "the engine is not available".to_string())
    }

    /// A change that starts a new game record: redo and the graph start afresh.
    fn set_up<E: std::fmt::Display>(
        &mut self,
        change: impl FnOnce(&mut Engine) -> Result<(), E>,
    ) -> Result<(), String> {
        change(self.engine()?).map_err(|e| e.to_string())?;
        self.redo.clear();
        self.evals.clear();
        Ok(())
    }

    fn new_game(&mut self, name: &str) -> Result<(), String> {
        // JSON carries any text safely and the page shows text as text:
        // messages quote the input as it came.
        let kind: GameKind = name
            .parse()
            .map_err(|e: crate::engine::UnknownGame| e.to_string())?;
        let Some(variant) = kind.variant() else {
            return Err(not_draughts(kind));
        };
        self.set_up(|engine| {
            if let Err(e) = engine.set_variant(variant) {
                log::warn!("{e}");
            }
            engine.new_game();
            engine.set_position(PositionText::Start, &[], MoveReading::Any)
        })
    }

    /// Play a move given as text or as the squares of its path.
    fn play(&mut self, text: Option<String>, path: Option<Vec<u32>>) -> Result<(), String> {
        let engine = self.engine()?;
        let text = match (text, path) {
            (Some(text), _) => text,
            (None, Some(path)) => move_on_path(engine, &path)?,
            (None, None) => return Err("a move needs \"move\" (text) or \"path\" (squares)".into()),
        };
        let ply = engine.history(engine.notation()).len();
        let played = engine
            .play(&text, MoveReading::Any)
            .map_err(|e| e.to_string())?;
        // The move taken back last, played again, keeps the line to redo.
        if self.redo.last() == Some(&played) {
            self.redo.pop();
        } else {
            self.redo.clear();
            self.evals.retain(|&p, _| p <= ply);
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<(), String> {
        let mv = self.engine()?.undo().ok_or("no move to take back")?;
        self.redo.push(mv);
        Ok(())
    }

    fn redo(&mut self) -> Result<(), String> {
        let mv = self.redo.last().cloned().ok_or("no move to redo")?;
        self.play(Some(mv), None)
    }

    fn set_pieces(&mut self, side: Side, pieces: &[Placed]) -> Result<(), String> {
        let engine = self.engine()?;
        let squares = engine.board_view().map_or(0, |b| b.squares.len());
        // The Hub position string: the side, then one letter per square.
        let mut board = vec!['e'; squares];
        for p in pieces {
            let slot = (p.square as usize)
                .checked_sub(1)
                .and_then(|i| board.get_mut(i))
                .ok_or_else(|| format!("square {} is not on this board", p.square))?;
            if *slot != 'e' {
                return Err(format!("square {} is given twice", p.square));
            }
            *slot = match (p.colour, p.king) {
                (Side::White, false) => 'w',
                (Side::White, true) => 'W',
                (Side::Black, false) => 'b',
                (Side::Black, true) => 'B',
            };
        }
        let mut text = String::from(if side == Side::White { "W" } else { "B" });
        text.extend(board);
        self.set_up(|e| e.set_position(PositionText::Hub(&text), &[], MoveReading::Any))
    }

    fn save_pdn(&mut self, white: Option<String>, black: Option<String>) -> Result<Reply, String> {
        let engine = self.engine()?;
        let date = crate::notation::pdn::today();
        let white = white.unwrap_or_else(|| "?".into());
        let black = black.unwrap_or_else(|| "?".into());
        let tags = [
            ("Event", "Tiao GUI"),
            ("Site", "tiao gui"),
            ("Date", date.as_str()),
            ("Round", "-"),
            ("White", white.as_str()),
            ("Black", black.as_str()),
        ];
        Ok(Reply::Pdn {
            pdn: engine.pdn_text(&tags),
        })
    }

    /// Check that the position has a move to search.
    fn searchable(&mut self) -> Result<(), String> {
        let engine = self.engine()?;
        if engine.legal_moves(engine.notation()).is_empty() {
            return Err(match engine.result_text() {
                Some(r) => format!("no legal move: {r}"),
                None => "no legal move in this position".into(),
            });
        }
        Ok(())
    }

    fn analyse(&mut self, multipv: usize, depth: Option<u32>) -> Result<(), String> {
        self.searchable()?;
        let params = Params {
            limits: match depth {
                Some(d) => Limits::depth(d.clamp(1, MAX_DEPTH)),
                None => Limits {
                    infinite: true,
                    ..Limits::default()
                },
            },
            mode: Mode::Analyze,
            multipv: multipv.clamp(1, MAX_MULTIPV),
        };
        self.spawn(SearchKind::Analysis, params.mode, move |engine, send, _| {
            let side = engine.side_to_move();
            let report = |info: &Info<String>| send(Reply::Info(line("analysis", info, side)));
            engine.search_prepared(&params, engine.notation(), &report);
            Finished::Analysis
        })
    }

    fn engine_move(&mut self, time: Option<f64>, depth: Option<u32>) -> Result<(), String> {
        self.searchable()?;
        let limits = match (depth, time) {
            (Some(d), _) => Limits::depth(d.clamp(1, MAX_DEPTH)),
            (None, t) => {
                let t = t.unwrap_or(DEFAULT_ENGINE_TIME);
                if !t.is_finite() || t <= 0.0 {
                    return Err(format!(
                        "time must be a positive number of seconds, not {t}"
                    ));
                }
                Limits {
                    move_time: Some(Duration::from_secs_f64(t.min(MAX_ENGINE_TIME))),
                    ..Limits::default()
                }
            }
        };
        let params = Params::think(limits);
        self.spawn(SearchKind::Engine, params.mode, move |engine, send, _| {
            let side = engine.side_to_move();
            let report = |info: &Info<String>| send(Reply::Info(line("engine", info, side)));
            let notation = engine.notation();
            let decision = engine.choose_move_prepared(&params, Purpose::Play, notation, &report);
            Finished::EngineMove(decision)
        })
    }

    /// Search every position of the game to `depth`, from the start to the
    /// current one, sending each score as a graph point.
    fn eval_game(&mut self, depth: Option<u32>) -> Result<(), String> {
        let depth = depth.unwrap_or(EVAL_GAME_DEPTH).clamp(1, MAX_DEPTH);
        self.spawn(
            SearchKind::EvalGame,
            Mode::Analyze,
            move |engine, send, cancel| {
                let start = engine.start_fen();
                let moves = engine.history(engine.notation());
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                let params = Params::analyze(Limits::depth(depth));
                for ply in 0..=moves.len() {
                    if cancel.load(Ordering::SeqCst) {
                        break;
                    }
                    let at = PositionText::Fen(&start);
                    if engine
                        .set_position(at, &moves[..ply], MoveReading::Any)
                        .is_err()
                    {
                        break;
                    }
                    if engine.legal_moves(engine.notation()).is_empty() {
                        continue;
                    }
                    let side = engine.side_to_move();
                    let found = engine.search(&params, engine.notation(), &|_| {});
                    let score = white_view(found.score, side);
                    send(Reply::Eval(EvalPoint { ply, score }));
                }
                // Back to the game's current position, where the walk began.
                let at = PositionText::Fen(&start);
                if let Err(e) = engine.set_position(at, &moves, MoveReading::Any) {
                    log::error!("the game could not be set up again after its evaluation: {e}");
                }
                Finished::EvalGame
            },
        )
    }

    /// Run `work` on a thread of its own with the engine, its replies
    /// going through the connection's channel. The state sent first says
    /// what runs.
    fn spawn(
        &mut self,
        kind: SearchKind,
        mode: Mode,
        work: impl FnOnce(&mut Engine, &(dyn Fn(Reply) + Sync), &AtomicBool) -> Finished
        + Send
        + 'static,
    ) -> Result<(), String> {
        let engine = self.engine()?;
        let ply = engine.history(engine.notation()).len();
        let control = engine.control();
        // Armed here, before the thread starts, so that a stop sent at once is not lost.
        engine.prepare(mode);
        let state = self.state_of(self.engine.as_ref().ok_or("no engine")?, Some(kind));
        let Some(mut engine) = self.engine.take() else {
            return Err("the engine is not available".into());
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let events = self.events.clone();
        let thread_cancel = cancel.clone();
        // The state first: the lines of the search follow it.
        let _ = self.events.send(Event::Send(state.clone()));
        let spawned = std::thread::Builder::new()
            .name("gui-search".into())
            .spawn(move || {
                // A page that is gone no longer reads: its sends are dropped.
                let send = |reply: Reply| {
                    let _ = events.send(Event::Send(reply));
                };
                let finished = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    work(&mut engine, &send, &thread_cancel)
                }))
                .unwrap_or(Finished::Failed);
                let _ = events.send(Event::Done(Box::new(engine), finished));
            });
        match spawned {
            Ok(_) => {
                self.running = Some(Running {
                    kind,
                    control,
                    cancel,
                    ply,
                    state,
                    discard: false,
                });
                Ok(())
            }
            Err(e) => Err(format!("cannot start the search thread: {e}")),
        }
    }
}

/// Why a game that is not draughts has no board here.
fn not_draughts(kind: GameKind) -> String {
    format!(
        "the GUI plays the draughts variants (international, brazilian, russian, canadian), \
         not {kind}"
    )
}

/// The legal move whose path passes through the squares given, in order,
/// from its origin to its destination (landing squares may be left out,
/// as long as one move still fits).
fn move_on_path(engine: &Engine, path: &[u32]) -> Result<String, String> {
    let squares: Vec<String> = path.iter().map(u32::to_string).collect();
    let written = squares.join("-");
    let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
        return Err("a path needs at least two squares".into());
    };
    if path.len() < 2 {
        return Err("a path needs at least two squares".into());
    }
    let fits: Vec<_> = engine
        .move_views()
        .into_iter()
        .filter(|m| {
            m.from == from
                && m.to == to
                && m.paths.iter().any(|p| is_subsequence(&path[1..], &p[1..]))
        })
        .collect();
    match fits.as_slice() {
        [one] => Ok(one.text.clone()),
        [] => Err(format!(
            "illegal move: no legal move follows the path {written}"
        )),
        _ => Err(format!(
            "ambiguous move: {} legal moves follow the path {written}; give the squares in between",
            fits.len()
        )),
    }
}

/// Whether `part` appears in `whole` in order (not necessarily together).
fn is_subsequence(part: &[u32], whole: &[u32]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|x| rest.any(|y| y == x))
}

fn white_view(score: i32, side: Colour) -> i32 {
    if side == Colour::White { score } else { -score }
}

/// A search report as a line for the page.
fn line(search: &'static str, info: &Info<String>, side: Colour) -> Line {
    Line {
        search,
        multipv: info.multipv.max(1),
        depth: info.depth,
        score: info.score,
        white_score: white_view(info.score, side),
        score_text: score_text(info.score),
        nodes: info.nodes,
        time: info.time.as_secs_f64(),
        mnps: info.mnps(),
        pv: info.pv.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_may_leave_landing_squares_out() {
        assert!(is_subsequence(&[19, 10], &[19, 10]));
        assert!(is_subsequence(&[10], &[19, 10]));
        assert!(!is_subsequence(&[10, 19], &[19, 10]));
        assert!(is_subsequence(&[], &[1]));
    }
}
