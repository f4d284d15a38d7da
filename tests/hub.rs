//! Scripted Hub sessions against the real binary through pipes: the
//! handshake, every command, bad input of every kind, `ping` and `stop`
//! during a search, EOF during a search, new games and parameter changes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

struct Hub {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Hub {
    fn start() -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tiao hub");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        Hub {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    fn recv(&self) -> String {
        self.lines
            .recv_timeout(TIMEOUT)
            .expect("a line from tiao within the timeout")
    }

    /// Read lines until one starts with `prefix`; returns all lines read.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.recv();
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    }

    /// Expect no line within `d`.
    fn silent_for(&self, d: Duration) {
        match self.lines.recv_timeout(d) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(l) => panic!("unexpected line: {l}"),
            Err(e) => panic!("stream ended: {e}"),
        }
    }

    /// Handshake and `init`, with the opening book off: these tests are
    /// about the search, which a book move would skip (the book's own
    /// tests are in `book_play.rs`).
    fn ready(mut self) -> Hub {
        self.send("hub");
        self.until("wait");
        self.send("set-param name=book value=false");
        self.send("init");
        assert_eq!(self.recv(), "ready");
        self
    }

    /// Set parameters and check that each one was taken: no `error` line
    /// comes back, and the parameter list (`hub` again) shows the new values.
    fn set_params(&mut self, params: &[(&str, &str)]) {
        for (name, value) in params {
            self.send(&format!("set-param name={name} value={value}"));
        }
        self.send("ping");
        let answers = self.until("pong");
        assert_eq!(answers, ["pong"], "set-param {params:?}");
        self.send("hub");
        let listing = self.until("wait");
        for (name, value) in params {
            let line = listing
                .iter()
                .find(|l| l.starts_with("param ") && field(l, "name") == Some(name))
                .unwrap_or_else(|| panic!("no param line for {name}: {listing:?}"));
            assert_eq!(field(line, "value"), Some(*value), "{line}");
        }
    }

    /// Round trip: everything sent before has been processed.
    fn sync(&mut self) {
        self.send("ping");
        self.until("pong");
    }

    fn close_and_wait(mut self) -> (std::process::ExitStatus, Duration) {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (status, start.elapsed());
            }
            if start.elapsed() > TIMEOUT {
                let _ = self.child.kill();
                panic!("tiao did not exit after EOF");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=");
    let start = line.find(&key)? + key.len();
    let rest = &line[start..];
    if let Some(q) = rest.strip_prefix('"') {
        q.split('"').next()
    } else {
        rest.split(' ').next()
    }
}

fn done_move(lines: &[String]) -> String {
    let done = lines.last().expect("lines");
    assert!(done.starts_with("done"), "{done}");
    field(done, "move").expect("done has a move").to_string()
}

#[test]
fn handshake_lists_identity_and_parameters_then_waits() {
    let mut hub = Hub::start();
    hub.send("hub");
    let lines = hub.until("wait");
    assert!(
        lines[0].starts_with("id name=Tiao version="),
        "{}",
        lines[0]
    );
    let params: Vec<&String> = lines.iter().filter(|l| l.starts_with("param ")).collect();
    for name in [
        "variant",
        "book",
        "book-ply",
        "book-margin",
        "book-max-ply",
        "ponder",
        "threads",
        "hash",
        "tt-size",
        "multipv",
    ] {
        assert!(
            params.iter().any(|p| field(p, "name") == Some(name)),
            "param {name} missing"
        );
    }
    let variant = params
        .iter()
        .find(|p| field(p, "name") == Some("variant"))
        .expect("variant");
    assert_eq!(field(variant, "type"), Some("enum"));
    let values = field(variant, "values").expect("values");
    for v in ["normal", "brazilian", "russian", "canadian"] {
        assert!(values.split(' ').any(|x| x == v), "variant value {v}");
    }
    hub.send("init");
    assert_eq!(hub.recv(), "ready");
}

#[test]
fn a_fixed_depth_search_reports_and_plays_a_legal_move() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level depth=5");
    hub.send("go think");
    let lines = hub.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert!(!infos.is_empty());
    let last = infos.last().expect("info");
    assert_eq!(field(last, "depth"), Some("5"));
    for f in ["mean-depth", "score", "nodes", "time", "nps", "pv"] {
        assert!(field(last, f).is_some(), "info lacks {f}: {last}");
    }
    let mv = done_move(&lines);
    let first_moves = [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ];
    assert!(first_moves.contains(&mv.as_str()), "{mv}");
}

