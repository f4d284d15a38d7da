//! Gewu with throws (塞戏) as a [`Session`]. A turn is a throw and a move,
//! written `hei:5-9` (`wu:pass` for a lost turn). The throw of the side to
//! move may be part of the position (`W:WWWWW.........BBBBB:Thei`), or come
//! as a bare throw among the moves (`moves="hei:5-8 bai"`) — that is how an
//! arbiter tells the engine what was thrown; without one, the engine throws
//! for itself when asked to move. The search is the expectimax of
//! `gewu::Expectimax`, with chance nodes for the throws.

use crate::GameKind;
use crate::board_game::{gewu_move_error, gewu_result, perft};
use crate::session::{Current, MoveReading, PerftLine, PositionForm, SessionGame};
use std::time::Instant;
use tiao_core::GameResult;
use tiao_core::game::Evaluate;
use tiao_draughts::board::Colour;
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_gewu::{
    Expectimax, GewuDrawReason, GewuEval, GewuMove, GewuMoveList, GewuOutcome, GewuPosition,
    TURN_LIMIT, Throw, from_fen, move_text, parse_throw, parse_throw_move, to_fen,
};
use tiao_knowledge::eval::Term;
use tiao_search::{Info, Params, SearchResult, Searcher, Stats};

/// Expectimax depth (moves, with a chance node before each) when the limits give none.
const DEFAULT_DEPTH: u32 = 6;
/// Deepest search (turns), also when only a time limit bounds it.
const MAX_DEPTH: u32 = 40;

/// A Gewu position with the throw of the side to move, once known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GewuTurn {
    pub position: GewuPosition,
    pub throw: Option<Throw>,
}

impl GewuTurn {
    /// The throw the engine makes for itself when nobody told it one: drawn
    /// from the position and the turn, so that the same turn of a game gives
    /// the same throw and games reproduce.
    fn own_throw(&self, turns: u32) -> Throw {
        let mut rng = tiao_core::rng::Rng::new(self.position.hash() ^ u64::from(turns));
        Throw::from_random(rng.next_u64())
    }
}

fn turn(throw: Throw, mv: &GewuMove) -> String {
    format!("{}:{}", throw.name(), move_text(mv))
}

impl SessionGame for GewuTurn {
    const KIND: GameKind = GameKind::GewuDice;
    const STOPS_AT_RESULT: bool = true;
    type Move = (Throw, GewuMove);
    /// Turns played since the position was set up (the game is drawn after
    /// [`TURN_LIMIT`]).
    type Counters = u32;
    type Knowledge = ();

    fn start() -> (Self, u32) {
        let t = GewuTurn {
            position: GewuPosition::start(),
            throw: None,
        };
        (t, 0)
    }

    fn read_position(text: &str, _: PositionForm) -> Result<(Self, u32), String> {
        let t = text.trim();
        let (board, throw) = match t.rsplit_once(":T") {
            Some((b, th)) => (b, Some(parse_throw(th).map_err(|e| e.to_string())?)),
            None => (t, None),
        };
        let position = from_fen(board).map_err(|e| e.to_string())?;
        Ok((GewuTurn { position, throw }, 0))
    }

    fn write_position(&self, _: &u32, _: PositionForm) -> String {
        match self.throw {
            Some(th) => format!("{}:T{}", to_fen(&self.position), th.name()),
            None => to_fen(&self.position),
        }
    }

    /// `throw:move`, `throw move`, or a bare move under the known throw.
    fn read_move(&self, text: &str, _: MoveReading) -> Result<Self::Move, MoveError> {
        let malformed = |reason: String| MoveError::Malformed {
            text: text.to_string(),
            reason,
        };
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
        let m =
            parse_throw_move(&self.position, throw, mv).map_err(|e| gewu_move_error(text, e))?;
        Ok((throw, m))
    }

    fn write_move(&self, (throw, mv): &Self::Move, _: MoveFormat) -> String {
        turn(*throw, mv)
    }

