//! The engine as the front ends see it: a game of any variant, the search
//! and the settings, behind one object-safe interface that speaks text
//! (positions, moves, principal variations). Front ends (Hub, text mode,
//! DXP, the match runner) only translate between their protocol and this.
//!
//! Each variant is a monomorphised [`Session`] implementation; switching
//! variants replaces the session and keeps the searcher (threads and table).

mod board_game;
mod draughts;
mod gewu_dice;
mod kind;

pub use board_game::{BoardGameSession, TextGame};
pub use draughts::DraughtsSession;
pub use gewu_dice::GewuDiceSession;
pub use kind::{GameKind, UnknownGame};

use crate::board::{Colour, Outcome as GameOutcome, Variant};
use crate::book::{Book, BookChoice, BookSettings};
use crate::endgame::Egdb;
use crate::eval::pattern_select::EvalChoice;
use crate::notation::{MoveError, MoveFormat};
use crate::search::{Control, Info, Mode, Outcome, Params, Searcher};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Thinking time of a search that comes without any limit (Hub `go think`
/// without a `level`, text-mode `go`): one definition for every front end.
pub const DEFAULT_MOVE_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// How move text from outside is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveReading {
    /// Hub: captures list their captured squares (`28x19x23`).
    Hub,
    /// Anything a person might type: Hub form, PDN short or full path,
    /// numeric or algebraic squares.
    Any,
}

/// What the engine knows besides the rules: the evaluation and the endgame
/// databases. Shared by every session (cheap to clone).
#[derive(Clone, Default)]
pub struct Knowledge {
    pub eval: Arc<EvalChoice>,
    /// Endgame databases for the current variant, if loaded.
    pub egdb: Option<Arc<Egdb>>,
}

/// A line of the evaluation breakdown.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTerm {
    pub name: &'static str,
    /// Feature count, White minus Black.
    pub value: i32,
    /// Contribution in centi-men, White's view.
    pub score: i32,
}

/// A perft result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftLine {
    /// The root move (divide) or `None` for the total.
    pub mv: Option<String>,
    pub nodes: u64,
}

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
    /// The game's result by the rules, if it is over.
    fn outcome(&self) -> Option<GameOutcome>;
    /// The value of the current position in endgame databases, for the
    /// side to move, if they cover it (draughts only).
    fn egdb_verdict(&self, _db: &Egdb) -> Option<crate::game::Verdict> {
        None
    }
    /// What an opening book looks the position up by: its hash (as the
    /// book computes it) and the plies played since the position was set
    /// up. `None` for games without books.
    fn book_key(&self) -> Option<(u64, u32)> {
        None
    }
    /// The result as a sentence, if the game is over (`white wins (...)`).
    fn result_text(&self) -> Option<String> {
        self.outcome().map(|o| match o {
            GameOutcome::Win(c) => format!("{} wins ({} cannot move)", c.name(), (!c).name()),
            GameOutcome::Draw(reason) => format!("draw ({reason})"),
        })
    }
    /// Write `mv` (a legal move in text) in another format.
    fn convert(
        &self,
        text: &str,
        reading: MoveReading,
        format: MoveFormat,
    ) -> Result<String, MoveError>;
    /// Search the current position. Moves in the result are in `format`.
    fn search(
        &self,
        searcher: &mut Searcher,
        know: &Knowledge,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> Outcome<String>;
    /// The static evaluation of the current position, side to move's view, and its terms.
    fn evaluate(&self, know: &Knowledge) -> (i32, Vec<EvalTerm>);
    /// perft of the current position (with `divide`, one line per root move, then the total).
    fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine>;
}

/// A new session of a variant at its start position.
pub fn new_session(v: Variant) -> Box<dyn Session> {
    use crate::board::{Brazilian, Canadian, International, Russian};
    match v {
        Variant::International => Box::new(DraughtsSession::<International>::new()),
        Variant::Brazilian => Box::new(DraughtsSession::<Brazilian>::new()),
        Variant::Russian => Box::new(DraughtsSession::<Russian>::new()),
        Variant::Canadian => Box::new(DraughtsSession::<Canadian>::new()),
    }
}

/// A new session of any game at its start position.
pub fn new_game_session(kind: GameKind) -> Box<dyn Session> {
    use crate::gewu::GewuPosition;
    use crate::halma::{Halma8, Halma10, HalmaPosition};
    match kind {
        GameKind::Draughts(v) => new_session(v),
        GameKind::Halma8 => Box::new(BoardGameSession::<HalmaPosition<Halma8>>::new()),
        GameKind::Halma10 => Box::new(BoardGameSession::<HalmaPosition<Halma10>>::new()),
        GameKind::Gewu => Box::new(BoardGameSession::<GewuPosition>::new()),
        GameKind::GewuDice => Box::new(GewuDiceSession::new()),
    }
}

