//! The engine's options in one table: each option's name, type (with its
//! range or its values), default and help, and the one place that reads
//! and writes an option on an [`Engine`] by name.
//!
//! Every front end derives its settings from [`TABLE`]: the Hub `param`
//! lines and `set-param`, the text-mode `set` and `options` commands (and
//! the ranges of its older commands: `threads`, `hash`, `egdb`, `book`),
//! and the command-line flags of `tiao dxp` that set the same options.

use super::{Engine, EngineError, GameKind, KeptTable, KnowledgeError, Opened};
use std::fmt;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use tiao_knowledge::book::BookSettings;
use tiao_knowledge::eval::pattern_select::EvalChoice;

/// What values an option takes, and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Bool {
        default: bool,
    },
    Int {
        min: i64,
        max: i64,
        default: i64,
    },
    /// One of a list of names.
    Choice {
        values: &'static [&'static str],
        default: &'static str,
    },
    /// Free text (a file or directory; empty where the help says so).
    Text {
        default: &'static str,
    },
}

/// One option of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name, as Hub's `set-param` and text mode's `set` take it.
    pub name: &'static str,
    pub kind: OptionKind,
    /// A short description (the Hub parameter table, `--help`, text-mode `options`).
    pub help: &'static str,
}

/// A checked value of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    /// A choice (one of the option's values) or text.
    Text(String),
}

impl OptionSpec {
    /// The default as text (as Hub reports it).
    pub fn default_text(&self) -> String {
        match self.kind {
            OptionKind::Bool { default } => default.to_string(),
            OptionKind::Int { default, .. } => default.to_string(),
            OptionKind::Choice { default, .. } | OptionKind::Text { default } => default.into(),
        }
    }

    /// The default of an integer option (for command-line flags).
    ///
    /// # Panics
    /// If the option is not an integer: a mistake in the caller, found by any test.
    pub const fn int_default(&self) -> i64 {
        match self.kind {
            OptionKind::Int { default, .. } => default,
            _ => panic!("not an integer option"),
        }
    }

    /// The default of a choice or text option.
    ///
    /// # Panics
    /// If the option is a yes/no or integer option.
    pub const fn text_default(&self) -> &'static str {
        match self.kind {
            OptionKind::Choice { default, .. } | OptionKind::Text { default } => default,
            _ => panic!("not a choice or text option"),
        }
    }

    /// The default of a yes/no option.
    ///
    /// # Panics
    /// If the option is not a yes/no option.
    pub const fn bool_default(&self) -> bool {
        match self.kind {
            OptionKind::Bool { default } => default,
            _ => panic!("not a yes/no option"),
        }
    }

    /// The range of an integer option (for command-line flags).
    ///
    /// # Panics
    /// If the option is not an integer.
    pub const fn int_range(&self) -> RangeInclusive<i64> {
        match self.kind {
            OptionKind::Int { min, max, .. } => min..=max,
            _ => panic!("not an integer option"),
        }
    }

    /// The values of a choice option (for command-line flags).
    ///
    /// # Panics
    /// If the option is not a choice.
    pub const fn choice_values(&self) -> &'static [&'static str] {
        match self.kind {
            OptionKind::Choice { values, .. } => values,
            _ => panic!("not a choice option"),
        }
    }

    /// Read `value` as a value of this option: a bad value names what the
    /// option takes (its range, its values).
    pub fn check(&'static self, value: &str) -> Result<OptionValue, OptionError> {
        let bad = || OptionError::BadValue {
            option: self,
            value: value.to_string(),
        };
        match self.kind {
            OptionKind::Bool { .. } => match value {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(bad()),
            },
            OptionKind::Int { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(OptionValue::Int(v)),
                _ => Err(bad()),
            },
            OptionKind::Choice { values, .. } => {
                if values.contains(&value) {
                    Ok(OptionValue::Text(value.to_string()))
                } else {
                    Err(bad())
                }
            }
            OptionKind::Text { .. } => Ok(OptionValue::Text(value.to_string())),
        }
    }

    /// What the option takes, in words: `true or false`, `an integer from 1 to 256`, ...
    pub fn takes(&self) -> String {
        match self.kind {
            OptionKind::Bool { .. } => "true or false".into(),
            OptionKind::Int { min, max, .. } => format!("an integer from {min} to {max}"),
            OptionKind::Choice { values, .. } => format!("one of: {}", values.join(" ")),
            OptionKind::Text { .. } => "text".into(),
        }
    }
}

