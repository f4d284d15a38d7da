//! Text mode: Tiao for people at a terminal, and for scripts on stdin.
//!
//! Interactive use shows a prompt and the board after each move. Piped
//! input is a script: no prompt, no unrequested boards, one result per
//! command in a stable `key value` form, and errors as `error: ...` lines,
//! so the output is easy to parse.
//!
//! Commands run in order. A thread reads stdin ahead, so that a search can
//! be interrupted: while one runs, `stop` ends it (its move is still
//! reported), and so does the end of the input (EOF, Ctrl-D), after which
//! the process ends, as in Hub mode. Any other command, `quit` included,
//! waits its turn, so a script `go depth 10` / `quit` gets its whole search.

use super::hub::info_line;
use super::output::Output;
use crate::board::Variant;
use crate::engine::{DEFAULT_MOVE_TIME, Engine, GameKind, MoveReading, Options};
use crate::notation::MoveFormat;
use crate::search::score::format_men;
use crate::search::{Limits, Mode, Params};
use crate::tools::bench;
use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const HELP: &str = "\
Commands (moves in the variant's notation: 32-28, 28x19, c3-d4, c3:e5):
  help                 this list
  variant [NAME]       show or set: international, brazilian, russian, canadian,
                       halma8, halma10, gewu, gewu-dice
  start | new          the start position
  fen [FEN]            show or set the position
  board                show the board
  moves                list the legal moves
  play MOVE...         play moves (a move on its own line works too)
  undo                 take back the last move
  history              the moves played
  go [depth N] [nodes N] [time S]
                       let Tiao think (default 1 s) and play its move
  analyze [depth N] [nodes N] [time S]
                       think without playing
  stop                 end the search now (it still reports its move)
  eval                 the evaluation and its terms
  perft N [divide]     count the leaves N plies deep
  bench [depth N]      the fixed benchmark
  threads N | hash MIB engine settings
  egdb N [DIR]         use endgame databases up to N pieces (0 = off; default dir egdb)
  book [on|off | ply N | margin N | file PATH|default]
                       the opening book: show its settings and this position's
                       book moves, or change them (go plays book moves at once)
  quit                 leave";

/// What the reader thread passes on: a line, or the end of the input.
enum Input {
    Line(String),
    End,
}

/// The input, read ahead by a thread of its own.
struct Commands {
    rx: Receiver<Input>,
    /// Read from the thread but not yet run.
    queued: VecDeque<Input>,
}

impl Commands {
    fn spawn() -> Commands {
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("text-input".into())
            .spawn(move || {
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match input.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Input::End);
            });
        if let Err(e) = spawned {
            log::error!("cannot start the input thread: {e}");
        }
        Commands {
            rx,
            queued: VecDeque::new(),
        }
    }

    /// The next command, waiting for it; `None` at the end of the input.
    fn next(&mut self) -> Option<String> {
        let input = match self.queued.pop_front() {
            Some(i) => i,
            None => self.rx.recv().unwrap_or(Input::End),
        };
        match input {
            Input::Line(l) => Some(l),
            Input::End => {
                // Stays the next input: every later call sees the end too.
                self.queued.push_front(Input::End);
                None
            }
        }
    }

    /// While a search runs: wait up to `wait` for input and say whether it
    /// asks the search to end (`stop`, consumed; the end of the input, left
    /// queued so that the session ends after the search).
    fn interrupts(&mut self, wait: Duration) -> bool {
        if self.queued.is_empty() {
            match self.rx.recv_timeout(wait) {
                Ok(i) => self.queued.push_back(i),
                Err(RecvTimeoutError::Timeout) => return false,
                Err(RecvTimeoutError::Disconnected) => self.queued.push_back(Input::End),
            }
        }
        // Only the command right after the search can interrupt it: later
        // ones wait their turn, and so do the commands before them.
        match self.queued.front() {
            Some(Input::End) => true,
            Some(Input::Line(l)) if l == "stop" => {
                self.queued.pop_front();
                true
            }
            _ => false,
        }
    }
}

fn is_quit(line: &str) -> bool {
    matches!(line, "quit" | "exit" | "q")
}

struct TextMode {
    engine: Engine,
    out: Output,
    interactive: bool,
    input: Commands,
}

