//! The Hub protocol (version 2), as spoken by the Scan engine and the Hub
//! GUI: `tiao hub` reads commands on stdin and answers on stdout.
//!
//! The main thread reads lines; the engine's move decision (book,
//! databases, search: [`Engine::choose_move`]) runs on its own thread with
//! the engine moved into it, and prints its `info` lines and its `done`
//! line itself. The parameters are the engine's option table
//! ([`crate::engine::options`]); Hub keeps no engine state of its own. While it runs, `ping`, `stop` and `ponder-hit` are answered at
//! once; any other command stops the search first, so nothing is lost and
//! every `go` still gets exactly one `done`. EOF on stdin ends the process
//! at once, in the middle of a search too.

use super::hubline::{HubLine, format_line, parse_line, quote};
use super::output::Output;
use crate::engine::options::{OptionKind, TABLE};
use crate::engine::{
    DEFAULT_MOVE_TIME, Decision, Engine, MoveReading, Options, PositionText, Purpose,
};
use crate::notation::MoveFormat;
use crate::search::score::format_men;
use crate::search::{Control, Info, Limits, Mode, Params};
use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

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
            out.line(&format_line("error", &[("message", e.to_string())]));
            return 1;
        }
    };
    let mut hub = Hub {
        engine: Some(engine),
        running: None,
        out,
        level: Limits::default(),
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
        if let Some(engine) = self.engine.as_ref() {
            for line in param_lines(engine) {
                self.out.line(&line);
            }
        }
        self.out.line("wait");
    }

    /// `set-param`: the engine checks the value against the option table
    /// and applies it; once `init` opened its knowledge, databases and the
    /// book the parameter names are opened at once.
    fn set_param(&mut self, l: &HubLine) {
        let (Some(name), Some(value)) = (l.get("name"), l.get("value")) else {
            self.error("set-param needs name=... and value=...");
            return;
        };
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        match engine.set_option(name, value) {
            Ok(opened) => opened.iter().for_each(|msg| log::info!("{msg}")),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// `init`: open the databases and the book the parameters ask for.
    fn init(&mut self) {
        if let Some(engine) = self.engine.as_mut() {
            for opened in engine.open_knowledge() {
                match opened {
                    Ok(msg) => log::info!("{msg}"),
                    Err(e) => self.error(e.to_string()),
                }
            }
        }
        self.out.line("ready");
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
        let position = if let Some(p) = l.get("pos") {
            PositionText::Hub(p)
        } else if l.has("start") {
            PositionText::Start
        } else if let Some(fen) = l.get("fen") {
            PositionText::Fen(fen)
        } else {
            return Err("bad position: pos needs pos=..., start or fen=...".to_string());
        };
        let moves: Vec<&str> = l
            .get("moves")
            .map_or_else(Vec::new, |m| m.split_whitespace().collect());
        engine
            .set_position(position, &moves, MoveReading::Hub)
            .map_err(|e| e.to_string())
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
        if engine.legal_moves(MoveFormat::Hub).is_empty() {
            self.engine = Some(engine);
            self.error("no legal move in this position");
            self.out.line("done");
            return;
        }
        let params = Params {
            limits,
            mode,
            multipv: if mode == Mode::Analyze {
                engine.options().multipv
            } else {
                1
            },
        };
        let control = engine.control();
        engine.prepare(mode);
        let out = self.out.clone();
        // The decision (book, databases, search) on the search thread: a
        // book or database answer comes at once, a search prints its `info`
        // lines as it goes.
        let spawned = std::thread::Builder::new()
            .name("hub-search".into())
            .spawn(move || {
                let multi = params.multipv > 1;
                let report = |info: &Info<String>| out.line(&info_line(info, multi));
                let decision =
                    engine.choose_move_prepared(&params, Purpose::Play, MoveFormat::Hub, &report);
                if let Decision::Book(choice) = &decision {
                    out.line(&choice.hub_info());
                }
                let mut done = String::from("done");
                if let Some(m) = decision.best() {
                    done.push_str(&format!(" move={m}"));
                    if let Some(p) = decision.ponder() {
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

/// The `param` lines of the handshake: one per option of the engine's
/// table, in its order, with the engine's current value.
pub fn param_lines(engine: &Engine) -> Vec<String> {
    TABLE
        .iter()
        .map(|o| {
            let value = engine.option(o.name).unwrap_or_default();
            let kind = match o.kind {
                OptionKind::Bool { .. } => "type=bool".to_string(),
                OptionKind::Int { min, max, .. } => format!("type=int min={min} max={max}"),
                OptionKind::Choice { values, .. } => {
                    format!("type=enum values={}", quote(&values.join(" ")))
                }
                OptionKind::Text { .. } => "type=string".to_string(),
            };
            format!("param name={} value={} {kind}", o.name, quote(&value))
        })
        .collect()
}
