//! Halma (both boards) and free Gewu as [`SessionGame`]s: each game's own
//! notation, position string and rules, and the generic alpha-beta search
//! and perft over its [`Game`] implementation (they need no knowledge
//! besides the game's evaluation).

use crate::GameKind;
use crate::session::{Current, MoveReading, PerftLine, PositionForm, SessionGame};
use tiao_core::GameResult;
use tiao_core::game::{Evaluate, Game, MoveBuffer};
use tiao_draughts::board::Colour;
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_gewu::{GewuEval, GewuPosition};
use tiao_halma::{HalmaBoard, HalmaCounters, HalmaEval, HalmaPosition};
use tiao_knowledge::eval::Term;
use tiao_search::{Info, Params, Root, SearchResult, Searcher};

/// A game both searched by the alpha-beta core and played in a session,
/// with the same moves and counters in both.
trait Searched:
    Game + SessionGame<Move = <Self as Game>::Move, Counters = <Self as Game>::Counters>
{
}

impl<G> Searched for G where
    G: Game + SessionGame<Move = <G as Game>::Move, Counters = <G as Game>::Counters>
{
}

/// The alpha-beta search of a game that knows nothing but its evaluation.
fn search<G: Searched, E: Evaluate<G> + Default>(
    current: &Current<'_, G>,
    searcher: &mut Searcher,
    params: &Params,
    report: &(dyn Fn(&Info<<G as Game>::Move>) + Sync),
) -> SearchResult<<G as Game>::Move> {
    let root = Root {
        position: current.position,
        counters: current.counters,
        history: current.earlier.to_vec(),
    };
    searcher.search(&root, &E::default(), params, report)
}

/// Leaf nodes `depth` plies below `pos`.
fn perft_count<G: Game>(pos: &G, depth: u32) -> u64 {
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
        .map(|mv| perft_count(&pos.play(mv), depth - 1))
        .sum()
}

/// perft of `pos`, with `divide` one line per root move (written by
/// `write`) and then the total.
pub(crate) fn perft<G: Game>(
    pos: &G,
    depth: u32,
    divide: bool,
    write: impl Fn(&G::Move) -> String,
) -> Vec<PerftLine> {
    if !divide {
        return vec![PerftLine {
            mv: None,
            nodes: perft_count(pos, depth),
        }];
    }
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let mut lines: Vec<PerftLine> = list
        .as_slice()
        .iter()
        .map(|mv| PerftLine {
            mv: Some(write(mv)),
            nodes: perft_count(&pos.play(mv), depth.saturating_sub(1)),
        })
        .collect();
    let total = lines.iter().map(|l| l.nodes).sum();
    lines.push(PerftLine {
        mv: None,
        nodes: total,
    });
    lines
}

