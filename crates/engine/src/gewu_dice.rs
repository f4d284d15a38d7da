//! Gewu with throws (塞戏) as a [`Session`]. A turn is a throw and a move,
//! written `hei:5-9` (`wu:pass` for a lost turn). The throw of the side to
//! move may be part of the position (`W:WWWWW.........BBBBB:Thei`), or come
//! as a bare throw among the moves (`moves="hei:5-8 bai"`) — that is how an
//! arbiter tells the engine what was thrown; without one, the engine throws
//! for itself when asked to move. The search is the expectimax of
//! `gewu::Expectimax`, with chance nodes for the throws.

use super::{GameKind, Knowledge, MoveReading, PerftLine, Session};
use std::time::Instant;
use tiao_core::game::Evaluate;
use tiao_draughts::board::{Colour, DrawReason, Outcome as GameOutcome};
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_gewu::{
    Expectimax, GewuEval, GewuMove, GewuMoveList, GewuPosition, GewuResult, TURN_LIMIT, Throw,
    from_fen, move_text, parse_throw, parse_throw_move, to_fen,
};
use tiao_knowledge::eval::Term;
use tiao_search::{Info, Params, SearchResult, Searcher, Stats};

/// Expectimax depth (moves, with a chance node before each) when the limits give none.
const DEFAULT_DEPTH: u32 = 6;
/// Deepest search (turns), also when only a time limit bounds it.
const MAX_DEPTH: u32 = 40;

/// A Gewu game with throws.
#[derive(Clone)]
pub struct GewuDiceSession {
    start: GewuPosition,
    positions: Vec<GewuPosition>,
    turns: Vec<(Throw, GewuMove)>,
    /// The throw of the side to move, once known.
    throw: Option<Throw>,
    /// The engine's own throws (deterministic per session, so games reproduce).
    rng: u64,
}

impl Default for GewuDiceSession {
    fn default() -> Self {
        Self::new()
    }
}

impl GewuDiceSession {
    pub fn new() -> Self {
        GewuDiceSession {
            start: GewuPosition::start(),
            positions: Vec::new(),
            turns: Vec::new(),
            throw: None,
            rng: 0x6765_7775,
        }
    }

    fn current(&self) -> &GewuPosition {
        self.positions.last().unwrap_or(&self.start)
    }

    fn next_throw(&mut self) -> Throw {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        Throw::from_random(self.rng)
    }

    fn result(&self) -> Option<(GameOutcome, String)> {
        match self.current().result() {
            Some(GewuResult::Won(c)) => Some((
                GameOutcome::Win(c),
                format!("{} wins (a piece reached the enemy's home)", c.name()),
            )),
            Some(GewuResult::Deadlock) => Some((
                GameOutcome::Draw(DrawReason::NoProgress),
                "draw (neither side can move)".into(),
            )),
            None if self.turns.len() >= TURN_LIMIT => Some((
                GameOutcome::Draw(DrawReason::NoProgress),
                format!("draw ({TURN_LIMIT} turns)"),
            )),
            None => None,
        }
    }

    /// Read `throw:move`, `throw move`, or a bare move under the known throw.
    fn read(&self, text: &str) -> Result<(Throw, GewuMove), MoveError> {
        let malformed = |reason: String| MoveError::Malformed {
            text: text.to_string(),
            reason,
        };
        if let Some((_, why)) = self.result() {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!("the game is over: {why}"),
            });
        }
        let t = text.trim();
        let (throw, mv) = match t.split_once([':', ' ']) {
            Some((th, mv)) => (parse_throw(th).map_err(|e| malformed(e.to_string()))?, mv),
            None => match self.throw {
                Some(th) => (th, t),
                None => {
                    return Err(malformed(
                        "a turn is a throw and a move, like hei:5-9".into(),
                    ));
                }
            },
        };
        if self.throw.is_some_and(|known| known != throw) {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!(
                    "the throw is {}, not {}",
                    self.throw.map_or("", Throw::name),
                    throw.name()
                ),
            });
        }
        let m = parse_throw_move(self.current(), throw, mv)
            .map_err(|e| super::board_game::gewu_move_error(text, e))?;
        Ok((throw, m))
    }
}

fn turn(throw: Throw, mv: &GewuMove) -> String {
    format!("{}:{}", throw.name(), move_text(mv))
}

impl Session for GewuDiceSession {
    fn kind(&self) -> GameKind {
        GameKind::GewuDice
    }

    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn reset(&mut self) {
        *self = Self::new();
    }

    fn set_fen(&mut self, text: &str) -> Result<(), String> {
        let t = text.trim();
        let (board, throw) = match t.rsplit_once(":T") {
            Some((b, th)) => (b, Some(parse_throw(th).map_err(|e| e.to_string())?)),
            None => (t, None),
        };
        let pos = from_fen(board).map_err(|e| e.to_string())?;
        *self = GewuDiceSession {
            start: pos,
            throw,
            ..Self::new()
        };
        Ok(())
    }

    fn set_hub_position(&mut self, text: &str) -> Result<(), String> {
        self.set_fen(text)
    }

