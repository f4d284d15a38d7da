//! Fuzzing of every reader of outside input: Hub lines, FEN and Hub
//! positions of every game, move text, PDN, DXP messages and framing,
//! opening books, weights files (v1 text and pattern binaries), endgame
//! table files, and the Hub front end end to end.
//!
//! Each reader gets arbitrary input (any characters or bytes, controls,
//! boundary numbers, very long input, soups of its own tokens) and
//! mutations of valid samples (see `fuzz_support`). Every case runs under a
//! watchdog, so a hang fails the test. The properties: no panic; a rejection
//! has a non-empty message and leaves the engine's state as it was; what is
//! accepted is self-consistent (written back and read again it is the same
//! thing, a move read is a legal move, a table value read is the true one).
//!
//! `TIAO_FUZZ_CASES` sets the cases per reader (`make fuzz` sets many).

mod fuzz_support;

use fuzz_support::{
    Labelled, any_or_mutated, assert_clear, bytes, config, mutants, mutated, mutated_text,
    scratch_dir, text, within_limit,
};
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use tiao::board::{
    Brazilian, Canadian, Geometry, International, Position, Rules, Russian, SquareStyle, Variant,
};
use tiao::engine::{GameKind, MoveReading, Session, new_game_session};
use tiao::notation::{
    MoveFormat, read_fen, read_hub_position, write_fen, write_fen_with, write_hub_position,
};

