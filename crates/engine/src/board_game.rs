//! Sessions for the games besides draughts (Halma, Gewu free form): one
//! generic [`Session`] over a small text adapter, [`TextGame`], that each
//! game implements with its own notation, position string and rules. The
//! search is the same generic core the draughts sessions use.

use super::{GameKind, Knowledge, MoveReading, PerftLine, Session};
use tiao_core::game::{Evaluate, Game, MoveBuffer};
use tiao_draughts::board::{Colour, DrawReason, Outcome as GameOutcome};
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_gewu::{GewuEval, GewuPosition, GewuResult};
use tiao_halma::{HalmaBoard, HalmaCounters, HalmaEval, HalmaOutcome, HalmaPosition};
use tiao_knowledge::eval::Term;
use tiao_search::{Info, Params, Root, SearchResult, Searcher};

/// What a game must provide, as text, to be played through a [`Session`].
pub trait TextGame: Game {
    const KIND: GameKind;
    type Eval: Evaluate<Self> + Default;
    fn start_position() -> (Self, Self::Counters);
    fn read_position(text: &str) -> Result<(Self, Self::Counters), String>;
    fn write_position(&self, counters: &Self::Counters) -> String;
    /// Read a move; errors are `Malformed` or `Illegal`.
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    fn write_move(&self, mv: &Self::Move) -> String;
    /// The result by the rules, given the hashes of the earlier positions.
    fn result(&self, counters: &Self::Counters, history: &[u64]) -> Option<(GameOutcome, String)>;
    fn picture(&self) -> String;
}

/// A game of a [`TextGame`].
pub struct BoardGameSession<G: TextGame> {
    start: (G, G::Counters),
    /// Positions after each move, with their counters.
    positions: Vec<(G, G::Counters)>,
    moves: Vec<G::Move>,
}

impl<G: TextGame> Clone for BoardGameSession<G> {
    fn clone(&self) -> Self {
        BoardGameSession {
            start: self.start,
            positions: self.positions.clone(),
            moves: self.moves.clone(),
        }
    }
}

impl<G: TextGame> Default for BoardGameSession<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: TextGame> BoardGameSession<G> {
    pub fn new() -> Self {
        BoardGameSession {
            start: G::start_position(),
            positions: Vec::new(),
            moves: Vec::new(),
        }
    }

    fn current(&self) -> &(G, G::Counters) {
        self.positions.last().unwrap_or(&self.start)
    }

    /// Hashes of the earlier positions, oldest first.
    fn hashes(&self) -> Vec<u64> {
        let n = self.positions.len();
        std::iter::once(&self.start)
            .chain(self.positions.iter())
            .take(n)
            .map(|(p, _)| p.hash())
            .collect()
    }

    fn push(&mut self, mv: G::Move) {
        let (pos, counters) = *self.current();
        let next = pos.play(&mv);
        let c = pos.next_counters(&counters, &mv, &next);
        self.positions.push((next, c));
        self.moves.push(mv);
    }

    fn read(&self, text: &str) -> Result<G::Move, MoveError> {
        let (pos, counters) = self.current();
        if let Some((_, why)) = pos.result(counters, &self.hashes()) {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!("the game is over: {why}"),
            });
        }
        pos.read_move(text)
    }

    fn line(pos: &G, moves: &[G::Move]) -> Vec<String> {
        let mut p = *pos;
        moves
            .iter()
            .map(|mv| {
                let t = p.write_move(mv);
                p = p.play(mv);
                t
            })
            .collect()
    }
}

fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    list.as_slice()
        .iter()
        .map(|mv| perft(&pos.play(mv), depth - 1))
        .sum()
}

impl<G: TextGame> Session for BoardGameSession<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn reset(&mut self) {
        *self = Self::new();
    }

    fn set_fen(&mut self, text: &str) -> Result<(), String> {
        let start = G::read_position(text)?;
        *self = BoardGameSession {
            start,
            positions: Vec::new(),
            moves: Vec::new(),
        };
        Ok(())
    }

    fn set_hub_position(&mut self, text: &str) -> Result<(), String> {
        self.set_fen(text)
    }

    fn play(&mut self, text: &str, _reading: MoveReading) -> Result<String, MoveError> {
        let mv = self.read(text)?;
        let written = self.current().0.write_move(&mv);
        self.push(mv);
        Ok(written)
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
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(self.current().0.write_move(&mv))
    }

    fn side(&self) -> Colour {
        self.current().0.side()
    }

    fn fen(&self) -> String {
        let (p, c) = self.current();
        p.write_position(c)
    }

    fn hub_position(&self) -> String {
        self.fen()
    }

    fn diagram(&self) -> String {
        self.current().0.picture()
    }

    fn legal_moves(&self, _format: MoveFormat) -> Vec<String> {
        let (pos, counters) = self.current();
        if pos.result(counters, &self.hashes()).is_some() {
            return Vec::new();
        }
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        let mut out: Vec<String> = list.as_slice().iter().map(|m| pos.write_move(m)).collect();
        out.sort();
        out
    }

    fn history(&self, _format: MoveFormat) -> Vec<String> {
        Self::line(&self.start.0, &self.moves)
    }

    fn outcome(&self) -> Option<GameOutcome> {
        let (pos, counters) = self.current();
        pos.result(counters, &self.hashes()).map(|(o, _)| o)
    }

    fn result_text(&self) -> Option<String> {
        let (pos, counters) = self.current();
        pos.result(counters, &self.hashes()).map(|(_, t)| t)
    }

    fn convert(
        &self,
        text: &str,
        _reading: MoveReading,
        _format: MoveFormat,
    ) -> Result<String, MoveError> {
        let mv = self.read(text)?;
        Ok(self.current().0.write_move(&mv))
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        _know: &Knowledge,
        params: &Params,
        _format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        let (position, counters) = *self.current();
        let root = Root {
            position,
            counters,
            history: self.hashes(),
        };
        let eval = G::Eval::default();
        let out = searcher.search(&root, &eval, params, &|info: &Info<G::Move>| {
            report(&info.with_pv(Self::line(&position, &info.pv)))
        });
        out.with_pv(Self::line(&position, &out.pv))
    }

    fn evaluate(&self, _know: &Knowledge) -> (i32, Vec<Term>) {
        (G::Eval::default().evaluate(&self.current().0), Vec::new())
    }

    fn perft(
        &self,
        depth: u32,
        divide: bool,
        _bulk: bool,
        _pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        let pos = self.current().0;
        if !divide {
            return vec![PerftLine {
                mv: None,
                nodes: perft(&pos, depth),
            }];
        }
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        let mut lines: Vec<PerftLine> = list
            .as_slice()
            .iter()
            .map(|mv| PerftLine {
                mv: Some(pos.write_move(mv)),
                nodes: perft(&pos.play(mv), depth.saturating_sub(1)),
            })
            .collect();
        let total = lines.iter().map(|l| l.nodes).sum();
        lines.push(PerftLine {
            mv: None,
            nodes: total,
        });
        lines
    }
}

