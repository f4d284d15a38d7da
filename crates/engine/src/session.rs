//! One game in play, of any game Tiao knows. [`Session`] is the face the
//! engine and the tools see: positions and moves as text, the result, the
//! search. It is implemented once, by [`GameSession<G>`], for every game
//! `G` that says through [`SessionGame`] how it is written, how it ends,
//! what it knows and how it is searched (draughts of each rule set in
//! `draughts.rs`, Halma and free Gewu in `board_game.rs`, Gewu with throws
//! in `gewu_dice.rs`). The record of the game (start, positions, moves,
//! counters, all-or-nothing move lists, undo) is kept here, once.

use super::GameKind;
use super::view::{BoardView, MoveView};
use std::path::Path;
use tiao_core::GameResult;
use tiao_core::game::Verdict;
use tiao_draughts::board::{Colour, Variant};
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_knowledge::endgame::VariantEgdb;
use tiao_knowledge::eval::Term;
use tiao_knowledge::eval::pattern_select::EvalChoice;
use tiao_search::{Info, Params, SearchResult, Searcher};

/// How move text from outside is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveReading {
    /// Hub: captures list their captured squares (`28x19x23`).
    Hub,
    /// Anything a person might type: Hub form, PDN short or full path,
    /// numeric or algebraic squares.
    Any,
}

/// Which way a position is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionForm {
    /// FEN (the game's own; numeric or algebraic squares for draughts).
    Fen,
    /// The Hub protocol's position string (the FEN where a game has no other).
    Hub,
}

/// What a session's [`Session::open_tables`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesOpen {
    /// The game has no endgame tables.
    NotForThisGame,
    /// A set complete up to `pieces` pieces is in use; the damaged tables
    /// left out are named.
    Opened { pieces: u32, damaged: Vec<String> },
    /// No usable set: why, and the damaged tables among the reasons.
    Failed { error: String, damaged: Vec<String> },
}

/// A perft result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftLine {
    /// The root move (divide) or `None` for the total.
    pub mv: Option<String>,
    pub nodes: u64,
}

/// The tables' move of [`Session::database_move`]: the move as text, the
/// position's value and its score.
pub type TablesMove = (String, Verdict, i32);

