//! Real matches of Tiao against Tiao through `tiao match`, at tiny node
//! limits: the tallies in the table agree with the PDN, the PDN reads back,
//! every game replays legally from its start, ends exactly where the rules
//! (replayed here with the board's own `GameHistory`) say it ends, and opening
//! pairs swap colours. Also the SPRT's early stop (and its picture), adjudication, FEN
//! openings, `tiao openings`, and the command-line checks.

mod svg_support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use svg_support::read_xml;
use tiao::board::{Colour, International, Outcome, Rules, Russian};
use tiao::notation::{PdnGame, parse_pdn, replay};
use tiao::record::GameHistory;
use tiao::tools::match_runner::ballot::Ballot;

const TIAO: &str = env!("CARGO_BIN_EXE_tiao");

fn tmp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn tiao_engine(name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd='{TIAO}' hub"),
        "option.hash=8".into(),
    ]
}

fn run(args: &[String]) -> Output {
    Command::new(TIAO).args(args).output().expect("tiao runs")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn read_games(path: &Path) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path).expect("PDN written");
    parse_pdn(&text)
        .into_iter()
        .map(|g| g.expect("the PDN reads back"))
        .collect()
}

/// W, D, L of the table row that starts with `label`.
fn table_row(stdout: &str, label: &str) -> [u32; 4] {
    let row = stdout
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no row {label} in {stdout}"));
    let cells: Vec<u32> = row
        .split_whitespace()
        .skip(label.split_whitespace().count())
        .take(4)
        .map(|c| c.parse().expect("a count"))
        .collect();
    [cells[0], cells[1], cells[2], cells[3]]
}

/// Replay a game with the board's own rules: every move legal, the game not
/// over before its last move, and over after it with the recorded result.
fn check_game<R: Rules>(g: &PdnGame, results: [&str; 3]) {
    let r = replay::<R>(g).unwrap_or_else(|e| panic!("{e}: {g:?}"));
    let start = *r.start().expect("start");
    let mut game = GameHistory::new(start);
    for mv in &r.moves {
        assert_eq!(
            game.outcome(),
            None,
            "the game went on after its end: {g:?}"
        );
        game.play(*mv);
    }
    let expected = match game.outcome() {
        Some(Outcome::Win(Colour::White)) => results[0],
        Some(Outcome::Win(Colour::Black)) => results[1],
        Some(Outcome::Draw(_)) => results[2],
        None => panic!("game ended before the rules ended it: {g:?}"),
    };
    assert_eq!(g.tag("Result"), Some(expected), "{g:?}");
    assert_eq!(g.result.as_deref(), Some(expected));
    assert_eq!(g.tag("Termination"), Some("normal"));
    assert_eq!(g.tag("PlyCount"), Some(r.moves.len().to_string().as_str()));
}

/// Points of `name` (in half points) from a game's result.
fn half_points(g: &PdnGame, name: &str) -> u32 {
    let white = g.tag("White") == Some(name);
    match (g.tag("Result").unwrap_or(""), white) {
        ("2-0" | "1-0", true) | ("0-2" | "0-1", false) => 2,
        ("1-1" | "1/2-1/2", _) => 1,
        _ => 0,
    }
}

