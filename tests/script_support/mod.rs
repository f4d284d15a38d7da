//! Running the real `tiao` binary on a script: text mode or the Hub
//! protocol, stdin written at once, stdout read back as lines. Shared by
//! the integration tests that drive the binary (`mod script_support;`).

#![allow(dead_code)] // each test file uses part of it

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// Text mode on `input` (in the repository root, so that the shipped
/// books are found); returns every stdout line. The process must exit 0.
/// The input is followed by `quit` and stdin stays open until the process
/// has ended: the end of the input would cut a running search short.
pub fn text_script(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tiao");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    stdin.write_all(b"quit\n").expect("write");
    let out = child.wait_with_output().expect("run");
    drop(stdin);
    assert!(out.status.success(), "{:?}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `tiao hub` on `script`; returns stdout up to and including the first
/// line that starts with `until` (then the process is ended).
pub fn hub_script(script: &str, until: &str) -> Vec<String> {
    hub_script_in(
        Path::new(env!("CARGO_BIN_EXE_tiao")),
        Path::new(env!("CARGO_MANIFEST_DIR")),
        script,
        until,
    )
}

/// `hub_script` with another `tiao` executable, started in directory `dir`.
pub fn hub_script_in(program: &Path, dir: &Path, script: &str, until: &str) -> Vec<String> {
    let mut child = Command::new(program)
        .arg("hub")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tiao hub");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("write");
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let line = line.expect("a line");
        let done = line.starts_with(until);
        lines.push(line);
        if done {
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    lines
}
