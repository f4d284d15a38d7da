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
use crate::engine::bench;
use crate::engine::options::{self as engine_options, OptionKind, OptionSpec};
use crate::engine::{
    DEFAULT_MOVE_TIME, Decision, Engine, GameKind, MoveReading, Opened, OptionError, Options,
    PositionError, PositionText, Purpose,
};
use crate::notation::MoveFormat;
use crate::search::score::format_men;
use crate::search::{Limits, Mode, Params};
use std::collections::VecDeque;
use std::io::{BufRead, IsTerminal};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The command list, with the ranges and names of the option table.
fn help() -> String {
    use crate::engine::options::{
        BOOK_MARGIN, BOOK_MAX_PLY, BOOK_PLY, EGDB_DIR, EGDB_PIECES, HASH, THREADS,
    };
    let range = |o: &OptionSpec| {
        let r = o.int_range();
        format!("{}..{}", r.start(), r.end())
    };
    let games: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
    format!(
        "\
Commands (moves in the variant's notation: 32-28, 28x19, c3-d4, c3:e5):
  help                 this list
  variant [NAME]       show or set: {games}
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
  threads N            search threads ({threads})
  hash MIB             table size in MiB ({hash})
  egdb N [DIR]         use endgame databases up to N pieces ({egdb}; 0 = off; default dir {dir})
  book [on|off | ply N | margin N | max-ply N | file PATH|default]
                       the opening book: show its settings and this position's
                       book moves, or change them (go plays book moves at once;
                       ply {ply}, margin {margin}, max-ply {max_ply})
  options              every engine option: its value, what it takes, what it does
  set NAME VALUE       set an engine option (the names of `options`, as in Hub)
  quit                 leave",
        games = wrap_names(&games, 23, 80),
        threads = range(&THREADS),
        hash = range(&HASH),
        egdb = range(&EGDB_PIECES),
        dir = EGDB_DIR.text_default(),
        ply = range(&BOOK_PLY),
        margin = range(&BOOK_MARGIN),
        max_ply = range(&BOOK_MAX_PLY),
    )
}

