//! The engine as the front ends see it: [`Engine`], a game of any variant,
//! the search, the knowledge (evaluation, endgame databases, opening book)
//! and the settings, behind methods that speak text (positions, moves,
//! principal variations). Its state is private: front ends (Hub, text
//! mode, DXP) set up positions, play moves, read and write options by
//! name ([`options`], one table of every option) and ask for a move
//! ([`Engine::choose_move`]: book, else databases, else search); they only
//! translate between their protocol and this.
//!
//! Every game is one [`GameSession<G>`] (`session.rs`), monomorphised for
//! its position type `G`; switching variants replaces the session and keeps
//! the searcher (threads and table).
//! Tools that only need the rules of a game (perft, the match runner's
//! arbiter) use sessions directly.

pub mod bench;
mod board_game;
mod decision;
mod draughts;
mod error;
mod gewu_dice;
mod kind;
mod loaded;
pub mod options;
mod pdn;
mod session;
mod view;

pub use decision::{DatabaseMove, Decision, Purpose};
pub use error::{EngineError, KeptTable};
pub use gewu_dice::GewuTurn;
pub use kind::{GameKind, UnknownGame};
pub use loaded::{
    BookLoad, BookLoadError, KnowledgeError, NotOpened, Opened, TablesError, TablesLoad,
};
pub use options::{OptionError, OptionKind, OptionSpec, Refusal};
pub use pdn::{PdnLoad, PdnLoadError};
pub use session::{
    Current, GameSession, MoveReading, PerftLine, PositionForm, Session, SessionGame, TablesMove,
    TablesOpen, new_game_session, new_session,
};
pub use view::{BoardView, MoveView, PieceView, SquareView};

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use tiao_draughts::board::{Colour, Variant};
use tiao_draughts::notation::{MoveError, MoveFormat};
use tiao_knowledge::book::{Book, BookChoice, BookSettings};
use tiao_knowledge::eval::Term;
use tiao_knowledge::eval::pattern_select::EvalChoice;
use tiao_search::{Control, Info, Mode, Params, SearchResult, Searcher};

/// Thinking time of a search that comes without any limit (Hub `go think`
/// without a `level`, text-mode `go`): one definition for every front end.
pub const DEFAULT_MOVE_TIME: std::time::Duration = std::time::Duration::from_secs(1);

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
    /// Opening book use (`book`, `book-ply`, `book-margin`, `book-max-ply`).
    pub book: BookSettings,
    /// The book file; `None`: the variant's built-in book.
    pub book_file: Option<PathBuf>,
}

impl Default for Options {
    /// The defaults of the option table ([`options::TABLE`]).
    fn default() -> Self {
        use options::{EGDB_DIR, EGDB_PIECES, HASH, MULTIPV, PONDER, THREADS};
        let text = |o: &OptionSpec| o.default_text();
        Options {
            variant: Variant::International,
            threads: THREADS.int_default() as usize,
            hash_mib: HASH.int_default() as usize,
            multipv: MULTIPV.int_default() as usize,
            ponder: PONDER.bool_default(),
            egdb_pieces: EGDB_PIECES.int_default() as u32,
            egdb_dir: PathBuf::from(text(&EGDB_DIR)),
            // The option table's book defaults are read from this one.
            book: BookSettings::DEFAULT,
            book_file: None,
        }
    }
}

/// An opening book in play, with each position's distance in plies from
/// the start through book moves: that distance is the game ply `book-ply`
/// counts, even when a GUI sends the current position without the moves
/// that led to it.
struct LoadedBook {
    book: Book,
    /// The `book-file` it was read from; `None`: the built-in book.
    path: Option<PathBuf>,
    distance: HashMap<u64, u32>,
}

/// Where a position set up from outside comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionText<'a> {
    /// The game's start position.
    Start,
    /// A FEN (numeric or algebraic squares).
    Fen(&'a str),
    /// A Hub position string.
    Hub(&'a str),
}

/// Why a position was not set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The position text cannot be read; `message` says why, in the words
    /// of the reader (`bad FEN: ...`, `bad position: ...`).
    Unreadable { message: String },
    /// A move after the position is not legal there (or not a move).
    Move {
        /// Its index in the list (0 for the first).
        index: usize,
        text: String,
        error: MoveError,
    },
}