/// One game of one variant: position, history and rules, as text.
pub trait Session: Send {
    /// The game played.
    fn kind(&self) -> GameKind;
    /// The draughts variant, if the game is draughts.
    fn variant(&self) -> Option<Variant> {
        self.kind().variant()
    }
    /// A copy of the game (to restore it if a multi-step change fails).
    fn box_clone(&self) -> Box<dyn Session>;
    /// Back to the start position, no moves played.
    fn reset(&mut self);
    /// Set up a position from a FEN (numeric or algebraic squares).
    fn set_fen(&mut self, fen: &str) -> Result<(), String>;
    /// Set up a position from a Hub position string.
    fn set_hub_position(&mut self, text: &str) -> Result<(), String>;
    /// Play one move; returns it in the variant's usual notation.
    fn play(&mut self, text: &str, reading: MoveReading) -> Result<String, MoveError>;
    /// Play several moves, all or none: on an error the game is unchanged
    /// and the index of the offending move is returned with the error.
    fn play_all(&mut self, moves: &[&str], reading: MoveReading) -> Result<(), (usize, MoveError)>;
    /// Take back the last move; returns it.
    fn undo(&mut self) -> Option<String>;
    fn side(&self) -> Colour;
    fn fen(&self) -> String;
    fn hub_position(&self) -> String;
    /// A text picture of the board.
    fn diagram(&self) -> String;
    /// Legal moves in the given format.
    fn legal_moves(&self, format: MoveFormat) -> Vec<String>;
    /// Moves played so far, in the given format.
    fn history(&self, format: MoveFormat) -> Vec<String>;
    /// The FEN of the position the game started from (set up, or the start).
    fn start_fen(&self) -> String;
    /// The notation moves played are echoed in (the variant's PDN for draughts).
    fn notation(&self) -> MoveFormat;
    /// The board as a GUI draws it (draughts only).
    fn board_view(&self) -> Option<BoardView>;
    /// The last move played, with its paths from the position it was
    /// played in (draughts only; `None` before the first move).
    fn last_move_view(&self) -> Option<MoveView>;
    /// The legal moves in `format` with their landing paths (draughts
    /// only; none once a game that stops at its result is over).
    fn move_views(&self, format: MoveFormat) -> Vec<MoveView>;
    /// Who won by the rules, if the game is over (why: [`Session::result_text`]).
    fn outcome(&self) -> Option<GameResult>;
    /// The result as a sentence, if the game is over (`white wins (...)`).
    fn result_text(&self) -> Option<String>;
    /// Open the game's endgame tables with up to `pieces` pieces from
    /// `dir`, checking every block (the session keeps them, typed by its
    /// rule set, for its searches and probes). Games without tables say so.
    fn open_tables(&mut self, dir: &Path, pieces: u32) -> TablesOpen;
    /// Use tables already open (shared, as a match runner shares one set
    /// among its games); `false` when they are not this game's.
    fn attach_tables(&mut self, tables: &VariantEgdb) -> bool;
    /// Stop using endgame tables.
    fn close_tables(&mut self);
    /// The value of the current position in the session's endgame tables,
    /// for the side to move, if they cover it (draughts only).
    fn tables_verdict(&self) -> Option<Verdict>;
    /// The tables' move when they cover the current position and name the
    /// one best move (the fastest win, the slowest loss): the move in
    /// `format`, the position's value and its score (draughts only).
    fn database_move(&self, format: MoveFormat) -> Option<TablesMove>;
    /// What an opening book looks the position up by: its hash (as the
    /// book computes it) and the plies played since the position was set
    /// up. `None` for games without books.
    fn book_key(&self) -> Option<(u64, u32)>;
    /// Write `mv` (a legal move in text) in another format.
    fn convert(
        &self,
        text: &str,
        reading: MoveReading,
        format: MoveFormat,
    ) -> Result<String, MoveError>;
    /// Evaluate with `eval` from now on (the session keeps its game's part
    /// of it: the weights of its rule set).
    fn set_eval(&mut self, eval: &EvalChoice);
    /// Search the current position. Moves in the result are in `format`.
    fn search(
        &self,
        searcher: &mut Searcher,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String>;
    /// The static evaluation of the current position, side to move's view, and its terms.
    fn evaluate(&self) -> (i32, Vec<Term>);
    /// perft of the current position (with `divide`, one line per root move, then the total).
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine>;
}

/// The current position of a game as a search starts from it.
pub struct Current<'a, G: SessionGame> {
    pub position: G,
    pub counters: G::Counters,
    /// Hashes of the earlier positions of the game, oldest first.
    pub earlier: &'a [u64],
    /// What the session knows of the game (its evaluation, its tables).
    pub knowledge: &'a G::Knowledge,
}

