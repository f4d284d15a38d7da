//! The Hub protocol (version 2), as spoken by the Scan engine and the Hub
//! GUI: `tiao hub` reads commands on stdin and answers on stdout.
//!
//! The main thread reads lines; a search runs on its own thread with the
//! engine moved into it, and prints its `info` lines and its `done` line
//! itself. While it runs, `ping`, `stop` and `ponder-hit` are answered at
//! once; any other command stops the search first, so nothing is lost and
//! every `go` still gets exactly one `done`. EOF on stdin ends the process
//! at once, in the middle of a search too.

use super::hubline::{HubLine, format_line, parse_line, quote};
use super::output::Output;
use crate::engine::{DEFAULT_MOVE_TIME, Engine, GameKind, MoveReading, Options};
use crate::notation::{MoveError, MoveFormat};
use crate::search::score::format_men;
use crate::search::{Control, Info, Limits, Mode, Params};
use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A declared parameter.
struct Param {
    name: &'static str,
    kind: ParamKind,
}

enum ParamKind {
    Bool,
    Int { min: i64, max: i64 },
    Enum(&'static [&'static str]),
    Text,
}

const PARAMS: &[Param] = &[
    Param {
        name: "variant",
        kind: ParamKind::Enum(&GameKind::NAMES),
    },
    Param {
        name: "book",
        kind: ParamKind::Bool,
    },
    Param {
        name: "book-ply",
        kind: ParamKind::Int { min: 0, max: 20 },
    },
    Param {
        name: "book-margin",
        kind: ParamKind::Int { min: 0, max: 100 },
    },
    // Empty: the variant's default, openings/book-<variant>.txt.
    Param {
        name: "book-file",
        kind: ParamKind::Text,
    },
    Param {
        name: "ponder",
        kind: ParamKind::Bool,
    },
    Param {
        name: "threads",
        kind: ParamKind::Int { min: 1, max: 256 },
    },
    Param {
        name: "hash",
        kind: ParamKind::Int { min: 1, max: 65536 },
    },
    Param {
        name: "tt-size",
        kind: ParamKind::Int { min: 10, max: 32 },
    },
    Param {
        name: "multipv",
        kind: ParamKind::Int { min: 1, max: 64 },
    },
    Param {
        name: "eval",
        kind: ParamKind::Enum(&["pattern", "v1"]),
    },
    Param {
        name: "eval-file",
        kind: ParamKind::Text,
    },
    Param {
        name: "egdb-pieces",
        kind: ParamKind::Int { min: 0, max: 8 },
    },
    Param {
        name: "egdb-dir",
        kind: ParamKind::Text,
    },
    // Scan's name for the database size; the same setting as egdb-pieces.
    Param {
        name: "bb-size",
        kind: ParamKind::Int { min: 0, max: 8 },
    },
];

/// Settings that live in the front end (the engine has no use for them yet).
struct Settings {
    variant_name: String,
    tt_size: i64,
    eval_file: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            variant_name: "normal".into(),
            tt_size: 20,
            eval_file: String::new(),
        }
    }
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<Engine>,
    control: Arc<Control>,
}

struct Hub {
    /// The engine, when no search holds it.
    engine: Option<Engine>,
    running: Option<Running>,
    out: Output,
    level: Limits,
    settings: Settings,
    /// `init` has been received.
    initialized: bool,
    /// Why the last `pos` was refused, until a valid position is set: the
    /// engine still holds the position before it, and a move for that one
    /// would be a move from another game.
    rejected_pos: Option<String>,
}

/// Run the Hub protocol on stdin/stdout until `quit` or EOF. Returns the exit code.
pub fn run() -> i32 {
    let out = Output::stdout();
    let engine = match Engine::new(Options::default()) {
        Ok(e) => e,
        Err(e) => {
            out.line(&format_line("error", &[("message", e)]));
            return 1;
        }
    };
    let mut hub = Hub {
        engine: Some(engine),
        running: None,
        out,
        level: Limits::default(),
        settings: Settings::default(),
        initialized: false,
        rejected_pos: None,
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match lines.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break, // EOF: the GUI is gone
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if !hub.handle(&line) {
            break;
        }
    }
    // Stop any search and leave at once; nothing is waiting for its answer.
    if let Some(r) = &hub.running {
        r.control.stop();
    }
    0
}

impl Hub {
    fn error(&self, message: impl Into<String>) {
        self.out
            .line(&format_line("error", &[("message", message.into())]));
    }

