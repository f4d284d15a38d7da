//! The opening book in play: the Hub protocol and text mode answer book
//! positions with a book move at once (marked as such), `go analyze` and
//! `book=false` search instead, positions are found by hash whatever the
//! move order or however the position was sent, and a missing or broken
//! book file is an error after which Tiao plays on, while a book that is
//! off is never opened; the shipped books are built into the binary, so a
//! copy of it far from `openings/` plays them too, and `tiao book check` and
//! `show` read them there. (The book's format, loader,
//! builder and importer are specified in `book.rs`.)

mod script_support;

use script_support::{hub_script, hub_script_in, text_script};
use std::path::PathBuf;
use tiao::board::Variant;
use tiao::book::{Book, BookMove, position_hash};
use tiao::engine::{BookLoad, Engine, GameKind, MoveReading, Options, new_session};
use tiao::notation::MoveFormat;
use tiao::search::Mode;

fn shipped(variant: Variant) -> Book {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(tiao::book::default_path(variant));
    Book::load(&path, variant).expect("the shipped book loads")
}

/// The FEN after `moves` from the international start position.
fn fen_after(moves: &[&str]) -> String {
    let mut s = new_session(Variant::International);
    for m in moves {
        s.play(m, MoveReading::Hub).expect("a legal move");
    }
    s.fen()
}

fn book_moves(book: &Book, fen: &str) -> Vec<BookMove> {
    let hash = position_hash(book.variant(), fen).expect("fen");
    book.moves(hash)
        .expect("the position is in the book")
        .to_vec()
}

fn best_score(moves: &[BookMove]) -> i32 {
    moves
        .iter()
        .filter_map(|m| m.score)
        .max()
        .expect("scored moves")
}

fn done_move(lines: &[String]) -> String {
    let done = lines.last().expect("a done line");
    done.strip_prefix("done move=")
        .and_then(|m| m.split(' ').next())
        .unwrap_or_else(|| panic!("not a done line with a move: {done}"))
        .to_string()
}

fn has_book_info(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info depth=0") && l.ends_with(" book=yes"))
}

#[test]
fn a_book_position_is_answered_with_a_book_move_within_the_margin() {
    let book = shipped(Variant::International);
    let start = book_moves(&book, &fen_after(&[]));
    let best = best_score(&start);
    // Default settings: random within 4 centi-men during the first 4 plies.
    for _ in 0..3 {
        let lines = hub_script(
            "hub\ninit\npos start\nlevel move-time=5\ngo think\n",
            "done",
        );
        assert!(has_book_info(&lines), "{lines:?}");
        let mv = done_move(&lines);
        let chosen = start
            .iter()
            .find(|m| m.mv == mv)
            .unwrap_or_else(|| panic!("{mv} is not a book move"));
        assert!(
            chosen.score.expect("scored") >= best - 4,
            "{mv}: {chosen:?}"
        );
    }
}

#[test]
fn book_margin_zero_plays_the_best_book_move() {
    let book = shipped(Variant::International);
    for line in [&[][..], &["32-28"], &["32-28", "17-21", "37-32"]] {
        let moves = book_moves(&book, &fen_after(line));
        let best = best_score(&moves);
        let script = format!(
            "hub\nset-param name=book-margin value=0\ninit\npos start moves=\"{}\"\ngo think\n",
            line.join(" ")
        );
        let lines = hub_script(&script, "done");
        let mv = done_move(&lines);
        let chosen = moves.iter().find(|m| m.mv == mv).expect("a book move");
        assert_eq!(chosen.score, Some(best), "after {line:?}: {lines:?}");
    }
}

