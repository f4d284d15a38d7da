//! Hostile input against the real binary: each test is one promise of
//! docs/reliability.md — no input kills Tiao, none makes it answer for the
//! wrong position, and every refusal is a clear error while the engine
//! serves on.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// A `tiao` process (Hub or text mode) with its stdout read by a thread,
/// optionally under an address-space cap (`ulimit -v`, in KiB).
struct Tiao {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
}

impl Tiao {
    fn start(args: &[&str], memory_cap_kib: Option<u64>) -> Tiao {
        let bin = env!("CARGO_BIN_EXE_tiao");
        let mut cmd = match memory_cap_kib {
            Some(kib) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                    .arg(bin)
                    .args(args);
                c
            }
            None => {
                let mut c = Command::new(bin);
                c.args(args);
                c
            }
        };
        let mut child = cmd
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tiao");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Tiao {
            child,
            stdin,
            lines: rx,
        }
    }

    fn hub() -> Tiao {
        Tiao::start(&["hub"], None)
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Raw output lines (with their line ends) up to and including the
    /// first that starts with `prefix`; fails if the process ends or
    /// stays silent first.
    fn raw_until(&mut self, prefix: &str) -> Vec<Vec<u8>> {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix.as_bytes());
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(e) => panic!(
                    "no line starting with {prefix:?} ({e:?}); got {:?}",
                    lines
                        .iter()
                        .map(|l| String::from_utf8_lossy(l).into_owned())
                        .collect::<Vec<_>>()
                ),
            }
        }
    }

    /// Output lines (without line ends) up to and including the first
    /// that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        self.raw_until(prefix)
            .iter()
            .map(|l| {
                String::from_utf8_lossy(l)
                    .trim_end_matches(['\r', '\n'])
                    .to_string()
            })
            .collect()
    }

    /// The engine still answers: `ping` gives `pong`.
    fn assert_alive(&mut self) {
        self.send("ping");
        self.until("pong");
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Wait for the process to end; its exit status, or a failure after `limit`.
    fn wait_exit(&mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "tiao still running after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Tiao {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("error")).collect()
}

// --- Memory -----------------------------------------------------------

/// A 4 GiB address-space cap: any table near it cannot be made.
const CAP_KIB: u64 = 4 << 20;

#[test]
fn a_hash_size_the_machine_cannot_give_is_an_error_and_the_engine_plays_on() {
    let mut hub = Tiao::start(&["hub"], Some(CAP_KIB));
    for (name, value) in [("hash", "65536"), ("hash", "8192"), ("tt-size", "32")] {
        hub.send(&format!("set-param name={name} value={value}"));
        hub.send("ping");
        let lines = hub.until("pong");
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{name}={value}: {lines:?}");
        assert!(
            errs[0].contains("cannot allocate") && errs[0].contains("keeping"),
            "{name}={value}: {}",
            errs[0]
        );
    }
    // The table the engine had still works, and a size that fits is taken.
    hub.send("hub");
    let hello = hub.until("wait");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("param name=hash value=64 ")),
        "the hash setting is unchanged: {hello:?}"
    );
    hub.send("set-param name=hash value=16");
    hub.send("init");
    hub.send("pos start");
    hub.send("level depth=4");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.starts_with("done move=")));
}

#[test]
fn text_mode_refuses_a_hash_it_cannot_allocate() {
    let mut text = Tiao::start(&["text"], Some(CAP_KIB));
    text.send("hash 65536");
    text.send("hash 8");
    let lines = text.until("hash 8");
    assert!(lines[0].starts_with("error: cannot allocate"), "{lines:?}");
    text.send("quit");
    assert!(text.wait_exit(TIMEOUT).success());
}

// --- Echoed text --------------------------------------------------------