/// Names joined by `, `, wrapped at `width` with continuation lines indented by `indent`.
fn wrap_names(names: &[&str], indent: usize, width: usize) -> String {
    let mut out = String::new();
    let mut column = indent + "show or set: ".len();
    for (i, name) in names.iter().enumerate() {
        let piece = if i + 1 < names.len() {
            format!("{name},")
        } else {
            name.to_string()
        };
        if i > 0 {
            if column + 1 + piece.len() > width {
                out.push('\n');
                out.push_str(&" ".repeat(indent));
                column = indent;
            } else {
                out.push(' ');
                column += 1;
            }
        }
        out.push_str(&piece);
        column += piece.len();
    }
    out
}

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
            _ => {
                // Nothing read later can interrupt this search: wait as if
                // for input, or a script whose commands are read ahead
                // would spin a core beside the search.
                std::thread::sleep(wait);
                false
            }
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
    for opened in engine.open_knowledge() {
        match opened {
            Ok(msg) => log::info!("{msg}"),
            Err(e) => log::warn!("{e}"),
        }
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
        MoveFormat::pdn_for(self.engine.variant().unwrap_or(Variant::International))
    }

    fn show_board(&self) {
        self.out.line(self.engine.diagram().trim_end());
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
            "help" | "?" => self.out.line(&help()),
            "variant" => self.variant(args),
            "start" | "new" => {
                if let Err(e) = self
                    .engine
                    .set_position(PositionText::Start, &[], MoveReading::Any)
                {
                    self.error(e);
                }
                self.engine.new_game();
                self.after_position();
            }
            "fen" => self.fen(line),
            "board" | "d" => self.show_board(),
            "moves" => self.out.line(&format!(
                "moves {}",
                self.engine.legal_moves(self.format()).join(" ")
            )),
            "play" => self.play(args),
            "undo" => match self.engine.undo() {
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
                self.engine.history(self.format()).join(" ")
            )),
            "go" => self.think(args, true),
            "analyze" | "analyse" => self.think(args, false),
            "eval" => self.eval(),
            "perft" => self.perft(args),
            "bench" => self.bench(args),
            "threads" => self.set_number("threads", "a number", args),
            "egdb" => self.egdb(args),
            "book" => self.book(args),
            "hash" => self.set_number("hash", "a size in MiB", args),
            "options" => self.list_options(),
            "set" => self.set(args),
            // A move typed on its own.
            _ => self.play(&words),
        }
        true
    }

    /// `threads N`, `hash MIB`: one integer option, answered `NAME VALUE`.
    fn set_number(&mut self, name: &str, what: &str, args: &[&str]) {
        let Some(option) = engine_options::find(name) else {
            return;
        };
        let value = args.first().copied().unwrap_or("");
        match self.engine.set_option(name, value) {
            Ok(_) => self.out.line(&format!("{name} {value}")),
            Err(OptionError::BadValue { .. }) => {
                let r = option.int_range();
                self.error(format!(
                    "{name} needs {what} from {} to {}",
                    r.start(),
                    r.end()
                ));
            }
            Err(e) => self.error(e),
        }
    }

    /// `options`: one line per option of the engine's table.
    fn list_options(&self) {
        for o in engine_options::TABLE {
            let value = self.engine.option(o.name).unwrap_or_default();
            let value = if value.is_empty() {
                "\"\"".into()
            } else {
                value
            };
            let takes = match o.kind {
                OptionKind::Text { .. } => "text".to_string(),
                _ => o.takes(),
            };
            self.out
                .line(&format!("option {} {value} ({takes}) {}", o.name, o.help));
        }
    }

    /// `set NAME VALUE`: any option of the table, answered `option NAME VALUE`
    /// (and what it opened, if anything).
    fn set(&mut self, args: &[&str]) {
        let [name, value @ ..] = args else {
            self.error("set needs an option name and a value (see 'options')");
            return;
        };
        // Text values may contain blanks; `""` sets an empty one.
        let value = value.join(" ");
        let value = if value == "\"\"" {
            String::new()
        } else {
            value
        };
        match self.engine.set_option(name, &value) {
            Ok(opened) => {
                let now = self.engine.option(name).unwrap_or_default();
                self.out.line(&format!("option {name} {now}"));
                for msg in opened {
                    self.out.line(&format!("opened {msg}"));
                }
            }
            Err(e) => self.error(e),
        }
    }

    fn egdb(&mut self, args: &[&str]) {
        let range = engine_options::EGDB_PIECES.int_range();
        let usage = format!(
            "egdb needs a number of pieces from {} to {} (and optionally a directory)",
            range.start(),
            range.end()
        );
        let Some(&pieces) = args.first() else {
            self.error(usage);
            return;
        };
        let mut changes = vec![("egdb-pieces", pieces)];
        if let Some(dir) = args.get(1) {
            changes.push(("egdb-dir", dir));
        }
        match self.engine.set_options(&changes) {
            Ok(opened) => {
                for msg in opened {
                    self.out.line(&format!("egdb {msg}"));
                }
            }
            Err(OptionError::BadValue { .. }) => self.error(usage),
            Err(e) => self.error(e),
        }
    }

    fn book(&mut self, args: &[&str]) {
        let number = |option: &OptionSpec| {
            let r = option.int_range();
            format!(
                "book {} needs a number from {} to {}",
                option.name.trim_start_matches("book-"),
                r.start(),
                r.end()
            )
        };
        let changed = match args {
            [] => Ok(Vec::new()),
            ["on"] => self.engine.set_option("book", "true"),
            ["off"] => self.engine.set_option("book", "false"),
            ["ply", n] => self.engine.set_option("book-ply", n),
            ["margin", n] => self.engine.set_option("book-margin", n),
            ["max-ply", n] => self.engine.set_option("book-max-ply", n),
            ["file", path] => {
                let file = if *path == "default" { "" } else { path };
                match self.engine.set_option("book-file", file) {
                    // A book that is off is opened all the same: `book` shows it.
                    Ok(_) if !self.engine.options().book.enabled => self
                        .engine
                        .load_book()
                        .map(|found| vec![Opened::Book(found)])
                        .map_err(|e| OptionError::NotLoaded {
                            option: "book-file",
                            problems: vec![e.into()],
                        }),
                    other => other,
                }
                .inspect(|opened| {
                    for msg in opened {
                        self.out.line(&format!("book {msg}"));
                    }
                })
            }
            _ => {
                self.error("book takes: on, off, ply N, margin N, max-ply N, file PATH|default");
                return;
            }
        };
        match changed {
            Ok(_) => {}
            Err(OptionError::BadValue { option, .. }) => {
                self.error(number(option));
                return;
            }
            Err(e) => {
                self.error(e);
                return;
            }
        }
        let s = self.engine.options().book;
        let file = match (self.engine.book_path(), self.engine.book()) {
            (Some(path), Some(book)) => format!("{} ({} positions)", path.display(), book.len()),
            (None, Some(book)) => format!("built-in ({} positions)", book.len()),
            _ => "none".into(),
        };
        self.out.line(&format!(
            "book {} ply {} margin {} max-ply {} file {file}",
            if s.enabled { "on" } else { "off" },
            s.ply,
            s.margin,
            s.max_ply
        ));
        if args.is_empty() {
            self.out
                .line(&format!("book moves {}", self.book_moves().join(" ")));
        }
    }

    /// This position's book moves with their scores (`32-28:0.04`), in the
    /// variant's notation; empty when the position is not in the book.
    fn book_moves(&self) -> Vec<String> {
        self.engine
            .book_moves(self.format())
            .into_iter()
            .map(|(mv, score)| match score {
                Some(s) => format!("{mv}:{}", format_men(s)),
                None => format!("{mv}:?"),
            })
            .collect()
    }

    fn after_position(&self) {
        if self.interactive {
            self.show_board();
        } else {
            self.out.line(&format!("fen {}", self.engine.fen()));
        }
    }

    fn variant(&mut self, args: &[&str]) {
        match args.first() {
            None => self.out.line(&format!("variant {}", self.engine.game())),
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
            self.out.line(&format!("fen {}", self.engine.fen()));
            return;
        }
        match self
            .engine
            .set_position(PositionText::Fen(text), &[], MoveReading::Any)
        {
            Ok(()) => self.after_position(),
            // The reader's own words (`bad FEN: ...`).
            Err(PositionError::Unreadable { message }) => self.error(message),
            Err(e) => self.error(e),
        }
    }

    fn play(&mut self, moves: &[&str]) {
        if moves.is_empty() {
            self.error("play needs a move");
            return;
        }
        for m in moves {
            match self.engine.play(m, MoveReading::Any) {
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
        if let Some(text) = self.engine.result_text() {
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
        if self.engine.legal_moves(MoveFormat::Hub).is_empty() {
            self.error("no legal move in this position");
            return;
        }
        let format = self.format();
        let out = self.out.clone();
        let params = Params {
            limits,
            mode: Mode::Think,
            multipv: 1,
        };
        // `analyze` thinks as `go` does, but never plays from the book.
        let purpose = if play {
            Purpose::Play
        } else {
            Purpose::Analyze
        };
        let control = self.engine.control();
        self.engine.prepare(params.mode);
        let engine = &mut self.engine;
        let input = &mut self.input;
        // The decision on a thread of its own (a search takes a while);
        // this one watches the input.
        let decision = std::thread::scope(|scope| {
            let search = scope.spawn(move || {
                engine.choose_move_prepared(&params, purpose, format, &|info| {
                    out.line(&info_line(info, false))
                })
            });
            while !search.is_finished() {
                if input.interrupts(Duration::from_millis(20)) {
                    control.stop();
                    break;
                }
            }
            search.join()
        });
        let Ok(decision) = decision else {
            self.error("the search failed");
            return;
        };
        let best = match decision {
            Decision::Book(choice) => {
                self.out.line(&choice.text());
                self.out.line(&format!(
                    "bestmove {} score {} depth 0 nodes 0 book",
                    choice.mv,
                    choice.score.map_or_else(|| "?".to_string(), format_men)
                ));
                choice.mv
            }
            Decision::Database(answer) => {
                self.out.line(&format!(
                    "bestmove {} score {} depth 0 nodes 0",
                    answer.mv,
                    format_men(answer.score)
                ));
                answer.mv
            }
            Decision::Search(result) => {
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
                best
            }
        };
        if play {
            self.play(&[best.as_str()]);
        }
    }

    fn eval(&self) {
        let (score, terms) = self.engine.evaluate();
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
        for line in self.engine.perft(depth, divide, true, None) {
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

#[cfg(test)]
mod tests {
    use super::{Commands, Input};
    use std::collections::VecDeque;
    use std::time::{Duration, Instant};

    fn commands(lines: &[&str]) -> Commands {
        let (tx, rx) = std::sync::mpsc::channel();
        for l in lines {
            tx.send(Input::Line(l.to_string())).expect("send");
        }
        // Keep the sender alive: the input has not ended.
        std::mem::forget(tx);
        Commands {
            rx,
            queued: VecDeque::new(),
        }
    }

    #[test]
    fn stop_read_during_a_search_interrupts_it() {
        let mut c = commands(&["stop", "board"]);
        assert!(c.interrupts(Duration::from_millis(5)));
        assert_eq!(c.next().as_deref(), Some("board"));
    }

    #[test]
    fn a_command_read_ahead_waits_its_turn_without_spinning() {
        let mut c = commands(&["board", "stop"]);
        let wait = Duration::from_millis(20);
        for _ in 0..3 {
            let t = Instant::now();
            assert!(!c.interrupts(wait), "only the next command can interrupt");
            assert!(
                t.elapsed() >= wait,
                "returned at once: the caller would spin"
            );
        }
        assert_eq!(c.next().as_deref(), Some("board"));
        assert_eq!(c.next().as_deref(), Some("stop"));
    }
}