/// A game as a [`GameSession`] plays it: its notation, its result, its
/// knowledge and its search. The position type is the game's own (a
/// draughts position of one rule set, a Halma board, a Gewu position with
/// its throw), so everything below the text is monomorphised.
pub trait SessionGame: Copy + Send + Sync + 'static {
    const KIND: GameKind;
    /// Whether the game refuses moves once its rules end it. Draughts plays
    /// on after a draw by the rules, since GUIs that do not apply a rule
    /// send the moves after it; the games only Tiao referees stop.
    const STOPS_AT_RESULT: bool;
    type Move: Copy + Send + Sync;
    /// The rules' counters along the game (move counts for draw rules).
    type Counters: Copy + Send + Sync;
    /// What the session knows of the game besides the rules, typed by the
    /// game: for a draughts rule set its evaluation weights and endgame
    /// tables; nothing for games that evaluate by a fixed formula.
    type Knowledge: Clone + Default + Send + Sync;

    fn start() -> (Self, Self::Counters);
    fn read_position(text: &str, form: PositionForm) -> Result<(Self, Self::Counters), String>;
    fn write_position(&self, counters: &Self::Counters, form: PositionForm) -> String;
    fn read_move(&self, text: &str, reading: MoveReading) -> Result<Self::Move, MoveError>;
    fn write_move(&self, mv: &Self::Move, format: MoveFormat) -> String;
    /// The notation moves played are echoed in.
    fn notation() -> MoveFormat;
    /// The legal moves as text, in the game's listing order.
    fn legal_moves(&self, format: MoveFormat) -> Vec<String>;
    fn play(&self, counters: &Self::Counters, mv: &Self::Move) -> (Self, Self::Counters);
    /// The position as `mv` was played from it: itself, except where a
    /// move carries part of the position (Gewu's throw).
    fn as_played(&self, _mv: &Self::Move) -> Self {
        *self
    }
    /// Text that is not a move but changes the current position (Gewu's
    /// bare throw): the new position and its echo; `None` for a move.
    fn read_event(&self, _text: &str) -> Option<Result<(Self, String), MoveError>> {
        None
    }
    fn hash(&self) -> u64;
    fn side(&self) -> Colour;
    /// Who won by the rules and why, as a sentence, given the hashes of the
    /// earlier positions (oldest first).
    fn result(&self, counters: &Self::Counters, earlier: &[u64]) -> Option<(GameResult, String)>;
    fn diagram(&self) -> String;
    fn search(
        current: &Current<'_, Self>,
        searcher: &mut Searcher,
        params: &Params,
        report: &(dyn Fn(&Info<Self::Move>) + Sync),
    ) -> SearchResult<Self::Move>;
    fn evaluate(&self, knowledge: &Self::Knowledge) -> (i32, Vec<Term>);
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine>;

    /// The book's hash of the position; `None` for games without books.
    fn book_hash(&self) -> Option<u64> {
        None
    }
    /// Take this game's part of `eval` (see [`Session::set_eval`]).
    fn set_eval(_knowledge: &mut Self::Knowledge, _eval: &EvalChoice) {}
    /// Open the game's endgame tables (see [`Session::open_tables`]).
    fn open_tables(_knowledge: &mut Self::Knowledge, _dir: &Path, _pieces: u32) -> TablesOpen {
        TablesOpen::NotForThisGame
    }
    /// Use this game's tables among tables already open, if they are its
    /// (see [`Session::attach_tables`]).
    fn attach_tables(_knowledge: &mut Self::Knowledge, _tables: &VariantEgdb) -> bool {
        false
    }
    /// See [`Session::close_tables`].
    fn close_tables(_knowledge: &mut Self::Knowledge) {}
    /// See [`Session::tables_verdict`].
    fn tables_verdict(
        &self,
        _counters: &Self::Counters,
        _knowledge: &Self::Knowledge,
    ) -> Option<Verdict> {
        None
    }
    /// See [`Session::database_move`].
    fn database_move(
        &self,
        _knowledge: &Self::Knowledge,
        _format: MoveFormat,
    ) -> Option<TablesMove> {
        None
    }
    /// See [`Session::board_view`].
    fn board_view(&self) -> Option<BoardView> {
        None
    }
    /// See [`Session::move_views`].
    fn move_views(&self, _format: MoveFormat) -> Vec<MoveView> {
        Vec::new()
    }
    /// `mv`, a legal move of this position, with its paths (see
    /// [`Session::last_move_view`]).
    fn move_view(&self, _mv: &Self::Move, _format: MoveFormat) -> Option<MoveView> {
        None
    }
}

/// A game of `G`: the start position, the positions after each move with
/// their counters and hashes, the moves, and what the session knows of
/// the game (its evaluation and tables).
pub struct GameSession<G: SessionGame> {
    start: (G, G::Counters),
    /// Positions after each move, with their counters.
    positions: Vec<(G, G::Counters)>,
    moves: Vec<G::Move>,
    /// Hashes of every position of the game, the current one last.
    hashes: Vec<u64>,
    knowledge: G::Knowledge,
}

impl<G: SessionGame> Clone for GameSession<G> {
    fn clone(&self) -> Self {
        GameSession {
            start: self.start,
            positions: self.positions.clone(),
            moves: self.moves.clone(),
            hashes: self.hashes.clone(),
            knowledge: self.knowledge.clone(),
        }
    }
}