#[test]
fn a_position_is_found_by_hash_whatever_the_move_order_or_how_it_was_sent() {
    // 31-26 20-24 32-27 19-23 and 32-27 19-23 31-26 20-24 meet in one position.
    let a = ["31-26", "20-24", "32-27", "19-23"];
    let b = ["32-27", "19-23", "31-26", "20-24"];
    assert_eq!(fen_after(&a), fen_after(&b));
    let book = shipped(Variant::International);
    let moves = book_moves(&book, &fen_after(&a));
    let best = best_score(&moves);
    for script in [
        format!("pos start moves=\"{}\"", a.join(" ")),
        format!("pos start moves=\"{}\"", b.join(" ")),
        format!("pos fen={}", fen_after(&a)),
    ] {
        let lines = hub_script(
            &format!(
                "hub\nset-param name=book-margin value=0\nset-param name=book-max-ply value=0\n\
                 init\n{script}\ngo think\n"
            ),
            "done",
        );
        assert!(has_book_info(&lines), "{script}: {lines:?}");
        let mv = done_move(&lines);
        let chosen = moves.iter().find(|m| m.mv == mv).expect("a book move");
        assert_eq!(chosen.score, Some(best), "{script}");
    }
}

/// The Hub session `setup` then `go` at depth 3 searches: no book line, a depth-3 `info`.
fn assert_searched(setup: &str, go: &str) {
    let lines = hub_script(&format!("hub\n{setup}\nlevel depth=3\ngo {go}\n"), "done");
    assert!(!has_book_info(&lines), "{setup}: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3")),
        "{setup}: {lines:?}"
    );
}

#[test]
fn analysis_ignores_the_book() {
    assert_searched("init\npos start", "analyze");
}

#[test]
fn book_false_searches_from_the_first_move() {
    assert_searched("set-param name=book value=false\ninit\npos start", "think");
}

#[test]
fn book_max_ply_searches_from_that_game_ply_on() {
    // 32-28 17-21 37-32 is a book position at ply 3: played from the book
    // with book-max-ply 4, searched with book-max-ply 3.
    let line = "pos start moves=\"32-28 17-21 37-32\"";
    let lines = hub_script(
        &format!("hub\nset-param name=book-max-ply value=4\ninit\n{line}\ngo think\n"),
        "done",
    );
    assert!(has_book_info(&lines), "{lines:?}");
    assert_searched(
        &format!("set-param name=book-max-ply value=3\ninit\n{line}"),
        "think",
    );
    // The same position sent as a FEN is at the same game ply (its distance
    // from the start through the book).
    assert_searched(
        &format!(
            "set-param name=book-max-ply value=3\ninit\npos fen={}",
            fen_after(&["32-28", "17-21", "37-32"])
        ),
        "think",
    );
    // By default the book plays plies 0 to 3 and the search the rest:
    // 31-26 20-24 32-27 19-23 is a book position at ply 4.
    let ply4 = "31-26 20-24 32-27 19-23";
    assert!(
        book_moves(
            &shipped(Variant::International),
            &fen_after(&ply4.split(' ').collect::<Vec<_>>())
        )
        .len()
            > 1
    );
    assert_searched(&format!("init\npos start moves=\"{ply4}\""), "think");
}

#[test]
fn positions_outside_the_book_are_searched() {
    assert_searched("init\npos fen=W:W28,33,K50:B5,12,19", "think");
}

