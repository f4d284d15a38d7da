//! `scripts/depth-at-time`, the side-by-side depth and node-rate measure
//! of `docs/benchmarks.md`, driven as its users drive it, with Tiao as
//! both engines: positions from a file (`tiao bench --list`'s lines
//! among them), a Hub parameter for one engine, the totals over the set.

use std::path::PathBuf;
use std::process::{Command, Output};

fn script(args: &[&str]) -> Output {
    let tiao = env!("CARGO_BIN_EXE_tiao");
    Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/depth-at-time"
        ))
        .args(["--engine", &format!("a={tiao} hub")])
        .args(["--engine", &format!("b={tiao} hub")])
        .args(args)
        .output()
        .expect("run python3 scripts/depth-at-time")
}

fn positions_file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tiao-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("write the positions file");
    path
}

#[test]
fn bench_list_prints_every_bench_position_as_variant_and_fen() {
    let out = Command::new(env!("CARGO_BIN_EXE_tiao"))
        .args(["bench", "--list"])
        .output()
        .expect("run tiao bench --list");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), tiao::engine::bench::POSITIONS.len());
    for (line, (variant, fen)) in lines.iter().zip(tiao::engine::bench::POSITIONS) {
        assert_eq!(*line, format!("{variant} {fen}"));
    }
}

#[test]
fn every_international_position_of_a_file_is_measured_then_the_set() {
    let file = positions_file(
        "positions.txt",
        "# comments and blank lines are skipped\n\
         \n\
         Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n\
         international W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26\n\
         russian W:Wa1,c1,e1,g1:Bb8,d8,f8,h8\n",
    );
    let out = script(&[
        "--rounds",
        "1",
        "--times",
        "0.05",
        "--param",
        "a:hash=16",
        "--positions",
        file.to_str().expect("a UTF-8 path"),
    ]);
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("position 1: Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"));
    // The FEN as a Hub position: square 1 first, kings upper case.
    assert!(
        text.contains("position 2: Weeeeeeeeeeebbbebebbebebbwbwwewewwwwewweeeeeeeeeeee"),
        "{text}"
    );
    // The Russian line is not for a 10x10 engine.
    assert!(!text.contains("position 3"), "{text}");
    let totals = text.split("all 2 positions").nth(1).expect("the totals");
    for engine in ["a", "b"] {
        let row = totals
            .lines()
            .find(|l| l.starts_with(&format!("| {engine} | 0.05 |")))
            .unwrap_or_else(|| panic!("no total for {engine}: {text}"));
        // | name | time | deepest (ties) | nodes | seconds | rate |
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let nodes: f64 = cells[4].parse().expect("nodes");
        let rate: f64 = cells[6].parse().expect("rate");
        assert!(nodes > 0.0 && rate > 0.0, "{row}");
    }
}

#[test]
fn a_parameter_for_no_engine_and_a_bad_fen_are_refused() {
    let out = script(&["--rounds", "1", "--times", "0.01", "--param", "c:hash=16"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--param for no engine: c"));
    for (fen, error) in [
        ("W:W25,51:B1", "square 51 off the board"),
        ("W:W25,x3:B1", "not a square or a range of squares, 'x3'"),
        ("W:W25:X1", "not a 10x10 FEN"),
    ] {
        let out = script(&["--rounds", "1", "--fen", fen]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{fen} accepted");
        assert!(
            err.contains(error) && !err.contains("Traceback"),
            "{fen}: {err}"
        );
    }
}
