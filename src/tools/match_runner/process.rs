//! One Hub engine process, seen from the GUI side: start it, do the
//! `hub`/`set-param`/`init` handshake, send lines and read its answers with
//! deadlines, and kill it.
//!
//! Nothing an engine prints is trusted: its stdout is read on a thread of
//! its own, in bounded lines decoded leniently, and handed over through a
//! channel, so a silent engine costs a timeout and never blocks the runner.
//! The last lines of its stderr are kept for the report when it dies.

use super::spec::EngineSpec;
use crate::board::Variant;
use crate::engine::GameKind;
use crate::protocol::hubline::{format_line, parse_line};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Longest line read from an engine; the rest of a longer one is read as
/// further (garbage) lines, so a runaway engine cannot exhaust memory.
const MAX_LINE: u64 = 64 * 1024;
/// Lines buffered between the reader thread and the runner. When they are
/// not collected (the engine floods while it is not its turn), the reader
/// stops and the engine blocks on its own output: memory stays bounded.
const LINE_BUFFER: usize = 1024;
/// Lines of stderr kept for crash reports.
const STDERR_LINES: usize = 8;
/// How long a `quit` is given before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// What the engine did wrong, or what happened to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started, exited, or closed its output.
    Crashed(String),
    /// No answer in time.
    Timeout(String),
    /// It answered, but not as the protocol says (or refused a setting).
    Protocol(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) | EngineError::Timeout(s) | EngineError::Protocol(s) => {
                f.write_str(s)
            }
        }
    }
}

/// A line from the engine, or the end of its output.
enum Event {
    Line(String),
    Closed,
}

/// A parameter the engine declared with a `param` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: String,
    pub kind: String,
    /// The `values` of an enum, split at blanks.
    pub values: Vec<String>,
}

/// A running engine.
pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    /// Set by the stderr reader at the end of the engine's stderr.
    stderr_closed: Arc<AtomicBool>,
    /// From the engine's `id` line.
    pub id_name: Option<String>,
    pub params: Vec<ParamInfo>,
    /// Set once the output is closed or the process is gone.
    dead: bool,
}

/// The name a variant goes by in an engine's `variant` parameter: Scan and
/// the Hub GUI call international draughts `normal`.
fn variant_value(game: GameKind, declared: &[String]) -> Option<String> {
    let own = [game.name()];
    let candidates: &[&str] = match game {
        GameKind::Draughts(Variant::International) => &["normal", "international"],
        _ => &own,
    };
    if declared.is_empty() {
        return Some(candidates[0].to_string());
    }
    candidates
        .iter()
        .find(|c| declared.iter().any(|d| d == *c))
        .map(|c| c.to_string())
}