#[test]
fn a_missing_or_broken_book_is_an_error_and_tiao_plays_on() {
    let dir = std::env::temp_dir().join(format!("tiao-book-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let broken = dir.join("broken.txt");
    std::fs::write(
        &broken,
        "tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 32-28 +1 1\nW:W31-50:B1-20 ; 99-98 +1 1\n",
    )
    .expect("write");
    let missing = dir.join("missing.txt");
    for (file, expected) in [(&missing, "missing.txt"), (&broken, "line 4")] {
        let lines = hub_script(
            &format!(
                "hub\nset-param name=book-file value=\"{}\"\ninit\npos start\nlevel depth=2\ngo think\n",
                file.display()
            ),
            "done",
        );
        let err = lines
            .iter()
            .find(|l| l.starts_with("error message="))
            .unwrap_or_else(|| panic!("an error line: {lines:?}"));
        assert!(err.contains(expected), "{err}");
        assert!(err.contains("playing without an opening book"), "{err}");
        assert!(lines.iter().any(|l| l == "ready"));
        assert!(!has_book_info(&lines));
        let mv = done_move(&lines);
        assert!(
            new_session(Variant::International)
                .legal_moves(MoveFormat::Hub)
                .contains(&mv)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_book_that_is_off_is_not_opened_until_it_is_turned_on() {
    let missing = std::env::temp_dir().join(format!("tiao-no-book-{}.txt", std::process::id()));
    let lines = hub_script(
        &format!(
            "hub\nset-param name=book-file value=\"{}\"\nset-param name=book value=false\ninit\n\
             pos start\nlevel depth=2\ngo think\nset-param name=book value=true\nping\n",
            missing.display()
        ),
        "pong",
    );
    let done = lines
        .iter()
        .position(|l| l.starts_with("done"))
        .expect("a move played");
    assert!(
        !lines[..done].iter().any(|l| l.starts_with("error")),
        "no error while the book is off: {lines:?}"
    );
    let err = lines[done..]
        .iter()
        .find(|l| l.starts_with("error message="))
        .unwrap_or_else(|| panic!("turning the book on opens the file: {lines:?}"));
    assert!(err.contains("tiao-no-book-"), "{err}");
}

#[test]
fn a_binary_copied_away_from_the_repository_still_plays_its_book_moves() {
    // A copy of the binary in a temporary directory, started there: no
    // `openings/` next to it, above it or in its working directory, as in
    // a GUI's engine folder or after `cargo install`.
    let dir = std::env::temp_dir()
        .join(format!("tiao-away-{}", std::process::id()))
        .join("engines");
    std::fs::create_dir_all(&dir).expect("dir");
    let exe = dir.join("tiao");
    let _ = std::fs::remove_file(&exe);
    if std::fs::hard_link(env!("CARGO_BIN_EXE_tiao"), &exe).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_tiao"), &exe).expect("copy the binary");
    }
    assert!(!dir.join("openings").exists());
    let book = shipped(Variant::International);
    let line = ["32-28", "17-21"];
    let moves = book_moves(&book, &fen_after(&line));
    let best = best_score(&moves);
    let lines = hub_script_in(
        &exe,
        &dir,
        &format!(
            "hub\nset-param name=book-margin value=0\ninit\npos start moves=\"{}\"\n\
             level move-time=5\ngo think\n",
            line.join(" ")
        ),
        "done",
    );
    let _ = std::fs::remove_dir_all(dir.parent().expect("parent"));
    assert!(lines.iter().any(|l| l == "ready"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    assert!(has_book_info(&lines), "a book move: {lines:?}");
    let mv = done_move(&lines);
    let chosen = moves
        .iter()
        .find(|m| m.mv == mv)
        .unwrap_or_else(|| panic!("{mv} is not a move of openings/book-international.txt"));
    assert_eq!(chosen.score, Some(best), "{lines:?}");
}

#[test]
fn book_show_and_check_read_the_built_in_book_where_there_is_no_openings_folder() {
    // Started in a directory without `openings/`: without a file named,
    // the tools answer from the book the engine plays, not with an error.
    let dir = std::env::temp_dir().join(format!("tiao-book-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("tiao runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {text}{err}");
        text
    };
    let check = run(&["book", "check"]);
    let show = run(&["book", "show", "--moves", "32-28 17-21"]);
    let _ = std::fs::remove_dir_all(&dir);

    let book = shipped(Variant::International);
    assert!(
        check.starts_with(&format!(
            "built-in international book: international book, {} positions, {} moves",
            book.len(),
            book.move_count()
        )),
        "{check}"
    );
    let moves = book_moves(&book, &fen_after(&["32-28", "17-21"]));
    for m in &moves {
        assert!(
            show.lines().any(|l| l.trim_start().starts_with(&m.mv)),
            "{show}"
        );
    }
    let played = show
        .lines()
        .find_map(|l| l.strip_prefix("book move "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the move played: {show}"));
    let chosen = moves.iter().find(|m| m.mv == played).expect("a book move");
    assert_eq!(chosen.score, Some(best_score(&moves)), "{show}");
}

#[test]
fn the_engine_opens_each_variants_book_and_only_plays_it_when_asked() {
    let mut engine = Engine::new(Options::default()).expect("engine");
    assert!(
        engine.book_move(Mode::Think).is_none(),
        "no book before load_book"
    );
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(tiao::book::default_path(Variant::International));
    engine
        .set_option("book-file", &file.display().to_string())
        .expect("book-file");
    engine.load_book().expect("the international book");
    let choice = engine.book_move(Mode::Think).expect("a book move");
    assert!(engine.legal_moves(MoveFormat::Hub).contains(&choice.mv));
    assert!(engine.book_move(Mode::Analyze).is_none());
    engine.set_option("book", "false").expect("book off");
    assert!(engine.book_move(Mode::Think).is_none());
    engine.set_option("book", "true").expect("book on");

    // Switching variants opens the new variant's book (built in, as no
    // file is named), and games without books have none.
    engine
        .set_option("book-file", "")
        .expect("the default book");
    engine
        .set_game(GameKind::Draughts(Variant::Russian))
        .expect("the Russian book opens");
    let loaded = engine.book().expect("the Russian book");
    assert_eq!(loaded.variant(), Variant::Russian);
    let choice = engine.book_move(Mode::Think).expect("a Russian book move");
    assert!(engine.legal_moves(MoveFormat::Hub).contains(&choice.mv));
    engine
        .set_game(GameKind::Draughts(Variant::Canadian))
        .expect("no Canadian book is not an error");
    assert!(engine.book().is_none());
    assert_eq!(
        engine.load_book(),
        Ok(BookLoad::NotShipped {
            variant: Variant::Canadian
        }),
        "no Canadian book is not an error"
    );
    engine
        .set_game(GameKind::Halma8)
        .expect("no Halma book is not an error");
    assert!(engine.book_move(Mode::Think).is_none());
}

#[test]
fn text_mode_shows_the_book_and_go_plays_from_it() {
    let book = shipped(Variant::International);
    let moves = book_moves(&book, &fen_after(&[]));
    let best = moves
        .iter()
        .find(|m| m.score == Some(best_score(&moves)))
        .expect("best");
    let out = text_script("book\nbook margin 0\ngo\nbook off\ngo depth 2\n");
    assert!(
        out[0].starts_with("book on ply 4 margin 4 max-ply 4 file built-in (")
            && out[0].contains("11000 positions"),
        "{out:?}"
    );
    assert!(
        out[1].starts_with("book moves ") && out[1].contains(&best.mv),
        "{out:?}"
    );
    assert!(
        out[3].starts_with(&format!("book move {} ", best.mv)),
        "{out:?}"
    );
    assert!(
        out[4].starts_with(&format!("bestmove {} ", best.mv)) && out[4].ends_with(" book"),
        "{out:?}"
    );
    assert_eq!(out[5], format!("played {}", best.mv));
    assert!(out[6].starts_with("book off"), "{out:?}");
    let searched = out
        .iter()
        .skip(7)
        .find(|l| l.starts_with("bestmove "))
        .expect("a searched move");
    assert!(searched.contains(" depth 2 "), "{searched}");
    assert!(
        text_script("book margin 200\nbook sideways\n")
            .iter()
            .all(|l| l.starts_with("error: "))
    );
    assert_eq!(
        text_script("book max-ply 101\nbook max-ply 6\n")[..2],
        [
            "error: book max-ply needs a number from 0 to 100".to_string(),
            "book on ply 4 margin 4 max-ply 6 file built-in (11000 positions)".to_string()
        ]
    );
}