    fn notation() -> MoveFormat {
        MoveFormat::Hub
    }

    /// Under the known throw, or under each throw when none is known.
    fn legal_moves(&self, _: MoveFormat) -> Vec<String> {
        let throws: Vec<Throw> = match self.throw {
            Some(th) => vec![th],
            None => Throw::ALL.to_vec(),
        };
        let mut out = Vec::new();
        for th in throws {
            let mut list = GewuMoveList::new();
            self.position.throw_moves(th, &mut list);
            out.extend(list.as_slice().iter().map(|m| turn(th, m)));
        }
        out
    }

    fn play(&self, turns: &u32, (_, mv): &Self::Move) -> (Self, u32) {
        let next = GewuTurn {
            position: self.position.play(mv),
            throw: None,
        };
        (next, turns + 1)
    }

    /// The turn was played with its throw known.
    fn as_played(&self, (throw, _): &Self::Move) -> Self {
        GewuTurn {
            throw: Some(*throw),
            ..*self
        }
    }

    /// A bare throw (`hei`) is the arbiter saying what the side to move threw.
    fn read_event(&self, text: &str) -> Option<Result<(Self, String), MoveError>> {
        let throw = parse_throw(text.trim()).ok()?;
        let next = GewuTurn {
            throw: Some(throw),
            ..*self
        };
        Some(Ok((next, throw.name().to_string())))
    }

    /// The throw is not part of the hash: no rule looks back at throws.
    fn hash(&self) -> u64 {
        self.position.hash()
    }

    fn side(&self) -> Colour {
        self.position.side()
    }

    fn result(&self, turns: &u32, _earlier: &[u64]) -> Option<(GameResult, String)> {
        gewu_result(&self.position).or_else(|| {
            (*turns as usize >= TURN_LIMIT).then(|| {
                let o = GewuOutcome::Draw(GewuDrawReason::TurnLimit);
                (o.result(), o.to_string())
            })
        })
    }

    fn diagram(&self) -> String {
        let mut d = tiao_gewu::diagram(&self.position);
        if let Some(th) = self.throw {
            d.push_str(&format!("Throw: {} ({})\n", th.name(), th.hanzi()));
        }
        d
    }

    /// The expectimax of `gewu::Expectimax`, deepened turn by turn, so that
    /// a time or node limit or a `stop` ends it with the deepest completed
    /// choice (depth 1 always completes).
    fn search(
        current: &Current<'_, Self>,
        searcher: &mut Searcher,
        params: &Params,
        report: &(dyn Fn(&Info<Self::Move>) + Sync),
    ) -> SearchResult<Self::Move> {
        let here = current.position;
        let pos = here.position;
        let start = Instant::now();
        // The engine throws for itself when nobody told it the throw.
        let throw = here
            .throw
            .unwrap_or_else(|| here.own_throw(current.counters));
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
            let (mv, value) = ex.choose(&pos, throw, depth);
            nodes += ex.nodes();
            if ex.stopped() && best_found.is_some() {
                break;
            }
            let score = (value * 100.0).round() as i32;
            let best = (throw, mv);
            report(&Info {
                depth,
                mean_depth: f64::from(depth),
                sel_depth: depth,
                score,
                nodes,
                time: start.elapsed(),
                pv: vec![best],
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
        let (best, score, depth) = best_found.map_or((None, 0, 0), |(b, s, d)| (Some(b), s, d));
        SearchResult {
            stats: Stats::default(),
            best,
            ponder: None,
            score,
            depth,
            nodes,
            time: start.elapsed(),
            pv: best.into_iter().collect(),
        }
    }

    fn evaluate(&self, _: &()) -> (i32, Vec<Term>) {
        (GewuEval.evaluate(&self.position), Vec::new())
    }

    /// The throw tree has no perft convention; this counts the free-form tree.
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        _bulk: bool,
        _pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        perft(&self.position, depth, divide, move_text)
    }
}
