//! Opening the engine's knowledge: what `Engine::load_book`,
//! `Engine::load_egdb`, `Engine::set_game` and `Engine::open_knowledge`
//! found, told by kind, and the sentences those kinds are said in.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tiao_draughts::board::Variant;
use tiao_engine::{
    BookLoad, BookLoadError, Engine, GameKind, KnowledgeError, NotOpened, Opened, OptionError,
    Options, TablesError, TablesLoad,
};
use tiao_knowledge::book::BookError;
use tiao_knowledge::endgame::{GenOptions, Material, generate};

/// A fresh directory of this test process.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tiao-engine-knowledge-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn engine() -> Engine {
    Engine::new(Options::default()).expect("engine")
}

fn engine_with_book_file(path: &Path) -> Engine {
    let mut engine = engine();
    engine
        .set_option("book-file", &path.display().to_string())
        .expect("book-file");
    engine
}

#[test]
fn a_missing_book_file_is_unreadable_and_no_book_is_in_play() {
    let missing = temp_dir("missing").join("no-such-book.txt");
    let mut engine = engine_with_book_file(&missing);
    let e = engine.load_book().expect_err("a missing book file");
    let BookLoadError::Unreadable { path, error } = &e else {
        panic!("not Unreadable: {e:?}");
    };
    assert_eq!(path, &missing);
    assert!(matches!(error, BookError::Io { .. }), "{error:?}");
    assert_eq!(e.path(), Some(missing.as_path()));
    let text = e.to_string();
    assert!(text.contains("no-such-book.txt"), "{text}");
    assert!(
        text.ends_with("; playing without an opening book"),
        "{text}"
    );
    assert!(engine.book().is_none());
}

