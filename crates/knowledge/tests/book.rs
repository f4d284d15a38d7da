//! The opening book: loading good and bad files, transpositions, the
//! shipped books (every move legal), the choice of a move (`book-margin`,
//! `book-ply`), PDN import counts, and building and resuming a tiny book.

use std::path::PathBuf;
use tiao_draughts::board::{Brazilian, International, Position, Rules, Russian, Variant};
use tiao_draughts::movegen::{MoveList, generate};
use tiao_draughts::notation::{read_fen, read_hub_move, write_hub_move};
use tiao_knowledge::book::{
    Book, BookError, BookMove, BookSettings, BuildOptions, build, choose, compact_fen, import_games,
};

/// The position after `moves` (Hub or PDN form) from the start.
fn after<R: Rules>(moves: &[&str]) -> Position<R> {
    let mut pos = Position::<R>::start();
    for m in moves {
        let mv = tiao_draughts::notation::read_move(&pos, m).expect("test moves are legal");
        pos = pos.play(&mv);
    }
    pos
}

fn header(v: &str) -> String {
    format!("# a test book\ntiao-book 1\nvariant {v}\n")
}

/// A fresh, empty directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tiao-book-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn mv(text: &str, score: i32, weight: u32) -> BookMove {
    BookMove {
        mv: text.into(),
        score: Some(score),
        weight,
        results: None,
    }
}

// ---------------------------------------------------------------- loading

#[test]
fn a_good_book_loads_and_is_probed_by_hash() {
    let text = header("international")
        + "W:W31-50:B1-20 ; 32-28 +10 1 ; 33-28 +8 2 ; 34-29 -20 1   # main line\n\
           \n\
           B:W28,31,33-50:B1-20 ; 18-23 +0 1 ; 19-23 ? 3 2/1/0\n";
    let book = Book::parse(&text, Variant::International).expect("valid book");
    assert_eq!(book.len(), 2);
    assert_eq!(book.move_count(), 5);
    let start = Position::<International>::start();
    let moves = book.moves(start.hash()).expect("start is in the book");
    assert_eq!(moves[0], mv("32-28", 10, 1));
    let second = book
        .moves(after::<International>(&["32-28"]).hash())
        .expect("in book");
    assert_eq!(second[1].score, None);
    assert_eq!(second[1].results.map(|r| r.games()), Some(3));
    assert!(
        book.moves(after::<International>(&["31-27"]).hash())
            .is_none()
    );
}

#[test]
fn moves_may_be_written_in_pdn_form_and_are_kept_in_hub_form() {
    let capture = "W:W28:B23,14";
    let text = header("international") + &format!("{capture} ; 28x19x10 +300 1\n");
    let book = Book::parse(&text, Variant::International).expect("valid");
    let pos = read_fen::<International>(capture).expect("fen");
    assert_eq!(book.moves(pos.hash()).expect("entry")[0].mv, "28x10x14x23");
    // Russian books use square numbers too, but algebraic input is understood.
    let text = header("russian") + "W:W21-32:B1-12 ; c3-d4 +5 1 ; 22-17 +3 1\n";
    let book = Book::parse(&text, Variant::Russian).expect("valid");
    let start = Position::<Russian>::start();
    let moves: Vec<&str> = book
        .moves(start.hash())
        .expect("entry")
        .iter()
        .map(|m| m.mv.as_str())
        .collect();
    assert_eq!(moves, vec!["22-18", "22-17"]);
}

#[test]
fn a_bad_book_is_rejected_with_every_bad_line_numbered() {
    let text = header("international")
        + "W:W31-50:B1-20 ; 32-28 +1 1\n\
           W:W31-50:B1-99 ; 32-28 +1 1\n\
           B:W28,31,33-50:B1-20 ; 32-27 +1 1\n\
           B:W29,31-33,35-50:B1-20 ; 19-23 one 1\n\
           W:W31-50:B1-20 ; 33-28 +1 1\n\
           B:W29,31-33,35-50:B1-20 ; 19-23 +1 1 ; 19-23 +2 1\n\
           just some words\n";
    let err = Book::parse(&text, Variant::International).expect_err("invalid");
    let lines: Vec<usize> = err.line_errors().iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![5, 6, 7, 8, 9, 10], "{err}");
    let shown = err.to_string();
    assert!(shown.contains("line 5: bad FEN"), "{shown}");
    assert!(
        shown.contains("line 6: move item 1: illegal move '32-27'"),
        "{shown}"
    );
    assert!(
        shown.contains("line 8: the same position as line 4"),
        "{shown}"
    );
    assert!(shown.contains("listed twice"), "{shown}");
}