#[test]
fn control_characters_in_a_command_cannot_forge_an_output_line() {
    let mut hub = Tiao::hub();
    let stdin = hub.stdin.as_mut().expect("stdin");
    stdin
        .write_all(b"set-param name=x\rpong\r value=1\nfoo\x1b[2J\x07\n")
        .expect("write");
    stdin.flush().expect("flush");
    hub.send("ping");
    let lines = hub.raw_until("pong");
    assert_eq!(lines.len(), 3, "two errors, then the real pong: {lines:?}");
    for l in &lines {
        let body = &l[..l.len() - 1];
        assert!(
            body.iter().all(|&b| b >= 0x20 && b != 0x7f),
            "a control character was echoed: {:?}",
            String::from_utf8_lossy(l)
        );
    }
    let first = String::from_utf8_lossy(&lines[0]);
    assert!(first.contains("x\\rpong\\r"), "{first}");
    hub.assert_alive();
}

#[test]
fn text_mode_escapes_what_it_echoes() {
    // A CR splits words here; an escape sequence would reach the terminal.
    let mut text = Tiao::start(&["text"], None);
    let stdin = text.stdin.as_mut().expect("stdin");
    stdin
        .write_all(b"play 32-28\x1b[2J\x07 x\rplayed\n")
        .expect("write");
    text.send("fen");
    let lines = text.raw_until("fen ");
    assert!(lines.len() >= 2, "{lines:?}");
    for l in &lines {
        assert!(
            l[..l.len() - 1].iter().all(|&b| b >= 0x20 && b != 0x7f),
            "a control character was echoed: {:?}",
            String::from_utf8_lossy(l)
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| String::from_utf8_lossy(l).contains("\\x1b[2J\\x07")),
        "{lines:?}"
    );
}

// --- The position a search answers for -------------------------------

#[test]
fn after_a_refused_position_go_answers_without_a_move() {
    let mut hub = Tiao::hub();
    hub.send("init");
    hub.until("ready");
    for bad in [
        "pos pos=Wbogus",
        "pos start moves=\"32-28 32-28\"",
        "pos fen=\"W:W99:B1\"",
    ] {
        hub.send(bad);
        hub.send("level move-time=0.05");
        for mode in ["think", "analyze", "ponder"] {
            hub.send(&format!("go {mode}"));
            hub.send("stop");
            let lines = hub.until("done");
            assert_eq!(
                lines.last().map(String::as_str),
                Some("done"),
                "{bad} / go {mode}: no move may be given: {lines:?}"
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("error") && l.contains("refused")),
                "{bad} / go {mode}: {lines:?}"
            );
        }
    }
    // A valid position ends it.
    hub.send("pos start moves=\"32-28\"");
    hub.send("level depth=3");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.starts_with("done move=")));
}

// --- Endgame tables -------------------------------------------------------

fn make_tables(dir: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["egdb", "gen", "--variant", "russian", "--pieces", "3"])
        .arg("--dir")
        .arg(dir)
        .arg("--quiet")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("tiao egdb gen");
    assert!(status.success());
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tiao-reliability-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The `init` answer of a Hub engine using the Russian tables of `dir`.
fn init_with_tables(dir: &Path) -> Vec<String> {
    let mut hub = Tiao::hub();
    hub.send("set-param name=variant value=russian");
    hub.send("set-param name=egdb-pieces value=3");
    hub.send(&format!(
        "set-param name=egdb-dir value=\"{}\"",
        dir.display()
    ));
    hub.send("init");
    hub.until("ready")
}