#[test]
fn a_book_with_bad_lines_or_of_another_variant_is_invalid() {
    let dir = temp_dir("invalid");
    let broken = dir.join("broken.txt");
    std::fs::write(
        &broken,
        "tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 99-98 +1 1\n",
    )
    .expect("write");
    let russian = dir.join("russian.txt");
    std::fs::write(&russian, "tiao-book 1\nvariant russian\n").expect("write");
    for (file, wrong_variant) in [(&broken, false), (&russian, true)] {
        let mut engine = engine_with_book_file(file);
        let e = engine.load_book().expect_err("an invalid book");
        let BookLoadError::Invalid { path, error } = &e else {
            panic!("not Invalid: {e:?}");
        };
        assert_eq!(path, file);
        assert_eq!(
            matches!(error, BookError::WrongVariant { .. }),
            wrong_variant,
            "{error:?}"
        );
        assert!(
            e.to_string().ends_with("; playing without an opening book"),
            "{e}"
        );
        assert!(engine.book().is_none());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A book of one international position (the start, 32-28), written in `dir`.
fn one_position_book(dir: &std::path::Path) -> std::path::PathBuf {
    let file = dir.join("book.txt");
    std::fs::write(
        &file,
        "tiao-book 1\nvariant international\nW:W31-50:B1-20 ; 32-28 +1 1\n",
    )
    .expect("write");
    file
}

#[test]
fn a_valid_book_file_is_loaded_with_its_positions_and_path() {
    let dir = temp_dir("valid");
    let file = one_position_book(&dir);
    let mut engine = engine_with_book_file(&file);
    let found = engine.load_book().expect("a valid book");
    assert_eq!(
        found,
        BookLoad::Loaded {
            positions: 1,
            path: file.clone()
        }
    );
    assert_eq!(
        found.to_string(),
        format!("opening book: 1 positions from {}", file.display())
    );
    assert_eq!(engine.book_path(), Some(file.as_path()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_and_variants_without_books_are_not_errors() {
    let mut engine = engine();
    engine
        .set_game(GameKind::Draughts(Variant::Canadian))
        .expect("nothing to open");
    let found = engine
        .load_book()
        .expect("no Canadian book is not an error");
    assert_eq!(
        found,
        BookLoad::NotShipped {
            variant: Variant::Canadian
        }
    );
    assert_eq!(found.to_string(), "no opening book for canadian");
    engine.set_game(GameKind::Halma8).expect("nothing to open");
    let found = engine.load_book().expect("no Halma book is not an error");
    assert_eq!(
        found,
        BookLoad::NoneForGame {
            game: GameKind::Halma8
        }
    );
    assert_eq!(
        found.to_string(),
        format!("no opening book for {}", GameKind::Halma8)
    );
}

#[test]
fn without_a_book_file_each_variant_plays_its_built_in_book() {
    let mut engine = engine();
    for variant in [Variant::International, Variant::Russian, Variant::Brazilian] {
        engine
            .set_game(GameKind::Draughts(variant))
            .expect("a variant");
        let found = engine.load_book().expect("the built-in book");
        let BookLoad::BuiltIn {
            variant: of,
            positions,
        } = found
        else {
            panic!("not the built-in book: {found:?}");
        };
        assert_eq!(of, variant);
        assert_eq!(engine.book().map(|b| b.len()), Some(positions));
        assert_eq!(engine.book().map(|b| b.variant()), Some(variant));
        assert_eq!(engine.book_path(), None, "no file");
        assert_eq!(
            found.to_string(),
            format!("opening book: built-in {variant} book, {positions} positions")
        );
    }
}

#[test]
fn a_book_file_replaces_the_built_in_book_and_an_empty_one_brings_it_back() {
    let dir = temp_dir("override");
    let file = one_position_book(&dir);
    let mut engine = engine_with_book_file(&file);
    assert!(matches!(
        engine.load_book(),
        Ok(BookLoad::Loaded { positions: 1, .. })
    ));
    engine.set_option("book-file", "").expect("the default");
    assert!(matches!(
        engine.load_book(),
        Ok(BookLoad::BuiltIn {
            variant: Variant::International,
            positions,
        }) if positions > 1000
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Russian tables up to 3 pieces, generated once for the whole file.
fn russian_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = temp_dir("tables");
        let mut opts = GenOptions::new(Variant::Russian, 3);
        opts.dir = dir.clone();
        opts.progress = false;
        generate(&opts).expect("generate 3-piece tables");
        dir
    })
}

fn russian_engine_with_tables(dir: &Path, pieces: u32) -> Engine {
    Engine::new(Options {
        variant: Variant::Russian,
        egdb_pieces: pieces,
        egdb_dir: dir.to_path_buf(),
        ..Options::default()
    })
    .expect("engine")
}

#[test]
fn no_pieces_is_off_and_a_game_without_tables_says_so() {
    let mut engine = engine();
    assert_eq!(engine.load_egdb(), Ok(TablesLoad::Off));
    assert_eq!(TablesLoad::Off.to_string(), "endgame databases off");
    engine.set_option("egdb-pieces", "3").expect("stored");
    engine
        .set_game(GameKind::Gewu)
        .expect("a game without tables");
    let found = engine.load_egdb().expect("not an error");
    assert_eq!(
        found,
        TablesLoad::NotForThisGame {
            game: GameKind::Gewu
        }
    );
    assert_eq!(
        found.to_string(),
        format!("no endgame databases for {}", GameKind::Gewu)
    );
}

#[test]
fn tables_that_are_not_there_are_none_loaded() {
    let dir = temp_dir("no-tables").join("nothing-here");
    let mut engine = russian_engine_with_tables(&dir, 3);
    let e = engine.load_egdb().expect_err("no tables there");
    let TablesError::NoneLoaded { damaged, .. } = &e else {
        panic!("not NoneLoaded: {e:?}");
    };
    assert!(damaged.is_empty(), "{damaged:?}");
    let text = e.to_string();
    assert!(text.starts_with("no endgame databases loaded: "), "{text}");
    assert!(text.ends_with("; playing without them"), "{text}");
    // open_knowledge reports the same kind, and switching games lists it.
    let opened = engine.open_knowledge();
    assert!(
        matches!(
            opened.first(),
            Some(Err(KnowledgeError::Tables(TablesError::NoneLoaded { .. })))
        ),
        "{opened:?}"
    );
    let Err(NotOpened { problems }) = engine.set_game(GameKind::Draughts(Variant::Brazilian))
    else {
        panic!("the switch opens the Brazilian tables, which are not there");
    };
    assert!(
        matches!(
            problems.first(),
            Some(KnowledgeError::Tables(TablesError::NoneLoaded { .. }))
        ),
        "{problems:?}"
    );
    assert_eq!(
        engine.game(),
        GameKind::Draughts(Variant::Brazilian),
        "the switch happens all the same"
    );
}

#[test]
fn a_complete_set_and_a_partial_one_are_told_apart() {
    let dir = russian_tables();
    let mut engine = russian_engine_with_tables(dir, 3);
    let game = GameKind::Draughts(Variant::Russian);
    let found = engine.load_egdb().expect("the tables");
    assert_eq!(
        found,
        TablesLoad::Complete {
            game,
            pieces: 3,
            dir: dir.to_path_buf()
        }
    );
    assert_eq!(
        found.to_string(),
        format!(
            "endgame databases: russian up to 3 pieces from {}",
            dir.display()
        )
    );
    let opened = engine.set_option("egdb-pieces", "4");
    // Knowledge is not open yet: only stored.
    assert_eq!(opened, Ok(vec![]));
    let found = engine.load_egdb().expect("the tables up to 3");
    assert_eq!(
        found,
        TablesLoad::Partial {
            game,
            used: 3,
            asked: 4,
            dir: dir.to_path_buf()
        }
    );
    let d = dir.display();
    assert_eq!(
        found.to_string(),
        format!(
            "endgame databases: russian complete up to 3 pieces in {d} (asked for 4; \
             generate the rest with: tiao egdb gen --variant russian --pieces 4 --dir {d})"
        )
    );
    // Once the knowledge is open, an option change reopens them at once.
    let opened = engine.open_knowledge();
    assert!(
        matches!(
            opened.first(),
            Some(Ok(Opened::Tables(TablesLoad::Partial { used: 3, .. })))
        ),
        "{opened:?}"
    );
    assert_eq!(
        engine.set_option("egdb-pieces", "2"),
        Ok(vec![Opened::Tables(TablesLoad::Complete {
            game,
            pieces: 2,
            dir: dir.to_path_buf()
        })])
    );
}

#[test]
fn a_damaged_table_is_left_out_and_the_sound_ones_are_used() {
    let dir = temp_dir("damaged");
    let from = russian_tables().join("russian");
    let to = dir.join("russian");
    std::fs::create_dir_all(&to).expect("dir");
    for entry in std::fs::read_dir(&from).expect("tables") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
    let victim = Material::new(1, 1, 0, 1).file_name();
    std::fs::write(to.join(&victim), b"").expect("empty a table");
    let mut engine = russian_engine_with_tables(&dir, 3);
    let e = engine.load_egdb().expect_err("a damaged table");
    let TablesError::Damaged {
        damaged,
        used,
        asked,
        ..
    } = &e
    else {
        panic!("not Damaged: {e:?}");
    };
    assert_eq!((*used, *asked), (2, 3));
    assert!(
        damaged.len() == 1 && damaged[0].contains(&victim),
        "{damaged:?}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with("damaged endgame tables left out: "),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "; using the russian tables up to 2 pieces (generate the damaged ones again with: \
             tiao egdb gen --variant russian --pieces 3 --dir {})",
            dir.display()
        )),
        "{text}"
    );
    // Through an option, the problem is NotLoaded with the same kind inside.
    engine.open_knowledge();
    let e = engine
        .set_option("egdb-dir", &dir.display().to_string())
        .expect_err("still damaged");
    assert!(
        matches!(
            &e,
            OptionError::NotLoaded { option: "egdb-dir", problems }
                if matches!(problems.as_slice(), [KnowledgeError::Tables(TablesError::Damaged { .. })])
        ),
        "{e:?}"
    );
    assert_eq!(e.to_string(), text);
    let _ = std::fs::remove_dir_all(&dir);
}