pub const VARIANT: OptionSpec = OptionSpec {
    name: "variant",
    kind: OptionKind::Choice {
        values: &GameKind::NAMES,
        default: "normal",
    },
    help: "the game: normal (= international), a draughts variant, halma8, halma10, gewu, gewu-dice",
};
pub const BOOK: OptionSpec = OptionSpec {
    name: "book",
    kind: OptionKind::Bool {
        default: BookSettings::DEFAULT.enabled,
    },
    help: "play from the opening book (never in analysis)",
};
pub const BOOK_PLY: OptionSpec = OptionSpec {
    name: "book-ply",
    kind: OptionKind::Int {
        min: 0,
        max: 20,
        default: BookSettings::DEFAULT.ply as i64,
    },
    help: "choose book moves at random (within book-margin) for this many plies",
};
pub const BOOK_MARGIN: OptionSpec = OptionSpec {
    name: "book-margin",
    kind: OptionKind::Int {
        min: 0,
        max: 100,
        default: BookSettings::DEFAULT.margin as i64,
    },
    help: "random book choices only among moves this many centi-men from the best",
};
pub const BOOK_MAX_PLY: OptionSpec = OptionSpec {
    name: "book-max-ply",
    kind: OptionKind::Int {
        min: 0,
        max: 100,
        default: BookSettings::DEFAULT.max_ply as i64,
    },
    help: "play book moves only while the game ply is below this (0: to the end of the book)",
};
pub const BOOK_FILE: OptionSpec = OptionSpec {
    name: "book-file",
    kind: OptionKind::Text { default: "" },
    help: "the opening book file; empty: the variant's built-in book",
};
pub const PONDER: OptionSpec = OptionSpec {
    name: "ponder",
    kind: OptionKind::Bool { default: false },
    help: "whether the GUI may ask for pondering",
};
pub const THREADS: OptionSpec = OptionSpec {
    name: "threads",
    kind: OptionKind::Int {
        min: 1,
        max: 256,
        default: 1,
    },
    help: "search threads",
};
pub const HASH: OptionSpec = OptionSpec {
    name: "hash",
    kind: OptionKind::Int {
        min: 1,
        max: 65536,
        default: 64,
    },
    help: "transposition table size in MiB",
};
pub const TT_SIZE: OptionSpec = OptionSpec {
    name: "tt-size",
    kind: OptionKind::Int {
        min: 10,
        max: 32,
        default: 20,
    },
    help: "Scan's form of the table size: log2 of the number of entries",
};
pub const MULTIPV: OptionSpec = OptionSpec {
    name: "multipv",
    kind: OptionKind::Int {
        min: 1,
        max: 64,
        default: 1,
    },
    help: "lines reported in analysis",
};
pub const EVAL: OptionSpec = OptionSpec {
    name: "eval",
    kind: OptionKind::Choice {
        values: &["pattern", "v1"],
        default: "pattern",
    },
    help: "the evaluation: trained patterns or the hand-set v1",
};
pub const EVAL_FILE: OptionSpec = OptionSpec {
    name: "eval-file",
    kind: OptionKind::Text { default: "" },
    help: "evaluation weights file (pattern or v1); empty: the built-in weights",
};
pub const EGDB_PIECES: OptionSpec = OptionSpec {
    name: "egdb-pieces",
    kind: OptionKind::Int {
        min: 0,
        max: 8,
        default: 0,
    },
    help: "use endgame databases up to this many pieces (0 = off)",
};
pub const EGDB_DIR: OptionSpec = OptionSpec {
    name: "egdb-dir",
    kind: OptionKind::Text { default: "egdb" },
    help: "where the endgame databases are",
};
/// Scan's name for the database size: the same setting as `egdb-pieces`.
pub const BB_SIZE: OptionSpec = OptionSpec {
    name: "bb-size",
    kind: EGDB_PIECES.kind,
    help: "Scan's name for egdb-pieces",
};