#[test]
fn a_damaged_endgame_table_is_an_error_at_init() {
    let dir = temp_dir("egdb");
    make_tables(&dir);
    let sound = init_with_tables(&dir);
    assert!(errors(&sound).is_empty(), "sound tables: {sound:?}");

    let table = dir.join("russian").join("m1k0-m1k1.tdb");
    let good = std::fs::read(&table).unwrap_or_else(|e| panic!("{}: {e}", table.display()));
    assert!(good.len() > 100, "a table with a body");
    let mut bad_header = good.clone();
    bad_header[20] ^= 1; // positions in the slice, under the header checksum
    let mut bad_body = good.clone();
    let inside = bad_body.len() - 8;
    bad_body[inside] ^= 0xff; // inside the last block (not its padding bits)
    let cases: [(&str, Vec<u8>); 4] = [
        ("truncated", good[..good.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("bad header checksum", bad_header),
        ("corrupt body", bad_body),
    ];
    for (what, bytes) in cases {
        std::fs::write(&table, &bytes).expect("damage the table");
        let lines = init_with_tables(&dir);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{what}: {lines:?}");
        assert!(
            errs[0].contains("m1k0-m1k1") && errs[0].contains("damaged"),
            "{what}: {}",
            errs[0]
        );
    }
    std::fs::write(&table, &good).expect("restore");
    let _ = std::fs::remove_dir_all(&dir);
}

// --- The text mode ends when asked ---------------------------------------

#[test]
fn the_end_of_the_input_stops_a_text_mode_search_and_the_process() {
    let mut text = Tiao::start(&["text"], None);
    text.send("book off");
    text.send("go depth 1000");
    std::thread::sleep(Duration::from_millis(300));
    text.close_stdin();
    let status = text.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    let lines = text.until("bestmove");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
}

#[test]
fn stop_ends_a_text_mode_search_and_quit_then_waits_its_turn() {
    let mut text = Tiao::start(&["text"], None);
    text.send("book off");
    text.send("analyze depth 1000");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    text.send("stop");
    text.until("bestmove");
    assert!(asked.elapsed() < Duration::from_secs(5));
    // A quit queued after a bounded search lets it finish first.
    text.send("analyze depth 3");
    text.send("quit");
    let lines = text.until("bestmove");
    let last = lines.last().expect("a line");
    assert!(last.contains(" depth 3 "), "{last}");
    assert!(text.wait_exit(TIMEOUT).success());
}

/// Make sure a child started from now on receives SIGINT as a terminal
/// would deliver it. A process started in the background by a
/// non-interactive shell (`cmd &` in a script) ignores SIGINT, and an
/// ignored signal stays ignored across `exec`, so the child would never
/// see the interrupt; a *handled* signal is reset to the default at
/// `exec`. The handler exits, as the default action would have.
fn children_get_the_default_interrupt() {
    let exit_at_once = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        exit_at_once,
    )
    .expect("a SIGINT handler");
}

#[test]
fn an_interrupt_ends_a_text_mode_search_at_once() {
    children_get_the_default_interrupt();
    let mut text = Tiao::start(&["text"], None);
    text.send("book off");
    text.send("go depth 1000");
    std::thread::sleep(Duration::from_millis(300));
    let status = Command::new("kill")
        .arg("-INT")
        .arg(text.child.id().to_string())
        .status()
        .expect("kill -INT");
    assert!(status.success());
    let status = text.wait_exit(Duration::from_secs(5));
    assert!(!status.success(), "ended by the signal: {status:?}");
}

#[test]
fn a_dxp_listener_with_a_table_it_cannot_allocate_refuses_to_start() {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {CAP_KIB} && exec \"$0\" dxp --listen 127.0.0.1:0 --hash 65536"
        ))
        .arg(env!("CARGO_BIN_EXE_tiao"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tiao dxp");
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("tiao dxp listens with a table it cannot make");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("read stderr");
    assert_eq!(status.code(), Some(2), "{status:?} {err}");
    assert!(err.contains("cannot allocate"), "{err}");
}

#[test]
fn a_named_pipe_or_a_device_as_a_file_is_an_error_not_a_hang() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let tables = dir.join("tables");
    std::fs::create_dir_all(tables.join("international")).expect("table dir");
    let table = tables.join("international").join("m0k1-m0k1.tdb");
    assert!(
        Command::new("mkfifo")
            .arg(&table)
            .status()
            .is_ok_and(|s| s.success())
    );
    let mut hub = Tiao::hub();
    for (name, value) in [
        ("eval-file", fifo.display().to_string()),
        ("eval-file", "/dev/zero".to_string()),
    ] {
        hub.send(&format!("set-param name={name} value=\"{value}\""));
        hub.send("ping");
        let lines = hub.until("pong");
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{name}={value}: {lines:?}");
        assert!(errs[0].contains("not a regular file"), "{}", errs[0]);
    }
    hub.send("set-param name=egdb-pieces value=2");
    hub.send(&format!(
        "set-param name=egdb-dir value=\"{}\"",
        tables.display()
    ));
    hub.send("init");
    let lines = hub.until("ready");
    assert!(
        errors(&lines)
            .iter()
            .any(|e| e.contains("m0k1-m0k1") && e.contains("not a regular file")),
        "{lines:?}"
    );
    hub.assert_alive();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tiao bench` takes the ranges of `--threads`, `--hash` and `--eval`
/// from the engine's option table: a value outside is refused by name
/// (it used to be clamped silently), the table's bounds are accepted.
#[test]
fn bench_flags_outside_the_option_table_are_refused() {
    use tiao::engine::options::{EVAL, HASH, THREADS};
    let bench = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tiao"))
            .arg("bench")
            .args(args)
            .output()
            .expect("run tiao bench")
    };
    for (flag, option) in [("--threads", THREADS), ("--hash", HASH)] {
        let range = option.int_range();
        for bad in [*range.start() - 1, *range.end() + 1] {
            let out = bench(&[flag, &bad.to_string()]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{flag} {bad} accepted");
            assert!(
                err.contains(flag) && err.contains(&bad.to_string()),
                "{err}"
            );
        }
    }
    let out = bench(&["--eval", "neural"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "--eval neural accepted");
    for value in EVAL.choice_values() {
        assert!(err.contains(value), "the error names {value}: {err}");
    }
    // The table's smallest table size is accepted (the probe cost is quick).
    let low = HASH.int_range().start().to_string();
    let out = bench(&["--tt-probe", "--hash", &low]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_duel_sprt_whose_numbers_make_no_test_is_refused_before_any_game() {
    for (args, says) in [
        (["5", "0"].as_slice(), "elo1 must be above elo0"),
        (&["0", "5", "0.9"], "alpha"),
        (&["0", "5", "0.05", "0"], "beta"),
        (&["0", "5000"], "elo1"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(["duel", "--a", "v1", "--b", "v1", "-q", "--sprt"])
            .args(args)
            .output()
            .expect("run tiao duel");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "--sprt {args:?} accepted");
        assert!(err.contains(says), "--sprt {args:?}: {err}");
        assert!(out.stdout.is_empty(), "--sprt {args:?} played");
    }
}

#[test]
fn a_tool_whose_reader_goes_away_stops_quietly() {
    // `tiao bench | head -1`: the reader takes the first position's line
    // and leaves while the next positions are searched.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["bench", "--depth", "10"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tiao bench");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    // The pipe's read end is closed here: the next write fails.
    let out = child.wait_with_output().expect("wait for tiao");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!first.is_empty());
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
}

/// The offline tools' numbers from the command line: counts that would
/// overflow are refused by name, and a weights file named `.svg` keeps its
/// weights (the loss picture goes beside it, not over it).
#[test]
fn tool_arguments_that_would_overflow_or_overwrite_are_refused_or_sidestepped() {
    let tiao = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(args)
            .output()
            .expect("run tiao")
    };
    let out = tiao(&[
        "match",
        "--engine",
        "name=a",
        "cmd=x",
        "--engine",
        "name=b",
        "cmd=y",
        "--games",
        "4294967295",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--games"), "{err}");
    let dir = temp_dir("tool-args");
    let data = dir.join("d.bin");
    let data = data.to_str().expect("utf-8 path");
    for flag in ["--random-plies", "--opening-plies"] {
        let out = tiao(&[
            "datagen",
            "--games",
            "2",
            flag,
            "0-4294967295",
            "--out",
            data,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(flag), "{err}");
    }
    let out = tiao(&[
        "datagen",
        "--games",
        "4",
        "--nodes",
        "300",
        "--threads",
        "1",
        "-q",
        "--out",
        data,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let weights = dir.join("w.svg");
    let out = tiao(&[
        "train",
        "--data",
        data,
        "--epochs",
        "1",
        "--out",
        weights.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = std::fs::read(&weights).expect("weights");
    assert!(
        kept.starts_with(b"TIAOPATW"),
        "the weights were overwritten"
    );
    assert!(dir.join("w.loss.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
