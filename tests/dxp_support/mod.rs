//! Shared by the DXP process tests: starting `tiao dxp`, reading what it
//! prints, and a raw TCP peer that speaks (or mangles) DXP by hand. The
//! peer frames messages itself, independently of Tiao's codec.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

pub const TIAO: &str = env!("CARGO_BIN_EXE_tiao");

/// A fresh scratch directory for one test, removed when dropped unless
/// the test failed (its files, Tiao's stderr among them, tell why).
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

pub fn scratch_dir(name: &str) -> Scratch {
    let path = std::env::temp_dir().join(format!("tiao-dxp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).expect("scratch dir");
    Scratch { path }
}

/// A running `tiao dxp`, killed when dropped.
pub struct Tiao {
    child: Child,
    lines: Receiver<String>,
    /// Lines read so far.
    pub seen: Vec<String>,
}

impl Tiao {
    /// Start `tiao dxp ARGS`, stderr into `stderr_file`.
    pub fn start(args: &[&str], stderr_file: &Path) -> Tiao {
        let err = std::fs::File::create(stderr_file).expect("stderr file");
        let mut child = Command::new(TIAO)
            .arg("dxp")
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .spawn()
            .expect("start tiao");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Tiao {
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Start a listener on a free loopback port; returns it and its address.
    pub fn listen(args: &[&str], stderr_file: &Path) -> (Tiao, String) {
        let mut all = vec!["--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        let mut t = Tiao::start(&all, stderr_file);
        let line = t
            .line_matching(|l| l.starts_with("listening on "), Duration::from_secs(20))
            .expect("the listening address");
        let addr = line.trim_start_matches("listening on ").trim().to_string();
        (t, addr)
    }

    /// Wait for a stdout line satisfying `pred` (lines before it are kept in `seen`).
    pub fn line_matching(&mut self, pred: impl Fn(&str) -> bool, wait: Duration) -> Option<String> {
        if let Some(l) = self.seen.iter().find(|l| pred(l)) {
            return Some(l.clone());
        }
        let until = Instant::now() + wait;
        loop {
            let left = until.checked_duration_since(Instant::now())?;
            let line = self.lines.recv_timeout(left).ok()?;
            self.seen.push(line.clone());
            if pred(&line) {
                return Some(line);
            }
        }
    }

    /// Wait for the process to exit; `None` if it is still running after `wait`.
    pub fn wait(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                // Collect the rest of stdout.
                while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    self.seen.push(l);
                }
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Tiao {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A received message, or how the stream ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Got {
    Message(String),
    Closed,
    Silent,
}

/// A DXP peer written by hand on a blocking socket.
pub struct Peer {
    pub stream: TcpStream,
    buf: Vec<u8>,
    /// Chats received so far.
    pub chats: Vec<String>,
}

impl Peer {
    pub fn connect(addr: &str) -> Peer {
        Peer::on(TcpStream::connect(addr).expect("connect"))
    }

    /// A peer on a connection made otherwise (one it accepted).
    pub fn on(stream: TcpStream) -> Peer {
        stream.set_nodelay(true).expect("nodelay");
        Peer {
            stream,
            buf: Vec::new(),
            chats: Vec::new(),
        }
    }

    /// Send one message with its NUL.
    pub fn send(&mut self, text: &str) {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.stream.write_all(&bytes).expect("send");
    }

    /// Send raw bytes (errors ignored: the other side may have closed).
    pub fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes)
    }

    /// The next message (chats included), waiting at most `wait`.
    pub fn recv(&mut self, wait: Duration) -> Got {
        let until = Instant::now() + wait;
        loop {
            if let Some(at) = self.buf.iter().position(|&b| b == 0) {
                let frame: Vec<u8> = self.buf.drain(..=at).take(at).collect();
                let text = String::from_utf8_lossy(&frame).into_owned();
                assert!(
                    text.len() <= 127 && text.bytes().all(|b| b.is_ascii_graphic() || b == b' '),
                    "Tiao sent a message outside the spec: {text:?}"
                );
                return Got::Message(text);
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else {
                return Got::Silent;
            };
            self.stream
                .set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .expect("timeout");
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Got::Closed,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Got::Silent;
                }
                Err(_) => return Got::Closed,
            }
        }
    }

    /// The next message that is not a chat (chats are kept in `chats`).
    pub fn expect_non_chat(&mut self, wait: Duration) -> Got {
        loop {
            match self.recv(wait) {
                Got::Message(m) if m.starts_with('C') => self.chats.push(m),
                other => return other,
            }
        }
    }

    /// The next message must be a chat; returns it.
    pub fn expect_chat(&mut self, wait: Duration) -> String {
        match self.recv(wait) {
            Got::Message(m) if m.starts_with('C') => {
                self.chats.push(m.clone());
                m
            }
            other => panic!("expected a chat, got {other:?}"),
        }
    }

    /// Read until the connection closes (chats kept); panics on other messages.
    pub fn expect_closed(&mut self, wait: Duration) {
        loop {
            match self.recv(wait) {
                Got::Message(m) if m.starts_with('C') => self.chats.push(m),
                Got::Closed => return,
                other => panic!("expected the connection to close, got {other:?}"),
            }
        }
    }

    pub fn close(self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// A game request from `name`, Tiao (the follower) playing `colour`
/// (`W` or `Z`), `minutes` each, normal start.
pub fn request(name: &str, colour: char, minutes: u32) -> String {
    format!("R01{name:<32}{colour}{minutes:03}000A")
}

/// A game request with a flag-B position: `to_move` and 50 square characters.
pub fn request_from(name: &str, colour: char, to_move: char, board: &str) -> String {
    format!("R01{name:<32}{colour}010000B{to_move}{board}")
}

/// A 50-character DXP board with the given pieces (`(square, char)`), the rest empty.
pub fn board(pieces: &[(usize, char)]) -> String {
    let mut b = vec!['e'; 50];
    for &(sq, c) in pieces {
        b[sq - 1] = c;
    }
    b.into_iter().collect()
}

/// Whether `m` is an `A` message with code `code`.
pub fn is_accept(m: &Got, code: char) -> bool {
    matches!(m, Got::Message(t) if t.len() == 34 && t.starts_with('A') && t.ends_with(code))
}

/// Whether `m` is an `M` message (well formed by the spec's layout).
pub fn is_move(m: &Got) -> bool {
    match m {
        Got::Message(t) => {
            t.starts_with('M')
                && t.len() >= 11
                && t[1..].bytes().all(|b| b.is_ascii_digit())
                && t[9..11]
                    .parse::<usize>()
                    .is_ok_and(|n| t.len() == 11 + 2 * n)
        }
        _ => false,
    }
}