/// Run text mode on stdin/stdout. Returns the exit code.
pub fn run() -> i32 {
    let out = Output::stdout();
    let engine = match Engine::new(Options::default()) {
        Ok(e) => e,
        Err(e) => {
            out.line(&format!("error: {e}"));
            return 1;
        }
    };
    let mut engine = engine;
    match engine.load_book() {
        Ok(msg) => log::info!("{msg}"),
        Err(e) => log::warn!("{e}"),
    }
    let interactive = std::io::stdin().is_terminal();
    let mut tm = TextMode {
        engine,
        out,
        interactive,
        input: Commands::spawn(),
    };
    if interactive {
        tm.out.line(&format!(
            "Tiao {} — type 'help' for the commands.",
            env!("CARGO_PKG_VERSION")
        ));
        tm.show_board();
    }
    loop {
        if tm.interactive {
            use std::io::Write;
            print!("tiao> ");
            let _ = std::io::stdout().flush();
        }
        let Some(line) = tm.input.next() else { break };
        if !tm.command(&line) {
            break;
        }
    }
    0
}

impl TextMode {
    fn error(&self, e: impl std::fmt::Display) {
        self.out.line(&format!("error: {e}"));
    }

    fn format(&self) -> MoveFormat {
        // Games other than draughts ignore the format and use their own notation.
        MoveFormat::pdn_for(
            self.engine
                .session
                .variant()
                .unwrap_or(Variant::International),
        )
    }

    fn show_board(&self) {
        self.out.line(self.engine.session.diagram().trim_end());
    }

