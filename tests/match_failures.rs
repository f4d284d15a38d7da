//! The match runner against misbehaving engines: one that crashes, one that
//! plays an illegal move, one that never answers, one that prints garbage,
//! one that overruns its clock, and one that dies at start. In each match
//! the offender must lose every game with the right `Termination`, the
//! runner must survive and restart it (the offender misbehaves again in
//! the second game, which it can only do if it was started again), and the
//! PDN must still be complete and legal.
//!
//! The misbehaving engine is `tests/engines/faulty_hub.rs`, a proxy in
//! front of `tiao hub` that misbehaves at its N-th `go`. It is compiled here
//! with plain `rustc` (std only) into Cargo's temp directory for tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tiao::board::International;
use tiao::notation::{PdnGame, parse_pdn, replay};

const TIAO: &str = env!("CARGO_BIN_EXE_tiao");

/// The misbehaving engine, compiled once per test run.
fn faulty_engine() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("faulty_hub");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/faulty_hub.rs");
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let status = Command::new(rustc)
            .args(["--edition", "2021", "-O", "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .expect("rustc runs");
        assert!(status.success(), "faulty_hub.rs compiles");
        out
    })
}

fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// Play a 2-game match of Tiao against the faulty engine.
fn match_against(fault: &str, extra: &[&str]) -> (Output, Vec<PdnGame>, Duration) {
    // One file per test (tests run in parallel): the fault and the time control.
    let pdn = tmp(&format!("failure-{fault}-{}.pdn", extra.join("_")));
    let _ = std::fs::remove_file(&pdn);
    let faulty = format!("cmd='{}' {fault} 3 '{TIAO}' hub", faulty_engine().display());
    let t0 = Instant::now();
    let out = Command::new(TIAO)
        .args(["match", "--quiet", "--engine", "name=tiao"])
        .arg(format!("cmd='{TIAO}' hub"))
        .args(["--engine", &format!("name={fault}"), &faulty])
        .args(["--games", "2", "--concurrency", "1", "--pdn"])
        .arg(&pdn)
        .args(extra)
        .output()
        .expect("tiao match runs");
    let elapsed = t0.elapsed();
    let text = std::fs::read_to_string(&pdn).unwrap_or_default();
    let games = parse_pdn(&text)
        .into_iter()
        .map(|g| g.expect("the PDN reads back"))
        .collect();
    (out, games, elapsed)
}

/// The offender (always the engine named `fault`) lost both games, by `termination`.
fn check_offender_lost(fault: &str, out: &Output, games: &[PdnGame], termination: &str) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "runner failed: {stdout}\n{stderr}");
    assert_eq!(games.len(), 2, "{stdout}");
    for g in games {
        let loser_is_white = g.tag("White") == Some(fault);
        let expected = if loser_is_white { "0-2" } else { "2-0" };
        assert_eq!(g.tag("Result"), Some(expected), "{g:?}");
        assert_eq!(g.tag("Termination"), Some(termination), "{g:?}");
        let detail = g.tag("TerminationDetails").unwrap_or("");
        assert!(detail.contains(fault), "{detail}");
        // The game up to the failure is legal, and the offender made two
        // moves before misbehaving at its third `go`.
        let r = replay::<International>(g).expect("legal moves");
        let opening: usize = g
            .tag("OpeningPlies")
            .and_then(|n| n.parse().ok())
            .expect("OpeningPlies tag");
        // Ply p (from the start position) is White's when p is even.
        let faulty_moves = (opening..r.moves.len())
            .filter(|p| (p % 2 == 0) == loser_is_white)
            .count();
        assert_eq!(faulty_moves, 2, "{g:?}");
    }
    // Colours were swapped, so the faulty engine failed as White and as
    // Black: the second time in a restarted process.
    assert_ne!(games[0].tag("White"), games[1].tag("White"));
    assert!(stdout.contains("tiao vs"), "{stdout}");
    assert!(stdout.contains(&format!("failures of {fault}")), "{stdout}");
    assert!(
        stdout.contains(&format!("engines restarted: {fault} once")),
        "{stdout}"
    );
    let row = stdout
        .lines()
        .find(|l| l.starts_with("tiao vs"))
        .expect("table row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[3..7], ["2", "2", "0", "0"], "{row}");
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    let (out, games, _) = match_against("crash", &["--tc", "nodes=300"]);
    check_offender_lost("crash", &out, &games, "abandoned");
    let detail = games[0].tag("TerminationDetails").unwrap_or("");
    assert!(detail.contains("exit status: 3"), "{detail}");
    assert!(detail.contains("crashing on purpose"), "{detail}");
}

#[test]
fn an_illegal_move_loses() {
    let (out, games, _) = match_against("illegal", &["--tc", "nodes=300"]);
    check_offender_lost("illegal", &out, &games, "rules infraction");
    let detail = games[0].tag("TerminationDetails").unwrap_or("");
    assert!(detail.contains("illegal move"), "{detail}");
}

#[test]
fn an_engine_that_never_answers_loses_without_hanging_the_match() {
    let (out, games, elapsed) =
        match_against("hang", &["--tc", "nodes=300", "--move-timeout", "1"]);
    check_offender_lost("hang", &out, &games, "stalled connection");
    // Two timeouts of 1 s; the hung process (which would sleep 60 s) is
    // killed, not waited for.
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
}

#[test]
fn garbage_output_is_ignored_and_a_garbage_move_loses() {
    // Two moves with garbage around them go through; the third move is garbage.
    let (out, games, _) = match_against("garbage", &["--tc", "nodes=300"]);
    check_offender_lost("garbage", &out, &games, "rules infraction");
    let detail = games[0].tag("TerminationDetails").unwrap_or("");
    assert!(detail.contains("@@garbage@@"), "{detail}");
}

#[test]
fn overrunning_a_move_time_forfeits() {
    // A generous margin, so that Tiao itself never forfeits on a loaded
    // machine; the faulty engine holds its move back for 2 s.
    let (out, games, _) = match_against("overrun", &["--tc", "movetime=0.05", "--margin", "0.5"]);
    check_offender_lost("overrun", &out, &games, "time forfeit");
    let detail = games[0].tag("TerminationDetails").unwrap_or("");
    assert!(detail.contains("move time of 0.05 s"), "{detail}");
}

#[test]
fn overrunning_a_clock_forfeits() {
    let (out, games, _) = match_against("overrun", &["--tc", "1+0.1", "--margin", "0.3"]);
    check_offender_lost("overrun", &out, &games, "time forfeit");
    let detail = games[0].tag("TerminationDetails").unwrap_or("");
    assert!(detail.contains("left on its clock"), "{detail}");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_a_clear_error() {
    let (out, games, _) = match_against("dead-on-start", &["--tc", "nodes=300"]);
    assert!(!out.status.success());
    assert!(games.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("engine dead-on-start"), "{stderr}");
    assert!(stderr.contains("dying at start on purpose"), "{stderr}");
}

#[test]
fn a_missing_program_is_a_clear_error() {
    let out = Command::new(TIAO)
        .args(["match", "--quiet", "--engine", "name=a"])
        .arg(format!("cmd='{TIAO}' hub"))
        .args(["--engine", "name=ghost", "cmd=/nonexistent/engine hub"])
        .args(["--games", "2", "--tc", "nodes=100"])
        .output()
        .expect("tiao match runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine ghost: cannot start '/nonexistent/engine'"),
        "{stderr}"
    );
}
