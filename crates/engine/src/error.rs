//! Why an engine could not be made, or its threads or table could not
//! change: [`EngineError`].

use std::fmt;
use tiao_search::SearcherError;
use tiao_search::tt::TableTooLarge;

/// Why [`Engine::new`](crate::Engine::new) made no engine, or why the
/// `threads`, `hash` or `tt-size` option was refused (the engine then
/// keeps the threads and the table it had).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The search threads could not be started; `message` is the
    /// operating system's reason.
    Threads { threads: usize, message: String },
    /// No transposition table of the size asked for could be allocated
    /// (the memory is not there); `kept` is the table the engine keeps.
    Table {
        error: TableTooLarge,
        kept: KeptTable,
    },
}

/// The table an engine keeps when a new one cannot be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptTable {
    /// None: the engine was being made, and is not.
    Nothing,
    /// The table the `hash` option last set, of this many MiB.
    Mib(usize),
    /// The table it had when the `tt-size` option asked for another.
    Current,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Threads { threads, message } => {
                write!(f, "cannot start {threads} search threads: {message}")
            }
            EngineError::Table { error, kept } => match kept {
                KeptTable::Nothing => write!(f, "{error}"),
                KeptTable::Mib(mib) => write!(f, "{error}; keeping the {mib} MiB table"),
                KeptTable::Current => write!(f, "{error}; keeping the current table"),
            },
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Threads { .. } => None,
            EngineError::Table { error, .. } => Some(error),
        }
    }
}

impl EngineError {
    /// The searcher's error, with the table the engine keeps.
    pub(crate) fn of_searcher(e: SearcherError, kept: KeptTable) -> Self {
        match e {
            SearcherError::Threads { threads, message } => {
                EngineError::Threads { threads, message }
            }
            SearcherError::Table(error) => EngineError::Table { error, kept },
        }
    }
}