/// A fresh name for a scratch file or directory of one case.
fn unique(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

// ====================================================================== Hub lines

mod hub_lines {
    use super::*;
    use tiao::protocol::hubline::{HubLine, format_line, parse_line};

    pub const TOKENS: &[&str] = &[
        "hub",
        "set-param",
        "init",
        "pos",
        "level",
        "go",
        "ping",
        "stop",
        "ponder-hit",
        "new-game",
        "quit",
        "name",
        "value",
        "=",
        "\"",
        "=\"",
        "\"\"",
        " ",
        "  ",
        "\t",
        "\r",
        "\n",
        "pos=",
        "moves=",
        "start",
        "fen=",
        "think",
        "analyze",
        "ponder",
        "depth=",
        "nodes=",
        "time=",
        "move-time=",
        "inc=",
        "infinite",
        "variant",
        "book",
        "32-28",
        "W:W31-50:B1-20",
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
    ];

    pub fn samples() -> Vec<String> {
        [
            "hub",
            "set-param name=threads value=2",
            "set-param name=book value=\"\"",
            "set-param name=variant value=russian",
            "init",
            "pos start moves=\"32-28 19-23\"",
            "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "pos fen=\"W:W31-50:B1-20\" moves=32-28",
            "level depth=12",
            "level time=60 moves=40 inc=0.5",
            "level move-time=1.5 infinite",
            "go think",
            "go ponder",
            "  go   analyze  \r\n",
            "ping",
            "stop",
            "ponder-hit",
            "new-game",
        ]
        .map(str::to_string)
        .to_vec()
    }

    fn is_blank(c: char) -> bool {
        c == ' ' || c == '\t'
    }

    fn is_name(s: &str) -> bool {
        !s.is_empty() && !s.contains(|c: char| is_blank(c) || c == '=' || c == '"')
    }

    pub fn check(line: String) {
        match parse_line(&line) {
            Err(e) => assert_clear("Hub line", &line, &e),
            Ok(None) => assert!(
                line.trim_end_matches(['\r', '\n']).chars().all(is_blank),
                "a line with content read as blank: {line:?}"
            ),
            Ok(Some(l)) => {
                assert!(
                    is_name(&l.command),
                    "bad command {:?} from {line:?}",
                    l.command
                );
                for (n, _) in &l.pairs {
                    assert!(is_name(n), "bad pair name {n:?} from {line:?}");
                }
                // Written back (values quoted as needed) it reads the same,
                // when no value holds what the writer must replace.
                let plain = |s: &str| !s.contains(['"', '\r', '\n']);
                if plain(&l.command) && l.pairs.iter().all(|(n, v)| plain(n) && plain(v)) {
                    let pairs: Vec<(&str, String)> = l
                        .pairs
                        .iter()
                        .map(|(n, v)| (n.as_str(), v.clone()))
                        .collect();
                    let again = format_line(&l.command, &pairs);
                    let back: Result<Option<HubLine>, String> = parse_line(&again);
                    assert_eq!(back, Ok(Some(l.clone())), "{line:?} written as {again:?}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn hub_lines_of_arbitrary_text_never_panic(line in text(TOKENS)) {
            within_limit("parse_line", move || check(line));
        }

        #[test]
        fn mutated_hub_lines_are_read_or_rejected_clearly(line in mutated_text(samples(), TOKENS)) {
            within_limit("parse_line", move || check(line));
        }
    }
}

// ====================================================================== positions

mod positions {
    use super::*;

    pub const TOKENS: &[&str] = &[
        "W",
        "B",
        "w",
        "b",
        "e",
        "E",
        "K",
        ":",
        ",",
        "-",
        ".",
        "\"",
        " ",
        "W:",
        ":W",
        ":B",
        ":M",
        ":T",
        "M0,0",
        "1",
        "5",
        "20",
        "31-50",
        "1-20",
        "K1",
        "a1",
        "h8",
        "j10",
        "c3",
        "e5",
        "x",
        ":H0",
        ":F1",
        "WWWWW",
        ".........",
        "BBBBB",
        "hei",
        "bai",
        "wu",
        "lu",
        "bbbbbbbbbb",
        "eeeeeeeeee",
        "wwwwwwwwww",
    ];

    /// Positions reached in a fixed pseudo-random playout of each game.
    pub fn playout(kind: GameKind, plies: usize, seed: u64) -> Vec<String> {
        let mut s = new_game_session(kind);
        let mut rng = tiao::rng::Rng::new(seed);
        let mut moves = Vec::new();
        for _ in 0..plies {
            if s.outcome().is_some() {
                break;
            }
            let legal = s.legal_moves(MoveFormat::Hub);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())].clone();
            if s.play(&mv, MoveReading::Hub).is_err() {
                break;
            }
            moves.push(mv);
        }
        moves
    }

    /// A session of `kind` after `moves`.
    pub fn session_after(kind: GameKind, moves: &[String]) -> Box<dyn Session> {
        let mut s = new_game_session(kind);
        for m in moves {
            s.play(m, MoveReading::Hub)
                .unwrap_or_else(|e| panic!("{kind}: sample move {m}: {e}"));
        }
        s
    }

    /// Valid position texts of a game: the start, positions of playouts,
    /// and hand-written ones in the lenient forms the readers accept.
    pub fn samples(kind: GameKind, hub: bool) -> Vec<String> {
        let mut out = Vec::new();
        for seed in 1..=4 {
            let moves = playout(kind, 12 * seed as usize, seed);
            for k in [0, moves.len() / 2, moves.len()] {
                let s = session_after(kind, &moves[..k]);
                out.push(if hub { s.hub_position() } else { s.fen() });
            }
        }
        if !hub {
            let extra: &[&str] = match kind {
                GameKind::Draughts(Variant::International) => &[
                    "W:W31-50:B1-20",
                    "B:W27,28,38,39,42:BK25",
                    "W:WK1,45:B20,36",
                    "\"W:W31-50:B1-20:H0:F1.\"",
                    "W:B1,2:W",
                ],
                GameKind::Draughts(Variant::Canadian) => &["W:W43-72:B1-30", "B:WK1,72:B2"],
                GameKind::Draughts(_) => &["W:Wa1,c1:Bb6", "W:W21-32:B1-12", "B:WKh2:Ba7,K g1"],
                GameKind::Halma8 | GameKind::Halma10 => &["B:Wb2:Bg7:M1,0"],
                GameKind::Gewu => &["W:WWWWW.........BBBBB", "b:w.......w.......b"],
                GameKind::GewuDice => &["W:WWWWW.........BBBBB:Thei", "B:WW...............BB"],
            };
            out.extend(extra.iter().map(|s| s.to_string()));
        }
        out.sort();
        out.dedup();
        out
    }

    /// Set a position from `text` (FEN or Hub form) on a session that has
    /// moves played. A rejection leaves the game as it was; an accepted
    /// position reads back the same from what the session writes.
    pub fn check(kind: GameKind, hub: bool, prefix: Vec<String>, text: String) {
        let mut s = session_after(kind, &prefix);
        let (fen, hub_text, history) = (s.fen(), s.hub_position(), s.history(MoveFormat::Hub));
        let result = if hub {
            s.set_hub_position(&text)
        } else {
            s.set_fen(&text)
        };
        match result {
            Err(e) => {
                assert_clear("position", &text, &e);
                assert_eq!(
                    s.fen(),
                    fen,
                    "a rejected position changed the game: {text:?}"
                );
                assert_eq!(s.hub_position(), hub_text);
                assert_eq!(s.history(MoveFormat::Hub), history);
            }
            Ok(()) => {
                assert!(s.history(MoveFormat::Hub).is_empty(), "{text:?}");
                let (f, h) = (s.fen(), s.hub_position());
                let mut t = new_game_session(kind);
                t.set_fen(&f).unwrap_or_else(|e| {
                    panic!("{kind}: {text:?} was read, but its FEN {f:?} is not: {e}")
                });
                assert_eq!(t.fen(), f, "{text:?}");
                assert_eq!(t.hub_position(), h, "{text:?}");
                let mut u = new_game_session(kind);
                u.set_hub_position(&h).unwrap_or_else(|e| {
                    panic!("{kind}: {text:?} was read, but its Hub form {h:?} is not: {e}")
                });
                assert_eq!(u.hub_position(), h, "{text:?}");
                assert_eq!(u.fen(), f, "{text:?}");
                // The position is usable.
                let _ = s.legal_moves(MoveFormat::Hub);
                let _ = s.outcome();
                let _ = s.diagram();
            }
        }
    }

    fn input(kind: GameKind, hub: bool) -> impl Strategy<Value = (Vec<String>, String)> {
        (
            prop_oneof![Just(Vec::new()), Just(playout(kind, 6, 9))],
            any_or_mutated(samples(kind, hub), TOKENS),
        )
    }

    macro_rules! per_game {
        ($test:ident, $hub:expr, $($name:ident => $kind:expr),* $(,)?) => {
            pub mod $test {
                use super::*;
                $(
                    proptest! {
                        #![proptest_config(config(1))]
                        #[test]
                        fn $name((prefix, text) in input($kind, $hub)) {
                            within_limit(stringify!($test), move || check($kind, $hub, prefix, text));
                        }
                    }
                )*
            }
        };
    }

    per_game!(
        fen_positions_are_read_back_the_same_or_rejected_clearly, false,
        international => GameKind::Draughts(Variant::International),
        brazilian => GameKind::Draughts(Variant::Brazilian),
        russian => GameKind::Draughts(Variant::Russian),
        canadian => GameKind::Draughts(Variant::Canadian),
        halma8 => GameKind::Halma8,
        halma10 => GameKind::Halma10,
        gewu => GameKind::Gewu,
        gewu_dice => GameKind::GewuDice,
    );

    per_game!(
        hub_positions_are_read_back_the_same_or_rejected_clearly, true,
        international => GameKind::Draughts(Variant::International),
        brazilian => GameKind::Draughts(Variant::Brazilian),
        russian => GameKind::Draughts(Variant::Russian),
        canadian => GameKind::Draughts(Variant::Canadian),
        halma8 => GameKind::Halma8,
        halma10 => GameKind::Halma10,
        gewu => GameKind::Gewu,
        gewu_dice => GameKind::GewuDice,
    );

    /// The draughts readers themselves, for every rule set: what is read
    /// is a position that the writers write and the readers read back equal.
    fn draughts_readers<R: Rules>(text: &str) {
        match read_fen::<R>(text) {
            Err(e) => assert_clear("FEN", &text, &e.to_string()),
            Ok(p) => {
                for written in [
                    write_fen(&p),
                    write_fen_with(&p, SquareStyle::Numeric),
                    write_fen_with(&p, SquareStyle::Algebraic),
                ] {
                    assert_eq!(
                        read_fen::<R>(&written),
                        Ok(p),
                        "{text:?} written {written:?}"
                    );
                }
                assert_eq!(
                    read_hub_position::<R>(&write_hub_position(&p)),
                    Ok(p),
                    "{text:?}"
                );
            }
        }
        match read_hub_position::<R>(text) {
            Err(e) => assert_clear("Hub position", &text, &e.to_string()),
            Ok(p) => {
                assert_eq!(write_hub_position(&p), text.trim(), "{text:?}");
                assert_eq!(read_fen::<R>(&write_fen(&p)), Ok(p), "{text:?}");
            }
        }
    }

    fn all_draughts_samples() -> Vec<String> {
        let mut v = Vec::new();
        for variant in Variant::ALL {
            v.extend(samples(GameKind::Draughts(variant), false));
            v.extend(samples(GameKind::Draughts(variant), true));
        }
        v
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn draughts_fen_and_hub_readers_round_trip_what_they_accept(
            text in any_or_mutated(all_draughts_samples(), TOKENS)
        ) {
            within_limit("read_fen", move || {
                draughts_readers::<International>(&text);
                draughts_readers::<Brazilian>(&text);
                draughts_readers::<Russian>(&text);
                draughts_readers::<Canadian>(&text);
            });
        }
    }
}

// ====================================================================== move text

mod moves {
    use super::positions::{playout, session_after};
    use super::*;
    use tiao::notation::{read_dxp, read_hub_move, read_move, read_pdn_move};

    pub const TOKENS: &[&str] = &[
        "-", "x", "X", ":", " ", "1", "5", "19", "23", "28", "32", "50", "a1", "c3", "d4", "e5",
        "h8", "j10", "pass", "hei", "bai", "wu", "lu", "sai", "hei:", "x23", "-28", "00",
    ];

    /// Positions to play in: the start and points of two playouts.
    fn prefixes(kind: GameKind) -> Vec<Vec<String>> {
        let mut out = vec![Vec::new()];
        for seed in [3, 11] {
            let moves = playout(kind, 60, seed);
            for k in [1, 5, 12, 25, 40, 60] {
                if k <= moves.len() {
                    out.push(moves[..k].to_vec());
                }
            }
        }
        out
    }

    /// Legal move texts at those positions, in every format Tiao writes.
    fn samples(kind: GameKind) -> Vec<String> {
        let mut out = Vec::new();
        for p in prefixes(kind) {
            let s = session_after(kind, &p);
            out.extend(s.legal_moves(MoveFormat::Hub));
            if let Some(v) = kind.variant() {
                out.extend(s.legal_moves(MoveFormat::pdn_for(v)));
                out.extend(s.legal_moves(MoveFormat::Pdn(tiao::notation::PdnStyle::NUMERIC_PATH)));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Play `text`: a rejection says why and leaves the game as it was; an
    /// accepted move is one move on, and the text Tiao gives for it names
    /// the same move.
    fn check(kind: GameKind, prefix: Vec<String>, reading: MoveReading, text: String) {
        let mut s = session_after(kind, &prefix);
        let before = s.box_clone();
        let (fen, history) = (s.fen(), s.history(MoveFormat::Hub));
        match s.play(&text, reading) {
            Err(e) => {
                assert_clear("move", &text, &e.to_string());
                assert_eq!(s.fen(), fen, "a rejected move changed the game: {text:?}");
                assert_eq!(s.history(MoveFormat::Hub), history);
            }
            Ok(written) => {
                assert!(
                    !written.trim().is_empty(),
                    "{text:?} played as an empty text"
                );
                let mut again = before.box_clone();
                again.play(&written, MoveReading::Any).unwrap_or_else(|e| {
                    panic!("{kind}: {text:?} played as {written:?}, which reads as: {e}")
                });
                assert_eq!(again.fen(), s.fen(), "{text:?} played as {written:?}");
                let played = s.history(MoveFormat::Hub);
                if played.len() == history.len() + 1 {
                    assert_eq!(played[..history.len()], history[..]);
                    assert!(s.undo().is_some());
                    // Undoing a Gewu turn keeps its throw as known (`:T...`).
                    let board = |f: &str| f.split(":T").next().unwrap_or("").to_string();
                    assert_eq!(board(&s.fen()), board(&fen), "undo after {text:?}");
                } else {
                    // Gewu with throws: a bare throw is news, not a move.
                    assert_eq!(kind, GameKind::GewuDice, "{text:?}");
                    assert_eq!(played, history, "{text:?}");
                }
            }
        }
    }

    fn input(kind: GameKind) -> impl Strategy<Value = (Vec<String>, MoveReading, String)> {
        (
            select(prefixes(kind)),
            prop_oneof![Just(MoveReading::Hub), Just(MoveReading::Any)],
            any_or_mutated(samples(kind), TOKENS),
        )
    }

    macro_rules! per_game {
        ($($name:ident => $kind:expr),* $(,)?) => {
            pub mod move_texts_play_a_legal_move_or_are_rejected_clearly {
                use super::*;
                $(
                    proptest! {
                        #![proptest_config(config(1))]
                        #[test]
                        fn $name((prefix, reading, text) in input($kind)) {
                            within_limit("play", move || check($kind, prefix, reading, text));
                        }
                    }
                )*
            }
        };
    }

    per_game!(
        international => GameKind::Draughts(Variant::International),
        brazilian => GameKind::Draughts(Variant::Brazilian),
        russian => GameKind::Draughts(Variant::Russian),
        canadian => GameKind::Draughts(Variant::Canadian),
        halma8 => GameKind::Halma8,
        halma10 => GameKind::Halma10,
        gewu => GameKind::Gewu,
        gewu_dice => GameKind::GewuDice,
    );

    /// Positions of a rule set for the direct readers.
    fn positions<R: Rules>() -> Vec<Position<R>> {
        let kind = GameKind::Draughts(R::VARIANT);
        prefixes(kind)
            .iter()
            .map(|p| read_fen::<R>(&session_after(kind, p).fen()).expect("a position Tiao wrote"))
            .collect()
    }

    fn legal<R: Rules>(p: &Position<R>) -> Vec<tiao::board::Move<tiao::board::Word<R>>> {
        let mut list = tiao::movegen::MoveList::<R>::new();
        tiao::movegen::generate(p, &mut list);
        list.to_vec()
    }

    /// `read_move`, `read_hub_move`, `read_pdn_move`: a move read is legal.
    fn readers<R: Rules>(text: &str) {
        for p in positions::<R>() {
            let legal = legal(&p);
            for (name, r) in [
                ("read_move", read_move(&p, text)),
                ("read_hub_move", read_hub_move(&p, text)),
                ("read_pdn_move", read_pdn_move(&p, text)),
            ] {
                match r {
                    Ok(mv) => assert!(legal.contains(&mv), "{name} {text:?}: not a legal move"),
                    Err(e) => assert_clear(name, &text, &e.to_string()),
                }
            }
        }
    }

    /// DXP move fields straight off the wire, any numbers.
    fn dxp<R: Rules>(from: u32, to: u32, captured: &[u32]) {
        for p in positions::<R>() {
            match read_dxp(&p, from, to, captured) {
                Ok(mv) => {
                    assert!(legal(&p).contains(&mv), "{from} {to} {captured:?}");
                    let f = tiao::notation::dxp_fields::<R>(&mv);
                    assert_eq!((f.from, f.to), (from, to));
                }
                Err(e) => assert_clear("read_dxp", &(from, to, captured), &e.to_string()),
            }
        }
    }

    fn all_samples() -> Vec<String> {
        Variant::ALL
            .into_iter()
            .flat_map(|v| samples(GameKind::Draughts(v)))
            .collect()
    }

    fn square_number() -> impl Strategy<Value = u32> {
        prop_oneof![0u32..80, any::<u32>(), Just(u32::MAX)]
    }

    proptest! {
        #![proptest_config(config(4))]

        #[test]
        fn move_text_readers_read_only_legal_moves(text in any_or_mutated(all_samples(), TOKENS)) {
            within_limit("read_move", move || {
                readers::<International>(&text);
                readers::<Brazilian>(&text);
                readers::<Russian>(&text);
                readers::<Canadian>(&text);
            });
        }

        #[test]
        fn dxp_move_fields_of_any_numbers_name_a_legal_move_or_are_rejected(
            from in square_number(),
            to in square_number(),
            captured in proptest::collection::vec(square_number(), 0..12),
        ) {
            within_limit("read_dxp", move || {
                dxp::<International>(from, to, &captured);
                dxp::<Brazilian>(from, to, &captured);
                dxp::<Russian>(from, to, &captured);
                dxp::<Canadian>(from, to, &captured);
            });
        }
    }
}

// ====================================================================== PDN

mod pdn {
    use super::*;
    use tiao::board::{Move, Word};
    use tiao::notation::pdn::SEVEN_TAG_ROSTER;
    use tiao::notation::{PdnGame, parse_pdn, replay, write_game, write_games};

    pub const TOKENS: &[&str] = &[
        "[",
        "]",
        "\"",
        "\\",
        "{",
        "}",
        "(",
        ")",
        ";",
        "$",
        "$1",
        "!",
        "?",
        "!?",
        "1.",
        "12...",
        "...",
        "…",
        "32-28",
        "19-23",
        "28x19",
        "14x23",
        "c3-d4",
        "d4:f6",
        "2-0",
        "0-2",
        "1-1",
        "1/2-1/2",
        "*",
        "1-0",
        "0-1",
        "[Event \"",
        "[FEN \"",
        "[GameType \"",
        "\"]",
        "\n",
        "\r\n",
        " ",
        "W:W31-50:B1-20",
        "B:",
        "25",
        "20",
        "27",
        "\u{feff}",
    ];

    /// A game played on the board, recorded as Tiao records games.
    fn played<R: Rules>(seed: u64, plies: usize, start: Position<R>) -> String {
        let mut rng = tiao::rng::Rng::new(seed);
        let mut pos = start;
        let mut moves: Vec<Move<Word<R>>> = Vec::new();
        for _ in 0..plies {
            let mut list = tiao::movegen::MoveList::<R>::new();
            tiao::movegen::generate(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            pos = pos.play(&mv);
            moves.push(mv);
        }
        let mut g = PdnGame::from_moves(&start, &moves, Some("*"));
        for (n, v) in [
            ("Event", "Fuzz \"seed\" \\ game"),
            ("Site", "Tiao"),
            ("Date", "2024.05.01"),
            ("Round", "1"),
            ("White", "Alpha"),
            ("Black", "Beta"),
        ] {
            g.set_tag(n, v);
        }
        write_game(&g)
    }

    const COLLECTION: &str = "\u{feff}[Event \"Club \\\"Open\\\"\"]\r\n[Result \"1-1\"]\r\n\
        [GameType \"20\"]\r\n\r\n1. 32-28 {the centre} 19-23 2. 28x19 14x23 (2... 13x24 $2 \
        (2... 13x24!? {same})) 3. 33-28!\r\n23x32 ; forced\r\n4. 37x28 $1 1-1\r\n\r\n\
        [Event \"Endgame\"]\r\n[FEN \"W:WK1,45:B20,36\"]\r\n\r\n1. 1-18 20-25 2. 18-1 36-41 \
        3.1-18 1-1\r\n\r\njunk between games\r\n\r\n[Event \"Russian\"]\r\n\
        [GameType \"25,W,8,8,A0,0\"]\r\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 1/2-1/2\r\n\r\n\
        [Event \"Unfinished\"]\r\n[FEN \"B:W27,28,38,39,42:BK25\"]\r\n1... 25x33 2. 38x29\r\n";

    fn samples() -> Vec<String> {
        let russian = played::<Russian>(5, 50, Position::start())
            .replace("[Result", "[GameType \"25\"]\n[Result");
        let fen = read_fen::<International>("B:W27,28,38,39,42:BK25,K3").expect("a FEN");
        vec![
            COLLECTION.to_string(),
            played::<International>(1, 80, Position::start()),
            played::<International>(2, 30, fen),
            russian,
            write_games(&[PdnGame::default()]),
        ]
    }

    /// Tags as the writer orders them (roster first) and writes them
    /// (a line break in a value becomes a blank).
    fn as_written(tags: &[(String, String)]) -> Vec<(String, String)> {
        let in_roster = |n: &str| SEVEN_TAG_ROSTER.iter().any(|r| r.eq_ignore_ascii_case(n));
        let mut out: Vec<(String, String)> = Vec::new();
        for r in SEVEN_TAG_ROSTER {
            out.extend(
                tags.iter()
                    .filter(|(n, _)| n.eq_ignore_ascii_case(r))
                    .cloned(),
            );
        }
        out.extend(tags.iter().filter(|(n, _)| !in_roster(n)).cloned());
        out.into_iter()
            .map(|(n, v)| (n, v.replace(['\r', '\n'], " ")))
            .collect()
    }

    /// Replay a game read from a file: an error says which move; a game
    /// that replays, recorded and read again, replays the same.
    fn replays<R: Rules>(g: &PdnGame) {
        match replay::<R>(g) {
            Err(e) => assert_clear("replay", &g, &e.to_string()),
            Ok(r) => {
                assert_eq!(r.moves.len(), g.moves.len());
                assert_eq!(r.positions.len(), r.moves.len() + 1);
                let start = r.positions[0];
                let record = PdnGame::from_moves(&start, &r.moves, g.result.as_deref());
                let text = write_game(&record);
                let back: Vec<_> = parse_pdn(&text);
                assert_eq!(back.len(), 1, "{text:?}");
                let back = back[0].clone().unwrap_or_else(|e| panic!("{text:?}: {e}"));
                let again = replay::<R>(&back).unwrap_or_else(|e| panic!("{text:?}: {e}"));
                assert!(
                    again.moves == r.moves && again.positions == r.positions,
                    "{text:?}"
                );
            }
        }
    }

    pub fn check(text: String) {
        let lines = text.split('\n').count();
        for entry in parse_pdn(&text) {
            match entry {
                Err(e) => {
                    assert_clear("PDN", &text, &e.message);
                    assert!(e.line >= 1 && e.line <= lines && e.column >= 1, "{e}");
                }
                Ok(g) => {
                    let written = write_game(&g);
                    let back = parse_pdn(&written);
                    assert_eq!(back.len(), 1, "{written:?}");
                    let b = back[0]
                        .clone()
                        .unwrap_or_else(|e| panic!("{written:?}: {e}"));
                    assert_eq!(b.moves, g.moves, "{written:?}");
                    assert_eq!(b.result, g.result, "{written:?}");
                    assert_eq!(b.tags, as_written(&g.tags), "{written:?}");
                    match g.variant() {
                        Err(e) => assert_clear("GameType", &g, &e.to_string()),
                        Ok(Variant::International) => replays::<International>(&g),
                        Ok(Variant::Brazilian) => replays::<Brazilian>(&g),
                        Ok(Variant::Russian) => replays::<Russian>(&g),
                        Ok(Variant::Canadian) => replays::<Canadian>(&g),
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn pdn_of_arbitrary_text_never_panics(t in text(TOKENS)) {
            within_limit("parse_pdn", move || check(t));
        }

        #[test]
        fn mutated_pdn_games_are_read_or_rejected_with_line_and_column(
            t in mutated_text(samples(), TOKENS)
        ) {
            within_limit("parse_pdn", move || check(t));
        }
    }
}

// ====================================================================== DXP

mod dxp {
    use super::*;
    use std::time::Duration;
    use tiao::protocol::dxp::codec::{Framer, MAX_PENDING, Overflow, ReadError, Reader};
    use tiao::protocol::dxp::message::{MAX_MESSAGE, parse};

    pub const TOKENS: &[&str] = &[
        "R", "A", "M", "E", "C", "B", "K", "01", "W", "Z", "A", "B", "0", "1", "2", "3", " ",
        "060", "065", "0.5", "z", "e", ".", "\0", "\r\n",
    ];

    pub fn samples() -> Vec<Vec<u8>> {
        let board = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        [
            "R01Tornado voor Windows 4.0        W060065A".to_string(),
            "R01Scan 3.1                        Z001008A".to_string(),
            format!("R01Scan 3.1                        Z0.5008BW{board}"),
            format!(
                "R01Moby Dam                        W010000BZ{}",
                board.replace('e', ".")
            ),
            "ATornado voor Windows 4.0        0".to_string(),
            "AScan2".to_string(),
            "M0012061100".to_string(),
            "M0000182903223233".to_string(),
            "E00".to_string(),
            "E21".to_string(),
            "E3".to_string(),
            "CHello, this is a chat message".to_string(),
            format!("C{}", "x".repeat(126)),
            format!("C{}", "long chat ".repeat(30)),
            "B005Z".to_string(),
            "B012W".to_string(),
            "K0".to_string(),
            "K2".to_string(),
        ]
        .map(String::into_bytes)
        .to_vec()
    }

    /// A message read is printable, encodes within the size limit, and
    /// encoded it reads back to the same text.
    pub fn check(bytes: Vec<u8>) {
        match parse(&bytes) {
            Err(e) => assert_clear("DXP message", &bytes, &e.to_string()),
            Ok(m) => {
                let text = m.encode();
                assert!(
                    !text.is_empty() && text.len() <= MAX_MESSAGE,
                    "{m:?} encodes as {} bytes",
                    text.len()
                );
                assert!(
                    text.bytes().all(|b| b.is_ascii_graphic() || b == b' '),
                    "{m:?} encodes as {text:?}"
                );
                let again = parse(text.as_bytes())
                    .unwrap_or_else(|e| panic!("{bytes:?} read as {m:?}, encoded {text:?}: {e}"));
                assert_eq!(again.encode(), text, "{bytes:?}");
            }
        }
    }

    fn strip(b: &[u8]) -> &[u8] {
        let is_end = |c: &u8| *c == b'\r' || *c == b'\n';
        let s = b.iter().position(|c| !is_end(c)).unwrap_or(b.len());
        let e = b.iter().rposition(|c| !is_end(c)).map_or(s, |e| e + 1);
        &b[s..e.max(s)]
    }

    /// What the framer must give, from the bytes it holds.
    fn model_next(buf: &mut Vec<u8>) -> Option<Result<Vec<u8>, Overflow>> {
        loop {
            match buf.iter().position(|&b| b == 0) {
                None if buf.len() > MAX_PENDING => {
                    buf.clear();
                    return Some(Err(Overflow));
                }
                None => return None,
                Some(at) => {
                    let frame = strip(&buf[..at]).to_vec();
                    buf.drain(..=at);
                    if !frame.is_empty() {
                        return Some(Ok(frame));
                    }
                }
            }
        }
    }

    /// The framer against a plain model of NUL framing, chunk by chunk.
    pub fn framing(chunks: Vec<Vec<u8>>) {
        let mut f = Framer::new();
        let mut held = Vec::new();
        for c in chunks {
            f.push(&c);
            held.extend_from_slice(&c);
            loop {
                let want = model_next(&mut held);
                let got = f.next_frame();
                assert_eq!(got, want);
                if let Some(Ok(frame)) = &got {
                    assert!(!frame.contains(&0));
                    check(frame.clone());
                }
                if got.is_none() {
                    break;
                }
            }
            assert_eq!(f.has_partial(), !strip(&held).is_empty());
            assert!(held.len() <= MAX_PENDING + c.len());
        }
    }

    /// The async reader over a stream of these bytes: messages, then the end.
    pub fn reading(input: Vec<u8>) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            let mut r = Reader::new(&input[..], Duration::from_secs(5));
            let mut n = 0;
            loop {
                match r.next(None).await {
                    Ok(incoming) => {
                        // The text is kept as received; what Tiao echoes of it
                        // (chats, logs) is escaped, and that is printable.
                        let echoed = tiao::printable::escape(&incoming.text);
                        assert!(!echoed.chars().any(char::is_control), "{echoed:?}");
                        if let Err(e) = &incoming.message {
                            assert_clear("DXP message", &incoming.text, &e.to_string());
                        }
                        n += 1;
                        assert!(n <= input.len(), "more messages than bytes");
                    }
                    Err(ReadError::Closed) | Err(ReadError::Overflow) => break,
                    Err(e) => panic!("a finite stream read as {e}"),
                }
            }
        });
    }

    fn stream() -> impl Strategy<Value = Vec<Vec<u8>>> {
        proptest::collection::vec(
            prop_oneof![
                3 => mutated(samples(), TOKENS).prop_map(|mut m| {
                    m.push(0);
                    m
                }),
                2 => bytes(),
                1 => Just(vec![0]),
                1 => Just(b"\r\n".to_vec()),
                1 => Just(vec![b'x'; MAX_PENDING]),
            ],
            0..12,
        )
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn dxp_messages_of_arbitrary_bytes_never_panic(b in bytes()) {
            within_limit("dxp parse", move || check(b));
        }

        #[test]
        fn mutated_dxp_messages_are_read_or_rejected_clearly(b in mutated(samples(), TOKENS)) {
            within_limit("dxp parse", move || check(b));
        }

        #[test]
        fn dxp_framing_of_any_byte_stream_matches_nul_framing(chunks in stream()) {
            within_limit("dxp framer", move || framing(chunks));
        }

        #[test]
        fn dxp_reader_of_any_byte_stream_ends_cleanly(chunks in stream()) {
            within_limit("dxp reader", move || reading(chunks.concat()));
        }
    }
}

// ====================================================================== opening books

mod books {
    use super::*;
    use tiao::book::{Book, BookMove, BookSettings, header_variant};

    pub const TOKENS: &[&str] = &[
        "tiao-book",
        "1",
        "2",
        "variant",
        "international",
        "russian",
        "brazilian",
        "canadian",
        "#",
        ";",
        " ",
        "\n",
        "\r\n",
        "?",
        "+4",
        "-3",
        "0",
        "1/0/0",
        "/",
        "W:W31-50:B1-20",
        "32-28",
        "28x19x23",
        "c3-d4",
        "\u{feff}",
    ];

    /// The head of a shipped book (header and first positions), or a small
    /// hand-written book for Canadian, which ships none.
    fn sample(variant: Variant) -> String {
        if variant == Variant::Canadian {
            let s = new_game_session(GameKind::Draughts(variant));
            let legal = s.legal_moves(MoveFormat::Hub);
            return format!(
                "# a small book\ntiao-book 1\nvariant canadian\n{} ; {} +3 2 1/0/0 ; {} ? 0 # end\n",
                s.fen(),
                legal[0],
                legal[1]
            );
        }
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(tiao::book::default_path(variant));
        let text = std::fs::read_to_string(&path).expect("a shipped book");
        let mut head: String = text.lines().take(24).collect::<Vec<_>>().join("\n");
        head.push('\n');
        head
    }

    fn samples() -> Vec<String> {
        Variant::ALL.into_iter().map(sample).collect()
    }

    fn by_move(moves: &[BookMove]) -> Vec<BookMove> {
        let mut v = moves.to_vec();
        v.sort_by(|a, b| a.mv.cmp(&b.mv));
        v
    }

    /// A book is read whole or rejected with its bad lines; a book read is
    /// written and read back the same, and offers only legal moves.
    pub fn check(text: String, variant: Variant) {
        let _ = header_variant(&text);
        match Book::parse(&text, variant) {
            Err(e) => {
                assert_clear("book", &text, &e.to_string());
                let lines = text.lines().count().max(1);
                for le in e.line_errors() {
                    assert_clear("book line", &text, &le.message);
                    assert!(le.line >= 1 && le.line <= lines, "{le} of {lines} lines");
                }
            }
            Ok(book) => {
                let written = book.to_text(&["fuzz".to_string()]);
                let again = Book::parse(&written, variant).unwrap_or_else(|e| {
                    panic!("a book read from {text:?} writes {written:?}: {e}")
                });
                assert_eq!(again.len(), book.len());
                for e in book.entries() {
                    let a = again.entry(e.hash).expect("the same positions");
                    assert_eq!(a.fen, e.fen);
                    assert_eq!(by_move(&a.moves), by_move(&e.moves));
                    let mut s = new_game_session(GameKind::Draughts(variant));
                    s.set_fen(&e.fen).expect("a book position");
                    let legal = s.legal_moves(MoveFormat::Hub);
                    for m in &e.moves {
                        assert!(legal.contains(&m.mv), "{} in {}", m.mv, e.fen);
                    }
                    let _ = book.probe(e.hash, 0, &legal, &BookSettings::default(), 7);
                }
            }
        }
    }

    /// A book file of any bytes (not UTF-8 included).
    pub fn load(bytes: Vec<u8>, variant: Variant) {
        let dir = scratch_dir(&unique("book"));
        let path = dir.join("book.txt");
        std::fs::write(&path, &bytes).expect("write a scratch book");
        if let Err(e) = Book::load(&path, variant) {
            assert_clear("book file", &bytes, &e.to_string());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn variant() -> impl Strategy<Value = Variant> {
        select(Variant::ALL.to_vec())
    }

    fn field_value() -> impl Strategy<Value = String> {
        prop_oneof![
            select(fuzz_support::BOUNDARY_NUMBERS).prop_map(str::to_string),
            any::<i32>().prop_map(|n| format!("{n:+}")),
            any::<u32>().prop_map(|n| n.to_string()),
            (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(w, d, l)| format!("{w}/{d}/{l}")),
            Just("?".to_string()),
        ]
    }

    /// A shipped book's head with some score, weight and result fields of
    /// its move items replaced by any numbers.
    fn book_fields() -> impl Strategy<Value = (Variant, String)> {
        (
            select(Variant::ALL.to_vec()),
            proptest::collection::vec(
                (
                    any::<proptest::sample::Index>(),
                    any::<proptest::sample::Index>(),
                    1usize..4,
                    field_value(),
                ),
                1..4,
            ),
        )
            .prop_map(|(v, edits)| {
                let mut lines: Vec<String> = sample(v).lines().map(str::to_string).collect();
                let entries: Vec<usize> = (0..lines.len())
                    .filter(|&i| lines[i].contains(';'))
                    .collect();
                for (line, item, field, value) in edits {
                    let k = entries[line.index(entries.len())];
                    let body = lines[k].split('#').next().unwrap_or("").to_string();
                    let mut items: Vec<String> = body.split(';').map(str::to_string).collect();
                    let i = 1 + item.index(items.len() - 1);
                    let mut words: Vec<String> =
                        items[i].split_whitespace().map(str::to_string).collect();
                    if field < words.len() {
                        words[field] = value;
                    } else {
                        words.push(value);
                    }
                    items[i] = format!(" {} ", words.join(" "));
                    lines[k] = items.join(";");
                }
                (v, lines.join("\n"))
            })
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn book_texts_of_arbitrary_text_never_panic(t in text(TOKENS), v in variant()) {
            within_limit("Book::parse", move || check(t, v));
        }

        #[test]
        fn mutated_books_are_read_whole_or_rejected_with_their_bad_lines(
            t in mutated_text(samples(), TOKENS), v in variant()
        ) {
            within_limit("Book::parse", move || check(t, v));
        }

        #[test]
        fn book_move_items_of_any_numbers_are_read_or_rejected_with_their_line(
            (v, t) in book_fields()
        ) {
            within_limit("Book::parse", move || check(t, v));
        }

        #[test]
        fn book_files_of_any_bytes_load_or_are_rejected_clearly(
            b in prop_oneof![bytes(), mutated(samples().into_iter().map(String::into_bytes).collect(), TOKENS)],
            v in variant(),
        ) {
            within_limit("Book::load", move || load(b, v));
        }
    }

    #[test]
    fn the_book_samples_are_valid() {
        for v in Variant::ALL {
            Book::parse(&sample(v), v).unwrap_or_else(|e| panic!("{v}: {e}"));
        }
    }
}

// ====================================================================== weights files

mod weights {
    use super::*;
    use tiao::eval::Evaluator;
    use tiao::eval::pattern::PatternEval;
    use tiao::eval::pattern_dense::{DENSE, DENSE_V1};
    use tiao::eval::pattern_file::{MAGIC, PatternWeights, VERSION, fnv1a64};
    use tiao::eval::pattern_select::EvalChoice;
    use tiao::eval::weights::{BUILTIN, Weights};
    use tiao::game::Evaluate;

    pub const TOKENS: &[&str] = &[
        "[default]",
        "[russian]",
        "[brazilian]",
        "[canadian]",
        "[international]",
        "[",
        "]",
        "man",
        "king",
        "tempo",
        "centre",
        "imbalance",
        "outpost",
        "runaway",
        "locked",
        "king-mobility",
        "back-rank",
        "#",
        " ",
        "\n",
        "100",
        "-5",
        "300",
    ];

    /// Positions with large feature values: full boards, all kings, men
    /// far advanced, and positions of playouts.
    fn positions<R: Rules>() -> Vec<Position<R>> {
        let n = R::Geometry::SQUARES;
        let h = R::Geometry::SIZE / 2;
        let men = R::MEN;
        let texts = [
            format!("W:W{}-{n}:B1-{men}", n - men + 1),
            format!("W:WK1-{men}:BK{}-{n}", n - men + 1),
            format!("B:WK{}-{n}:B1-{men}", n - men + 1),
            format!("W:W{}-{}:BK{n}", h + 1, h + men),
            format!("B:WK1:B{}-{}", n - h - men + 1, n - h),
            "W:WK1:B".to_string(),
        ];
        let mut out: Vec<Position<R>> = texts
            .iter()
            .map(|t| read_fen::<R>(t).unwrap_or_else(|e| panic!("{t}: {e}")))
            .collect();
        let kind = GameKind::Draughts(R::VARIANT);
        for seed in [4, 8] {
            let moves = positions::playout(kind, 70, seed);
            for k in (0..moves.len()).step_by(10) {
                let fen = positions::session_after(kind, &moves[..k]).fen();
                out.push(read_fen::<R>(&fen).expect("a position Tiao wrote"));
            }
        }
        out
    }

    fn evaluate<R: Rules>(e: &EvalChoice) {
        for p in positions::<R>() {
            let _ = e.white_score(&p);
            let _ = e.terms(&p);
            let _ = e.evaluate(&p);
        }
    }

    /// Weights that load must evaluate every position without overflow.
    fn evaluate_all(e: &EvalChoice) {
        evaluate::<International>(e);
        evaluate::<Brazilian>(e);
        evaluate::<Russian>(e);
        evaluate::<Canadian>(e);
    }

    pub fn check_v1(text: String) {
        match Weights::parse(&text) {
            Err(e) => assert_clear("weights", &text, &e.to_string()),
            Ok(w) => evaluate_all(&EvalChoice::V1(Evaluator::new(w))),
        }
    }

    fn weight_number() -> impl Strategy<Value = String> {
        prop_oneof![
            select(fuzz_support::BOUNDARY_NUMBERS).prop_map(str::to_string),
            any::<i32>().prop_map(|n| n.to_string()),
            (-100_000i32..100_000).prop_map(|n| n.to_string()),
        ]
    }

    /// The built-in file with the numbers of some weight lines replaced:
    /// files that read, with any weights at all.
    fn v1_values() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            (
                any::<proptest::sample::Index>(),
                weight_number(),
                weight_number(),
            ),
            1..4,
        )
        .prop_map(|edits| {
            let mut lines: Vec<String> = BUILTIN.lines().map(str::to_string).collect();
            let weight_lines: Vec<usize> = (0..lines.len())
                .filter(|&i| {
                    let l = lines[i].trim();
                    !l.is_empty() && !l.starts_with(['#', '['])
                })
                .collect();
            for (i, mg, eg) in edits {
                let k = weight_lines[i.index(weight_lines.len())];
                let name = lines[k]
                    .split_whitespace()
                    .next()
                    .unwrap_or("man")
                    .to_string();
                lines[k] = format!("{name} {mg} {eg}");
            }
            lines.join("\n")
        })
    }

    const PATTERN: [(Variant, &[u8]); 3] = [
        (
            Variant::International,
            include_bytes!("../crates/knowledge/src/eval/weights-pattern-international.bin"),
        ),
        (
            Variant::Brazilian,
            include_bytes!("../crates/knowledge/src/eval/weights-pattern-brazilian.bin"),
        ),
        (
            Variant::Russian,
            include_bytes!("../crates/knowledge/src/eval/weights-pattern-russian.bin"),
        ),
    ];

    fn builtin() -> &'static PatternEval {
        static E: OnceLock<PatternEval> = OnceLock::new();
        E.get_or_init(PatternEval::builtin)
    }

    /// A file of the current format that is read is the file that would be
    /// written; one of format version 1 (its byte 11 reserved) reads as the
    /// weights its current-format rewrite reads as. Either evaluates every
    /// position.
    pub fn check_pattern(input: Labelled, expected: Option<Variant>) {
        let bytes = input.bytes;
        match PatternWeights::from_bytes(&bytes, expected) {
            Err(e) => assert_clear("pattern weights", &bytes.len(), &e.to_string()),
            Ok(w) => {
                let written = w.to_bytes();
                if bytes[8..10] == VERSION.to_le_bytes() {
                    assert!(
                        written == bytes,
                        "a pattern file reads as weights that write differently"
                    );
                } else {
                    assert!(
                        PatternWeights::from_bytes(&written, expected).as_ref() == Ok(&w),
                        "a version 1 pattern file rewritten reads as other weights"
                    );
                }
                evaluate_all(&EvalChoice::Pattern(builtin().clone().with(w)));
            }
        }
    }

    /// Make the checksum right again, so a mutation reaches the checks
    /// behind it.
    fn reseal(mut m: Labelled) -> Labelled {
        let b = &mut m.bytes;
        if b.len() >= 8 {
            let n = b.len() - 8;
            let sum = fnv1a64(&b[..n]);
            b[n..].copy_from_slice(&sum.to_le_bytes());
            m.label.push_str(", checksum made right");
        }
        m
    }

    /// The bytes of the weights after the region tables of sample `k`:
    /// each dense term and then each king square, two i32 weights apiece,
    /// just before the checksum.
    fn tail_weights(k: usize) -> usize {
        2 * (DENSE + PATTERN[k].0.squares() as usize)
    }

    /// A pattern file of format version 1 (six dense terms, no king
    /// squares, byte 11 reserved, no count of tall bands): the shipped
    /// Russian file with the later terms, the king squares and (from
    /// version 4) the band count cut off. No shipped file has that format
    /// any more; users' files may.
    fn version_1_sample() -> Vec<u8> {
        let mut b = PATTERN[2].1.to_vec();
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version >= 4 {
            let bands = b.drain(28..30).collect::<Vec<u8>>();
            assert_eq!(bands, [0, 0], "the Russian file has no tall windows");
        }
        b[8..10].copy_from_slice(&1u16.to_le_bytes());
        b[11] = 0;
        b[16..18].copy_from_slice(&(DENSE_V1 as u16).to_le_bytes());
        let end = b.len() - 8;
        b.drain(end - (tail_weights(2) - 2 * DENSE_V1) * 4..end);
        reseal(raw(b)).bytes
    }

    fn pattern_samples() -> Vec<Vec<u8>> {
        let mut samples: Vec<Vec<u8>> = PATTERN.iter().map(|(_, b)| b.to_vec()).collect();
        samples.push(version_1_sample());
        samples
    }

    /// Mutations of the weights after the region tables (the dense terms
    /// and the king squares).
    fn dense_edit() -> impl Strategy<Value = Labelled> {
        (
            0..PATTERN.len(),
            proptest::collection::vec(
                (
                    0usize..2 * (DENSE + 50),
                    prop_oneof![
                        any::<i32>(),
                        Just(i32::MAX),
                        Just(i32::MIN),
                        -100_000i32..100_000
                    ],
                ),
                1..4,
            ),
        )
            .prop_map(|(k, edits)| {
                let mut b = PATTERN[k].1.to_vec();
                let n = tail_weights(k);
                let dense = b.len() - 8 - 4 * n;
                for &(i, v) in &edits {
                    let i = i % n;
                    b[dense + 4 * i..dense + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
                }
                reseal(Labelled {
                    label: format!("sample {k} with dense weights {edits:?}"),
                    bytes: b,
                })
            })
    }

    fn raw(b: Vec<u8>) -> Labelled {
        Labelled {
            label: format!("{:?}", String::from_utf8_lossy(&b[..b.len().min(200)])),
            bytes: b,
        }
    }

    fn pattern_input() -> impl Strategy<Value = Labelled> {
        prop_oneof![
            mutants(pattern_samples(), TOKENS),
            mutants(pattern_samples(), TOKENS).prop_map(reseal),
            dense_edit(),
            bytes().prop_map(|b| raw([MAGIC.as_slice(), &b].concat())),
            bytes().prop_map(raw),
        ]
    }

    /// A weights file of any bytes through the loader the front ends use.
    pub fn load(input: Labelled) {
        let bytes = input.bytes;
        let dir = scratch_dir(&unique("weights"));
        let path = dir.join("weights");
        std::fs::write(&path, &bytes).expect("write a scratch weights file");
        match EvalChoice::load(&path) {
            Err(e) => assert_clear("weights file", &bytes.len(), &e),
            Ok(e) => evaluate_all(&e),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn expected() -> impl Strategy<Value = Option<Variant>> {
        prop_oneof![Just(None), select(Variant::ALL.to_vec()).prop_map(Some)]
    }

    proptest! {
        #![proptest_config(config(1))]

        #[test]
        fn v1_weights_of_arbitrary_text_never_panic(t in text(TOKENS)) {
            within_limit("Weights::parse", move || check_v1(t));
        }

        #[test]
        fn mutated_v1_weights_load_and_evaluate_or_are_rejected_with_their_line(
            t in mutated_text(vec![BUILTIN.to_string()], TOKENS)
        ) {
            within_limit("Weights::parse", move || check_v1(t));
        }

        #[test]
        fn v1_weights_of_any_values_evaluate_or_are_rejected_with_their_line(t in v1_values()) {
            within_limit("Weights::parse", move || check_v1(t));
        }

        #[test]
        fn mutated_pattern_weights_load_and_evaluate_or_are_rejected_clearly(
            b in pattern_input(), v in expected()
        ) {
            within_limit("PatternWeights::from_bytes", move || check_pattern(b, v));
        }
    }

    proptest! {
        #![proptest_config(config(4))]

        #[test]
        fn weights_files_of_any_bytes_load_or_are_rejected_clearly(
            b in prop_oneof![
                bytes().prop_map(raw),
                mutants(vec![BUILTIN.as_bytes().to_vec()], TOKENS),
                mutants(pattern_samples(), TOKENS).prop_map(reseal),
                dense_edit(),
            ]
        ) {
            within_limit("EvalChoice::load", move || load(b));
        }
    }

    #[test]
    fn the_weights_samples_are_valid() {
        check_v1(BUILTIN.to_string());
        for (v, b) in PATTERN {
            PatternWeights::from_bytes(b, Some(v)).unwrap_or_else(|e| panic!("{v}: {e}"));
            check_pattern(raw(b.to_vec()), Some(v));
        }
        let v1 = version_1_sample();
        assert_eq!(v1[8..10], 1u16.to_le_bytes());
        PatternWeights::from_bytes(&v1, Some(Variant::Russian)).expect("a version 1 file");
        check_pattern(raw(v1), Some(Variant::Russian));
    }
}

// ====================================================================== endgame tables

mod tables {
    use super::*;
    use std::path::{Path, PathBuf};
    use tiao::endgame::index::SliceIndex;
    use tiao::endgame::{Distance, Egdb, GenOptions, Material, Wdl, generate};

    const VARIANT: Variant = Variant::Russian;
    const PIECES: u32 = 3;

    /// CRC-32 (IEEE), bit by bit: the tests' own, to reseal mutated files.
    fn crc32(data: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    /// Make the header's and the block table's checksums right again.
    fn reseal_bytes(mut b: Vec<u8>) -> Vec<u8> {
        if b.len() >= 68 {
            let c = crc32(&b[..64]);
            b[64..68].copy_from_slice(&c.to_le_bytes());
            let blocks = u32::from_le_bytes([b[32], b[33], b[34], b[35]]) as usize;
            let end = 68 + 20 * blocks;
            if blocks < 1 << 16 && b.len() >= end + 4 {
                let c = crc32(&b[68..end]);
                b[end..end + 4].copy_from_slice(&c.to_le_bytes());
            }
        }
        b
    }

    type Values = Vec<(Position<Russian>, Option<Wdl>, Option<Distance>)>;

    struct Reference {
        /// The table files: name and bytes.
        files: Vec<(String, Vec<u8>)>,
        /// Every position of each file's slice (White to move) with its
        /// values in the sound tables, by file name.
        slices: std::collections::HashMap<String, Values>,
    }

    /// Every position of a slice, White to move, as the index lists them.
    fn slice_positions(m: Material) -> Vec<Position<Russian>> {
        use tiao::bits::BitWord;
        use tiao::board::{B8, Colour, Word};
        let index = SliceIndex::<B8>::new(m).expect("a slice of the tables");
        let w = |b: u128| Word::<Russian>::from_u128(b);
        (0..index.size())
            .filter_map(|i| index.position(i))
            .filter_map(|[wm, wk, bm, bk]| {
                Position::from_bitboards(w(wm), w(wk), w(bm), w(bk), Colour::White).ok()
            })
            .collect()
    }

    /// Russian tables up to 3 pieces, generated once, and the values of
    /// every position in them.
    fn reference() -> &'static Reference {
        static R: OnceLock<Reference> = OnceLock::new();
        R.get_or_init(|| {
            let dir = scratch_dir("egdb-reference");
            let opts = GenOptions {
                dir: dir.clone(),
                progress: false,
                threads: Some(1),
                ..GenOptions::new(VARIANT, PIECES)
            };
            generate(&opts).expect("generate the reference tables");
            let sub = dir.join(VARIANT.name());
            let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&sub)
                .expect("the table directory")
                .map(|e| {
                    let p = e.expect("an entry").path();
                    let name = p
                        .file_name()
                        .expect("a name")
                        .to_string_lossy()
                        .into_owned();
                    (name, std::fs::read(&p).expect("a table file"))
                })
                .collect();
            files.sort();
            assert!(files.len() > 4, "{} table files", files.len());
            for (name, b) in &files {
                assert_eq!(&reseal_bytes(b.clone()), b, "resealing {name} changes it");
            }
            let db = Egdb::<Russian>::open(&dir, PIECES).expect("open the reference tables");
            let mut slices = std::collections::HashMap::new();
            for m in Material::all(PIECES) {
                let name = m.file_name();
                if !files.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                let values: Values = slice_positions(m)
                    .into_iter()
                    .map(|p| {
                        let wdl = db.try_probe(&p).expect("probe the reference tables");
                        let dtw = db.try_probe_dtw(&p).expect("probe the reference tables");
                        (p, wdl, dtw)
                    })
                    .collect();
                assert!(
                    values.iter().all(|v| v.1.is_some()),
                    "{name}: sound tables answer"
                );
                slices.insert(name, values);
            }
            assert_eq!(slices.len(), files.len(), "a slice for every file");
            Reference { files, slices }
        })
    }

    /// Probe every position of the damaged slice and some of every other.
    fn probe_all(db: &Egdb<Russian>, damaged: &str, what: &str) {
        for (name, values) in &reference().slices {
            let step = if name == damaged { 1 } else { 97 };
            for (p, wdl, dtw) in values.iter().step_by(step) {
                match db.try_probe(p) {
                    Ok(Some(v)) => {
                        assert_eq!(Some(v), *wdl, "{what}: a wrong value for {}", write_fen(p))
                    }
                    Ok(None) => {}
                    Err(e) => assert_clear(what, &write_fen(p), &e.to_string()),
                }
                match db.try_probe_dtw(p) {
                    Ok(Some(d)) => {
                        assert_eq!(
                            Some(d),
                            *dtw,
                            "{what}: a wrong distance for {}",
                            write_fen(p)
                        )
                    }
                    Ok(None) => {}
                    Err(e) => assert_clear(what, &write_fen(p), &e.to_string()),
                }
            }
        }
    }

    /// A set of tables with one file damaged: opening fails with a clear
    /// error, or the tables answer only true values (or none).
    pub fn check(file: usize, damaged: Labelled) {
        let damaged = damaged.bytes;
        let r = reference();
        let dir: PathBuf = scratch_dir(&unique("egdb"));
        let sub = dir.join(VARIANT.name());
        std::fs::create_dir_all(&sub).expect("a scratch table directory");
        let (target, _) = &r.files[file % r.files.len()];
        for (name, b) in &r.files {
            let bytes = if name == target { &damaged } else { b };
            std::fs::write(sub.join(name), bytes).expect("write a table");
        }
        let open = |d: &Path| Egdb::<Russian>::open(d, PIECES);
        match open(&dir) {
            Err(e) => assert_clear("Egdb::open", target, &e.to_string()),
            Ok(db) => probe_all(&db, target, "Egdb::open"),
        }
        match Egdb::<Russian>::open_available(&dir, PIECES) {
            Err(e) => assert_clear("Egdb::open_available", target, &e.to_string()),
            Ok(db) => probe_all(&db, target, "Egdb::open_available"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn reseal(mut m: Labelled) -> Labelled {
        m.bytes = reseal_bytes(m.bytes);
        m.label.push_str(", checksums made right");
        m
    }

    fn damage() -> impl Strategy<Value = (usize, Labelled)> {
        let files: Vec<Vec<u8>> = reference().files.iter().map(|(_, b)| b.clone()).collect();
        (0..files.len()).prop_flat_map(move |k| {
            let one = vec![files[k].clone()];
            (
                Just(k),
                prop_oneof![
                    3 => mutants(one.clone(), &["TIAOEGDB"]).prop_map(reseal),
                    2 => mutants(one, &["TIAOEGDB"]),
                    1 => bytes().prop_map(|b| Labelled { label: format!("{b:?}"), bytes: b }),
                ],
            )
        })
    }

    proptest! {
        #![proptest_config(config(2))]

        #[test]
        fn damaged_table_files_are_rejected_or_give_only_true_values((file, b) in damage()) {
            within_limit("Egdb::open", move || check(file, b));
        }
    }
}

// ====================================================================== the Hub front end

mod hub_front_end {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc::channel;
    use std::time::{Duration, Instant};

    /// How long Tiao may take to answer the last line.
    const ANSWER: Duration = Duration::from_secs(60);

    /// Lines that would end the session or make it allocate or read what a
    /// test machine cannot afford (a 64 GiB table, 256 threads, a device
    /// file): those are the GUI's responsibility, not bad input.
    fn sendable(line: &str) -> bool {
        ![
            "quit", "hash", "tt-size", "threads", "/dev", "/proc", "/sys",
        ]
        .iter()
        .any(|w| line.contains(w))
    }

    /// What `tiao hub` may write: the first word of every output line.
    const ANSWERS: &[&str] = &[
        "id", "param", "wait", "ready", "info", "done", "pong", "error",
    ];

    /// Feed `tiao hub` a stream of lines; it must keep serving: answer a
    /// last unknown command with an error and `ping` with `pong`, stay
    /// alive, write only protocol lines, and never panic.
    pub fn check(input: Vec<Vec<u8>>) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tiao"))
            .arg("hub")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tiao hub");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let errors = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = stderr.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        });
        let mut stdin = child.stdin.take().expect("stdin");
        let mut sent = Vec::new();
        for raw in &input {
            for line in raw.split(|&b| b == b'\n') {
                if sendable(&String::from_utf8_lossy(line)) {
                    stdin.write_all(line).expect("write to tiao");
                    stdin.write_all(b"\n").expect("write to tiao");
                    sent.push(String::from_utf8_lossy(line).into_owned());
                }
            }
        }
        stdin.write_all(b"fuzz-end\nping\n").expect("write to tiao");
        stdin.flush().expect("flush");
        let deadline = Instant::now() + ANSWER;
        let mut marker = false;
        let mut output = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match rx.recv_timeout(left) {
                Ok(l) => l,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!("hang: no answer within {ANSWER:?} after {sent:?}; output {output:?}");
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    let status = child.wait().ok();
                    let errors = errors.join().unwrap_or_default();
                    panic!(
                        "tiao hub closed its output ({status:?}) after {sent:?}; \
                         output {output:?}; stderr {errors}"
                    );
                }
            };
            let word = line.split(' ').next().unwrap_or("");
            assert!(
                ANSWERS.contains(&word),
                "not a Hub line: {line:?} after {sent:?}"
            );
            if word == "error" {
                assert!(line.contains("message="), "{line:?}");
            }
            if line.contains("fuzz-end") {
                marker = true;
            } else if marker && line == "pong" {
                break;
            }
            output.push(line);
        }
        assert!(
            child.try_wait().expect("child status").is_none(),
            "tiao hub exited after {sent:?}"
        );
        stdin.write_all(b"quit\n").expect("write to tiao");
        drop(stdin);
        let end = Instant::now() + Duration::from_secs(20);
        while child.try_wait().expect("child status").is_none() {
            if Instant::now() > end {
                let _ = child.kill();
                panic!("tiao hub did not quit after {sent:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let errors = errors.join().unwrap_or_default();
        assert!(
            !errors.contains("panicked"),
            "a panic after {sent:?}: {errors}"
        );
    }

    /// Hub lines worth fuzzing from: every command, positions of the other
    /// games, parameters of every kind.
    fn samples() -> Vec<String> {
        let mut v = hub_lines::samples();
        v.extend(
            [
                "set-param name=variant value=halma8",
                "set-param name=variant value=gewu-dice",
                "set-param name=book value=false",
                "set-param name=multipv value=3",
                "set-param name=eval value=v1",
                "set-param name=eval-file value=crates/knowledge/src/eval/weights-v1.txt",
                "set-param name=book-file value=openings/book-russian.txt",
                "set-param name=egdb-pieces value=2",
                "pos pos=\"W:WWWWW.........BBBBB:Thei\"",
                "pos pos=W:Wa1,b1,a2:Bh8,g8,h7:M0,0 moves=b1-c2",
                "pos start moves=\"32-28 19-23 28x19\"",
                "level nodes=2000",
                "level depth=3",
            ]
            .map(str::to_string),
        );
        v
    }

    proptest! {
        #![proptest_config(config(16))]

        #[test]
        fn hub_front_end_keeps_serving_through_arbitrary_and_mutated_lines(
            input in proptest::collection::vec(
                prop_oneof![
                    3 => mutated(samples().into_iter().map(String::into_bytes).collect(), hub_lines::TOKENS),
                    2 => select(samples()).prop_map(String::into_bytes),
                    1 => bytes(),
                    1 => text(hub_lines::TOKENS).prop_map(String::into_bytes),
                ],
                1..40,
            )
        ) {
            // The session answers within ANSWER or fails by itself.
            let limit = ANSWER + Duration::from_secs(60);
            fuzz_support::within(limit, "tiao hub", move || check(input));
        }
    }
}