    /// Handle one input line; false means quit.
    fn handle(&mut self, line: &str) -> bool {
        let parsed = match parse_line(line) {
            Ok(Some(l)) => l,
            Ok(None) => return true,
            Err(e) => {
                self.error(e);
                return true;
            }
        };
        // Commands allowed during a search.
        if let Some(r) = &self.running
            && !r.handle.is_finished()
        {
            match parsed.command.as_str() {
                "ping" => {
                    self.out.line("pong");
                    return true;
                }
                "stop" => {
                    r.control.stop();
                    return true;
                }
                "ponder-hit" => {
                    r.control.ponder_hit();
                    return true;
                }
                "quit" => {
                    r.control.stop();
                    return false;
                }
                _ => {}
            }
        }
        // Anything else: finish the search first (a well-behaved GUI never needs this).
        self.wait_for_search(true);
        match parsed.command.as_str() {
            "hub" => self.hello(),
            "set-param" => self.set_param(&parsed),
            "init" => self.init(),
            "pos" => self.pos(&parsed),
            "level" => self.set_level(&parsed),
            "go" => self.go(&parsed),
            "new-game" => {
                if let Some(e) = self.engine.as_mut() {
                    e.new_game();
                }
            }
            "ping" => self.out.line("pong"),
            "stop" | "ponder-hit" => {} // nothing is running: nothing to do
            "quit" => return false,
            other => self.error(format!("unknown command '{other}'")),
        }
        true
    }

