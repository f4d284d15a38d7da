//! What opening the engine's knowledge found: the opening book
//! ([`BookLoad`], [`BookLoadError`]) and the endgame databases
//! ([`TablesLoad`], [`TablesError`]), each a value a caller can branch on
//! whose Display is the sentence Tiao prints or logs.

use crate::GameKind;
use std::fmt;
use std::path::{Path, PathBuf};
use tiao_draughts::board::Variant;
use tiao_knowledge::book::BookError;

/// What [`Engine::load_book`](crate::Engine::load_book) did when nothing
/// went wrong: a book is in play, or there is none to play and that is
/// not a fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookLoad {
    /// The book compiled into Tiao for the variant is in play (the
    /// default: no `book-file` named), with its number of positions.
    BuiltIn { variant: Variant, positions: usize },
    /// The book of the `book-file` option is in play: its number of
    /// positions and the file.
    Loaded { positions: usize, path: PathBuf },
    /// The game has no opening books (only draughts has them).
    NoneForGame { game: GameKind },
    /// Tiao has no book for the variant (Canadian) and none was named.
    NotShipped { variant: Variant },
}

impl fmt::Display for BookLoad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookLoad::BuiltIn { variant, positions } => write!(
                f,
                "opening book: built-in {variant} book, {positions} positions"
            ),
            BookLoad::Loaded { positions, path } => write!(
                f,
                "opening book: {positions} positions from {}",
                path.display()
            ),
            BookLoad::NoneForGame { game } => write!(f, "no opening book for {game}"),
            BookLoad::NotShipped { variant } => write!(f, "no opening book for {variant}"),
        }
    }
}

/// Why [`Engine::load_book`](crate::Engine::load_book) has no book in
/// play although one was asked for: the engine plays without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookLoadError {
    /// The built-in book does not read: only a broken build can do that,
    /// and it is said, not a crash.
    BuiltIn { variant: Variant, error: BookError },
    /// The file cannot be read: missing, not a regular file, not UTF-8 text
    /// ([`BookError::Io`]).
    Unreadable { path: PathBuf, error: BookError },
    /// The file was read but is not a book for the variant: bad lines, or
    /// another variant's book ([`BookError::Invalid`], [`BookError::WrongVariant`]).
    Invalid { path: PathBuf, error: BookError },
}

impl BookLoadError {
    /// The kind of `error`, met reading `path`.
    pub(crate) fn new(path: PathBuf, error: BookError) -> Self {
        match error {
            BookError::Io { .. } => BookLoadError::Unreadable { path, error },
            BookError::WrongVariant { .. } | BookError::Invalid { .. } => {
                BookLoadError::Invalid { path, error }
            }
        }
    }

    /// The book file (`None` for the built-in book).
    pub fn path(&self) -> Option<&Path> {
        match self {
            BookLoadError::Unreadable { path, .. } | BookLoadError::Invalid { path, .. } => {
                Some(path)
            }
            BookLoadError::BuiltIn { .. } => None,
        }
    }

    /// What the book reader said.
    pub fn error(&self) -> &BookError {
        match self {
            BookLoadError::Unreadable { error, .. }
            | BookLoadError::Invalid { error, .. }
            | BookLoadError::BuiltIn { error, .. } => error,
        }
    }
}

impl fmt::Display for BookLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}; playing without an opening book", self.error())
    }
}

impl std::error::Error for BookLoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.error())
    }
}

/// What [`Engine::load_egdb`](crate::Engine::load_egdb) did when no table
/// was damaged and a set could be used, or none was wanted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesLoad {
    /// `egdb-pieces` is 0: no tables wanted.
    Off,
    /// The game has no endgame tables.
    NotForThisGame { game: GameKind },
    /// Every table up to `pieces` pieces, as asked, is in use.
    Complete {
        game: GameKind,
        pieces: u32,
        dir: PathBuf,
    },
    /// Tables are in use, complete up to `used` pieces only of the `asked`
    /// (the message says how to generate the rest).
    Partial {
        game: GameKind,
        used: u32,
        asked: u32,
        dir: PathBuf,
    },
}