/// Engine settings shared by the front ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: Variant,
    pub threads: usize,
    pub hash_mib: usize,
    pub multipv: usize,
    pub ponder: bool,
    /// Endgame databases: largest number of pieces to use (0 = off), and where they are.
    pub egdb_pieces: u32,
    pub egdb_dir: PathBuf,
    /// Opening book use (`book`, `book-ply`, `book-margin`).
    pub book: BookSettings,
    /// The book file; `None`: the variant's default (`openings/book-<variant>.txt`).
    pub book_file: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::International,
            threads: 1,
            hash_mib: 64,
            multipv: 1,
            ponder: false,
            egdb_pieces: 0,
            egdb_dir: PathBuf::from("egdb"),
            book: BookSettings::default(),
            book_file: None,
        }
    }
}

/// An opening book in play, with each position's distance in plies from
/// the start through book moves: that distance is the game ply `book-ply`
/// counts, even when a GUI sends the current position without the moves
/// that led to it.
pub struct LoadedBook {
    pub book: Book,
    pub path: PathBuf,
    distance: HashMap<u64, u32>,
}

/// A whole engine: the current game, the searcher and the evaluator.
pub struct Engine {
    pub session: Box<dyn Session>,
    pub searcher: Searcher,
    pub know: Knowledge,
    pub options: Options,
    /// The opening book of the current variant, once [`Engine::load_book`] found one.
    pub book: Option<Arc<LoadedBook>>,
    /// Whether a front end asked for a book (then switching variants loads the new variant's).
    book_wanted: bool,
}

impl Engine {
    pub fn new(options: Options) -> Result<Self, String> {
        Ok(Engine {
            session: new_session(options.variant),
            searcher: Searcher::new(options.threads, options.hash_mib)?,
            know: Knowledge::default(),
            options,
            book: None,
            book_wanted: false,
        })
    }

    /// Switch to a draughts variant (a new game at the start position);
    /// errors as [`Engine::set_game`].
    pub fn set_variant(&mut self, v: Variant) -> Result<(), String> {
        self.options.variant = v;
        self.set_game(GameKind::Draughts(v))
    }

