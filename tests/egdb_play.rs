//! Endgame databases in play: the search scores covered positions as
//! database results, the root move is the database's best, the Hub
//! parameters load them (a missing set is a clear message and Tiao plays on),
//! and `tiao match` adjudicates covered positions.

mod script_support;

use script_support::hub_script;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use tiao::board::International;
use tiao::endgame::{Egdb, GenOptions, VariantEgdb, generate};
use tiao::engine::{Decision, Engine, MoveReading, Options, PositionText, Purpose};
use tiao::notation::{MoveFormat, read_fen, write_hub_move};
use tiao::search::score::{DB_BOUND, WIN_BOUND};
use tiao::search::{Limits, Params};

/// International tables up to 3 pieces, generated once for the whole file.
fn tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("tiao-egdb-play-{}", std::process::id()));
        let mut opts = GenOptions::new(tiao::board::Variant::International, 3);
        opts.dir = dir.clone();
        opts.progress = false;
        generate(&opts).expect("generate 3-piece tables");
        dir
    })
}

fn set_fen(engine: &mut Engine, fen: &str) {
    engine
        .set_position(PositionText::Fen(fen), &[], MoveReading::Any)
        .expect("fen");
}

fn engine_with_tables() -> Engine {
    let mut e = Engine::new(Options {
        egdb_pieces: 3,
        egdb_dir: tables().to_path_buf(),
        ..Options::default()
    })
    .expect("engine");
    e.load_egdb().expect("tables load");
    e
}

#[test]
fn a_covered_won_position_gets_a_database_score_and_the_databases_best_move() {
    let fen = "W:WK46,37:B5";
    let mut engine = engine_with_tables();
    set_fen(&mut engine, fen);
    let decision = engine.choose_move(
        &Params::think(Limits::depth(6)),
        Purpose::Play,
        MoveFormat::Hub,
        &|_| {},
    );
    let Decision::Database(out) = &decision else {
        panic!("the databases answer: {decision:?}");
    };
    assert!(
        out.score > DB_BOUND && out.score < WIN_BOUND,
        "score {}",
        out.score
    );
    let db = Egdb::<International>::open(tables(), 3).expect("open");
    let pos = read_fen::<International>(fen).expect("fen");
    let best = db.best_move(&pos).expect("a best move");
    assert_eq!(
        decision.best(),
        Some(write_hub_move::<International>(&best).as_str())
    );
}

#[test]
fn the_search_scores_positions_that_reach_the_tables_as_database_results() {
    // Four pieces, not covered at the root: a capture leads into the 3-piece tables.
    let fen = "W:WK46,37:B5,32";
    let mut engine = engine_with_tables();
    set_fen(&mut engine, fen);
    // Analysis: thinking would play the only legal move (the capture) at once.
    let analyse = Params::analyze(Limits::depth(4));
    let with = engine.search(&analyse, MoveFormat::Hub, &|_| {});
    assert!(with.score.abs() > DB_BOUND, "score {}", with.score);
    // Without tables the same shallow search cannot see the end.
    let mut plain = Engine::new(Options::default()).expect("engine");
    set_fen(&mut plain, fen);
    let without = plain.search(&analyse, MoveFormat::Hub, &|_| {});
    assert!(without.score.abs() < DB_BOUND, "score {}", without.score);
}

#[test]
fn a_database_draw_is_scored_zero() {
    // A king and a man against a king: a man up, and a draw by the tables,
    // which the search without them does not see (it scores the extra man).
    let fen = "W:WK28,37:BK3";
    let db = Egdb::<International>::open(tables(), 3).expect("open");
    let pos = read_fen::<International>(fen).expect("fen");
    assert_eq!(db.probe(&pos), Some(tiao::endgame::Wdl::Draw));
    let think = Params::think(Limits::depth(8));
    let mut plain = Engine::new(Options::default()).expect("engine");
    set_fen(&mut plain, fen);
    let without = plain.search(&think, MoveFormat::Hub, &|_| {});
    assert!(
        without.score > 0 && without.score < DB_BOUND,
        "without tables the extra man counts: score {}",
        without.score
    );
    let mut engine = engine_with_tables();
    set_fen(&mut engine, fen);
    let with = engine.search(&think, MoveFormat::Hub, &|_| {});
    assert_eq!(with.score, 0, "the tables' draw");
}

