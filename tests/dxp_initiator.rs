//! `tiao dxp --initiator` against hand-written followers that end the
//! match early: the exit status tells a script whether any game was
//! completed (non-zero, with a message on stderr, when none was), and a
//! match with a completed game still exits 0. A follower that serves one
//! connection (`--once`) answers the same way.

mod dxp_support;

use dxp_support::{Got, Peer, Scratch, Tiao, is_move, scratch_dir};
use std::net::TcpListener;
use std::process::ExitStatus;
use std::thread::JoinHandle;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// A follower on a free loopback port, played by `script` on the first
/// connection; returns its address and its thread.
fn follower(script: impl FnOnce(Peer) + Send + 'static) -> (String, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("address").to_string();
    let thread = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        script(Peer::on(stream));
    });
    (addr, thread)
}

/// Run Tiao as the initiator of a 2-game match against `addr`, Tiao
/// White in game 1; returns its exit status, stdout lines and stderr.
fn initiate(dir: &Scratch, addr: &str) -> (ExitStatus, Vec<String>, String) {
    let pdn = dir.join("games.pdn").to_string_lossy().into_owned();
    let args = [
        "--connect",
        addr,
        "--initiator",
        "--games",
        "2",
        "--time",
        "1",
        "--move-time",
        "0.05",
        "--no-book",
        "--hash",
        "16",
        "--timeout",
        "5",
        "--name",
        "Tiao",
        "--pdn",
        &pdn,
    ];
    let err = dir.join("stderr.txt");
    let mut tiao = Tiao::start(&args, &err);
    let status = tiao.wait(WAIT).expect("tiao exits");
    let stderr = std::fs::read_to_string(&err).expect("stderr");
    (status, tiao.seen.clone(), stderr)
}

/// Tiao's game request.
fn expect_request(p: &mut Peer) -> String {
    match p.expect_non_chat(WAIT) {
        Got::Message(m) if m.starts_with("R01") => m,
        other => panic!("expected a game request, got {other:?}"),
    }
}

fn accept() -> String {
    format!("A{:<32}0", "Follower")
}

fn assert_no_game_completed(status: ExitStatus, stdout: &[String], stderr: &str) {
    assert!(
        !status.success(),
        "exit {status:?} with no game completed; stdout {stdout:?}"
    );
    assert!(
        stderr.contains("no game was completed"),
        "stderr says why: {stderr}"
    );
    assert!(
        stdout.iter().any(|l| l.starts_with("summary: ")),
        "the summary is still printed: {stdout:?}"
    );
}

#[test]
fn a_peer_that_closes_at_once_is_a_failed_match() {
    let dir = scratch_dir("init-close");
    let (addr, peer) = follower(|p| p.close());
    let (status, stdout, stderr) = initiate(&dir, &addr);
    peer.join().expect("peer");
    assert_no_game_completed(status, &stdout, &stderr);
}

#[test]
fn a_peer_that_closes_during_the_first_game_is_a_failed_match() {
    let dir = scratch_dir("init-midgame");
    let (addr, peer) = follower(|mut p| {
        let r = expect_request(&mut p);
        // Tiao plays White in game 1: the follower is asked to play black.
        assert_eq!(r.as_bytes()[35], b'Z', "{r}");
        p.send(&accept());
        assert!(is_move(&p.expect_non_chat(WAIT)));
        p.close();
    });
    let (status, stdout, stderr) = initiate(&dir, &addr);
    peer.join().expect("peer");
    assert_no_game_completed(status, &stdout, &stderr);
}

#[test]
fn a_peer_that_refuses_every_game_is_a_failed_match() {
    let dir = scratch_dir("init-refuse");
    let (addr, peer) = follower(|mut p| {
        expect_request(&mut p);
        p.send(&format!("A{:<32}3", "Follower"));
        p.expect_closed(WAIT);
    });
    let (status, stdout, stderr) = initiate(&dir, &addr);
    peer.join().expect("peer");
    assert_no_game_completed(status, &stdout, &stderr);
}

#[test]
fn a_match_with_a_completed_game_exits_0_even_when_cut_short() {
    let dir = scratch_dir("init-one");
    let (addr, peer) = follower(|mut p| {
        expect_request(&mut p);
        p.send(&accept());
        assert!(is_move(&p.expect_non_chat(WAIT)));
        // The follower resigns game 1, then leaves instead of playing game 2.
        p.send("E10");
        assert_eq!(p.expect_non_chat(WAIT), Got::Message("E00".into()));
        expect_request(&mut p);
        p.close();
    });
    let (status, stdout, stderr) = initiate(&dir, &addr);
    peer.join().expect("peer");
    assert!(status.success(), "exit {status:?}: {stderr}");
    assert!(
        stdout
            .iter()
            .any(|l| l.starts_with("summary: ") && l.contains("W 1 D 0 L 0 unfinished 0, 1 games")),
        "{stdout:?}"
    );
    assert!(!stderr.contains("no game was completed"), "{stderr}");
}

#[test]
fn a_once_follower_whose_peer_leaves_without_a_game_fails() {
    let dir = scratch_dir("once-follower");
    let pdn = dir.join("games.pdn").to_string_lossy().into_owned();
    let args = ["--once", "--no-book", "--hash", "16", "--pdn", &pdn];
    let (mut tiao, addr) = Tiao::listen(&args, &dir.join("stderr.txt"));
    Peer::connect(&addr).close();
    let status = tiao
        .wait(WAIT)
        .expect("tiao exits after its one connection");
    assert_eq!(status.code(), Some(2), "{status:?}");
    let stderr = std::fs::read_to_string(dir.join("stderr.txt")).unwrap_or_default();
    assert!(stderr.contains("no game was completed"), "{stderr}");
}