#[test]
fn moves_are_played_from_the_position_and_captures_use_hub_form() {
    let mut hub = Hub::start().ready();
    // After 32-28 19-23 White must capture 28x19 (taking 23).
    hub.send("pos start moves=\"32-28 19-23\"");
    hub.send("level depth=3");
    hub.send("go think");
    assert_eq!(done_move(&hub.until("done")), "28x19x23");
    // The same capture without its captured square is accepted: it is unambiguous.
    hub.send("pos start moves=\"32-28 19-23 28x19\"");
    hub.send("level depth=1");
    hub.send("go think");
    let mv = done_move(&hub.until("done"));
    assert!(
        mv.starts_with("14x") || mv.starts_with("13x"),
        "Black recaptures: {mv}"
    );
}

#[test]
fn bad_positions_and_moves_are_errors_and_no_move_is_given_until_a_valid_position() {
    let mut hub = Hub::start().ready();
    hub.send("pos start moves=\"32-28 19-23\"");
    for bad in [
        "pos pos=garbage",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwx",
        "pos pos=Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        "pos",
    ] {
        hub.send(bad);
        let e = hub.recv();
        assert!(
            e.starts_with("error message=\"bad position"),
            "{bad} -> {e}"
        );
    }
    hub.send("pos start moves=\"32-28 19-25\"");
    let e = hub.recv();
    assert!(e.starts_with("error message=\"illegal move"), "{e}");
    hub.send("pos start moves=\"32-28 banana\"");
    let e = hub.recv();
    assert!(e.starts_with("error message=\"bad move"), "{e}");
    // A quiet move while a capture is compulsory is illegal.
    hub.send("pos start moves=\"32-28 19-23 31-27\"");
    let e = hub.recv();
    assert!(e.starts_with("error message=\"illegal move"), "{e}");
    // The engine has no position the GUI meant: no move, an error and a
    // bare `done` (a move for the previous position would be from another game).
    hub.send("level depth=2");
    hub.send("go think");
    let lines = hub.until("done");
    assert_eq!(lines.last().map(String::as_str), Some("done"), "{lines:?}");
    assert!(lines[0].starts_with("error message="), "{lines:?}");
    // A valid position is searched again: White must capture.
    hub.send("pos start moves=\"32-28 19-23\"");
    hub.send("level depth=2");
    hub.send("go think");
    assert_eq!(done_move(&hub.until("done")), "28x19x23");
}

#[test]
fn unknown_commands_garbage_and_random_bytes_get_errors_and_the_engine_keeps_serving() {
    let mut hub = Hub::start().ready();
    hub.send("frobnicate now");
    assert!(hub.recv().starts_with("error message="));
    hub.send("level depth=banana");
    assert!(hub.recv().starts_with("error message="));
    hub.send("go");
    assert!(hub.recv().starts_with("error message="));
    hub.send("set-param name=nonsense value=1");
    assert!(hub.recv().starts_with("error message="));
    hub.send("set-param name=threads value=0");
    assert!(hub.recv().starts_with("error message="));
    hub.send("set-param name=threads value=lots");
    assert!(hub.recv().starts_with("error message="));
    hub.send("set-param name=variant value=frisian");
    assert!(hub.recv().starts_with("error message="));
    hub.send("set-param name=book value=maybe");
    assert!(hub.recv().starts_with("error message="));
    hub.send("pos moves=\"unterminated");
    assert!(hub.recv().starts_with("error message="));
    hub.send("");
    hub.send("   ");
    // Random bytes, including invalid UTF-8 and NULs, line by line.
    let mut x: u64 = 0x1234_5678;
    for _ in 0..200 {
        let mut line = Vec::new();
        for _ in 0..(x % 40) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = (x & 0xff) as u8;
            if b != b'\n' {
                line.push(b);
            }
        }
        line.push(b'\n');
        hub.send_raw(&line);
    }
    hub.sync();
    // Still fully working.
    hub.send("pos start");
    hub.send("level depth=2");
    hub.send("go think");
    assert!(!done_move(&hub.until("done")).is_empty());
}

#[test]
fn ping_is_answered_during_a_search_and_stop_ends_it_at_once() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level infinite");
    hub.send("go analyze");
    std::thread::sleep(Duration::from_millis(200));
    hub.send("ping");
    let lines = hub.until("pong");
    assert!(
        lines.iter().all(|l| l.starts_with("info") || l == "pong"),
        "{lines:?}"
    );
    let sent = Instant::now();
    hub.send("stop");
    let lines = hub.until("done");
    let waited = sent.elapsed();
    assert!(waited < Duration::from_millis(1000), "stop took {waited:?}");
    assert!(!done_move(&lines).is_empty());
    // Exactly one done: nothing more arrives.
    hub.silent_for(Duration::from_millis(200));
}

#[test]
fn a_stop_sent_right_after_go_is_not_lost() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level infinite");
    hub.send("go analyze");
    hub.send("stop");
    let lines = hub.until("done");
    assert!(!done_move(&lines).is_empty());
}