impl<G: SessionGame> Default for GameSession<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: SessionGame> GameSession<G> {
    /// A game at the start position.
    pub fn new() -> Self {
        Self::from_start(G::start(), G::Knowledge::default())
    }

    fn from_start(start: (G, G::Counters), knowledge: G::Knowledge) -> Self {
        GameSession {
            start,
            positions: Vec::new(),
            moves: Vec::new(),
            hashes: vec![start.0.hash()],
            knowledge,
        }
    }

    /// A new game from `start`, keeping the knowledge.
    fn restart(&mut self, start: (G, G::Counters)) {
        *self = Self::from_start(start, std::mem::take(&mut self.knowledge));
    }

    fn current(&self) -> &(G, G::Counters) {
        self.positions.last().unwrap_or(&self.start)
    }

    /// Replace the current position by `pos`, the same position with more
    /// said of it (Gewu's throw); its counters and hash stay.
    fn refine_current(&mut self, pos: G) {
        match self.positions.last_mut() {
            Some(last) => last.0 = pos,
            None => self.start.0 = pos,
        }
    }

    /// Hashes of the earlier positions, oldest first.
    fn earlier(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    fn result(&self) -> Option<(GameResult, String)> {
        let (pos, counters) = self.current();
        pos.result(counters, self.earlier())
    }

    fn read(&self, text: &str, reading: MoveReading) -> Result<G::Move, MoveError> {
        if G::STOPS_AT_RESULT
            && let Some((_, why)) = self.result()
        {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                reason: format!("the game is over: {why}"),
            });
        }
        self.current().0.read_move(text, reading)
    }

    fn push(&mut self, mv: G::Move) {
        let (pos, counters) = *self.current();
        let played = pos.as_played(&mv);
        // The position the move was played from keeps what the move says of it.
        self.refine_current(played);
        let next = played.play(&counters, &mv);
        self.hashes.push(next.0.hash());
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// A list of moves played in turn from `pos`, as text.
    fn line(pos: &(G, G::Counters), moves: &[G::Move], format: MoveFormat) -> Vec<String> {
        let (mut p, mut c) = *pos;
        moves
            .iter()
            .map(|mv| {
                let t = p.write_move(mv, format);
                (p, c) = p.play(&c, mv);
                t
            })
            .collect()
    }
}