/// The legal moves of `pos`, written by `write`, in text order.
fn sorted_moves<G: Game>(pos: &G, write: impl Fn(&G::Move) -> String) -> Vec<String> {
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let mut out: Vec<String> = list.as_slice().iter().map(write).collect();
    out.sort();
    out
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
pub(crate) fn gewu_move_error(text: &str, e: tiao_gewu::GewuError) -> MoveError {
    use tiao_gewu::GewuError as E;
    let text = text.to_string();
    match e {
        E::IllegalMove(reason) => MoveError::Illegal { text, reason },
        E::MalformedMove(reason) | E::Throw(reason) | E::Position(reason) => {
            MoveError::Malformed { text, reason }
        }
    }
}

impl<B: HalmaBoard> SessionGame for HalmaPosition<B> {
    const KIND: GameKind = if B::N == 8 {
        GameKind::Halma8
    } else {
        GameKind::Halma10
    };
    const STOPS_AT_RESULT: bool = true;
    type Move = <Self as Game>::Move;
    type Counters = HalmaCounters;
    type Knowledge = ();

    fn start() -> (Self, HalmaCounters) {
        (HalmaPosition::start(), HalmaCounters::START)
    }
    fn read_position(text: &str, _: PositionForm) -> Result<(Self, HalmaCounters), String> {
        tiao_halma::from_fen::<B>(text).map_err(|e| e.to_string())
    }
    fn write_position(&self, counters: &HalmaCounters, _: PositionForm) -> String {
        tiao_halma::to_fen(self, counters)
    }
    fn read_move(&self, text: &str, _: MoveReading) -> Result<Self::Move, MoveError> {
        tiao_halma::parse_move(self, text).map_err(|e| halma_move_error(text, e))
    }
    fn write_move(&self, mv: &Self::Move, _: MoveFormat) -> String {
        tiao_halma::move_text(self, mv)
    }
    fn notation() -> MoveFormat {
        MoveFormat::Hub
    }
    fn legal_moves(&self, _: MoveFormat) -> Vec<String> {
        sorted_moves(self, |m| tiao_halma::move_text(self, m))
    }
    fn play(&self, counters: &HalmaCounters, mv: &Self::Move) -> (Self, HalmaCounters) {
        let next = Game::play(self, mv);
        (next, self.next_counters(counters, mv, &next))
    }
    fn hash(&self) -> u64 {
        Game::hash(self)
    }
    fn side(&self) -> Colour {
        Game::side(self)
    }
    fn search(
        current: &Current<'_, Self>,
        searcher: &mut Searcher,
        params: &Params,
        report: &(dyn Fn(&Info<Self::Move>) + Sync),
    ) -> SearchResult<Self::Move> {
        search::<Self, HalmaEval>(current, searcher, params, report)
    }
    fn evaluate(&self, _: &()) -> (i32, Vec<Term>) {
        (HalmaEval.evaluate(self), Vec::new())
    }
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        _bulk: bool,
        _pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        perft(self, depth, divide, |m| tiao_halma::move_text(self, m))
    }
    fn result(&self, counters: &HalmaCounters, earlier: &[u64]) -> Option<(GameResult, String)> {
        let o = tiao_halma::outcome(self, counters, earlier)?;
        Some((o.result(), o.to_string()))
    }
    fn diagram(&self) -> String {
        tiao_halma::diagram(self)
    }
}

impl SessionGame for GewuPosition {
    const KIND: GameKind = GameKind::Gewu;
    const STOPS_AT_RESULT: bool = true;
    type Move = tiao_gewu::GewuMove;
    type Counters = ();
    type Knowledge = ();

    fn start() -> (Self, ()) {
        (GewuPosition::start(), ())
    }
    fn read_position(text: &str, _: PositionForm) -> Result<(Self, ()), String> {
        tiao_gewu::from_fen(text)
            .map(|p| (p, ()))
            .map_err(|e| e.to_string())
    }
    fn write_position(&self, _: &(), _: PositionForm) -> String {
        tiao_gewu::to_fen(self)
    }
    fn read_move(&self, text: &str, _: MoveReading) -> Result<Self::Move, MoveError> {
        tiao_gewu::parse_move(self, text).map_err(|e| gewu_move_error(text, e))
    }
    fn write_move(&self, mv: &Self::Move, _: MoveFormat) -> String {
        tiao_gewu::move_text(mv)
    }
    fn notation() -> MoveFormat {
        MoveFormat::Hub
    }
    fn legal_moves(&self, _: MoveFormat) -> Vec<String> {
        sorted_moves(self, tiao_gewu::move_text)
    }
    fn play(&self, _: &(), mv: &Self::Move) -> (Self, ()) {
        (GewuPosition::play(self, mv), ())
    }
    fn hash(&self) -> u64 {
        GewuPosition::hash(self)
    }
    fn side(&self) -> Colour {
        GewuPosition::side(self)
    }
    fn result(&self, _: &(), _earlier: &[u64]) -> Option<(GameResult, String)> {
        gewu_result(self)
    }
    fn diagram(&self) -> String {
        tiao_gewu::diagram(self)
    }
    fn search(
        current: &Current<'_, Self>,
        searcher: &mut Searcher,
        params: &Params,
        report: &(dyn Fn(&Info<Self::Move>) + Sync),
    ) -> SearchResult<Self::Move> {
        search::<Self, GewuEval>(current, searcher, params, report)
    }
    fn evaluate(&self, _: &()) -> (i32, Vec<Term>) {
        (GewuEval.evaluate(self), Vec::new())
    }
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        _bulk: bool,
        _pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        perft(self, depth, divide, tiao_gewu::move_text)
    }
}

/// Who won a Gewu position by the board (both forms), and why.
pub(crate) fn gewu_result(pos: &GewuPosition) -> Option<(GameResult, String)> {
    let o = pos.result()?;
    Some((o.result(), o.to_string()))
}