    /// Wait for a running search to end (stopping it first if asked) and take the engine back.
    fn wait_for_search(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.control.stop();
            }
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.error("the search thread failed; the engine was restarted");
                    self.engine = Engine::new(Options::default()).ok();
                }
            }
        }
    }

    fn hello(&mut self) {
        self.out.line(&format!(
            "id name=Tiao version={} author={} country=China",
            env!("CARGO_PKG_VERSION"),
            quote("Tiao developers")
        ));
        let Some(engine) = self.engine.as_ref() else {
            return;
        };
        for p in PARAMS {
            let value = self.param_value(engine, p.name);
            let mut line = format!("param name={} value={}", p.name, quote(&value));
            match p.kind {
                ParamKind::Bool => line.push_str(" type=bool"),
                ParamKind::Int { min, max } => {
                    line.push_str(&format!(" type=int min={min} max={max}"))
                }
                ParamKind::Enum(values) => {
                    line.push_str(&format!(" type=enum values={}", quote(&values.join(" "))))
                }
                ParamKind::Text => line.push_str(" type=string"),
            }
            self.out.line(&line);
        }
        self.out.line("wait");
    }

    fn param_value(&self, engine: &Engine, name: &str) -> String {
        let s = &self.settings;
        match name {
            "variant" => s.variant_name.clone(),
            "book" => engine.options.book.enabled.to_string(),
            "book-ply" => engine.options.book.ply.to_string(),
            "book-margin" => engine.options.book.margin.to_string(),
            "book-file" => engine
                .options
                .book_file
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "ponder" => engine.options.ponder.to_string(),
            "threads" => engine.options.threads.to_string(),
            "hash" => engine.options.hash_mib.to_string(),
            "tt-size" => s.tt_size.to_string(),
            "multipv" => engine.options.multipv.to_string(),
            "eval" => engine.know.eval.name().to_string(),
            "eval-file" => s.eval_file.clone(),
            "egdb-pieces" | "bb-size" => engine.options.egdb_pieces.to_string(),
            "egdb-dir" => engine.options.egdb_dir.display().to_string(),
            _ => String::new(),
        }
    }

    fn set_param(&mut self, l: &HubLine) {
        let (Some(name), Some(value)) = (l.get("name"), l.get("value")) else {
            self.error("set-param needs name=... and value=...");
            return;
        };
        let Some(param) = PARAMS.iter().find(|p| p.name == name) else {
            self.error(format!("unknown parameter '{name}'"));
            return;
        };
        // Check the value against the declared type first.
        let int = match param.kind {
            ParamKind::Bool => {
                if !matches!(value, "true" | "false") {
                    self.error(format!(
                        "parameter '{name}' takes true or false, not '{value}'"
                    ));
                    return;
                }
                0
            }
            ParamKind::Int { min, max } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => v,
                _ => {
                    self.error(format!(
                        "parameter '{name}' takes an integer from {min} to {max}, not '{value}'"
                    ));
                    return;
                }
            },
            ParamKind::Enum(values) => {
                if !values.contains(&value) {
                    self.error(format!(
                        "parameter '{name}' takes one of: {}; not '{value}'",
                        values.join(" ")
                    ));
                    return;
                }
                0
            }
            ParamKind::Text => 0,
        };
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        let result: Result<(), String> = match name {
            "variant" => match value.parse::<GameKind>() {
                Ok(g) => {
                    self.settings.variant_name = value.to_string();
                    engine.set_game(g)
                }
                Err(e) => Err(e.to_string()),
            },
            "book" => {
                engine.options.book.enabled = value == "true";
                // Opened on demand: an engine told `book=false` before
                // `init` never reads (or complains about) a book file.
                if engine.options.book.enabled && engine.book.is_none() {
                    self.reload_book_if_ready()
                } else {
                    Ok(())
                }
            }
            "book-ply" => {
                engine.options.book.ply = int as u32;
                Ok(())
            }
            "book-margin" => {
                engine.options.book.margin = int as i32;
                Ok(())
            }
            "book-file" => {
                engine.options.book_file =
                    (!value.is_empty()).then(|| std::path::PathBuf::from(value));
                self.reload_book_if_ready()
            }
            "ponder" => {
                engine.options.ponder = value == "true";
                Ok(())
            }
            "threads" => engine.set_threads(int as usize),
            "hash" => engine.set_hash_mib(int as usize),
            "tt-size" => engine
                .searcher
                .set_tt_log2_entries(int as u32)
                .map(|()| self.settings.tt_size = int)
                .map_err(|e| format!("{e}; keeping the current table")),
            "multipv" => {
                engine.options.multipv = int as usize;
                Ok(())
            }
            "egdb-pieces" | "bb-size" => {
                engine.options.egdb_pieces = int as u32;
                self.reload_egdb_if_ready()
            }
            "egdb-dir" => {
                engine.options.egdb_dir = std::path::PathBuf::from(value);
                self.reload_egdb_if_ready()
            }
            "eval" => crate::eval::pattern_select::EvalChoice::named(value)
                .map(|e| engine.know.eval = Arc::new(e)),
            "eval-file" => {
                self.settings.eval_file = value.to_string();
                if value.is_empty() {
                    engine.know.eval = Arc::new(crate::eval::pattern_select::EvalChoice::default());
                    Ok(())
                } else {
                    crate::eval::pattern_select::EvalChoice::load(std::path::Path::new(value))
                        .map(|e| engine.know.eval = Arc::new(e))
                        .map_err(|e| format!("{e}; keeping the current evaluation"))
                }
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.error(e);
        }
    }

    fn init(&mut self) {
        self.initialized = true;
        if let Some(engine) = self.engine.as_mut()
            && engine.options.egdb_pieces > 0
        {
            match engine.load_egdb() {
                Ok(msg) => log::info!("{msg}"),
                Err(e) => self.error(e),
            }
        }
        if let Err(e) = self.reload_book_if_ready() {
            self.error(e);
        }
        self.out.line("ready");
    }

    /// The book is opened at `init` if it is on (and again when the
    /// variant or `book-file` changes after it, or when it is turned on).
    fn reload_book_if_ready(&mut self) -> Result<(), String> {
        if !self.initialized {
            return Ok(());
        }
        let Some(engine) = self.engine.as_mut() else {
            return Ok(());
        };
        if !engine.options.book.enabled {
            return Ok(());
        }
        let msg = engine.load_book()?;
        log::info!("{msg}");
        Ok(())
    }

    /// Databases are opened at `init`; a change after it applies at once.
    fn reload_egdb_if_ready(&mut self) -> Result<(), String> {
        if !self.initialized {
            return Ok(());
        }
        match self.engine.as_mut().map(Engine::load_egdb) {
            Some(Err(e)) => Err(e),
            _ => Ok(()),
        }
    }

    fn pos(&mut self, l: &HubLine) {
        self.level = Limits::default();
        match self.set_position(l) {
            Ok(()) => self.rejected_pos = None,
            Err(e) => {
                self.error(&e);
                self.rejected_pos = Some(e);
            }
        }
    }

    /// Set the position of a `pos` line, all or nothing: on an error the
    /// engine keeps its previous position.
    fn set_position(&mut self, l: &HubLine) -> Result<(), String> {
        let Some(engine) = self.engine.as_mut() else {
            return Err("the engine is not available".into());
        };
        let saved = engine.session.box_clone();
        let set = if let Some(p) = l.get("pos") {
            engine.session.set_hub_position(p)
        } else if l.has("start") {
            engine.session.reset();
            Ok(())
        } else if let Some(fen) = l.get("fen") {
            engine.session.set_fen(fen)
        } else {
            Err("pos needs pos=..., start or fen=...".to_string())
        };
        if let Err(e) = set {
            engine.session = saved;
            // Scan's wording first, so that scripts can match it; then the reason.
            let detail = e.strip_prefix("bad position: ").unwrap_or(&e).to_string();
            return Err(format!("bad position: {detail}"));
        }
        if let Some(moves) = l.get("moves") {
            let list: Vec<&str> = moves.split_whitespace().collect();
            if let Err((i, e)) = engine.session.play_all(&list, MoveReading::Hub) {
                engine.session = saved;
                let kind = if matches!(e, MoveError::Malformed { .. }) {
                    "bad move"
                } else {
                    "illegal move"
                };
                return Err(format!("{kind}: move {} ('{}'): {e}", i + 1, list[i]));
            }
        }
        Ok(())
    }

    fn set_level(&mut self, l: &HubLine) {
        let mut level = Limits::default();
        for (name, value) in &l.pairs {
            let seconds = || -> Result<Duration, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| format!("level {name} needs a number of seconds, not '{value}'"))
            };
            let count = || -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("level {name} needs a whole number, not '{value}'"))
            };
            let r = match name.as_str() {
                "depth" => count().map(|d| {
                    level.depth = Some(d.clamp(1, u64::from(crate::search::MAX_DEPTH)) as u32)
                }),
                "nodes" => count().map(|n| level.nodes = Some(n.max(1))),
                "move-time" => seconds().map(|t| level.move_time = Some(t)),
                "time" => seconds().map(|t| level.time = Some(t)),
                "inc" => seconds().map(|t| level.inc = t),
                "moves" => {
                    count().map(|m| level.moves_to_go = (m > 0).then_some(m.min(1000) as u32))
                }
                "infinite" => {
                    level.infinite = true;
                    Ok(())
                }
                _ => Ok(()), // unknown pairs are ignored
            };
            if let Err(e) = r {
                self.error(e);
                return;
            }
        }
        self.level = level;
    }

    fn go(&mut self, l: &HubLine) {
        let mode = if l.has("think") {
            Mode::Think
        } else if l.has("ponder") {
            Mode::Ponder
        } else if l.has("analyze") || l.has("analyse") {
            Mode::Analyze
        } else {
            self.error("go needs think, ponder or analyze");
            return;
        };
        let mut limits = std::mem::take(&mut self.level);
        if let Some(why) = &self.rejected_pos {
            self.error(format!(
                "no position to search: the last pos was refused ({why}); send a valid pos"
            ));
            self.out.line("done");
            return;
        }
        if limits.is_unbounded() && mode == Mode::Think {
            limits.move_time = Some(DEFAULT_MOVE_TIME);
        }
        let Some(mut engine) = self.engine.take() else {
            self.error("the engine is not available");
            self.out.line("done");
            return;
        };
        if engine.session.legal_moves(MoveFormat::Hub).is_empty() {
            self.engine = Some(engine);
            self.error("no legal move in this position");
            self.out.line("done");
            return;
        }
        // A book move is played at once, without a search.
        if let Some(choice) = engine.book_move(mode) {
            self.engine = Some(engine);
            self.out.line(&choice.hub_info());
            self.out.line(&format!("done move={}", choice.mv));
            return;
        }
        let params = Params {
            limits,
            mode,
            multipv: if mode == Mode::Analyze {
                engine.options.multipv
            } else {
                1
            },
        };
        let control = engine.control();
        engine.prepare(mode);
        let out = self.out.clone();
        let spawned = std::thread::Builder::new()
            .name("hub-search".into())
            .spawn(move || {
                let multi = params.multipv > 1;
                let report = |info: &Info<String>| out.line(&info_line(info, multi));
                let result = engine.search_prepared(&params, MoveFormat::Hub, &report);
                let mut done = String::from("done");
                if let Some(m) = &result.best {
                    done.push_str(&format!(" move={m}"));
                    if let Some(p) = &result.ponder {
                        done.push_str(&format!(" ponder={p}"));
                    }
                }
                out.line(&done);
                engine
            });
        match spawned {
            Ok(handle) => self.running = Some(Running { handle, control }),
            Err(e) => {
                self.error(format!("cannot start the search thread: {e}"));
                self.out.line("done");
                self.engine = Engine::new(Options::default()).ok();
            }
        }
    }
}

/// An `info` line.
pub fn info_line(info: &Info<String>, multipv: bool) -> String {
    let mut s = format!(
        "info depth={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.2}",
        info.depth,
        info.mean_depth,
        format_men(info.score),
        info.nodes,
        info.time.as_secs_f64(),
        info.mnps()
    );
    if multipv {
        s.push_str(&format!(" multipv={}", info.multipv));
    }
    s.push_str(&format!(" pv={}", quote(&info.pv.join(" "))));
    s
}