/// A Halma reader's error as a move error of the kind its reader found.
fn halma_move_error(text: &str, e: tiao_halma::HalmaError) -> MoveError {
    use tiao_halma::HalmaError as E;
    let text = text.to_string();
    match e {
        E::IllegalMove(reason) => MoveError::Illegal { text, reason },
        E::MalformedMove(reason) | E::Square(reason) | E::Position(reason) => {
            MoveError::Malformed { text, reason }
        }
    }
}

/// A Gewu reader's error as a move error of the kind its reader found.
pub(super) fn gewu_move_error(text: &str, e: tiao_gewu::GewuError) -> MoveError {
    use tiao_gewu::GewuError as E;
    let text = text.to_string();
    match e {
        E::IllegalMove(reason) => MoveError::Illegal { text, reason },
        E::MalformedMove(reason) | E::Throw(reason) | E::Position(reason) => {
            MoveError::Malformed { text, reason }
        }
    }
}

impl<B: HalmaBoard> TextGame for HalmaPosition<B> {
    const KIND: GameKind = if B::N == 8 {
        GameKind::Halma8
    } else {
        GameKind::Halma10
    };
    type Eval = HalmaEval;

    fn start_position() -> (Self, HalmaCounters) {
        (HalmaPosition::start(), HalmaCounters::START)
    }
    fn read_position(text: &str) -> Result<(Self, HalmaCounters), String> {
        tiao_halma::from_fen::<B>(text).map_err(|e| e.to_string())
    }
    fn write_position(&self, counters: &HalmaCounters) -> String {
        tiao_halma::to_fen(self, counters)
    }
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        tiao_halma::parse_move(self, text).map_err(|e| halma_move_error(text, e))
    }
    fn write_move(&self, mv: &Self::Move) -> String {
        tiao_halma::move_text(self, mv)
    }
    fn result(&self, counters: &HalmaCounters, history: &[u64]) -> Option<(GameOutcome, String)> {
        let o = tiao_halma::outcome(self, counters, history)?;
        let out = match o {
            HalmaOutcome::Win { winner, .. } => GameOutcome::Win(winner),
            HalmaOutcome::Draw(tiao_halma::DrawReason::Repetition) => {
                GameOutcome::Draw(DrawReason::Repetition)
            }
            HalmaOutcome::Draw(tiao_halma::DrawReason::MoveLimit) => {
                GameOutcome::Draw(DrawReason::NoProgress)
            }
        };
        Some((out, o.to_string()))
    }
    fn picture(&self) -> String {
        tiao_halma::diagram(self)
    }
}

impl TextGame for GewuPosition {
    const KIND: GameKind = GameKind::Gewu;
    type Eval = GewuEval;

    fn start_position() -> (Self, ()) {
        (GewuPosition::start(), ())
    }
    fn read_position(text: &str) -> Result<(Self, ()), String> {
        tiao_gewu::from_fen(text)
            .map(|p| (p, ()))
            .map_err(|e| e.to_string())
    }
    fn write_position(&self, _: &()) -> String {
        tiao_gewu::to_fen(self)
    }
    fn read_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        tiao_gewu::parse_move(self, text).map_err(|e| gewu_move_error(text, e))
    }
    fn write_move(&self, mv: &Self::Move) -> String {
        tiao_gewu::move_text(mv)
    }
    fn result(&self, _: &(), _history: &[u64]) -> Option<(GameOutcome, String)> {
        match GewuPosition::result(self)? {
            GewuResult::Won(c) => Some((
                GameOutcome::Win(c),
                format!("{} wins (a piece reached the enemy's home)", c.name()),
            )),
            GewuResult::Deadlock => Some((
                GameOutcome::Draw(DrawReason::NoProgress),
                "draw (neither side can move)".to_string(),
            )),
        }
    }
    fn picture(&self) -> String {
        tiao_gewu::diagram(self)
    }
}