impl PositionError {
    /// Why the position text cannot be read, without the `bad position: `
    /// its reader may start with (the Display form adds it, once).
    fn reason(&self) -> &str {
        match self {
            PositionError::Unreadable { message } => {
                message.strip_prefix("bad position: ").unwrap_or(message)
            }
            PositionError::Move { .. } => "",
        }
    }
}

impl std::fmt::Display for PositionError {
    /// Scan's wording first (`bad position`, `bad move`, `illegal move`),
    /// so that scripts can match it; then the reason.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Unreadable { .. } => write!(f, "bad position: {}", self.reason()),
            PositionError::Move { index, text, error } => {
                let kind = if matches!(error, MoveError::Malformed { .. }) {
                    "bad move"
                } else {
                    "illegal move"
                };
                write!(f, "{kind}: move {} ('{text}'): {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Set `session` up at `position` and play `moves` from it (the session is
/// left half set up on an error: callers restore or discard it).
fn set_up(
    session: &mut dyn Session,
    position: PositionText<'_>,
    moves: &[&str],
    reading: MoveReading,
) -> Result<(), PositionError> {
    match position {
        PositionText::Start => session.reset(),
        PositionText::Fen(fen) => session
            .set_fen(fen)
            .map_err(|message| PositionError::Unreadable { message })?,
        PositionText::Hub(text) => session
            .set_hub_position(text)
            .map_err(|message| PositionError::Unreadable { message })?,
    }
    session
        .play_all(moves, reading)
        .map_err(|(index, error)| PositionError::Move {
            index,
            text: moves[index].to_string(),
            error,
        })
}

/// A whole engine: the current game, the searcher, the knowledge and the
/// settings. Its state is private; see the module documentation.
pub struct Engine {
    session: Box<dyn Session>,
    searcher: Searcher,
    /// The evaluation the options chose, for every variant; the session
    /// owns its rule set's part of it ([`Session::set_eval`]).
    eval: EvalChoice,
    options: Options,
    /// The opening book of the current variant, once [`Engine::load_book`] found one.
    book: Option<Arc<LoadedBook>>,
    /// Whether a front end asked for a book (then switching variants loads the new variant's).
    book_wanted: bool,
    /// The name the game was last chosen by with the `variant` option
    /// (`normal` and `international` name the same game).
    variant_name: &'static str,
    /// The `tt-size` option: the table size last asked for that way.
    tt_size: u32,
    /// The `eval-file` option.
    eval_file: String,
    /// [`Engine::open_knowledge`] was called: changes of the databases and
    /// book options open them at once.
    knowledge_open: bool,
    /// Options changed what to open, not opened yet.
    egdb_stale: bool,
    book_stale: bool,
}

impl Engine {
    /// An engine at the start position of `options.variant`, with its
    /// threads started and its table allocated; nothing is opened yet
    /// ([`Engine::open_knowledge`]).
    pub fn new(options: Options) -> Result<Self, EngineError> {
        let searcher = Searcher::new(options.threads, options.hash_mib)
            .map_err(|e| EngineError::of_searcher(e, KeptTable::Nothing))?;
        Ok(Engine {
            session: new_session(options.variant),
            searcher,
            eval: EvalChoice::builtin().clone(),
            options,
            book: None,
            book_wanted: false,
            variant_name: options::VARIANT.text_default(),
            tt_size: options::TT_SIZE.int_default() as u32,
            eval_file: String::new(),
            knowledge_open: false,
            egdb_stale: false,
            book_stale: false,
        })
    }

    /// The settings (read only: they change through [`Engine::set_option`]).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The game played.
    pub fn game(&self) -> GameKind {
        self.session.kind()
    }

    /// The draughts variant, if the game is draughts.
    pub fn variant(&self) -> Option<Variant> {
        self.session.variant()
    }

    /// The value of the `variant` option: the name the game was chosen by.
    fn variant_name(&self) -> &'static str {
        match self.variant_name.parse::<GameKind>() {
            Ok(g) if g == self.game() => self.variant_name,
            _ => self.game().name(),
        }
    }

    /// Switch to a draughts variant (a new game at the start position);
    /// errors as [`Engine::set_game`].
    pub fn set_variant(&mut self, v: Variant) -> Result<(), NotOpened> {
        self.options.variant = v;
        self.set_game(GameKind::Draughts(v))
    }

    /// Switch to any game (a new game at the start position). The switch
    /// always happens; an error says what of the new variant's knowledge
    /// (its endgame tables, its opening book) could not be opened. What
    /// was opened is logged.
    pub fn set_game(&mut self, kind: GameKind) -> Result<(), NotOpened> {
        if self.session.kind() == kind {
            return Ok(());
        }
        if let Some(v) = kind.variant() {
            self.options.variant = v;
        }
        self.session = new_game_session(kind);
        self.session.set_eval(&self.eval);
        self.searcher.clear();
        let mut problems = Vec::new();
        // Tables are per variant: open the new variant's, if any are wanted.
        if self.options.egdb_pieces > 0 {
            match self.load_egdb() {
                Ok(found) => log::info!("{found}"),
                Err(e) => problems.push(e.into()),
            }
        }
        if self.book_wanted {
            match self.load_book() {
                Ok(found) => log::info!("{found}"),
                Err(e) => problems.push(e.into()),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(NotOpened { problems })
        }
    }

    /// Open what the options ask for: the endgame databases (if
    /// `egdb-pieces` is not 0), then the opening book (if `book` is on).
    /// From then on, changing those options opens them again at once.
    /// One result per thing opened: what was loaded, or why not (the
    /// engine then plays without it).
    pub fn open_knowledge(&mut self) -> Vec<Result<Opened, KnowledgeError>> {
        self.knowledge_open = true;
        self.egdb_stale = false;
        self.book_stale = false;
        let mut opened = Vec::new();
        if self.options.egdb_pieces > 0 {
            opened.push(self.load_egdb().map(Opened::from).map_err(Into::into));
        }
        if self.options.book.enabled {
            opened.push(self.load_book().map(Opened::from).map_err(Into::into));
        }
        opened
    }

    /// Open the opening book of the current variant: the file of the
    /// `book-file` option, or else the variant's built-in book. Returns
    /// what was loaded, or why nothing was (the engine then plays without a
    /// book). A named file that is missing or invalid is an error; a
    /// variant without a built-in book (Canadian) and a game without books
    /// are not.
    pub fn load_book(&mut self) -> Result<BookLoad, BookLoadError> {
        self.book = None;
        self.book_wanted = true;
        let Some(variant) = self.session.variant() else {
            return Ok(BookLoad::NoneForGame {
                game: self.session.kind(),
            });
        };
        let (book, path) = match self.options.book_file.clone() {
            Some(path) => {
                let book = Book::load(&path, variant)
                    .map_err(|error| BookLoadError::new(path.clone(), error))?;
                (book, Some(path))
            }
            None => match tiao_knowledge::book::builtin(variant) {
                Some(read) => {
                    let book = read.map_err(|error| BookLoadError::BuiltIn { variant, error })?;
                    (book, None)
                }
                None => return Ok(BookLoad::NotShipped { variant }),
            },
        };
        let positions = book.len();
        let found = match &path {
            Some(path) => BookLoad::Loaded {
                positions,
                path: path.clone(),
            },
            None => BookLoad::BuiltIn { variant, positions },
        };
        let distance = book.distances();
        self.book = Some(Arc::new(LoadedBook {
            book,
            path,
            distance,
        }));
        Ok(found)
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
    /// variant, checking every block of every table. Returns what was
    /// loaded, or why nothing was; an error also when some tables were
    /// damaged, naming them (the sound tables are still used, as far as
    /// they form a complete set: [`TablesError::Damaged`]).
    pub fn load_egdb(&mut self) -> Result<TablesLoad, TablesError> {
        self.session.close_tables();
        let asked = self.options.egdb_pieces;
        if asked == 0 {
            return Ok(TablesLoad::Off);
        }
        let game = self.session.kind();
        let dir = self.options.egdb_dir.clone();
        match self.session.open_tables(&dir, asked) {
            TablesOpen::NotForThisGame => Ok(TablesLoad::NotForThisGame { game }),
            TablesOpen::Failed { error, damaged } => {
                Err(TablesError::NoneLoaded { error, damaged })
            }
            TablesOpen::Opened {
                pieces: used,
                damaged,
            } if !damaged.is_empty() => Err(TablesError::Damaged {
                game,
                damaged,
                used,
                asked,
                dir,
            }),
            TablesOpen::Opened { pieces: used, .. } if used < asked => Ok(TablesLoad::Partial {
                game,
                used,
                asked,
                dir,
            }),
            TablesOpen::Opened { pieces, .. } => Ok(TablesLoad::Complete { game, pieces, dir }),
        }
    }

    /// Restart the search threads; on failure the current ones (and the
    /// `threads` option) stay as they were.
    fn set_threads(&mut self, n: usize) -> Result<(), EngineError> {
        self.searcher
            .set_threads(n)
            .map_err(|e| EngineError::of_searcher(e, KeptTable::Current))?;
        self.options.threads = n.max(1);
        Ok(())
    }

    /// Resize the transposition table; on failure the current table (and
    /// the `hash` option) stay as they were.
    fn set_hash_mib(&mut self, mib: usize) -> Result<(), EngineError> {
        self.searcher
            .set_hash_mib(mib)
            .map_err(|error| EngineError::Table {
                error,
                kept: KeptTable::Mib(self.options.hash_mib),
            })?;
        self.options.hash_mib = mib;
        Ok(())
    }

    /// Evaluate with `eval` from now on, in this variant and the next.
    fn set_eval(&mut self, eval: EvalChoice) {
        self.session.set_eval(&eval);
        self.eval = eval;
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
    pub fn prepare(&self, mode: tiao_search::Mode) {
        self.searcher.prepare(mode);
    }

    /// Search the current position (prepares the searcher first).
    pub fn search(
        &mut self,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        self.searcher.prepare(params.mode);
        self.search_prepared(params, format, report)
    }

    /// Search the current position; the caller has called [`Engine::prepare`].
    pub fn search_prepared(
        &mut self,
        params: &Params,
        format: MoveFormat,
        report: &(dyn Fn(&Info<String>) + Sync),
    ) -> SearchResult<String> {
        self.session
            .search(&mut self.searcher, params, format, report)
    }

    /// The opening book in play, if one was opened.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref().map(|b| &b.book)
    }

    /// The file the book in play was read from (`None` when no book is
    /// in play, or the built-in one is).
    pub fn book_path(&self) -> Option<&std::path::Path> {
        self.book.as_deref().and_then(|b| b.path.as_deref())
    }

    /// This position's book moves in `format`, with their scores (empty
    /// when the position is not in the book, or no book is open).
    pub fn book_moves(&self, format: MoveFormat) -> Vec<(String, Option<i32>)> {
        let (Some(book), Some((hash, _))) = (&self.book, self.session.book_key()) else {
            return Vec::new();
        };
        book.book
            .moves(hash)
            .unwrap_or_default()
            .iter()
            .map(|m| {
                let mv = self
                    .session
                    .convert(&m.mv, MoveReading::Hub, format)
                    .unwrap_or_else(|_| m.mv.clone());
                (mv, m.score)
            })
            .collect()
    }

    /// Set up a position and play `moves` from it, all or nothing: on an
    /// error the engine keeps the game it had.
    pub fn set_position(
        &mut self,
        position: PositionText<'_>,
        moves: &[&str],
        reading: MoveReading,
    ) -> Result<(), PositionError> {
        let saved = self.session.box_clone();
        let set = set_up(&mut *self.session, position, moves, reading);
        if set.is_err() {
            self.session = saved;
        }
        set
    }

    /// Play one move; returns it in the variant's usual notation.
    pub fn play(&mut self, text: &str, reading: MoveReading) -> Result<String, MoveError> {
        self.session.play(text, reading)
    }

    /// Take back the last move; returns it.
    pub fn undo(&mut self) -> Option<String> {
        self.session.undo()
    }

    pub fn side_to_move(&self) -> Colour {
        self.session.side()
    }

    pub fn fen(&self) -> String {
        self.session.fen()
    }

    pub fn hub_position(&self) -> String {
        self.session.hub_position()
    }

    /// A text picture of the board.
    pub fn diagram(&self) -> String {
        self.session.diagram()
    }

    /// The legal moves in `format`.
    pub fn legal_moves(&self, format: MoveFormat) -> Vec<String> {
        self.session.legal_moves(format)
    }

    /// The moves played since the position was set up, in `format`.
    pub fn history(&self, format: MoveFormat) -> Vec<String> {
        self.session.history(format)
    }

    /// Who won by the rules, if the game is over (why: [`Engine::result_text`]).
    pub fn outcome(&self) -> Option<tiao_core::GameResult> {
        self.session.outcome()
    }

    /// The result as a sentence, if the game is over (`white wins (...)`).
    pub fn result_text(&self) -> Option<String> {
        self.session.result_text()
    }

    /// Write a legal move of the current position in another format.
    pub fn convert_move(
        &self,
        text: &str,
        reading: MoveReading,
        format: MoveFormat,
    ) -> Result<String, MoveError> {
        self.session.convert(text, reading, format)
    }

    /// The static evaluation of the current position, side to move's view, and its terms.
    pub fn evaluate(&self) -> (i32, Vec<Term>) {
        self.session.evaluate()
    }

    /// perft of the current position (with `divide`, one line per root move, then the total).
    pub fn perft(
        &self,
        depth: u32,
        divide: bool,
        bulk: bool,
        pool: Option<&rayon::ThreadPool>,
    ) -> Vec<PerftLine> {
        self.session.perft(depth, divide, bulk, pool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More than any machine has: the size overflows, so no allocator is asked.
    const ABSURD_MIB: usize = usize::MAX;

    #[test]
    fn an_absurd_table_makes_no_engine_and_says_so_by_its_kind() {
        let made = Engine::new(Options {
            hash_mib: ABSURD_MIB,
            ..Options::default()
        });
        let Err(e) = made else {
            panic!("an engine with an absurd table");
        };
        assert!(
            matches!(
                e,
                EngineError::Table {
                    kept: KeptTable::Nothing,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("cannot allocate"), "{e}");
        assert!(!e.to_string().contains("keeping"), "{e}");
    }

    #[test]
    fn an_absurd_hash_is_refused_and_the_engine_keeps_its_table() {
        let mut engine = Engine::new(Options::default()).expect("engine");
        let mib = engine.options().hash_mib;
        let bytes = engine.searcher.tt().bytes();
        let e = engine
            .set_hash_mib(ABSURD_MIB)
            .expect_err("an absurd table");
        let EngineError::Table { kept, .. } = &e else {
            panic!("not a table error: {e:?}");
        };
        assert_eq!(*kept, KeptTable::Mib(mib));
        assert!(
            e.to_string()
                .ends_with(&format!("; keeping the {mib} MiB table")),
            "{e}"
        );
        assert_eq!(engine.options().hash_mib, mib);
        assert_eq!(engine.option("hash"), Ok(mib.to_string()));
        assert_eq!(engine.searcher.tt().bytes(), bytes);
        // A size that fits is still taken.
        engine.set_hash_mib(1).expect("1 MiB");
        assert_eq!(engine.options().hash_mib, 1);
        assert!(engine.searcher.tt().bytes() < bytes);
    }
}