impl EngineProcess {
    /// Start the engine and complete the handshake: `hub` ... `wait`, the
    /// variant and the options as `set-param`, then `init` ... `ready`.
    /// Any `error` the engine prints during the handshake fails the start:
    /// a refused option is a mistake the user must hear about.
    pub fn start(
        spec: &EngineSpec,
        variant: GameKind,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let label = spec.label();
        let program = spec.resolve_program();
        let mut cmd = Command::new(&program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        // A process group of its own: the terminal's Ctrl-C goes to the
        // whole foreground group, and an engine killed by it would count as
        // a crash in the games the runner is finishing (`tournament`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|e| {
            EngineError::Crashed(format!(
                "engine {label}: cannot start '{}'{}: {e}",
                program.display(),
                spec.dir
                    .as_ref()
                    .map(|d| format!(" in {}", d.display()))
                    .unwrap_or_default()
            ))
        })?;
        let (tx, events) = sync_channel(LINE_BUFFER);
        if let Some(out) = child.stdout.take() {
            let tx = tx.clone();
            let name = label.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("engine-out-{name}"))
                .spawn(move || {
                    let ended = read_lines(out, |line| {
                        log::debug!("{name} > {line}");
                        tx.send(Event::Line(line)).is_ok()
                    });
                    if ended {
                        let _ = tx.send(Event::Closed);
                    }
                });
            if spawned.is_err() {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Crashed(format!(
                    "engine {label}: cannot start a reader thread"
                )));
            }
        }
        drop(tx);
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_closed = Arc::new(AtomicBool::new(false));
        if let Some(err) = child.stderr.take() {
            let tail = stderr_tail.clone();
            let closed = stderr_closed.clone();
            let name = label.clone();
            // Without a thread its stderr would fill the pipe and block it.
            let _ = std::thread::Builder::new()
                .name(format!("engine-err-{name}"))
                .spawn(move || {
                    read_lines(err, |line| {
                        let line = line.trim_end().to_string();
                        log::debug!("{name} (stderr) {line}");
                        if let Ok(mut t) = tail.lock() {
                            if t.len() == STDERR_LINES {
                                t.pop_front();
                            }
                            t.push_back(line);
                        }
                        true
                    });
                    closed.store(true, Ordering::Release);
                });
        } else {
            stderr_closed.store(true, Ordering::Release);
        }
        let stdin = child.stdin.take();
        let mut engine = EngineProcess {
            label,
            child,
            stdin,
            events,
            stderr_tail,
            stderr_closed,
            id_name: None,
            params: Vec::new(),
            dead: false,
        };
        engine.handshake(spec, variant, timeout)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        spec: &EngineSpec,
        variant: GameKind,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        let label = self.label.clone();
        let deadline = Instant::now() + timeout;
        self.send("hub")?;
        loop {
            let Some(line) = self.recv_until(deadline)? else {
                return Err(EngineError::Timeout(format!(
                    "engine {label}: no 'wait' within {:.0} s of 'hub' (is it a Hub engine? \
                     Tiao needs the 'hub' argument)",
                    timeout.as_secs_f64()
                )));
            };
            let Ok(Some(l)) = parse_line(&line) else {
                continue;
            };
            match l.command.as_str() {
                "id" => self.id_name = l.get("name").map(str::to_string),
                "param" => {
                    if let Some(name) = l.get("name") {
                        self.params.push(ParamInfo {
                            name: name.to_string(),
                            kind: l.get("type").unwrap_or("").to_string(),
                            values: l
                                .get("values")
                                .unwrap_or("")
                                .split_whitespace()
                                .map(str::to_string)
                                .collect(),
                        });
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        // The variant first, then the user's options (which may override it).
        let mut settings: Vec<(String, String)> = Vec::new();
        match self.params.iter().find(|p| p.name == "variant") {
            Some(p) => match variant_value(variant, &p.values) {
                Some(v) => settings.push(("variant".into(), v)),
                None => {
                    return Err(EngineError::Protocol(format!(
                        "engine {label} does not play {variant} (its variant parameter offers: {})",
                        p.values.join(" ")
                    )));
                }
            },
            None if variant != GameKind::Draughts(Variant::International) => {
                return Err(EngineError::Protocol(format!(
                    "engine {label} declares no 'variant' parameter, so it cannot play {variant}"
                )));
            }
            None => {}
        }
        settings.extend(spec.options.iter().cloned());
        for (name, value) in &settings {
            self.send(&format_line(
                "set-param",
                &[("name", name.clone()), ("value", value.clone())],
            ))?;
        }
        self.send("init")?;
        let mut errors = Vec::new();
        loop {
            let Some(line) = self.recv_until(deadline)? else {
                return Err(EngineError::Timeout(format!(
                    "engine {label}: no 'ready' within {:.0} s of starting",
                    timeout.as_secs_f64()
                )));
            };
            let Ok(Some(l)) = parse_line(&line) else {
                continue;
            };
            match l.command.as_str() {
                "error" => errors.push(l.get("message").unwrap_or(&line).to_string()),
                "ready" => break,
                _ => {}
            }
        }
        if !errors.is_empty() {
            return Err(EngineError::Protocol(format!(
                "engine {label} refused its settings ({}): {}",
                settings
                    .iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                errors.join("; ")
            )));
        }
        Ok(())
    }

    /// The label used in messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.label);
        let ok = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.dead = true;
            Err(EngineError::Crashed(
                self.death_report("stopped reading its input"),
            ))
        }
    }

    /// The next line, waiting until `deadline`; `Ok(None)` on timeout.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<Option<String>, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(l)) => Ok(Some(l)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(EngineError::Crashed(self.death_report("closed its output")))
            }
        }
    }

    /// Throw away what the engine printed while nobody asked (it is not its
    /// turn); notices a crash.
    pub fn drain(&mut self) -> Result<usize, EngineError> {
        let mut n = 0;
        // Bounded, so that an engine that never stops printing cannot keep
        // the runner here; what it prints later is read (and ignored) in turn.
        while n < 4 * LINE_BUFFER {
            match self.events.try_recv() {
                Ok(Event::Line(l)) => {
                    log::debug!("{}: ignoring unrequested line '{l}'", self.label);
                    n += 1;
                }
                Err(TryRecvError::Empty) => return Ok(n),
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    self.dead = true;
                    return Err(EngineError::Crashed(self.death_report("closed its output")));
                }
            }
        }
        Ok(n)
    }

    /// Prepare for a new game: `new-game`, then `ping` until `pong`, which
    /// also flushes anything left over from the last game.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.drain()?;
        self.send("new-game")?;
        self.send("ping")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv_until(deadline)? {
                None => {
                    return Err(EngineError::Timeout(format!(
                        "engine {}: no 'pong' within {:.0} s",
                        self.label,
                        timeout.as_secs_f64()
                    )));
                }
                Some(l) if l.trim() == "pong" => return Ok(()),
                Some(_) => {}
            }
        }
    }

    /// Whether the process has been seen to die.
    pub fn is_dead(&mut self) -> bool {
        if !self.dead && matches!(self.child.try_wait(), Ok(Some(_))) {
            self.dead = true;
        }
        self.dead
    }

    /// Why the engine is gone: exit status and the last lines of its stderr.
    pub fn death_report(&mut self, what: &str) -> String {
        // Give an exiting process a moment, so that its status and its
        // last words on stderr are known.
        let mut status = None;
        for _ in 0..40 {
            if status.is_none() {
                status = self.child.try_wait().ok().flatten();
            }
            if status.is_some() && self.stderr_closed.load(Ordering::Acquire) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut s = format!("engine {} {what}", self.label);
        if let Some(st) = status {
            s.push_str(&format!(" ({st})"));
        }
        if let Ok(tail) = self.stderr_tail.lock()
            && !tail.is_empty()
        {
            let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
            s.push_str(&format!("; its last stderr lines: {}", lines.join(" | ")));
        }
        s
    }

    /// Kill the process now and reap it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Ask the engine to quit; kill it if it does not within a moment.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if !self.dead {
            let _ = self.send("quit");
            self.stdin = None; // EOF too, for engines that ignore quit
            let deadline = Instant::now() + QUIT_GRACE;
            while Instant::now() < deadline {
                if matches!(self.child.try_wait(), Ok(Some(_))) {
                    self.dead = true;
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Read `stream` line by line (each at most `MAX_LINE` bytes, invalid
/// UTF-8 replaced, the line end removed), handing each line to `each`
/// while it returns `true`. Returns whether the stream ended (end of file
/// or a read error) rather than `each` stopping.
fn read_lines(stream: impl Read, mut each: impl FnMut(String) -> bool) -> bool {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return true,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if !each(line.trim_end_matches(['\r', '\n']).to_string()) {
                    return false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_follow_what_the_engine_declares() {
        let scan: Vec<String> = ["normal", "killer", "bt", "frisian", "losing"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            variant_value(Variant::International.into(), &scan).as_deref(),
            Some("normal")
        );
        assert_eq!(variant_value(Variant::Russian.into(), &scan), None);
        let other = vec!["international".to_string(), "russian".to_string()];
        assert_eq!(
            variant_value(Variant::International.into(), &other).as_deref(),
            Some("international")
        );
        assert_eq!(
            variant_value(Variant::Russian.into(), &[]).as_deref(),
            Some("russian")
        );
        assert_eq!(
            variant_value(GameKind::Halma8, &[]).as_deref(),
            Some("halma8")
        );
    }
}