impl fmt::Display for TablesLoad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesLoad::Off => f.write_str("endgame databases off"),
            TablesLoad::NotForThisGame { game } => write!(f, "no endgame databases for {game}"),
            TablesLoad::Complete { game, pieces, dir } => write!(
                f,
                "endgame databases: {game} up to {pieces} pieces from {}",
                dir.display()
            ),
            TablesLoad::Partial {
                game,
                used,
                asked,
                dir,
            } => write!(
                f,
                "endgame databases: {game} complete up to {used} pieces in {} (asked for {asked}; \
                 generate the rest with: tiao egdb gen --variant {game} --pieces {asked} --dir {})",
                dir.display(),
                dir.display()
            ),
        }
    }
}

/// Why [`Engine::load_egdb`](crate::Engine::load_egdb) could not use the
/// endgame tables asked for, or not all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// No usable set: why, in the tables' words, and the damaged tables
    /// among the reasons. The engine plays without tables.
    NoneLoaded { error: String, damaged: Vec<String> },
    /// Damaged tables were left out; the sound ones are in use, complete
    /// up to `used` pieces of the `asked`.
    Damaged {
        game: GameKind,
        damaged: Vec<String>,
        used: u32,
        asked: u32,
        dir: PathBuf,
    },
}

impl fmt::Display for TablesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablesError::NoneLoaded { error, damaged } if damaged.is_empty() => write!(
                f,
                "no endgame databases loaded: {error}; playing without them"
            ),
            TablesError::NoneLoaded { error, damaged } => write!(
                f,
                "no endgame databases loaded: damaged tables: {}; {error}; playing without them",
                damaged.join("; ")
            ),
            TablesError::Damaged {
                game,
                damaged,
                used,
                asked,
                dir,
            } => write!(
                f,
                "damaged endgame tables left out: {}; using the {game} tables up to {used} pieces \
                 (generate the damaged ones again with: tiao egdb gen --variant {game} --pieces {asked} --dir {})",
                damaged.join("; "),
                dir.display()
            ),
        }
    }
}

impl std::error::Error for TablesError {}

/// One thing [`Engine::open_knowledge`](crate::Engine::open_knowledge) (or
/// an option change) opened, or found there was nothing to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// The endgame databases.
    Tables(TablesLoad),
    /// The opening book.
    Book(BookLoad),
}

impl fmt::Display for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Opened::Tables(t) => t.fmt(f),
            Opened::Book(b) => b.fmt(f),
        }
    }
}

impl From<TablesLoad> for Opened {
    fn from(t: TablesLoad) -> Self {
        Opened::Tables(t)
    }
}

impl From<BookLoad> for Opened {
    fn from(b: BookLoad) -> Self {
        Opened::Book(b)
    }
}

/// One thing of the engine's knowledge that could not be opened (or only
/// in part): the engine plays on without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnowledgeError {
    /// The endgame databases.
    Tables(TablesError),
    /// The opening book.
    Book(BookLoadError),
}

impl fmt::Display for KnowledgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnowledgeError::Tables(t) => t.fmt(f),
            KnowledgeError::Book(b) => b.fmt(f),
        }
    }
}

impl std::error::Error for KnowledgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KnowledgeError::Tables(t) => Some(t),
            KnowledgeError::Book(b) => Some(b),
        }
    }
}

impl From<TablesError> for KnowledgeError {
    fn from(t: TablesError) -> Self {
        KnowledgeError::Tables(t)
    }
}

impl From<BookLoadError> for KnowledgeError {
    fn from(b: BookLoadError) -> Self {
        KnowledgeError::Book(b)
    }
}

/// What of a new game's knowledge [`Engine::set_game`](crate::Engine::set_game)
/// could not open: the switch happened all the same, and the engine plays
/// without it. Said as the problems' sentences joined by `; `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotOpened {
    /// The databases' problem first, then the book's (at least one).
    pub problems: Vec<KnowledgeError>,
}

impl fmt::Display for NotOpened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_joined(f, &self.problems)
    }
}

impl std::error::Error for NotOpened {}

/// `items` joined by `; `.
pub(crate) fn write_joined<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}