#[test]
fn sessions_report_the_tables_verdict_for_adjudication() {
    let db = VariantEgdb::open_available(tables(), tiao::board::Variant::International, 3)
        .expect("open");
    let mut s = tiao::engine::new_session(tiao::board::Variant::International);
    s.set_fen("W:WK28:BK3").expect("fen");
    assert_eq!(s.tables_verdict(), None, "no tables attached yet");
    assert!(s.attach_tables(&db), "international tables fit");
    assert_eq!(s.tables_verdict(), Some(tiao::game::Verdict::Draw));
    s.set_fen("W:W31-50:B1-20").expect("fen");
    assert_eq!(s.tables_verdict(), None);
    // A position one move from the tables plays into them.
    s.set_fen("W:WK46,37:B5,32").expect("fen");
    assert_eq!(s.tables_verdict(), None, "four pieces are not covered");
    s.play("37x28", MoveReading::Any).expect("the capture");
    assert_eq!(
        s.tables_verdict(),
        Some(tiao::game::Verdict::Loss),
        "Black, to move, is lost"
    );
    s.close_tables();
    assert_eq!(s.tables_verdict(), None, "closed");
}

#[test]
fn a_session_refuses_another_rule_sets_tables() {
    let db = VariantEgdb::open_available(tables(), tiao::board::Variant::International, 3)
        .expect("open");
    let mut s = tiao::engine::new_session(tiao::board::Variant::Russian);
    s.set_fen("W:WK28:BK3").expect("fen");
    assert!(
        !s.attach_tables(&db),
        "international tables are not Russian ones"
    );
    assert_eq!(s.tables_verdict(), None);
    let mut halma = tiao::engine::new_game_session(tiao::engine::GameKind::Halma8);
    assert!(!halma.attach_tables(&db), "Halma has no endgame tables");
}

#[test]
fn the_hub_parameters_load_tables_and_a_missing_set_is_a_message_not_a_failure() {
    let dir = tables().display().to_string();
    let lines = hub_script(
        &format!(
            "hub\nset-param name=egdb-pieces value=3\nset-param name=egdb-dir value=\"{dir}\"\ninit\n\
             pos fen=W:WK46,37:B5\nlevel depth=4\ngo think\n"
        ),
        "done",
    );
    let info = lines
        .iter()
        .find(|l| l.starts_with("info"))
        .expect("an info line");
    let score: f64 = info
        .split("score=")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("score");
    assert!((80.0..90.0).contains(&score), "{info}");

    let lines = hub_script(
        "hub\nset-param name=bb-size value=3\nset-param name=egdb-dir value=/no/such/dir\ninit\npos start\nlevel depth=2\ngo think\n",
        "done",
    );
    let err = lines
        .iter()
        .find(|l| l.starts_with("error"))
        .expect("an error line");
    assert!(
        err.contains("endgame") && err.contains("playing without them"),
        "{err}"
    );
    assert!(lines.iter().any(|l| l == "ready"));
    assert!(lines.last().is_some_and(|l| l.starts_with("done move=")));
}

#[test]
fn a_match_adjudicates_covered_positions_with_the_tables() {
    let dir = std::env::temp_dir().join(format!("tiao-egdb-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ballot = dir.join("endings.txt");
    std::fs::write(
        &ballot,
        "# variant: international\nW:WK46,37:B5\nW:WK28:BK3\n",
    )
    .expect("ballot");
    let pdn = dir.join("games.pdn");
    let tiao = env!("CARGO_BIN_EXE_tiao");
    let out = Command::new(tiao)
        .args([
            "match",
            "--quiet",
            "--games",
            "4",
            "--tc",
            "nodes=500",
            "--egdb-pieces",
            "3",
        ])
        .arg("--egdb-dir")
        .arg(tables())
        .arg("--openings")
        .arg(&ballot)
        .args([
            "--engine",
            "name=a",
            &format!("cmd={tiao} hub"),
            "--engine",
            "name=b",
            &format!("cmd={tiao} hub"),
        ])
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .expect("match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pdn).expect("pdn");
    assert_eq!(
        text.matches("[TerminationDetails \"endgame database: white wins\"]")
            .count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.matches("[TerminationDetails \"endgame database: draw\"]")
            .count(),
        2,
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