/// Every option, in the order Hub lists its parameters.
pub const TABLE: &[OptionSpec] = &[
    VARIANT,
    BOOK,
    BOOK_PLY,
    BOOK_MARGIN,
    BOOK_MAX_PLY,
    BOOK_FILE,
    PONDER,
    THREADS,
    HASH,
    TT_SIZE,
    MULTIPV,
    EVAL,
    EVAL_FILE,
    EGDB_PIECES,
    EGDB_DIR,
    BB_SIZE,
];

/// The option of this name.
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    TABLE.iter().find(|o| o.name == name)
}

/// Why an option was not set (or not all of it took effect).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of this name.
    Unknown(String),
    /// A value the option does not take (the option says what it takes).
    BadValue {
        option: &'static OptionSpec,
        value: String,
    },
    /// The engine refused the value and kept the one it had (threads that
    /// cannot start, a table the machine cannot give, an unreadable file).
    Refused {
        option: &'static str,
        reason: Refusal,
    },
    /// The value was set, but what it names could not be opened, or only
    /// in part (endgame databases, an opening book): the engine plays on
    /// without it. Said as the problems' sentences joined by `; `.
    NotLoaded {
        option: &'static str,
        problems: Vec<KnowledgeError>,
    },
}

/// Why the engine refused an option's value (it keeps the value it had).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The search threads or the table (`threads`, `hash`, `tt-size`).
    Engine(EngineError),
    /// The evaluation cannot be used (`eval`, `eval-file`): the
    /// evaluation's own words (for a file, with `keeping the current evaluation`).
    Eval(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Engine(e) => e.fmt(f),
            Refusal::Eval(message) => f.write_str(message),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown parameter '{name}'"),
            OptionError::BadValue { option, value } => {
                let name = option.name;
                match option.kind {
                    OptionKind::Choice { .. } => write!(
                        f,
                        "parameter '{name}' takes {}; not '{value}'",
                        option.takes()
                    ),
                    _ => write!(
                        f,
                        "parameter '{name}' takes {}, not '{value}'",
                        option.takes()
                    ),
                }
            }
            OptionError::Refused { reason, .. } => reason.fmt(f),
            OptionError::NotLoaded { problems, .. } => crate::loaded::write_joined(f, problems),
        }
    }
}

impl std::error::Error for OptionError {}

impl Engine {
    /// The current value of an option, as text (as Hub reports it).
    pub fn option(&self, name: &str) -> Result<String, OptionError> {
        let o = &self.options;
        let option = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        Ok(match option.name {
            "variant" => self.variant_name().to_string(),
            "book" => o.book.enabled.to_string(),
            "book-ply" => o.book.ply.to_string(),
            "book-margin" => o.book.margin.to_string(),
            "book-max-ply" => o.book.max_ply.to_string(),
            "book-file" => o
                .book_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "ponder" => o.ponder.to_string(),
            "threads" => o.threads.to_string(),
            "hash" => o.hash_mib.to_string(),
            "tt-size" => self.tt_size.to_string(),
            "multipv" => o.multipv.to_string(),
            "eval" => self.eval.name().to_string(),
            "eval-file" => self.eval_file.clone(),
            "egdb-pieces" | "bb-size" => o.egdb_pieces.to_string(),
            "egdb-dir" => o.egdb_dir.display().to_string(),
            other => unreachable!("option {other} has no value"),
        })
    }