#[test]
fn a_self_play_match_is_consistent_and_legal() {
    let pdn = tmp("selfplay.pdn");
    let mut args = strings(&["match", "--quiet"]);
    args.extend(tiao_engine("alpha"));
    args.extend(tiao_engine("beta"));
    args.extend(strings(&[
        "--games",
        "20",
        "--tc",
        "nodes=400",
        "--concurrency",
        "2",
        "--pdn",
    ]));
    args.push(pdn.display().to_string());
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = read_games(&pdn);
    assert_eq!(games.len(), 20);
    let rounds: BTreeSet<u32> = games
        .iter()
        .map(|g| g.tag("Round").and_then(|r| r.parse().ok()).expect("Round"))
        .collect();
    assert_eq!(rounds, (1..=20).collect());
    for g in &games {
        check_game::<International>(g, ["2-0", "0-2", "1-1"]);
        assert!(g.tag("GameType").is_some_and(|t| t.starts_with("20,")));
        assert_eq!(g.tag("TimeControl"), Some("nodes=400"));
        assert!(
            g.tag("OpeningSource")
                .is_some_and(|s| s.starts_with("built-in openings/international-3move.txt:"))
        );
        // The opening's moves start the game, as the ballot writes them.
        let opening: Vec<&str> = g.tag("Opening").expect("Opening").split(' ').collect();
        assert_eq!(
            g.tag("OpeningPlies"),
            Some(opening.len().to_string().as_str())
        );
        let played: Vec<&str> = g.moves.iter().map(String::as_str).collect();
        assert_eq!(&played[..opening.len()], &opening[..]);
        let (w, b) = (g.tag("White"), g.tag("Black"));
        assert!(matches!(
            (w, b),
            (Some("alpha"), Some("beta")) | (Some("beta"), Some("alpha"))
        ));
    }
    // Games 2k−1 and 2k are one opening with colours swapped.
    let by_round = |n: u32| {
        games
            .iter()
            .find(|g| g.tag("Round") == Some(n.to_string().as_str()))
            .expect("round")
    };
    for k in 1..=10 {
        let (a, b) = (by_round(2 * k - 1), by_round(2 * k));
        assert_eq!(a.tag("Opening"), b.tag("Opening"));
        assert_eq!(a.tag("White"), b.tag("Black"));
        assert_eq!(a.tag("White"), Some("alpha"));
    }
    // The table agrees with the games.
    let [n, w, d, l] = table_row(&stdout, "alpha vs beta");
    let points: Vec<u32> = games.iter().map(|g| half_points(g, "alpha")).collect();
    assert_eq!(n, 20);
    assert_eq!(w, points.iter().filter(|&&p| p == 2).count() as u32);
    assert_eq!(d, points.iter().filter(|&&p| p == 1).count() as u32);
    assert_eq!(l, points.iter().filter(|&&p| p == 0).count() as u32);
    assert!(stdout.contains("Elo from 10 game pairs"), "{stdout}");
    assert!(
        stdout.contains(&format!("endings: by the rules {n}")),
        "{stdout}"
    );
}

#[test]
fn a_russian_match_writes_russian_pdn() {
    let pdn = tmp("russian.pdn");
    let mut args = strings(&["match", "--quiet", "--variant", "russian"]);
    args.extend(tiao_engine("r1"));
    args.extend(tiao_engine("r2"));
    args.extend(strings(&["--games", "4", "--tc", "nodes=300", "--pdn"]));
    args.push(pdn.display().to_string());
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = read_games(&pdn);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("GameType"), Some("25,W,8,8,A0,0"));
        check_game::<Russian>(g, ["1-0", "0-1", "1/2-1/2"]);
        // Russian players write algebraic squares.
        assert!(
            g.moves[0].starts_with(|c: char| c.is_ascii_lowercase()),
            "{g:?}"
        );
    }
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let pdn = tmp("sprt.pdn");
    let mut args = strings(&["match", "--quiet"]);
    let mut strong = tiao_engine("strong");
    strong.push("tc=nodes=3000".into());
    let mut weak = tiao_engine("weak");
    weak.push("tc=depth=1".into());
    args.extend(strong);
    args.extend(weak);
    args.extend(strings(&[
        "--games",
        "300",
        "--sprt",
        "elo0=0",
        "elo1=100",
        "--concurrency",
        "2",
        "--pdn",
    ]));
    args.push(pdn.display().to_string());
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let [n, ..] = table_row(&stdout, "strong vs weak");
    assert!((20..300).contains(&n), "{stdout}");
    let games = read_games(&pdn);
    assert_eq!(games.len() as u32, n);
    assert_eq!(games.len() % 2, 0, "pairs under way were finished");
    assert!(games.iter().all(|g| g.tag("WhiteTimeControl").is_some()));
    // Resumed, the test stands decided by the games already played.
    let before = std::fs::read(&pdn).expect("PDN");
    args.push("--resume".into());
    let again = run(&args);
    let resumed = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{resumed}");
    assert!(resumed.contains("H1 accepted"), "{resumed}");
    assert!(
        resumed.contains(&format!("resumed: {n} games read back from")),
        "{resumed}"
    );
    assert!(resumed.contains(" 0 played now"), "{resumed}");
    assert_eq!(table_row(&resumed, "strong vs weak")[0], n);
    assert_eq!(std::fs::read(&pdn).expect("PDN"), before);
    // The picture next to the PDN shows the test's course: the LLR from 0
    // after each pair, between the two bounds, and the decision.
    let svg = std::fs::read_to_string(tmp("sprt.svg")).expect("the picture");
    let elements = read_xml(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    let course = elements
        .iter()
        .find(|e| e.name == "polyline")
        .and_then(|e| e.attribute("points"))
        .expect("the LLR's course");
    assert_eq!(
        course.split_whitespace().count() as u32,
        n / 2 + 1,
        "{course}"
    );
    let texts: Vec<&str> = elements
        .iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text.as_str())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("SPRT elo0=0 elo1=100") && t.ends_with("strong vs weak")),
        "{texts:?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("LLR ") && t.contains(": H1 accepted")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.starts_with("H1 accepted at ")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.starts_with("H0 accepted at ")),
        "{texts:?}"
    );
}