#[test]
fn missing_files_headers_and_wrong_variants_are_clear_errors() {
    let dir = temp_dir("missing");
    let missing = dir.join("no-such-book.txt");
    match Book::load(&missing, Variant::International) {
        Err(BookError::Io { path, .. }) => assert!(path.contains("no-such-book.txt")),
        other => panic!("{other:?}"),
    }
    let err = Book::parse("W:W31-50:B1-20 ; 32-28 +1 1\n", Variant::International)
        .expect_err("no header");
    assert_eq!(err.line_errors()[0].line, 1);
    let err = Book::parse(&header("russian"), Variant::International).expect_err("wrong variant");
    assert!(
        matches!(
            err,
            BookError::WrongVariant {
                found: Variant::Russian,
                ..
            }
        ),
        "{err}"
    );
    let err = Book::parse(
        "tiao-book 2\nvariant international\n",
        Variant::International,
    )
    .expect_err("version");
    assert!(err.to_string().contains("version 2"), "{err}");
    // Binary junk is reported as such, not as a crash.
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, [0xff, 0xfe, 0x00, 0x41]).expect("write");
    assert!(matches!(
        Book::load(&junk, Variant::International),
        Err(BookError::Io { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_book_loads_back_the_same() {
    let text = header("international")
        + "W:W31-50:B1-20 ; 32-28 +10 1 ; 33-28 +8 2\nB:W28,31,33-50:B1-20 ; 18-23 +0 1 ; 19-23 ? 3 2/1/0\n";
    let book = Book::parse(&text, Variant::International).expect("valid");
    let again =
        Book::parse(&book.to_text(&["comment".into()]), Variant::International).expect("valid");
    assert_eq!(again.to_text(&[]), book.to_text(&[]));
    assert_eq!(again.len(), 2);
}

// ---------------------------------------------------------------- transpositions

#[test]
fn two_move_orders_find_the_same_entry() {
    let a = after::<International>(&["34-29", "17-21", "33-28"]);
    let b = after::<International>(&["33-28", "17-21", "34-29"]);
    assert_eq!(a, b);
    let text =
        header("international") + &format!("{} ; 19-24 +5 1 ; 12-17 +1 1\n", compact_fen(&a));
    let book = Book::parse(&text, Variant::International).expect("valid");
    let (ea, eb) = (
        book.entry(a.hash()).expect("a"),
        book.entry(b.hash()).expect("b"),
    );
    assert!(std::ptr::eq(ea, eb));
    assert_eq!(ea.moves[0].mv, "19-24");
    assert_ne!(a.hash(), after::<International>(&["34-29", "17-21"]).hash());
}

// ---------------------------------------------------------------- choosing

fn sample_moves() -> Vec<BookMove> {
    vec![
        mv("33-28", 12, 1),
        mv("32-28", 15, 1),
        mv("34-29", 13, 1),
        mv("31-27", 5, 1),
        mv("35-30", -40, 1),
    ]
}

#[test]
fn margin_zero_always_plays_the_best_move() {
    let moves = sample_moves();
    for seed in 0..500 {
        for ply in 0..6 {
            let m = choose(&moves, ply, 20, 0, seed).expect("a move");
            assert_eq!(m.mv, "32-28");
        }
    }
}

#[test]
fn book_ply_limits_the_randomness() {
    let moves = sample_moves();
    let (book_ply, margin) = (4, 4);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..500 {
        for ply in 0..book_ply {
            let m = choose(&moves, ply, book_ply, margin, seed).expect("a move");
            assert!(m.score.unwrap_or(i32::MIN) >= 15 - margin, "{m:?}");
            seen.insert(m.mv.clone());
        }
        for ply in book_ply..book_ply + 10 {
            assert_eq!(
                choose(&moves, ply, book_ply, margin, seed)
                    .expect("a move")
                    .mv,
                "32-28"
            );
        }
    }
    // Within the margin: 32-28 (15) and 34-29 (13); 33-28 (12) is 3 below... and within too.
    let expected: std::collections::BTreeSet<String> = ["32-28", "34-29", "33-28"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(seen, expected);
    // The same seed gives the same move.
    assert_eq!(choose(&moves, 0, 4, 4, 42), choose(&moves, 0, 4, 4, 42));
}

#[test]
fn probe_follows_the_settings_and_checks_legality() {
    let text =
        header("international") + "W:W31-50:B1-20 ; 32-28 +10 1 ; 33-28 +8 1 ; 31-26 -30 1\n";
    let book = Book::parse(&text, Variant::International).expect("valid");
    let hash = Position::<International>::start().hash();
    let legal: Vec<String> = [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let off = BookSettings {
        enabled: false,
        ..BookSettings::default()
    };
    assert!(book.probe(hash, 0, &legal, &off, 1).is_none());
    let best = BookSettings {
        enabled: true,
        ply: 0,
        margin: 0,
        max_ply: 0,
    };
    let c = book.probe(hash, 0, &legal, &best, 1).expect("book move");
    assert_eq!(
        (c.mv.as_str(), c.score, c.random),
        ("32-28", Some(10), false)
    );
    assert_eq!(
        c.hub_info(),
        "info depth=0 score=0.10 nodes=0 time=0.000 nps=0.00 pv=\"32-28\" book=yes"
    );
    let wide = BookSettings {
        enabled: true,
        ply: 10,
        margin: 100,
        max_ply: 0,
    };
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        seen.insert(
            book.probe(hash, 0, &legal, &wide, seed)
                .expect("book move")
                .mv,
        );
    }
    assert_eq!(seen.len(), 3);
    // An entry whose moves are not legal here belongs to another position.
    let other: Vec<String> = vec!["32-28".into()];
    assert!(book.probe(hash, 0, &other, &best, 1).is_none());
}

#[test]
fn book_max_ply_ends_the_book_at_that_game_ply() {
    let text = header("international") + "W:W31-50:B1-20 ; 32-28 +10 1 ; 33-28 +8 1\n";
    let book = Book::parse(&text, Variant::International).expect("valid");
    let hash = Position::<International>::start().hash();
    let legal: Vec<String> = ["32-28", "33-28"].iter().map(|s| s.to_string()).collect();
    let settings = |max_ply| BookSettings {
        max_ply,
        ..BookSettings::default()
    };
    // 0: the book plays as deep as it goes.
    assert!(book.probe(hash, 0, &legal, &settings(0), 1).is_some());
    assert!(book.probe(hash, 30, &legal, &settings(0), 1).is_some());
    // N: plies 0..N-1 from the book, ply N on from the search.
    assert!(book.probe(hash, 5, &legal, &settings(6), 1).is_some());
    assert!(book.probe(hash, 6, &legal, &settings(6), 1).is_none());
    assert!(book.probe(hash, 0, &legal, &settings(1), 1).is_some());
    assert!(book.probe(hash, 1, &legal, &settings(1), 1).is_none());
}

// ---------------------------------------------------------------- shipped books

fn check_shipped<R: Rules>(min_positions: usize) {
    let variant = R::VARIANT;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(tiao_knowledge::book::default_path(variant));
    let book = Book::load(&path, variant).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        book.len() >= min_positions,
        "{}: {} positions",
        path.display(),
        book.len()
    );
    let mut list = MoveList::<R>::new();
    for e in book.entries() {
        // Independently of the loader: the FEN is the position, and every
        // move reads as a legal move whose Hub text is the one stored.
        let pos = read_fen::<R>(&e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.fen));
        assert_eq!(pos.hash(), e.hash);
        list.clear();
        generate(&pos, &mut list);
        assert!(!e.moves.is_empty());
        for m in &e.moves {
            let legal = read_hub_move(&pos, &m.mv)
                .unwrap_or_else(|err| panic!("{} {}: {err}", e.fen, m.mv));
            assert!(list.contains(&legal));
            assert_eq!(write_hub_move::<R>(&legal), m.mv);
            assert!(
                m.score.is_some(),
                "{} {}: shipped moves are scored",
                e.fen,
                m.mv
            );
        }
    }
    // The start position is in, and the book is one tree grown from it.
    assert!(book.contains(Position::<R>::start().hash()));
    assert_eq!(
        book.distances().len(),
        book.len(),
        "every position reachable from the start"
    );
}

#[test]
fn shipped_international_book_is_legal() {
    check_shipped::<International>(10_000);
}

#[test]
fn shipped_russian_book_is_legal() {
    check_shipped::<Russian>(1_000);
}

#[test]
fn shipped_brazilian_book_is_legal() {
    check_shipped::<Brazilian>(1_000);
}

// ---------------------------------------------------------------- import

const COLLECTION: &str = r#"[Event "one"]
[Result "2-0"]
1. 32-28 18-23 2. 33-29 23x32 3. 37x28 2-0

[Event "two"]
[Result "0-2"]
1. 32-28 19-23 2. 28x19 14x23 0-2

[Event "three: the third move is illegal"]
[Result "1-1"]
1. 32-28 18-23 2. 31-27 23x32 3. 50-44 1-1

[Event "four: another variant"]
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-e5 1-0

[Event "five: an illegal first move"]
1. 32-29 *

[Event "six: broken tags
1. 32-28 *

[Event "seven"]
[Result "*"]
1. 33-28 *
"#;

#[test]
fn a_pdn_import_counts_moves_and_results() {
    let mut book = Book::new(Variant::International);
    let r = import_games(&mut book, COLLECTION, 30, 1);
    assert_eq!(r.used, 4, "{r:?}"); // one, two, three (cut short), seven
    assert_eq!(r.truncated, 1, "{r:?}");
    assert_eq!(r.other_variant, 1, "{r:?}");
    assert_eq!(r.unplayable, 1, "{r:?}");
    assert!(r.unreadable >= 1, "{r:?}");
    // Plies: 5 + 4 + 3 (up to the illegal 23x32: 23x32x21 is compulsory) + 1.
    assert_eq!(r.plies, 13, "{r:?}");
    let start = book
        .moves(Position::<International>::start().hash())
        .expect("start");
    let find = |m: &str| start.iter().find(|b| b.mv == m).cloned().expect("move");
    let m3228 = find("32-28");
    assert_eq!(m3228.weight, 3);
    assert_eq!(m3228.score, None);
    let r3228 = m3228.results.expect("results");
    assert_eq!((r3228.wins, r3228.draws, r3228.losses), (1, 1, 1));
    let m3328 = find("33-28");
    assert_eq!((m3328.weight, m3328.results), (1, None));
    let reply = book
        .moves(after::<International>(&["32-28"]).hash())
        .expect("after 32-28");
    let r1823 = reply.iter().find(|b| b.mv == "18-23").expect("18-23");
    assert_eq!(r1823.weight, 2);
    // Black's view: game one was lost by Black, game three drawn.
    let r = r1823.results.expect("results");
    assert_eq!((r.wins, r.draws, r.losses), (0, 1, 1));
    // min-games 2 keeps only moves played twice or more.
    let mut small = Book::new(Variant::International);
    import_games(&mut small, COLLECTION, 30, 2);
    assert_eq!(small.len(), 2);
    // The imported book round-trips through its text form.
    let again = Book::parse(&book.to_text(&[]), Variant::International).expect("valid");
    assert_eq!(again.len(), book.len());
}

// ---------------------------------------------------------------- building

fn tiny(path: PathBuf, variant: Variant, positions: usize, threads: usize) -> BuildOptions {
    BuildOptions {
        variant,
        path,
        positions,
        depth: 3,
        threads,
        hash_mib: 1,
        ply_cost: 15,
        max_drop: 60,
        max_ply: 20,
        max_moves: 6,
        batch: 3,
        save_every: std::time::Duration::from_secs(3600),
        progress: false,
    }
}

#[test]
fn a_tiny_book_builds_and_resumes_to_the_same_book() {
    let dir = temp_dir("build");
    let resumed = dir.join("resumed.txt");
    let r = build(&tiny(resumed.clone(), Variant::International, 7, 2)).expect("build");
    assert_eq!((r.positions_before, r.positions, r.added), (0, 7, 7));
    let r = build(&tiny(resumed.clone(), Variant::International, 12, 1)).expect("resume");
    assert_eq!((r.positions_before, r.positions, r.added), (7, 12, 5));
    let at_once = dir.join("at-once.txt");
    build(&tiny(at_once.clone(), Variant::International, 12, 2)).expect("build");
    let a = std::fs::read_to_string(&resumed).expect("read");
    let b = std::fs::read_to_string(&at_once).expect("read");
    assert_eq!(a, b, "a resumed build equals an uninterrupted one");
    let book = Book::load(&resumed, Variant::International).expect("valid");
    assert_eq!(book.len(), 12);
    let start = book
        .entry(Position::<International>::start().hash())
        .expect("start");
    assert_eq!(start.moves.len(), 6);
    // Imported moves get scored by the next build.
    let mut with_games = book.clone();
    let game = "[FEN \"W:W31-50:B1-15,17-20,23\"]\n1. 32-28 23x32 *\n";
    let imported = import_games(&mut with_games, game, 10, 1);
    assert_eq!(
        (imported.used, imported.positions_added),
        (1, 2),
        "{imported:?}"
    );
    with_games.save(&resumed, &[]).expect("save");
    let r = build(&tiny(resumed.clone(), Variant::International, 12, 2)).expect("rescore");
    assert_eq!((r.rescored, r.added), (2, 0), "{r:?}");
    let book = Book::load(&resumed, Variant::International).expect("valid");
    assert!(book.entries().iter().all(|e| !e.has_unscored()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tiny_russian_book_builds() {
    let dir = temp_dir("russian");
    let path = dir.join("russian.txt");
    build(&tiny(path.clone(), Variant::Russian, 5, 2)).expect("build");
    let book = Book::load(&path, Variant::Russian).expect("valid");
    assert_eq!(book.len(), 5);
    assert!(book.contains(Position::<Russian>::start().hash()));
    let _ = std::fs::remove_dir_all(&dir);
}