    /// Handle one line; false means quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return true;
        };
        let args = &words[1..];
        match cmd {
            _ if is_quit(cmd) => return false,
            "stop" => {} // nothing is running: nothing to stop
            "help" | "?" => self.out.line(HELP),
            "variant" => self.variant(args),
            "start" | "new" => {
                self.engine.session.reset();
                self.engine.new_game();
                self.after_position();
            }
            "fen" => self.fen(line),
            "board" | "d" => self.show_board(),
            "moves" => self.out.line(&format!(
                "moves {}",
                self.engine.session.legal_moves(self.format()).join(" ")
            )),
            "play" => self.play(args),
            "undo" => match self.engine.session.undo() {
                Some(m) => {
                    self.out.line(&format!("undone {m}"));
                    if self.interactive {
                        self.show_board();
                    }
                }
                None => self.error("no move to take back"),
            },
            "history" => self.out.line(&format!(
                "history {}",
                self.engine.session.history(self.format()).join(" ")
            )),
            "go" => self.think(args, true),
            "analyze" | "analyse" => self.think(args, false),
            "eval" => self.eval(),
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            "threads" => match args.first().and_then(|s| s.parse::<usize>().ok()) {
                Some(n) if (1..=256).contains(&n) => match self.engine.set_threads(n) {
                    Ok(()) => self.out.line(&format!("threads {n}")),
                    Err(e) => self.error(e),
                },
                _ => self.error("threads needs a number from 1 to 256"),
            },
            "egdb" => self.egdb(args),
            "book" => self.book(args),
            "hash" => match args.first().and_then(|s| s.parse::<usize>().ok()) {
                Some(n) if (1..=65536).contains(&n) => match self.engine.set_hash_mib(n) {
                    Ok(()) => self.out.line(&format!("hash {n}")),
                    Err(e) => self.error(e),
                },
                _ => self.error("hash needs a size in MiB from 1 to 65536"),
            },
            // A move typed on its own.
            _ => self.play(&words),
        }
        true
    }

    fn egdb(&mut self, args: &[&str]) {
        let Some(pieces) = args
            .first()
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|n| *n <= 8)
        else {
            self.error("egdb needs a number of pieces from 0 to 8 (and optionally a directory)");
            return;
        };
        self.engine.options.egdb_pieces = pieces;
        if let Some(dir) = args.get(1) {
            self.engine.options.egdb_dir = std::path::PathBuf::from(dir);
        }
        match self.engine.load_egdb() {
            Ok(msg) => self.out.line(&format!("egdb {msg}")),
            Err(e) => self.error(e),
        }
    }

    fn book(&mut self, args: &[&str]) {
        let settings = &mut self.engine.options.book;
        let number = |what: &str, max: i64| -> Result<i64, String> {
            args.get(1)
                .and_then(|s| s.parse::<i64>().ok())
                .filter(|n| (0..=max).contains(n))
                .ok_or_else(|| format!("book {what} needs a number from 0 to {max}"))
        };
        let changed = match args {
            [] => Ok(()),
            ["on"] => {
                settings.enabled = true;
                Ok(())
            }
            ["off"] => {
                settings.enabled = false;
                Ok(())
            }
            ["ply", _] => number("ply", 20).map(|n| settings.ply = n as u32),
            ["margin", _] => number("margin", 100).map(|n| settings.margin = n as i32),
            ["file", path] => {
                self.engine.options.book_file =
                    (*path != "default").then(|| std::path::PathBuf::from(path));
                self.engine
                    .load_book()
                    .map(|msg| self.out.line(&format!("book {msg}")))
            }
            _ => Err("book takes: on, off, ply N, margin N, file PATH|default".into()),
        };
        if let Err(e) = changed {
            self.error(e);
            return;
        }
        let s = self.engine.options.book;
        let file = match &self.engine.book {
            Some(b) => format!("{} ({} positions)", b.path.display(), b.book.len()),
            None => "none".into(),
        };
        self.out.line(&format!(
            "book {} ply {} margin {} file {file}",
            if s.enabled { "on" } else { "off" },
            s.ply,
            s.margin
        ));
        if args.is_empty() {
            self.out
                .line(&format!("book moves {}", self.book_moves().join(" ")));
        }
    }

    /// This position's book moves with their scores (`32-28:0.04`), in the
    /// variant's notation; empty when the position is not in the book.
    fn book_moves(&self) -> Vec<String> {
        let (Some(book), Some((hash, _))) = (&self.engine.book, self.engine.session.book_key())
        else {
            return Vec::new();
        };
        let format = self.format();
        book.book
            .moves(hash)
            .unwrap_or_default()
            .iter()
            .map(|m| {
                let mv = self
                    .engine
                    .session
                    .convert(&m.mv, MoveReading::Hub, format)
                    .unwrap_or_else(|_| m.mv.clone());
                match m.score {
                    Some(s) => format!("{mv}:{}", format_men(s)),
                    None => format!("{mv}:?"),
                }
            })
            .collect()
    }

    fn after_position(&self) {
        if self.interactive {
            self.show_board();
        } else {
            self.out.line(&format!("fen {}", self.engine.session.fen()));
        }
    }

    fn variant(&mut self, args: &[&str]) {
        match args.first() {
            None => self
                .out
                .line(&format!("variant {}", self.engine.session.kind())),
            Some(name) => match name.parse::<GameKind>() {
                Ok(g) => {
                    if let Err(e) = self.engine.set_game(g) {
                        self.error(e);
                    }
                    self.out.line(&format!("variant {g}"));
                    if self.interactive {
                        self.show_board();
                    }
                }
                Err(e) => self.error(e),
            },
        }
    }

    fn fen(&mut self, line: &str) {
        let text = line.trim_start().strip_prefix("fen").unwrap_or("").trim();
        if text.is_empty() {
            self.out.line(&format!("fen {}", self.engine.session.fen()));
            return;
        }
        match self.engine.session.set_fen(text) {
            Ok(()) => self.after_position(),
            Err(e) => self.error(e),
        }
    }

    fn play(&mut self, moves: &[&str]) {
        if moves.is_empty() {
            self.error("play needs a move");
            return;
        }
        for m in moves {
            match self.engine.session.play(m, MoveReading::Any) {
                Ok(written) => self.out.line(&format!("played {written}")),
                Err(e) => {
                    self.error(e);
                    return;
                }
            }
        }
        if self.interactive {
            self.show_board();
        }
        self.report_game_end();
    }

    fn report_game_end(&self) {
        if let Some(text) = self.engine.session.result_text() {
            self.out.line(&format!("result {text}"));
        }
    }

    fn limits(&self, args: &[&str]) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let mut it = args.iter();
        while let Some(&key) = it.next() {
            let value = it.next().ok_or_else(|| format!("'{key}' needs a value"))?;
            match key {
                "depth" => {
                    let d: u32 = value.parse().map_err(|_| format!("bad depth '{value}'"))?;
                    limits.depth = Some(d.clamp(1, crate::search::MAX_DEPTH));
                }
                "nodes" => {
                    limits.nodes = Some(
                        value
                            .parse()
                            .map_err(|_| format!("bad node count '{value}'"))?,
                    )
                }
                "time" | "movetime" => {
                    let s: f64 = value.parse().map_err(|_| format!("bad time '{value}'"))?;
                    if !(s.is_finite() && s > 0.0 && s < 1e7) {
                        return Err(format!("bad time '{value}'"));
                    }
                    limits.move_time = Some(Duration::from_secs_f64(s));
                }
                other => return Err(format!("unknown limit '{other}' (depth, nodes or time)")),
            }
        }
        if limits.is_unbounded() {
            limits.move_time = Some(DEFAULT_MOVE_TIME);
        }
        Ok(limits)
    }

    fn think(&mut self, args: &[&str], play: bool) {
        let limits = match self.limits(args) {
            Ok(l) => l,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        if self.engine.session.legal_moves(MoveFormat::Hub).is_empty() {
            self.error("no legal move in this position");
            return;
        }
        let format = self.format();
        if play && let Some(mut choice) = self.engine.book_move(Mode::Think) {
            let mv = self
                .engine
                .session
                .convert(&choice.mv, MoveReading::Hub, format)
                .unwrap_or_else(|_| choice.mv.clone());
            choice.mv.clone_from(&mv);
            self.out.line(&choice.text());
            self.out.line(&format!(
                "bestmove {mv} score {} depth 0 nodes 0 book",
                choice.score.map_or_else(|| "?".to_string(), format_men)
            ));
            self.play(&[mv.as_str()]);
            return;
        }
        let out = self.out.clone();
        let params = Params {
            limits,
            mode: Mode::Think,
            multipv: 1,
        };
        let control = self.engine.control();
        self.engine.prepare(params.mode);
        let engine = &mut self.engine;
        let input = &mut self.input;
        // The search on a thread of its own; this one watches the input.
        let result = std::thread::scope(|scope| {
            let search = scope.spawn(move || {
                engine.search_prepared(&params, format, &|info| out.line(&info_line(info, false)))
            });
            while !search.is_finished() {
                if input.interrupts(Duration::from_millis(20)) {
                    control.stop();
                    break;
                }
            }
            search.join()
        });
        let Ok(result) = result else {
            self.error("the search failed");
            return;
        };
        let Some(best) = result.best else {
            self.error("no move found");
            return;
        };
        self.out.line(&format!(
            "bestmove {best} score {} depth {} nodes {}",
            format_men(result.score),
            result.depth,
            result.nodes
        ));
        if play {
            self.play(&[best.as_str()]);
        }
    }

    fn eval(&self) {
        let (score, terms) = self.engine.session.evaluate(&self.engine.know);
        for t in terms {
            self.out.line(&format!(
                "term {:<14} {:>4} {:>7}",
                t.name,
                t.value,
                format_men(t.score)
            ));
        }
        self.out
            .line(&format!("eval {} (side to move)", format_men(score)));
    }

    fn perft(&self, args: &[&str]) {
        let Some(depth) = args
            .first()
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| *d <= 30)
        else {
            self.error("perft needs a depth from 0 to 30");
            return;
        };
        let divide = args.contains(&"divide");
        let start = Instant::now();
        for line in self.engine.session.perft(depth, divide, true, None) {
            match line.mv {
                Some(m) => self.out.line(&format!("{m} {}", line.nodes)),
                None => self.out.line(&format!(
                    "perft {depth} {} ({:.3} s)",
                    line.nodes,
                    start.elapsed().as_secs_f64()
                )),
            }
        }
    }

    fn bench(&self, args: &[&str]) {
        let depth = match args {
            ["depth", d] => match d.parse::<u32>() {
                Ok(d) if (1..=40).contains(&d) => d,
                _ => {
                    self.error("bench depth must be from 1 to 40");
                    return;
                }
            },
            [] => bench::DEFAULT_DEPTH,
            _ => {
                self.error("usage: bench [depth N]");
                return;
            }
        };
        let out = self.out.clone();
        match bench::run(depth, &|line| out.line(line)) {
            Ok(_) => {}
            Err(e) => self.error(e),
        }
    }
}