/// `tiao match --resume` between alpha and `second`, `games` games, into `pdn`.
fn resumed_match(pdn: &Path, games: u32, second: &str) -> Output {
    let mut args = strings(&["match", "--quiet", "--resume", "--tc", "nodes=300"]);
    args.extend(tiao_engine("alpha"));
    args.extend(tiao_engine(second));
    args.extend(strings(&["--games", &games.to_string(), "--pdn"]));
    args.push(pdn.display().to_string());
    run(&args)
}

/// The game numbers of a PDN file, in file order (the order the games
/// finished in).
fn rounds(path: &Path) -> Vec<u32> {
    read_games(path)
        .iter()
        .map(|g| g.tag("Round").and_then(|r| r.parse().ok()).expect("Round"))
        .collect()
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

#[test]
fn a_resumed_match_plays_only_the_games_its_pdn_lacks() {
    let pdn = tmp("resume.pdn");
    let _ = std::fs::remove_file(&pdn);
    // Without a file, --resume starts the match.
    let out = resumed_match(&pdn, 4, "beta");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(sorted(rounds(&pdn)), [1, 2, 3, 4]);
    let first_run = std::fs::read_to_string(&pdn).expect("PDN");
    // The same command with more games keeps the four and plays four more.
    let out = resumed_match(&pdn, 8, "beta");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("resumed: 4 games read back from") && stdout.contains("4 played now"),
        "{stdout}"
    );
    assert!(
        stdout.contains("8 games (4 read back, 4 played) in"),
        "{stdout}"
    );
    let [n, w, d, l] = table_row(&stdout, "alpha vs beta");
    assert_eq!(n, 8, "{stdout}");
    let games = read_games(&pdn);
    let points: Vec<u32> = games.iter().map(|g| half_points(g, "alpha")).collect();
    assert_eq!(w, points.iter().filter(|&&p| p == 2).count() as u32);
    assert_eq!(d, points.iter().filter(|&&p| p == 1).count() as u32);
    assert_eq!(l, points.iter().filter(|&&p| p == 0).count() as u32);
    let text = std::fs::read_to_string(&pdn).expect("PDN");
    assert!(
        text.starts_with(&first_run),
        "the first run's games are kept as written"
    );
    assert_eq!(sorted(rounds(&pdn)), (1..=8).collect::<Vec<_>>());
    for g in &games {
        check_game::<International>(g, ["2-0", "0-2", "1-1"]);
    }
    // A run killed after the first game of a pair: only its second is played.
    let last = games.iter().position(|g| g.tag("Round") == Some("8"));
    let kept: Vec<PdnGame> = games
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != last)
        .map(|(_, g)| g.clone())
        .collect();
    std::fs::write(&pdn, tiao::notation::write_games(&kept)).expect("write");
    let out = resumed_match(&pdn, 8, "beta");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.contains("resumed: 7 games read back from"),
        "{stdout}"
    );
    assert!(stdout.contains("1 played now"), "{stdout}");
    assert_eq!(rounds(&pdn).last(), Some(&8));
    // Games of another match are never counted, and the file is left as it was.
    let before = std::fs::read(&pdn).expect("PDN");
    let out = resumed_match(&pdn, 10, "gamma");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    // The file holds the games in the order they finished: whichever game
    // comes first is named.
    assert!(
        stderr.contains("is not this match's") && stderr.contains("would write \"gamma\""),
        "{stderr}"
    );
    let out = resumed_match(&pdn, 6, "beta");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("give --games 8 or more"), "{stderr}");
    assert_eq!(std::fs::read(&pdn).expect("PDN"), before);
}