#[test]
fn move_time_is_honoured() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level move-time=0.3");
    let start = Instant::now();
    hub.send("go think");
    hub.until("done");
    let t = start.elapsed();
    assert!(
        t >= Duration::from_millis(250) && t < Duration::from_millis(1500),
        "took {t:?}"
    );
}

#[test]
fn a_clock_level_answers_well_within_the_remaining_time() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    // 2 s left for the rest of the game: a move must take a small share of it.
    hub.send("level time=2 inc=0");
    let start = Instant::now();
    hub.send("go think");
    hub.until("done");
    assert!(
        start.elapsed() < Duration::from_millis(1000),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn the_limits_are_reset_after_each_go() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level depth=3");
    hub.send("go think");
    hub.until("done");
    // No level now: the default (a short think) applies, not depth 3 again.
    hub.send("go think");
    let lines = hub.until("done");
    let deepest = lines
        .iter()
        .filter_map(|l| field(l, "depth").and_then(|d| d.parse::<u32>().ok()))
        .max()
        .unwrap_or(0);
    assert!(deepest > 3, "searched only to depth {deepest}");
}

#[test]
fn eof_during_a_search_ends_the_process_promptly() {
    let mut hub = Hub::start().ready();
    hub.send("pos start");
    hub.send("level infinite");
    hub.send("go analyze");
    std::thread::sleep(Duration::from_millis(100));
    let (status, took) = hub.close_and_wait();
    assert!(status.success(), "{status:?}");
    assert!(took < Duration::from_millis(1500), "exit took {took:?}");
}

#[test]
fn quit_ends_the_process() {
    let mut hub = Hub::start().ready();
    hub.send("quit");
    let (status, _) = hub.close_and_wait();
    assert!(status.success());
}

#[test]
fn a_position_without_legal_moves_gets_an_error_and_still_a_done() {
    let mut hub = Hub::start().ready();
    // White has no pieces.
    hub.send(&format!("pos pos=Wb{}", "e".repeat(49)));
    hub.send("level depth=3");
    hub.send("go think");
    assert!(hub.recv().starts_with("error message="));
    assert_eq!(hub.recv(), "done");
}

#[test]
fn ponder_then_ponder_hit_obeys_the_time_from_the_hit() {
    let mut hub = Hub::start().ready();
    hub.send("pos start moves=\"32-28\"");
    hub.send("level move-time=0.2");
    hub.send("go ponder");
    // While pondering, the time does not run out.
    hub.silent_for_non_info(Duration::from_millis(400));
    let hit = Instant::now();
    hub.send("ponder-hit");
    hub.until("done");
    let t = hit.elapsed();
    assert!(
        t < Duration::from_millis(1500),
        "done came {t:?} after ponder-hit"
    );
}

#[test]
fn ponder_then_stop_answers() {
    let mut hub = Hub::start().ready();
    hub.send("pos start moves=\"32-28\"");
    hub.send("level move-time=0.2");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    hub.send("stop");
    assert!(!done_move(&hub.until("done")).is_empty());
}

#[test]
fn multipv_analysis_reports_one_line_per_pv() {
    let mut hub = Hub::start().ready();
    hub.set_params(&[("multipv", "3")]);
    hub.send("pos start");
    hub.send("level depth=4");
    hub.send("go analyze");
    let lines = hub.until("done");
    let at_depth_4: Vec<&String> = lines
        .iter()
        .filter(|l| field(l, "depth") == Some("4"))
        .collect();
    let pvs: Vec<&str> = at_depth_4
        .iter()
        .filter_map(|l| field(l, "multipv"))
        .collect();
    assert_eq!(pvs, vec!["1", "2", "3"], "{at_depth_4:?}");
    let firsts: Vec<&str> = at_depth_4
        .iter()
        .filter_map(|l| field(l, "pv")?.split(' ').next())
        .collect();
    assert_eq!(firsts.len(), 3);
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
}

#[test]
fn parameters_change_between_searches_and_new_game_is_accepted() {
    let mut hub = Hub::start().ready();
    hub.set_params(&[("threads", "2"), ("hash", "16"), ("tt-size", "16")]);
    hub.send("new-game");
    hub.send("pos start");
    hub.send("level depth=6");
    hub.send("go think");
    assert!(!done_move(&hub.until("done")).is_empty());
    hub.set_params(&[("threads", "1"), ("hash", "32")]);
    hub.send("new-game");
    hub.send("pos start");
    hub.send("level nodes=2000");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(!done_move(&lines).is_empty());
}