    /// Set one option; see [`Engine::set_options`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<Vec<Opened>, OptionError> {
        self.set_options(&[(name, value)])
    }

    /// Set options by name. Every value is checked first: an unknown name
    /// or a bad value changes nothing. Then they are applied in turn (a
    /// refusal stops there: the earlier ones stay applied). Once the
    /// engine's knowledge is open ([`Engine::open_knowledge`]), endgame
    /// databases and the book that the changes name are opened at once,
    /// once for all the changes; before, they wait for it. Returns what
    /// was opened; an error names the option, or the first of the changes
    /// when several things could not be opened.
    pub fn set_options(&mut self, changes: &[(&str, &str)]) -> Result<Vec<Opened>, OptionError> {
        let mut checked = Vec::with_capacity(changes.len());
        for (name, value) in changes {
            let option = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
            checked.push((option, option.check(value)?));
        }
        // What could not be opened, by the option it is told under.
        let mut problems: Vec<(&'static str, Vec<KnowledgeError>)> = Vec::new();
        for (option, value) in checked {
            match self.apply(option, value) {
                Ok(()) => {}
                Err(OptionError::NotLoaded {
                    option,
                    problems: p,
                }) => problems.push((option, p)),
                Err(e) => return Err(e),
            }
        }
        let (opened, failed) = self.open_stale_knowledge();
        let name = changes
            .first()
            .map_or("", |(n, _)| find(n).map_or("", |o| o.name));
        problems.extend(failed.into_iter().map(|e| (name, vec![e])));
        match problems.len() {
            0 => Ok(opened),
            1 => {
                let (option, problems) = problems.remove(0);
                Err(OptionError::NotLoaded { option, problems })
            }
            _ => Err(OptionError::NotLoaded {
                option: name,
                problems: problems.into_iter().flat_map(|(_, p)| p).collect(),
            }),
        }
    }

    /// Apply one checked value.
    fn apply(
        &mut self,
        option: &'static OptionSpec,
        value: OptionValue,
    ) -> Result<(), OptionError> {
        let refused = |reason: Refusal| OptionError::Refused {
            option: option.name,
            reason,
        };
        let engine_refused = |e: EngineError| refused(Refusal::Engine(e));
        let eval_refused = |message: String| refused(Refusal::Eval(message));
        let (int, text, yes) = match &value {
            OptionValue::Bool(b) => (0, "", *b),
            OptionValue::Int(i) => (*i, "", false),
            OptionValue::Text(t) => (0, t.as_str(), false),
        };
        match option.name {
            "variant" => {
                let game = text
                    .parse::<GameKind>()
                    .map_err(|_| OptionError::BadValue {
                        option,
                        value: text.to_string(),
                    })?;
                self.variant_name = GameKind::NAMES
                    .iter()
                    .copied()
                    .find(|n| *n == text)
                    .unwrap_or(game.name());
                self.set_game(game).map_err(|e| OptionError::NotLoaded {
                    option: option.name,
                    problems: e.problems,
                })?;
            }
            "book" => {
                self.options.book.enabled = yes;
                // Opened on demand: an engine told `book=false` before its
                // knowledge is opened never reads (or complains about) a book file.
                if yes && self.book.is_none() {
                    self.book_stale = true;
                }
            }
            "book-ply" => self.options.book.ply = int as u32,
            "book-margin" => self.options.book.margin = int as i32,
            "book-max-ply" => self.options.book.max_ply = int as u32,
            "book-file" => {
                self.options.book_file = (!text.is_empty()).then(|| PathBuf::from(text));
                self.book_stale = true;
            }
            "ponder" => self.options.ponder = yes,
            "threads" => self.set_threads(int as usize).map_err(engine_refused)?,
            "hash" => self.set_hash_mib(int as usize).map_err(engine_refused)?,
            "tt-size" => {
                self.searcher
                    .set_tt_log2_entries(int as u32)
                    .map_err(|error| {
                        engine_refused(EngineError::Table {
                            error,
                            kept: KeptTable::Current,
                        })
                    })?;
                self.tt_size = int as u32;
            }
            "multipv" => self.options.multipv = int as usize,
            "eval" => self.set_eval(EvalChoice::named(text).map_err(eval_refused)?),
            "eval-file" => {
                let eval = if text.is_empty() {
                    EvalChoice::builtin().clone()
                } else {
                    EvalChoice::load(std::path::Path::new(text))
                        .map_err(|e| eval_refused(format!("{e}; keeping the current evaluation")))?
                };
                self.eval_file = text.to_string();
                self.set_eval(eval);
            }
            "egdb-pieces" | "bb-size" => {
                self.options.egdb_pieces = int as u32;
                self.egdb_stale = true;
            }
            "egdb-dir" => {
                self.options.egdb_dir = PathBuf::from(text);
                self.egdb_stale = true;
            }
            other => unreachable!("option {other} cannot be set"),
        }
        Ok(())
    }

    /// Once the knowledge is open: open again what changed options name
    /// (databases first, then the book, as [`Engine::open_knowledge`]).
    /// Returns what was opened and what could not be.
    fn open_stale_knowledge(&mut self) -> (Vec<Opened>, Vec<KnowledgeError>) {
        let (mut notes, mut problems) = (Vec::new(), Vec::new());
        if !self.knowledge_open {
            return (notes, problems);
        }
        if std::mem::take(&mut self.egdb_stale) {
            match self.load_egdb() {
                Ok(found) => notes.push(found.into()),
                Err(e) => problems.push(e.into()),
            }
        }
        if std::mem::take(&mut self.book_stale) && self.options.book.enabled {
            match self.load_book() {
                Ok(found) => notes.push(found.into()),
                Err(e) => problems.push(e.into()),
            }
        }
        (notes, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    #[test]
    fn names_are_unique_and_found() {
        for (i, o) in TABLE.iter().enumerate() {
            assert_eq!(find(o.name), Some(o));
            assert!(
                TABLE[i + 1..].iter().all(|p| p.name != o.name),
                "{}",
                o.name
            );
            assert!(!o.help.is_empty(), "{} has no help", o.name);
        }
        assert_eq!(find("nonsense"), None);
    }

    #[test]
    fn a_new_engine_has_every_default_of_the_table() {
        let engine = Engine::new(Options::default()).expect("engine");
        for o in TABLE {
            assert_eq!(
                engine.option(o.name).as_deref(),
                Ok(o.default_text().as_str()),
                "{}",
                o.name
            );
            // Every default is a value the option takes.
            assert!(o.check(&o.default_text()).is_ok(), "{}", o.name);
        }
    }

    #[test]
    fn every_option_reads_back_what_was_set() {
        let mut engine = Engine::new(Options::default()).expect("engine");
        let values = [
            ("variant", "russian"),
            ("book", "false"),
            ("book-ply", "7"),
            ("book-margin", "9"),
            ("book-max-ply", "12"),
            ("book-file", "some-book.txt"),
            ("ponder", "true"),
            ("threads", "2"),
            ("hash", "8"),
            ("tt-size", "12"),
            ("multipv", "3"),
            ("eval", "v1"),
            ("eval-file", ""),
            ("egdb-pieces", "2"),
            ("egdb-dir", "elsewhere"),
            ("bb-size", "3"),
        ];
        assert_eq!(values.len(), TABLE.len(), "one value per option");
        for (name, value) in values {
            engine.set_option(name, value).expect(name);
            assert_eq!(engine.option(name).as_deref(), Ok(value), "{name}");
        }
        assert_eq!(engine.option("egdb-pieces").as_deref(), Ok("3"));
        assert_eq!(
            engine.game(),
            GameKind::Draughts(tiao_draughts::board::Variant::Russian)
        );
    }

    #[test]
    fn a_bad_value_names_what_the_option_takes_and_changes_nothing() {
        let mut engine = Engine::new(Options::default()).expect("engine");
        for o in TABLE {
            let bad = match o.kind {
                OptionKind::Bool { .. } => "maybe".to_string(),
                OptionKind::Int { max, .. } => (max + 1).to_string(),
                OptionKind::Choice { .. } => "frisian".to_string(),
                OptionKind::Text { .. } => continue,
            };
            let e = engine.set_option(o.name, &bad).expect_err(o.name);
            assert!(matches!(e, OptionError::BadValue { .. }), "{e:?}");
            let text = e.to_string();
            assert!(text.contains(&o.takes()), "{text}");
            assert!(text.contains(&bad), "{text}");
            if let OptionKind::Int { min, .. } = o.kind {
                let e = engine.set_option(o.name, &(min - 1).to_string());
                assert!(matches!(e, Err(OptionError::BadValue { .. })), "{e:?}");
                assert!(matches!(
                    engine.set_option(o.name, "ten"),
                    Err(OptionError::BadValue { .. })
                ));
            }
            assert_eq!(engine.option(o.name), Ok(o.default_text()), "{}", o.name);
        }
        assert_eq!(
            engine.set_option("threads", "0").map_err(|e| e.to_string()),
            Err("parameter 'threads' takes an integer from 1 to 256, not '0'".into())
        );
        // All or nothing: a bad value later in the list keeps the earlier ones out.
        let e = engine.set_options(&[("multipv", "2"), ("ponder", "yes")]);
        assert!(matches!(e, Err(OptionError::BadValue { .. })));
        assert_eq!(engine.option("multipv").as_deref(), Ok("1"));
    }

    #[test]
    fn unknown_names_and_refusals_are_told_apart() {
        let mut engine = Engine::new(Options::default()).expect("engine");
        assert_eq!(
            engine.set_option("nonsense", "1"),
            Err(OptionError::Unknown("nonsense".into()))
        );
        assert_eq!(
            engine.option("nonsense"),
            Err(OptionError::Unknown("nonsense".into()))
        );
        let missing = std::env::temp_dir().join("tiao-no-such-eval-file.bin");
        let e = engine
            .set_option("eval-file", &missing.display().to_string())
            .expect_err("a missing weights file");
        assert!(
            matches!(
                e,
                OptionError::Refused {
                    option: "eval-file",
                    reason: Refusal::Eval(_),
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string().contains("keeping the current evaluation"),
            "{e}"
        );
        assert_eq!(engine.option("eval").as_deref(), Ok("pattern"));
    }

    #[test]
    fn knowledge_waits_until_it_is_opened_then_follows_the_options() {
        let missing = std::env::temp_dir().join("tiao-no-such-egdb-dir");
        let mut engine = Engine::new(Options::default()).expect("engine");
        let dir = missing.display().to_string();
        // Before: only stored.
        assert_eq!(
            engine.set_options(&[("egdb-pieces", "3"), ("egdb-dir", &dir)]),
            Ok(vec![])
        );
        engine.set_option("egdb-pieces", "0").expect("off");
        engine.open_knowledge();
        // After: opened at once, and a missing set is an error that keeps the value.
        let e = engine
            .set_option("egdb-pieces", "3")
            .expect_err("no tables there");
        let OptionError::NotLoaded {
            option: "egdb-pieces",
            problems,
        } = &e
        else {
            panic!("not a NotLoaded of egdb-pieces: {e:?}");
        };
        assert!(
            matches!(
                problems.as_slice(),
                [KnowledgeError::Tables(
                    crate::TablesError::NoneLoaded { .. }
                )]
            ),
            "{problems:?}"
        );
        assert_eq!(engine.option("egdb-pieces").as_deref(), Ok("3"));
        let off = engine.set_option("egdb-pieces", "0");
        assert_eq!(off, Ok(vec![Opened::Tables(crate::TablesLoad::Off)]));
        assert_eq!(
            off.map(|o| o.iter().map(ToString::to_string).collect::<Vec<_>>()),
            Ok(vec!["endgame databases off".to_string()])
        );
    }
}