    /// Switch to any game (a new game at the start position). The switch
    /// always happens; an error says what of the new variant's knowledge
    /// (its endgame tables, its opening book) could not be opened.
    pub fn set_game(&mut self, kind: GameKind) -> Result<(), String> {
        if self.session.kind() == kind {
            return Ok(());
        }
        if let Some(v) = kind.variant() {
            self.options.variant = v;
        }
        self.session = new_game_session(kind);
        self.searcher.clear();
        let mut problems = Vec::new();
        // Tables are per variant: open the new variant's, if any are wanted.
        if self.options.egdb_pieces > 0 {
            match self.load_egdb() {
                Ok(msg) => log::info!("{msg}"),
                Err(e) => problems.push(e),
            }
        }
        if self.book_wanted {
            match self.load_book() {
                Ok(msg) => log::info!("{msg}"),
                Err(e) => problems.push(e),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }

    /// Open the opening book of the current variant: `options.book_file`,
    /// or the variant's default file. Returns what was loaded, or why
    /// nothing was (the engine then plays without a book). Only a book
    /// file that was asked for and fails, or a default file that exists
    /// but is invalid, is an error: a variant that ships no book, a game
    /// without books and a default book that is not installed are not
    /// (the last is logged as a warning).
    pub fn load_book(&mut self) -> Result<String, String> {
        self.book = None;
        self.book_wanted = true;
        let Some(variant) = self.session.variant() else {
            return Ok(format!("no opening book for {}", self.session.kind()));
        };
        let loaded = match &self.options.book_file {
            Some(path) => Book::load(path, variant).map(|b| Some((b, path.clone()))),
            None => crate::book::load_default(variant),
        };
        match loaded {
            Ok(Some((book, path))) => {
                let msg = format!(
                    "opening book: {} positions from {}",
                    book.len(),
                    path.display()
                );
                let distance = book.distances();
                self.book = Some(Arc::new(LoadedBook {
                    book,
                    path,
                    distance,
                }));
                Ok(msg)
            }
            Ok(None) if crate::book::ships_book(variant) => {
                let looked: Vec<String> = crate::book::default_path_candidates(variant)
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect();
                log::warn!(
                    "no opening book for {variant} installed (looked in {}); playing without one",
                    looked.join(", ")
                );
                Ok(format!("no opening book for {variant}"))
            }
            Ok(None) => Ok(format!("no opening book for {variant}")),
            Err(e) => Err(format!("{e}; playing without an opening book")),
        }
    }

    /// The book move for the current position, if the book is on, has the
    /// position, and `mode` plays a move (analysis never uses the book).
    /// The random choice among near-equal moves draws on the clock, so
    /// that games differ; with `book-margin` 0 the choice is the best move.
    pub fn book_move(&self, mode: Mode) -> Option<BookChoice> {
        if mode == Mode::Analyze || !self.options.book.enabled {
            return None;
        }
        let loaded = self.book.as_ref()?;
        let (hash, played) = self.session.book_key()?;
        let ply = loaded.distance.get(&hash).copied().unwrap_or(played);
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ hash;
        let legal = self.session.legal_moves(MoveFormat::Hub);
        loaded
            .book
            .probe(hash, ply, &legal, &self.options.book, seed)
    }

    /// Open the endgame databases the options ask for, for the current
    /// variant, checking every block of every table. Returns a description
    /// of what was loaded, or why nothing was; an error also when some
    /// tables were damaged, naming them (the sound tables are still used,
    /// as far as they form a complete set).
    pub fn load_egdb(&mut self) -> Result<String, String> {
        self.know.egdb = None;
        let pieces = self.options.egdb_pieces;
        if pieces == 0 {
            return Ok("endgame databases off".into());
        }
        let Some(variant) = self.session.variant() else {
            return Ok(format!("no endgame databases for {}", self.session.kind()));
        };
        let dir = &self.options.egdb_dir;
        let checked = match Egdb::open_checked(dir, variant, pieces) {
            Ok(c) => c,
            Err(e) => {
                return Err(format!(
                    "no endgame databases loaded: {e}; playing without them"
                ));
            }
        };
        let damaged: Vec<String> = checked.damaged.iter().map(ToString::to_string).collect();
        let db = match checked.egdb {
            Ok(db) => db,
            Err(e) if damaged.is_empty() => {
                return Err(format!(
                    "no endgame databases loaded: {e}; playing without them"
                ));
            }
            Err(e) => {
                return Err(format!(
                    "no endgame databases loaded: damaged tables: {}; {e}; playing without them",
                    damaged.join("; ")
                ));
            }
        };
        let msg = if db.pieces() < pieces {
            format!(
                "endgame databases: {variant} complete up to {} pieces in {} (asked for {pieces}; \
                 generate the rest with: tiao egdb gen --variant {variant} --pieces {pieces} --dir {})",
                db.pieces(),
                dir.display(),
                dir.display()
            )
        } else {
            format!(
                "endgame databases: {variant} up to {} pieces from {}",
                db.pieces(),
                dir.display()
            )
        };
        let used = db.pieces();
        self.know.egdb = Some(Arc::new(db));
        if damaged.is_empty() {
            return Ok(msg);
        }
        Err(format!(
            "damaged endgame tables left out: {}; using the {variant} tables up to {used} pieces \
             (generate the damaged ones again with: tiao egdb gen --variant {variant} --pieces {pieces} --dir {})",
            damaged.join("; "),
            dir.display()
        ))
    }

    pub fn set_threads(&mut self, n: usize) -> Result<(), String> {
        self.searcher.set_threads(n)?;
        self.options.threads = n.max(1);
        Ok(())
    }

    /// Resize the transposition table; on failure the current table (and
    /// the `hash` option) stay as they were.
    pub fn set_hash_mib(&mut self, mib: usize) -> Result<(), String> {
        self.searcher
            .set_hash_mib(mib)
            .map_err(|e| format!("{e}; keeping the {} MiB table", self.options.hash_mib))?;
        self.options.hash_mib = mib;
        Ok(())
    }

    /// Forget the game's search results (new game).
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The stop / ponder-hit handle of the searcher.
    pub fn control(&self) -> Arc<Control> {
        self.searcher.control()
    }

    /// Arm the searcher for a search of `mode` (see [`Searcher::prepare`]).
    pub fn prepare(&self, mode: crate::search::Mode) {
        self.searcher.prepare(mode);
    }

    /// Search the current position (prepares the searcher first).
    pub fn search(
        &mut self,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> Outcome<String> {
        self.searcher.prepare(params.mode);
        self.search_prepared(params, format, report)
    }

    /// Search the current position; the caller has called [`Engine::prepare`].
    pub fn search_prepared(
        &mut self,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> Outcome<String> {
        self.session
            .search(&mut self.searcher, &self.know, params, format, report)
    }
}