    fn play(&mut self, text: &str, _reading: MoveReading) -> Result<String, MoveError> {
        // A bare throw (`hei`) is the arbiter saying what the side to move threw.
        if let Ok(throw) = parse_throw(text.trim()) {
            if self.result().is_some() {
                return Err(MoveError::Illegal {
                    text: text.into(),
                    reason: "the game is over".into(),
                });
            }
            self.throw = Some(throw);
            return Ok(throw.name().to_string());
        }
        let (throw, mv) = self.read(text)?;
        let next = self.current().play(&mv);
        self.positions.push(next);
        self.turns.push((throw, mv));
        self.throw = None;
        Ok(turn(throw, &mv))
    }

    fn play_all(&mut self, moves: &[&str], reading: MoveReading) -> Result<(), (usize, MoveError)> {
        let saved = self.clone();
        for (i, text) in moves.iter().enumerate() {
            if let Err(e) = self.play(text, reading) {
                *self = saved;
                return Err((i, e));
            }
        }
        Ok(())
    }

    fn undo(&mut self) -> Option<String> {
        let (throw, mv) = self.turns.pop()?;
        self.positions.pop();
        self.throw = Some(throw);
        Some(turn(throw, &mv))
    }

    fn side(&self) -> Colour {
        self.current().side()
    }

    fn fen(&self) -> String {
        match self.throw {
            Some(th) => format!("{}:T{}", to_fen(self.current()), th.name()),
            None => to_fen(self.current()),
        }
    }

    fn hub_position(&self) -> String {
        self.fen()
    }

    fn diagram(&self) -> String {
        let mut d = tiao_gewu::diagram(self.current());
        if let Some(th) = self.throw {
            d.push_str(&format!("Throw: {} ({})\n", th.name(), th.hanzi()));
        }
        d
    }

    fn legal_moves(&self, _format: MoveFormat) -> Vec<String> {
        if self.result().is_some() {
            return Vec::new();
        }
        let throws: Vec<Throw> = match self.throw {
            Some(th) => vec![th],
            None => Throw::ALL.to_vec(),
        };
        let mut out = Vec::new();
        for th in throws {
            let mut list = GewuMoveList::new();
            self.current().throw_moves(th, &mut list);
            out.extend(list.as_slice().iter().map(|m| turn(th, m)));
        }
        out
    }

    fn history(&self, _format: MoveFormat) -> Vec<String> {
        self.turns.iter().map(|(th, m)| turn(*th, m)).collect()
    }

    fn outcome(&self) -> Option<GameOutcome> {
        self.result().map(|(o, _)| o)
    }

    fn result_text(&self) -> Option<String> {
        self.result().map(|(_, t)| t)
    }

    fn convert(
        &self,
        text: &str,
        _reading: MoveReading,
        _format: MoveFormat,
    ) -> Result<String, MoveError> {
        self.read(text).map(|(th, m)| turn(th, &m))
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        _know: &Knowledge,
        params: &Params,
        _format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        let start = Instant::now();
        // The engine throws for itself when nobody told it the throw; a copy
        // of the session draws it so that the same position gives the same throw.
        let throw = self.throw.unwrap_or_else(|| self.clone().next_throw());
        // Iterative deepening, so that a time limit or a `stop` ends the
        // search with the deepest completed choice (depth 1 always completes).
        let deadlines = tiao_search::time::allocate(&params.limits);
        let deadline = deadlines.hard.map(|t| start + t);
        // With a clock, no new turn is started after the soft deadline.
        let soft = deadlines.soft.map(|t| start + t);
        let max_depth = match params.limits.depth {
            Some(d) => d.clamp(1, MAX_DEPTH),
            None if params.limits.is_unbounded() => MAX_DEPTH,
            None if deadline.is_some() => MAX_DEPTH,
            None => DEFAULT_DEPTH,
        };
        let control = searcher.control();
        let nodes_limit = params.limits.nodes;
        let mut best_found = None;
        let mut nodes = 0;
        for depth in 1..=max_depth {
            let c = control.clone();
            let mut ex = Expectimax::new(GewuEval)
                .with_stop(move || c.is_stopped() || deadline.is_some_and(|d| Instant::now() >= d));
            let (mv, value) = ex.choose(self.current(), throw, depth);
            nodes += ex.nodes();
            if ex.stopped() && best_found.is_some() {
                break;
            }
            let score = (value * 100.0).round() as i32;
            let best = turn(throw, &mv);
            report(&Info {
                depth,
                mean_depth: f64::from(depth),
                sel_depth: depth,
                score,
                nodes,
                time: start.elapsed(),
                pv: vec![best.clone()],
                multipv: 1,
            });
            best_found = Some((best, score, depth));
            if ex.stopped()
                || nodes_limit.is_some_and(|n| nodes >= n)
                || soft.is_some_and(|t| Instant::now() >= t)
            {
                break;
            }
        }
        let (best, score, depth) = best_found.unwrap_or_default();
        SearchResult {
            stats: Stats::default(),
            best: Some(best.clone()),
            ponder: None,
            score,
            depth,
            nodes,
            time: start.elapsed(),
            pv: vec![best],
        }
    }

    fn evaluate(&self, _know: &Knowledge) -> (i32, Vec<Term>) {
        (GewuEval.evaluate(self.current()), Vec::new())
    }

    fn perft(
        &self,
        depth: u32,
        _divide: bool,
        _bulk: bool,
        _pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        // The throw tree has no perft convention; count the free-form tree.
        let free = super::board_game::BoardGameSession::<GewuPosition>::default();
        let mut s = free;
        let _ = s.set_fen(&to_fen(self.current()));
        s.perft(depth, false, true, None)
    }
}