#[test]
fn round_robin_and_gauntlet_pairings() {
    // The third engine is started from its own directory with a relative
    // command, as Hub GUIs start engines.
    let exe = Path::new(TIAO);
    let dir = exe.parent().expect("directory").display().to_string();
    let file = exe
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let third = vec![
        "--engine".to_string(),
        "name=c".into(),
        format!("cmd=./{file} hub"),
        format!("dir={dir}"),
    ];
    for (flag, rows) in [
        ("--round-robin", vec!["a vs b", "a vs c", "b vs c"]),
        ("--gauntlet", vec!["a vs b", "a vs c"]),
    ] {
        let pdn = tmp(&format!("pairings{flag}.pdn"));
        let mut args = strings(&["match", "--quiet", flag]);
        args.extend(tiao_engine("a"));
        args.extend(tiao_engine("b"));
        args.extend(third.clone());
        args.extend(strings(&["--games", "2", "--tc", "nodes=200", "--pdn"]));
        args.push(pdn.display().to_string());
        let out = run(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for row in &rows {
            assert_eq!(table_row(&stdout, row)[0], 2, "{stdout}");
        }
        assert!(!stdout.contains("b vs c") || flag == "--round-robin");
        let games = read_games(&pdn);
        assert_eq!(games.len(), 2 * rows.len());
        for g in &games {
            check_game::<International>(g, ["2-0", "0-2", "1-1"]);
        }
    }
}

#[test]
fn draw_adjudication_ends_games_early() {
    let pdn = tmp("adjudicated.pdn");
    let mut args = strings(&["match", "--quiet"]);
    args.extend(tiao_engine("a"));
    args.extend(tiao_engine("b"));
    args.extend(strings(&[
        "--games",
        "2",
        "--tc",
        "nodes=300",
        "--adjudicate-draw",
        "moves=2",
        "score=50",
        "after=1",
        "--pdn",
    ]));
    args.push(pdn.display().to_string());
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for g in read_games(&pdn) {
        assert_eq!(g.tag("Termination"), Some("adjudication"));
        assert_eq!(g.tag("Result"), Some("1-1"));
        replay::<International>(&g).expect("legal");
        assert!(g.moves.len() <= 3 + 6, "{g:?}");
    }
}

#[test]
fn fen_openings_from_a_file() {
    let ballot = tmp("fen-ballot.txt");
    // A position after 1. 32-28 19-23 2. 28x19 14x23, then one more move.
    std::fs::write(
        &ballot,
        "# variant: international\n\
         W:W31,33-50:B1-13,15-18,20,23 33-28\n",
    )
    .expect("write ballot");
    let pdn = tmp("fen-games.pdn");
    let mut args = strings(&["match", "--quiet", "--openings"]);
    args.push(ballot.display().to_string());
    args.extend(tiao_engine("a"));
    args.extend(tiao_engine("b"));
    args.extend(strings(&["--games", "2", "--tc", "nodes=200", "--pdn"]));
    args.push(pdn.display().to_string());
    let out = run(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for g in read_games(&pdn) {
        assert!(g.tag("FEN").is_some_and(|f| f.starts_with("W:")), "{g:?}");
        assert_eq!(g.moves[0], "33-28");
        check_game::<International>(&g, ["2-0", "0-2", "1-1"]);
    }
}

#[test]
fn every_shipped_ballot_is_sound() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("openings");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("openings/") {
        let path = entry.expect("entry").path();
        let is_book = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("book-"));
        if path.extension().and_then(|e| e.to_str()) != Some("txt") || is_book {
            continue;
        }
        let ballot = Ballot::load(&path).expect("reads");
        let variant = ballot.variant.expect("a variant header");
        ballot.check(variant).expect("every opening plays");
        let plies: usize = std::fs::read_to_string(&path)
            .expect("text")
            .lines()
            .find_map(|l| l.strip_prefix("# plies: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("a plies header");
        assert!(ballot.openings.iter().all(|o| o.moves.len() == plies));
        files += 1;
    }
    assert!(files >= 4);
}

#[test]
fn tiao_openings_writes_a_reproducible_ballot() {
    let a = tmp("gen-a.txt");
    let b = tmp("gen-b.txt");
    for (path, threads) in [(&a, "2"), (&b, "1")] {
        let out = Command::new(TIAO)
            .args([
                "openings",
                "--quiet",
                "--variant",
                "russian",
                "--plies",
                "2",
            ])
            .args([
                "--depth",
                "5",
                "--margin",
                "0.5",
                "--threads",
                threads,
                "-o",
            ])
            .arg(path)
            .output()
            .expect("tiao openings runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&a).expect("written");
    assert_eq!(text, std::fs::read_to_string(&b).expect("written"));
    assert!(text.contains("# variant: russian\n# plies: 2\n# depth: 5\n# margin: 0.50\n"));
    assert!(text.contains("# command: tiao openings --variant russian --plies 2 --depth 5"));
    let ballot = Ballot::parse(&text, "gen").expect("a ballot");
    assert_eq!(
        ballot.variant,
        Some(tiao::engine::GameKind::Draughts(
            tiao::board::Variant::Russian
        ))
    );
    // 7 × 7 two-ply openings, all distinct; those within 0.50 men kept.
    assert!(!ballot.openings.is_empty() && ballot.openings.len() <= 49);
    assert!(ballot.openings.iter().all(|o| o.moves.len() == 2));
    ballot
        .check(tiao::engine::GameKind::Draughts(
            tiao::board::Variant::Russian,
        ))
        .expect("all playable");
}

#[test]
fn command_line_mistakes_are_explained() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            [strings(&["match"]), tiao_engine("a")].concat(),
            "at least two engines",
        ),
        (
            [
                strings(&["match", "--tc", "fast"]),
                tiao_engine("a"),
                tiao_engine("b"),
            ]
            .concat(),
            "bad time control 'fast'",
        ),
        (
            [
                strings(&["match", "--sprt", "elo0=0", "elo1=5"]),
                tiao_engine("a"),
                tiao_engine("b"),
                tiao_engine("c"),
            ]
            .concat(),
            "--sprt compares two engines",
        ),
        (
            [
                strings(&["match", "--resume"]),
                tiao_engine("a"),
                tiao_engine("b"),
            ]
            .concat(),
            "--resume goes on from the games of a PDN file",
        ),
        (
            [
                strings(&["match", "--variant", "russian", "--openings"]),
                vec![format!(
                    "{}/openings/international-3move.txt",
                    env!("CARGO_MANIFEST_DIR")
                )],
                tiao_engine("a"),
                tiao_engine("b"),
            ]
            .concat(),
            "use --variant international",
        ),
        (
            [
                strings(&["match", "--engine", "name=x", "path=/bin/x"]),
                tiao_engine("b"),
            ]
            .concat(),
            "unknown key 'path'",
        ),
        (
            [
                strings(&["match", "--tc", "nodes=100"]),
                tiao_engine("a"),
                tiao_engine("b"),
                strings(&["option.nonsense=1"]),
            ]
            .concat(),
            "refused its settings",
        ),
    ];
    for (args, expected) in cases {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// `tiao match` in a process group of its own, interrupted as a terminal's
/// Ctrl-C does it: SIGINT to the whole group, `presses` times, `gap` apart.
#[cfg(unix)]
fn interrupted_match(nodes: u32, presses: u32, gap: std::time::Duration) -> Output {
    signalled_match(nodes, &[], "-INT -", presses, gap)
}

/// `tiao match` (with `extra` arguments) in a process group of its own,
/// sent `kill {signal}PID` `presses` times, `gap` apart, after two seconds.
#[cfg(unix)]
fn signalled_match(
    nodes: u32,
    extra: &[String],
    signal: &str,
    presses: u32,
    gap: std::time::Duration,
) -> Output {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let mut args = strings(&["match", "--quiet", "--games", "400", "--concurrency", "2"]);
    args.extend_from_slice(extra);
    for name in ["a", "b"] {
        args.extend(tiao_engine(name));
        args.push(format!("tc=nodes={nodes}"));
    }
    let child = Command::new(TIAO)
        .args(&args)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tiao runs");
    std::thread::sleep(std::time::Duration::from_secs(2));
    for _ in 0..presses {
        // The shell's own `kill`: no kill binary needs to be installed.
        let sent = Command::new("sh")
            .arg("-c")
            .arg(format!("kill {signal}{}", child.id()))
            .status()
            .expect("sh runs");
        assert!(sent.success());
        std::thread::sleep(gap);
    }
    child.wait_with_output().expect("tiao ends")
}

#[cfg(unix)]
#[test]
fn ctrl_c_finishes_the_games_under_way_and_reports_them() {
    let out = interrupted_match(2000, 1, std::time::Duration::ZERO);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "an interrupted match is not a success"
    );
    assert!(stderr.contains("interrupted after"), "{stderr}");
    let [n, ..] = table_row(&stdout, "a vs b");
    assert!((1..400).contains(&n), "{stdout}");
    assert_eq!(n % 2, 0, "pairs under way were finished: {stdout}");
    assert!(
        stdout.contains(&format!("interrupted (Ctrl-C): {n} of 400 games played")),
        "{stdout}"
    );
    // The engines, in groups of their own, did not get the signal: no game
    // ended by a crash.
    assert!(
        stdout.contains(&format!("endings: by the rules {n}\n")),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn a_second_ctrl_c_stops_the_match_at_once() {
    let started = std::time::Instant::now();
    let out = interrupted_match(1_000_000, 2, std::time::Duration::from_millis(300));
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    assert!(out.stdout.is_empty(), "no report after the second Ctrl-C");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[cfg(unix)]
#[test]
fn sigterm_reports_the_finished_games_at_once_and_keeps_them_in_the_pdn() {
    let pdn = tmp("sigterm.pdn");
    let extra = strings(&["--pdn", &pdn.to_string_lossy()]);
    // A game of 2,000 nodes a move lasts well under the two seconds before
    // the signal; one of 500,000 outlasts the test's patience, so waiting
    // for the games under way would show.
    let out = signalled_match(2000, &extra, "-TERM ", 1, std::time::Duration::ZERO);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("terminated by SIGTERM after"), "{stderr}");
    let [n, ..] = table_row(&stdout, "a vs b");
    assert!((1..400).contains(&n), "{stdout}");
    assert!(
        stdout.contains(&format!("terminated (SIGTERM): {n} of 400 games played")),
        "{stdout}"
    );
    assert_eq!(
        read_games(&pdn).len() as u32,
        n,
        "the PDN holds the reported games, each complete"
    );
}

#[cfg(unix)]
#[test]
fn sigterm_does_not_wait_for_the_games_under_way() {
    let started = std::time::Instant::now();
    let out = signalled_match(500_000, &[], "-TERM ", 1, std::time::Duration::ZERO);
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("terminated (SIGTERM): 0 of 400 games played"),
        "{stdout}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