impl<G: SessionGame> Session for GameSession<G>
where
    G::Move: 'static,
    G::Counters: 'static,
{
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn reset(&mut self) {
        self.restart(G::start());
    }

    fn set_fen(&mut self, fen: &str) -> Result<(), String> {
        let start = G::read_position(fen, PositionForm::Fen)?;
        self.restart(start);
        Ok(())
    }

    fn set_hub_position(&mut self, text: &str) -> Result<(), String> {
        let start = G::read_position(text, PositionForm::Hub)?;
        self.restart(start);
        Ok(())
    }

    fn play(&mut self, text: &str, reading: MoveReading) -> Result<String, MoveError> {
        if let Some(event) = self.current().0.read_event(text) {
            if G::STOPS_AT_RESULT && self.result().is_some() {
                return Err(MoveError::Illegal {
                    text: text.into(),
                    reason: "the game is over".into(),
                });
            }
            let (pos, echo) = event?;
            self.refine_current(pos);
            return Ok(echo);
        }
        let mv = self.read(text, reading)?;
        let written = self.current().0.write_move(&mv, G::notation());
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
        self.hashes.pop();
        Some(self.current().0.write_move(&mv, G::notation()))
    }

    fn side(&self) -> Colour {
        self.current().0.side()
    }

    fn fen(&self) -> String {
        let (p, c) = self.current();
        p.write_position(c, PositionForm::Fen)
    }

    fn hub_position(&self) -> String {
        let (p, c) = self.current();
        p.write_position(c, PositionForm::Hub)
    }

    fn diagram(&self) -> String {
        self.current().0.diagram()
    }

    fn legal_moves(&self, format: MoveFormat) -> Vec<String> {
        if G::STOPS_AT_RESULT && self.result().is_some() {
            return Vec::new();
        }
        self.current().0.legal_moves(format)
    }

    fn history(&self, format: MoveFormat) -> Vec<String> {
        Self::line(&self.start, &self.moves, format)
    }

    fn notation(&self) -> MoveFormat {
        G::notation()
    }

    fn start_fen(&self) -> String {
        let (p, c) = &self.start;
        p.write_position(c, PositionForm::Fen)
    }

    fn board_view(&self) -> Option<BoardView> {
        self.current().0.board_view()
    }

    fn last_move_view(&self) -> Option<MoveView> {
        let mv = self.moves.last()?;
        let before = match self.positions.len() {
            0 | 1 => &self.start,
            n => &self.positions[n - 2],
        };
        before.0.move_view(mv, G::notation())
    }

    fn move_views(&self, format: MoveFormat) -> Vec<MoveView> {
        if G::STOPS_AT_RESULT && self.result().is_some() {
            return Vec::new();
        }
        self.current().0.move_views(format)
    }

    fn outcome(&self) -> Option<GameResult> {
        self.result().map(|(o, _)| o)
    }

    fn result_text(&self) -> Option<String> {
        self.result().map(|(_, t)| t)
    }

    fn open_tables(&mut self, dir: &Path, pieces: u32) -> TablesOpen {
        G::open_tables(&mut self.knowledge, dir, pieces)
    }

    fn attach_tables(&mut self, tables: &VariantEgdb) -> bool {
        G::attach_tables(&mut self.knowledge, tables)
    }

    fn close_tables(&mut self) {
        G::close_tables(&mut self.knowledge);
    }

    fn tables_verdict(&self) -> Option<Verdict> {
        let (p, c) = self.current();
        p.tables_verdict(c, &self.knowledge)
    }

    fn database_move(&self, format: MoveFormat) -> Option<TablesMove> {
        self.current().0.database_move(&self.knowledge, format)
    }

    fn book_key(&self) -> Option<(u64, u32)> {
        let hash = self.current().0.book_hash()?;
        Some((hash, self.moves.len() as u32))
    }

    fn convert(
        &self,
        text: &str,
        reading: MoveReading,
        format: MoveFormat,
    ) -> Result<String, MoveError> {
        let mv = self.read(text, reading)?;
        Ok(self.current().0.write_move(&mv, format))
    }

    fn set_eval(&mut self, eval: &EvalChoice) {
        G::set_eval(&mut self.knowledge, eval);
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        let current = Current {
            position: self.current().0,
            counters: self.current().1,
            earlier: self.earlier(),
            knowledge: &self.knowledge,
        };
        let from = *self.current();
        let out = G::search(&current, searcher, params, &|info: &Info<G::Move>| {
            report(&info.with_pv(Self::line(&from, &info.pv, format)))
        });
        out.with_pv(Self::line(&from, &out.pv, format))
    }

    fn evaluate(&self) -> (i32, Vec<Term>) {
        self.current().0.evaluate(&self.knowledge)
    }

    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        self.current().0.perft(depth, divide, bulk, pool)
    }
}

/// A new session of a variant at its start position.
pub fn new_session(v: Variant) -> Box<dyn Session> {
    use tiao_draughts::board::Position;
    tiao_draughts::with_rules!(v, R => Box::new(GameSession::<Position<R>>::new()))
}

/// A new session of any game at its start position.
pub fn new_game_session(kind: GameKind) -> Box<dyn Session> {
    use super::gewu_dice::GewuTurn;
    use tiao_gewu::GewuPosition;
    use tiao_halma::{Halma8, Halma10, HalmaPosition};
    match kind {
        GameKind::Draughts(v) => new_session(v),
        GameKind::Halma8 => Box::new(GameSession::<HalmaPosition<Halma8>>::new()),
        GameKind::Halma10 => Box::new(GameSession::<HalmaPosition<Halma10>>::new()),
        GameKind::Gewu => Box::new(GameSession::<GewuPosition>::new()),
        GameKind::GewuDice => Box::new(GameSession::<GewuTurn>::new()),
    }
}