#[test]
fn the_variant_parameter_switches_rules() {
    let mut hub = Hub::start().ready();
    hub.send("set-param name=variant value=russian");
    hub.send("pos start");
    hub.send("level depth=3");
    hub.send("go think");
    let mv = done_move(&hub.until("done"));
    // Russian start: White's men on 21..32 move to 17..20.
    let from: u32 = mv
        .split('-')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("numeric move");
    assert!((21..=24).contains(&from), "{mv}");
    // A 10x10 string is a bad position on 8x8.
    hub.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    assert!(hub.recv().starts_with("error message=\"bad position"));
    hub.send("set-param name=variant value=canadian");
    hub.send("pos start");
    hub.send("level depth=2");
    hub.send("go think");
    let mv = done_move(&hub.until("done"));
    let from: u32 = mv
        .split('-')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("numeric move");
    assert!((43..=48).contains(&from), "{mv}");
}

#[test]
fn one_thread_fixed_depth_searches_are_deterministic() {
    let run = || {
        let mut hub = Hub::start().ready();
        hub.send("pos start moves=\"32-28 18-23\"");
        hub.send("level depth=8");
        hub.send("go think");
        let lines = hub.until("done");
        lines
            .iter()
            .map(|l| l.split(" time=").next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

impl Hub {
    /// Expect only `info` lines for a while.
    fn silent_for_non_info(&self, d: Duration) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(l) if l.starts_with("info") => {}
                Ok(l) => panic!("unexpected line while pondering: {l}"),
                Err(RecvTimeoutError::Timeout) => return,
                Err(e) => panic!("stream ended: {e}"),
            }
        }
    }
}

/// The handshake's `param` lines are the engine's option table: one line
/// per option, in the table's order, with its type, range or values, and
/// (on a new engine) its default as the value.
#[test]
fn every_param_line_comes_from_the_option_table() {
    use tiao::engine::OptionKind;
    use tiao::engine::options::TABLE;
    let mut hub = Hub::start();
    hub.send("hub");
    let lines = hub.until("wait");
    let params: Vec<&String> = lines.iter().filter(|l| l.starts_with("param ")).collect();
    let names: Vec<&str> = params.iter().filter_map(|p| field(p, "name")).collect();
    let table: Vec<&str> = TABLE.iter().map(|o| o.name).collect();
    assert_eq!(names, table);
    for (line, option) in params.iter().zip(TABLE) {
        assert_eq!(
            field(line, "value").unwrap_or(""),
            option.default_text(),
            "{line}"
        );
        match option.kind {
            OptionKind::Bool { .. } => assert_eq!(field(line, "type"), Some("bool"), "{line}"),
            OptionKind::Int { min, max, .. } => {
                assert_eq!(field(line, "type"), Some("int"), "{line}");
                assert_eq!(field(line, "min"), Some(min.to_string().as_str()), "{line}");
                assert_eq!(field(line, "max"), Some(max.to_string().as_str()), "{line}");
            }
            OptionKind::Choice { values, .. } => {
                assert_eq!(field(line, "type"), Some("enum"), "{line}");
                assert_eq!(
                    field(line, "values"),
                    Some(values.join(" ").as_str()),
                    "{line}"
                );
            }
            OptionKind::Text { .. } => assert_eq!(field(line, "type"), Some("string"), "{line}"),
        }
    }
    // The documented parameters are the table's: each has its row in
    // docs/hub.md, with its range and default.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/hub.md"))
        .expect("docs/hub.md");
    for option in TABLE {
        let name = format!("`{}`", option.name);
        let row = doc
            .lines()
            .find(|l| {
                l.starts_with("| `") && l.split('|').nth(1).is_some_and(|c| c.contains(&name))
            })
            .unwrap_or_else(|| panic!("{} is not documented", option.name));
        let default = match option.kind {
            OptionKind::Bool { default } => format!("| {default} |"),
            OptionKind::Int { min, max, default } => {
                assert!(row.contains(&format!("{min}..{max}")), "range of {row}");
                format!("| {default} |")
            }
            OptionKind::Choice { default, .. } => format!("`{default}`"),
            OptionKind::Text { default: "" } => "| empty |".to_string(),
            OptionKind::Text { default } => format!("`{default}`"),
        };
        assert!(row.contains(&default), "default {default} in {row}");
    }
}

#[test]
fn a_value_out_of_range_is_an_error_that_names_the_range() {
    let mut hub = Hub::start();
    hub.send("set-param name=hash value=70000");
    let e = hub.recv();
    assert_eq!(
        e,
        "error message=\"parameter 'hash' takes an integer from 1 to 65536, not '70000'\""
    );
    hub.send("set-param name=variant value=frisian");
    let e = hub.recv();
    assert!(e.contains("takes one of: normal international"), "{e}");
    // Nothing changed.
    hub.send("hub");
    let lines = hub.until("wait");
    let hash = lines
        .iter()
        .find(|l| field(l, "name") == Some("hash"))
        .expect("hash");
    assert_eq!(field(hash, "value"), Some("64"));
}
