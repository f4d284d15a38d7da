//! Errors of the endgame databases: missing, unreadable or corrupt tables,
//! and generation failures. Every error names the file or slice it is about,
//! so that a user can delete or regenerate exactly that file.

use super::material::Material;
use std::fmt;
use std::path::PathBuf;
use tiao_draughts::board::Variant;

/// Why a table could not be generated, opened or probed.
#[derive(Debug)]
pub enum EgdbError {
    /// An I/O error on a file.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A table file is damaged: bad magic, version, checksum, size or content.
    Corrupt { path: PathBuf, reason: String },
    /// A table file belongs to another variant, slice or index version.
    Mismatch { path: PathBuf, reason: String },
    /// Tables that should exist do not.
    Missing {
        dir: PathBuf,
        variant: Variant,
        pieces: u32,
        missing: Vec<Material>,
    },
    /// A request the databases cannot serve (too many pieces, bad option).
    Unsupported(String),
    /// An internal inconsistency found while generating (a bug, reported
    /// instead of writing a wrong table).
    Internal(String),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgdbError::Corrupt { path, reason } => {
                write!(
                    f,
                    "{}: corrupt endgame table: {reason} (delete it and regenerate)",
                    path.display()
                )
            }
            EgdbError::Mismatch { path, reason } => {
                write!(
                    f,
                    "{}: not the expected endgame table: {reason}",
                    path.display()
                )
            }
            EgdbError::Missing {
                dir,
                variant,
                pieces,
                missing,
            } => {
                let names: Vec<String> = missing.iter().take(8).map(|m| m.to_string()).collect();
                let more = if missing.len() > 8 {
                    format!(" and {} more", missing.len() - 8)
                } else {
                    String::new()
                };
                write!(
                    f,
                    "{}: {} of the {variant} endgame tables up to {pieces} pieces are missing ({}{more}); \
                     generate them with `tiao egdb gen --variant {variant} --pieces {pieces} --dir {}`",
                    dir.display(),
                    missing.len(),
                    names.join(", "),
                    dir.display()
                )
            }
            EgdbError::Unsupported(s) => write!(f, "{s}"),
            EgdbError::Internal(s) => write!(f, "internal error in endgame generation: {s}"),
        }
    }
}

impl std::error::Error for EgdbError {}

impl EgdbError {
    pub(crate) fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        EgdbError::Io {
            path: path.into(),
            error,
        }
    }
    pub(crate) fn corrupt(path: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        EgdbError::Corrupt {
            path: path.into(),
            reason: reason.into(),
        }
    }
}
