//! A misbehaving Hub engine for the match runner's tests (`tests/match_failures.rs`).
//!
//! It is a proxy: it starts a real Hub engine (Tiao) and passes every line
//! through both ways, so it plays legal, sensible moves, until the N-th
//! `go` of its life, where it misbehaves on purpose:
//!
//! - `crash`: exits at once (status 3), with a line on stderr;
//! - `illegal`: answers a well-formed but illegal move (the real move's
//!   destination back to its origin: a move from an empty square);
//! - `hang`: never answers again and stops reading its input (it exits by
//!   itself after 60 s, so a runner that fails to kill it leaks nothing);
//! - `garbage`: before every `done`, prints lines no Hub engine should
//!   (invalid UTF-8, broken quotes, a 100 KB line, stray `pong`/`ready`,
//!   unknown commands); at the N-th `go` its move itself is garbage;
//! - `overrun`: holds the N-th move back for 2 s (over any test clock);
//! - `dead-on-start`: exits before answering `hub`.
//!
//! Usage: `faulty_hub FAULT N ENGINE [ARGS...]`. The tests compile it with
//! plain `rustc` (std only, no crates) into Cargo's test temp directory.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

fn garbage(out: &mut impl Write) {
    let _ = out.write_all(b"\xff\xfe not utf-8 \x00 at all\n");
    let _ = writeln!(out, "info depth=abc score=not-a-number pv=\"unterminated");
    let _ = writeln!(out, "=== stray text ===");
    let _ = writeln!(out, "\"");
    let _ = writeln!(out, "{}", "x".repeat(100_000));
    let _ = writeln!(out, "pong");
    let _ = writeln!(out, "ready");
    let _ = writeln!(out, "info score=1e999 depth=3");
    let _ = writeln!(out, "error message=\"I am confused\"");
    let _ = writeln!(out, "bestmove e2e4");
}

/// `32-28` -> `28-32`; `28x19x23` -> `19-28`: a move from an empty square.
fn reversed(mv: &str) -> String {
    let squares: Vec<&str> = mv.split(['-', 'x']).collect();
    match squares.as_slice() {
        [from, to, ..] => format!("{to}-{from}"),
        _ => "1-2".to_string(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: faulty_hub FAULT N ENGINE [ARGS...]");
        std::process::exit(64);
    }
    let fault = args[1].clone();
    let n: u32 = args[2].parse().unwrap_or(1);
    if fault == "dead-on-start" {
        eprintln!("faulty engine: dying at start on purpose");
        std::process::exit(2);
    }
    let mut child = match Command::new(&args[3])
        .args(&args[4..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("faulty engine: cannot start {}: {e}", args[3]);
            std::process::exit(65);
        }
    };
    let mut child_in = child.stdin.take();
    let child_out = child.stdout.take();
    let sabotage = Arc::new(AtomicBool::new(false));

    // Engine -> runner.
    let out_fault = fault.clone();
    let out_sabotage = sabotage.clone();
    let output = std::thread::spawn(move || {
        let Some(child_out) = child_out else { return };
        for line in BufReader::new(child_out).lines() {
            let Ok(line) = line else { break };
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            if line.starts_with("done") {
                let bad = out_sabotage.load(Ordering::SeqCst);
                match out_fault.as_str() {
                    "garbage" => {
                        garbage(&mut out);
                        if bad {
                            let _ = writeln!(out, "done move=@@garbage@@");
                            let _ = out.flush();
                            continue;
                        }
                    }
                    "illegal" if bad => {
                        let mv = line
                            .split_whitespace()
                            .find_map(|w| w.strip_prefix("move="))
                            .unwrap_or("1-2");
                        let _ = writeln!(out, "done move={}", reversed(mv));
                        let _ = out.flush();
                        continue;
                    }
                    "overrun" if bad => std::thread::sleep(Duration::from_secs(2)),
                    _ => {}
                }
            }
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    });

    // Runner -> engine.
    let gos = AtomicU32::new(0);
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim_start().starts_with("go") {
            let k = gos.fetch_add(1, Ordering::SeqCst) + 1;
            sabotage.store(k == n, Ordering::SeqCst);
            if k == n {
                match fault.as_str() {
                    "crash" => {
                        eprintln!("faulty engine: crashing on purpose at go number {k}");
                        let _ = child.kill();
                        std::process::exit(3);
                    }
                    "hang" => {
                        std::thread::sleep(Duration::from_secs(60));
                        let _ = child.kill();
                        std::process::exit(4);
                    }
                    _ => {}
                }
            }
        }
        if let Some(input) = child_in.as_mut() {
            if writeln!(input, "{line}")
                .and_then(|()| input.flush())
                .is_err()
            {
                break;
            }
        }
    }
    drop(child_in);
    let _ = output.join();
    let _ = child.wait();
}
