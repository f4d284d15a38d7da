//! Notation: FEN, Hub position strings, move text in every form, and PDN
//! games, for all four variants. Positions come from deterministic random
//! play (a xorshift generator written here), so every test is reproducible.

use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, Geometry, International, Move, Position, PositionError, Rules,
    Russian, SquareStyle, Variant, Word,
};
use tiao_draughts::movegen::{MoveList, generate};
use tiao_draughts::notation::pdn::{PdnGame, SEVEN_TAG_ROSTER};
use tiao_draughts::notation::{
    FenError, HubPositionError, MoveError, MoveFormat, PdnStyle, SquareError, dxp_fields,
    legal_moves_text, parse_pdn, parse_square, read_dxp, read_fen, read_hub_move,
    read_hub_position, read_move, read_pdn_move, replay, write_fen, write_fen_with, write_game,
    write_games, write_hub_move, write_hub_position, write_move, write_pdn_move,
};

// ------------------------------------------------------------------ helpers

/// xorshift64: small, deterministic, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn legal<R: Rules>(pos: &Position<R>) -> MoveList<R> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list
}

/// Positions reached by random play from the start (every ply of several
/// games), plus random set-ups with kings, so that kings, captures by kings
/// and both sides to move are all covered.
fn sample_positions<R: Rules>(seed: u64) -> Vec<Position<R>> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..12 {
        let mut pos = Position::<R>::start();
        for _ in 0..160 {
            out.push(pos);
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    for _ in 0..150 {
        out.push(random_setup::<R>(&mut rng));
    }
    out
}

/// A random legal set-up: a few men off their crowning rows and a few kings.
fn random_setup<R: Rules>(rng: &mut Rng) -> Position<R> {
    let mut sets = [Word::<R>::ZERO; 4]; // white men, white kings, black men, black kings
    let mut used = Word::<R>::ZERO;
    for (slot, limit) in [(0, 6), (1, 3), (2, 6), (3, 3)] {
        for _ in 0..rng.below(limit + 1) {
            let bit = R::Geometry::bit_of(rng.below(R::Geometry::SQUARES as usize) as u32);
            let crowning = match slot {
                0 => R::Geometry::TOP_ROW.has(bit),
                2 => R::Geometry::BOTTOM_ROW.has(bit),
                _ => false,
            };
            if !used.has(bit) && !crowning {
                used |= Word::<R>::bit(bit);
                sets[slot] |= Word::<R>::bit(bit);
            }
        }
    }
    let side = if rng.below(2) == 0 {
        Colour::White
    } else {
        Colour::Black
    };
    Position::from_bitboards(sets[0], sets[1], sets[2], sets[3], side).unwrap()
}

/// Run a generic check for every variant.
macro_rules! for_all_variants {
    ($f:ident) => {
        $f::<International>();
        $f::<Brazilian>();
        $f::<Russian>();
        $f::<Canadian>();
    };
}

fn intl(fen: &str) -> Position<International> {
    read_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

// ------------------------------------------------------------------ round trips

fn fen_round_trip<R: Rules>() {
    let positions = sample_positions::<R>(1);
    let with_kings = positions.iter().filter(|p| p.all_kings().any()).count();
    assert!(
        with_kings > 50,
        "{:?}: only {with_kings} positions with kings",
        R::VARIANT
    );
    for pos in &positions {
        let text = write_fen(pos);
        assert_eq!(read_fen::<R>(&text).as_ref(), Ok(pos), "{text}");
        for style in [SquareStyle::Numeric, SquareStyle::Algebraic] {
            let text = write_fen_with(pos, style);
            assert_eq!(read_fen::<R>(&text).as_ref(), Ok(pos), "{text}");
        }
    }
}

#[test]
fn fen_round_trips_for_every_variant_with_kings() {
    for_all_variants!(fen_round_trip);
}

#[test]
fn fen_writer_uses_the_variant_style_or_numbers_on_request() {
    assert_eq!(write_fen(&Position::<International>::start()), {
        let w: Vec<String> = (31..=50).map(|n| n.to_string()).collect();
        let b: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
        format!("W:W{}:B{}", w.join(","), b.join(","))
    });
    let russian = Position::<Russian>::start();
    assert_eq!(
        write_fen(&russian),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    let numeric = write_fen_with(&russian, SquareStyle::Numeric);
    assert!(numeric.starts_with("W:W21,22,"), "{numeric}");
    let p = intl("B:W27,28,38,39,42:BK25");
    assert_eq!(write_fen(&p), "B:W27,28,38,39,42:BK25");
}

fn hub_round_trip<R: Rules>() {
    for pos in sample_positions::<R>(2) {
        let text = write_hub_position(&pos);
        assert_eq!(text.len(), 1 + R::Geometry::SQUARES as usize);
        assert_eq!(read_hub_position::<R>(&text), Ok(pos), "{text}");
    }
}

#[test]
fn hub_position_round_trips_for_every_variant() {
    for_all_variants!(hub_round_trip);
    // protocols.md §2: the international start.
    assert_eq!(
        write_hub_position(&Position::<International>::start()),
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    );
}

fn move_text_round_trip<R: Rules>() {
    let formats = [
        MoveFormat::Hub,
        MoveFormat::pdn_for(R::VARIANT),
        MoveFormat::Pdn(PdnStyle::NUMERIC_SHORT),
        MoveFormat::Pdn(PdnStyle::NUMERIC_PATH),
        MoveFormat::Pdn(PdnStyle::ALGEBRAIC_PATH),
    ];
    let mut captures = 0;
    for pos in sample_positions::<R>(3) {
        let moves = legal(&pos);
        for mv in &moves {
            captures += usize::from(mv.is_capture());
            for format in formats {
                let text = write_move(&pos, mv, format);
                let back = match format {
                    MoveFormat::Hub => read_hub_move(&pos, &text),
                    MoveFormat::Pdn(_) => read_pdn_move(&pos, &text),
                };
                assert_eq!(back.as_ref(), Ok(mv), "{:?} {format:?} '{text}'", pos);
            }
            // Text mode reads either form.
            let hub = write_hub_move::<R>(mv);
            assert_eq!(read_move(&pos, &hub).as_ref(), Ok(mv), "{pos:?} '{hub}'");
            let short = write_pdn_move(&pos, mv, PdnStyle::NUMERIC_SHORT);
            assert_eq!(
                read_move(&pos, &short).as_ref(),
                Ok(mv),
                "{pos:?} '{short}'"
            );
            // DXP fields.
            let f = dxp_fields::<R>(mv);
            assert_eq!(read_dxp(&pos, f.from, f.to, &f.captured).as_ref(), Ok(mv));
        }
        // Every format gives every legal move its own text.
        for format in formats {
            let listed = legal_moves_text(&pos, format);
            assert_eq!(listed.len(), moves.len());
            let mut texts: Vec<&String> = listed.iter().map(|(_, t)| t).collect();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), moves.len(), "{pos:?} {format:?}");
        }
    }
    assert!(
        captures > 100,
        "{:?}: only {captures} captures sampled",
        R::VARIANT
    );
}

#[test]
fn every_legal_move_written_in_each_form_reads_back_as_itself() {
    for_all_variants!(move_text_round_trip);
}

#[test]
fn russian_writes_algebraic_full_paths() {
    // White man c3, black men d4 and f6: c3:e5:g7 in one move.
    let pos = read_fen::<Russian>("W:Wc3:Bd4,f6").unwrap();
    let moves = legal_moves_text(&pos, MoveFormat::pdn_for(Variant::Russian));
    let texts: Vec<&str> = moves.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["c3:e5:g7"]);
    assert_eq!(legal_moves_text(&pos, MoveFormat::Hub)[0].1, "22x8x11x18");
    let mv = moves[0].0;
    for text in [
        "c3:e5:g7", "c3:g7", "c3xg7", "22x15x8", "22x8", "22-8", "c3-e5-g7",
    ] {
        assert_eq!(read_pdn_move(&pos, text), Ok(mv), "{text}");
    }
    let start = Position::<Russian>::start();
    let quiet = legal_moves_text(&start, MoveFormat::pdn_for(Variant::Russian));
    assert!(quiet.iter().any(|(_, t)| t == "c3-d4"));
    assert_eq!(
        read_pdn_move(&start, "c3-d4"),
        read_pdn_move(&start, "22-18")
    );
}

// ------------------------------------------------------------------ perft.md rule positions

/// The table "International rule positions with their complete move lists"
/// of perft.md, moves in PDN short form.
const RULE_POSITIONS: &[(&str, &[&str])] = &[
    ("W:W28", &["28-22", "28-23"]),
    ("W:W8", &["8-2", "8-3"]),
    (
        "W:WK28",
        &[
            "28-5", "28-6", "28-10", "28-11", "28-14", "28-17", "28-19", "28-22", "28-23", "28-32",
            "28-33", "28-37", "28-39", "28-41", "28-44", "28-46", "28-50",
        ],
    ),
    ("W:WK46:B23", &["46x19", "46x14", "46x10", "46x5"]),
    ("W:WK47:B9,12,33", &["47x17", "47x21", "47x26"]),
    ("W:WK2:B7,8,17,18", &["2x2"]),
    ("W:W35:B30,K40", &["35x24", "35x44"]),
    ("W:W15:B8,19,20", &["15x2"]),
    ("W:W15:B9,10", &["15x13"]),
    ("W:WK41,49:B9,10,12,19,38", &["41x43"]),
    ("B:W27,28,38,39,42:BK25", &["25x33"]),
    ("W:W48:B24,K31,34,K42,43", &["48x19"]),
    ("W:WK48:B7,8,31,34,K42,44", &["48x50"]),
    ("W:W26:B12,K21,31,32", &["26x8", "26x28"]),
];

fn sorted(v: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = v.into_iter().collect();
    v.sort();
    v
}

#[test]
fn perft_md_rule_positions_list_their_moves_in_pdn_short_form() {
    for (fen, expected) in RULE_POSITIONS {
        let pos = intl(fen);
        let got = legal_moves_text(&pos, MoveFormat::Pdn(PdnStyle::NUMERIC_SHORT));
        assert_eq!(
            sorted(got.iter().map(|(_, t)| t.clone())),
            sorted(expected.iter().map(|s| s.to_string())),
            "{fen}"
        );
        for (mv, text) in &got {
            assert_eq!(read_pdn_move(&pos, text).as_ref(), Ok(mv), "{fen} {text}");
        }
    }
}

#[test]
fn two_captures_with_the_same_ends_are_written_with_distinct_full_paths() {
    let pos = intl("W:WK4:B13,32,37,20");
    let got = legal_moves_text(&pos, MoveFormat::Pdn(PdnStyle::NUMERIC_SHORT));
    assert_eq!(got.len(), 2);
    let (a, b) = (&got[0].1, &got[1].1);
    assert_ne!(a, b);
    for (mv, text) in &got {
        assert!(text.starts_with("4x") && text.ends_with("x15"), "{text}");
        assert_eq!(text.matches('x').count(), 3, "every landing square: {text}");
        assert_eq!(read_pdn_move(&pos, text).as_ref(), Ok(mv));
    }
    let hub = sorted(
        got.iter()
            .map(|(mv, _)| write_hub_move::<International>(mv)),
    );
    assert_eq!(hub, ["4x15x13x20x32", "4x15x13x20x37"]);
    assert!(matches!(
        read_pdn_move(&pos, "4x15"),
        Err(MoveError::Ambiguous { .. })
    ));
}

// ------------------------------------------------------------------ Hub move reading

#[test]
fn hub_capture_names_captured_squares_in_any_order() {
    let pos = intl("W:W28:B23");
    let mv = read_hub_move(&pos, "28x19x23").unwrap();
    assert_eq!(write_hub_move::<International>(&mv), "28x19x23");

    let pos = intl("W:W28:B23,14");
    let a = read_hub_move(&pos, "28x10x14x23").unwrap();
    assert_eq!(read_hub_move(&pos, "28x10x23x14"), Ok(a));
    assert_eq!(read_hub_move(&pos, "28X10X23X14"), Ok(a));
    // A captured square the move does not take, or one left out, is illegal.
    assert!(matches!(
        read_hub_move(&pos, "28x10x23"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        read_hub_move(&pos, "28x10x23x14x19"),
        Err(MoveError::Illegal { .. })
    ));
    assert!(matches!(
        read_hub_move(&pos, "28x10x23x23"),
        Err(MoveError::Illegal { .. })
    ));

    // A king: 4x15 twice, told apart by the captured squares.
    let pos = intl("W:WK4:B13,32,37,20");
    let m32 = read_hub_move(&pos, "4x15x32x20x13").unwrap();
    let m37 = read_hub_move(&pos, "4x15x37x13x20").unwrap();
    assert_ne!(m32, m37);
}

#[test]
fn hub_capture_without_captured_squares_is_read_only_when_unambiguous() {
    let pos = intl("W:W28:B23,14");
    let mv = read_hub_move(&pos, "28x10").unwrap();
    assert_eq!(write_hub_move::<International>(&mv), "28x10x14x23");

    let pos = intl("W:WK4:B13,32,37,20");
    match read_hub_move(&pos, "4x15") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            assert_eq!(sorted(candidates), ["4x15x13x20x32", "4x15x13x20x37"]);
        }
        other => panic!("{other:?}"),
    }
    let err = read_hub_move(&pos, "4x15").unwrap_err().to_string();
    assert!(
        err.contains("4x15x13x20x32") && err.contains("4x15x13x20x37"),
        "{err}"
    );
}

#[test]
fn dxp_capture_without_list_only_when_unambiguous() {
    let pos = intl("W:WK4:B13,32,37,20");
    assert!(matches!(
        read_dxp(&pos, 4, 15, &[]),
        Err(MoveError::Ambiguous { .. })
    ));
    let mv = read_dxp(&pos, 4, 15, &[37, 20, 13]).unwrap();
    assert_eq!(dxp_fields::<International>(&mv).captured, [13, 20, 37]);
}

// ------------------------------------------------------------------ bad input

#[test]
fn fen_readers_accept_what_real_files_contain() {
    let start = Position::<International>::start();
    for text in [
        "W:W31-50:B1-20",
        "\"W:W31-50:B1-20\"",
        "  W:W31-50:B1-20.  ",
        "W:B1-20:W31-50",
        "W:W31-50:B1-20:H0:F1",
        "W:W031-050:B01-20",
        "W : W31-35,36-50 : B 1-20",
        "W:W31,32,33,34,35,36-50:B1-20",
    ] {
        assert_eq!(read_fen::<International>(text), Ok(start), "{text}");
    }
    // Missing or empty lists are empty (perft.md writes `W:W28`).
    assert_eq!(intl("W:W28"), intl("W:W28:B"));
    assert_eq!(intl("B:B1").pieces(Colour::White), 0);
    let p = intl("W:W:B1");
    assert_eq!(p.pieces(Colour::White), 0);
    let p = intl("W:WK31-K33,K34:B1");
    assert_eq!(p.kings(Colour::White).count(), 4);
    // Algebraic squares on a numbered board, numbers on an algebraic one.
    assert_eq!(intl("W:Wa1:Bb10"), intl("W:W46:B1"));
    assert_eq!(
        read_fen::<Russian>("W:Wa1,c1:Bb6"),
        read_fen::<Russian>("W:W29,30:B9")
    );
    assert_eq!(
        read_fen::<Russian>("B:WKa1:BKh8").unwrap().side(),
        Colour::Black
    );
}

#[test]
fn malformed_fen_is_reported_with_its_column() {
    for (text, column) in [
        ("", 1),
        ("X:W31:B1", 1),
        ("W:W31-:B1", 7),
        ("W:W31,,32:B1", 7),
        ("W:W31,:B1", 7),
        ("W:Wq:B1", 4),
        ("W:W31;B1", 6),
        ("W:W31:B1 junk", 10),
        ("W:W31:B1..", 10),
        ("W:W31 32:B1", 7),
        ("W:W31:B1:Wz", 11),
        ("WW:W31:B1", 2),
    ] {
        match read_fen::<International>(text) {
            Err(FenError::Malformed { column: c, message }) => {
                assert_eq!(c, column, "{text}: {message}");
                assert!(!message.is_empty());
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in ["W", "B.", "W:H0", "W:W50-31:B1"] {
        assert!(
            matches!(
                read_fen::<International>(text),
                Err(FenError::Malformed { .. })
            ),
            "{text}"
        );
    }
    assert!(matches!(
        read_fen::<Russian>("W:Wa1-c1:Bb6"),
        Err(FenError::Malformed { .. })
    ));
    let msg = read_fen::<International>("W:W31,,32:B1")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("column 7") && msg.contains("expected"),
        "{msg}"
    );
}

#[test]
fn fen_with_unknown_squares_names_the_square_and_the_board() {
    let e = read_fen::<International>("W:W51:B1").unwrap_err();
    assert!(matches!(
        e,
        FenError::Square(SquareError::NotOnBoard { .. })
    ));
    assert!(
        e.to_string()
            .contains("square 51 does not exist on a 10x10 board"),
        "{e}"
    );
    for text in ["W:W0:B1", "W:W31-51:B1", "W:W31:B99999999999999999999"] {
        assert!(
            matches!(read_fen::<International>(text), Err(FenError::Square(_))),
            "{text}"
        );
    }
    assert!(
        read_fen::<Russian>("W:W33:B1")
            .unwrap_err()
            .to_string()
            .contains("8x8")
    );
    assert!(
        read_fen::<Canadian>("W:W73:B1")
            .unwrap_err()
            .to_string()
            .contains("12x12")
    );
    assert!(matches!(
        read_fen::<Russian>("W:Wi1:Bb6"),
        Err(FenError::Square(SquareError::NotOnBoard { .. }))
    ));
    assert!(matches!(
        read_fen::<Russian>("W:Wb1:Bb6"),
        Err(FenError::Square(SquareError::LightSquare { .. }))
    ));
}

#[test]
fn fen_positions_are_validated() {
    use PositionError::*;
    let cases: &[(&str, PositionError)] = &[
        (
            "W:W3:B20",
            ManOnCrowningRow {
                colour: Colour::White,
                square: 3,
            },
        ),
        (
            "W:W31:B47",
            ManOnCrowningRow {
                colour: Colour::Black,
                square: 47,
            },
        ),
        (
            "W:W30-50:B1-20",
            TooManyPieces {
                colour: Colour::White,
                count: 21,
                max: 20,
            },
        ),
        ("W:W31,31:B1", SquareTwice(31)),
        ("W:W31:B31", SquareTwice(31)),
        ("W:W31,K31:B1", SquareTwice(31)),
        ("W:W31-35,33:B1", SquareTwice(33)),
    ];
    for (text, err) in cases {
        assert_eq!(
            read_fen::<International>(text),
            Err(FenError::Position(err.clone())),
            "{text}"
        );
    }
    assert!(matches!(
        read_fen::<Russian>("W:Wb8:Bb6"),
        Err(FenError::Position(ManOnCrowningRow { .. }))
    ));
}

#[test]
fn bad_hub_positions_say_what_is_wrong() {
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    assert_eq!(
        read_hub_position::<International>(&start[..50]),
        Err(HubPositionError::WrongLength {
            expected: 51,
            got: 50
        })
    );
    assert_eq!(
        read_hub_position::<Russian>(start),
        Err(HubPositionError::WrongLength {
            expected: 33,
            got: 51
        })
    );
    let e = read_hub_position::<International>(&start.replace("eeeee", "eexee")).unwrap_err();
    assert_eq!(
        e,
        HubPositionError::BadChar {
            ch: 'x',
            index: 24,
            square: 23
        }
    );
    assert!(
        e.to_string().contains("'x'") && e.to_string().contains("23"),
        "{e}"
    );
    assert_eq!(
        read_hub_position::<International>(&format!("X{}", &start[1..])),
        Err(HubPositionError::BadSide('X'))
    );
    // A white man on square 1.
    let crowned = format!("Ww{}", &start[2..]);
    assert!(matches!(
        read_hub_position::<International>(&crowned),
        Err(HubPositionError::Position(
            PositionError::ManOnCrowningRow { .. }
        ))
    ));
    assert!(e.to_string().contains("expected one of"));
    let wide = format!("W{}", "é".repeat(50));
    assert!(matches!(
        read_hub_position::<International>(&wide),
        Err(HubPositionError::BadChar { .. })
    ));
}

#[test]
fn illegal_and_ambiguous_moves_are_told_apart() {
    let start = Position::<International>::start();
    for text in ["32-26", "46-41", "28-23", "19-23", "32x23"] {
        match read_pdn_move(&start, text) {
            Err(MoveError::Illegal { text: t, reason }) => {
                assert_eq!(t, text);
                assert!(!reason.is_empty());
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    let msg = read_pdn_move(&start, "19-23").unwrap_err().to_string();
    assert!(msg.contains("black"), "{msg}");
    // Quiet text while a capture is compulsory.
    let pos = intl("W:W28,32:B23");
    for read in [read_pdn_move::<International>, read_hub_move, read_move] {
        let e = read(&pos, "32-27").unwrap_err();
        assert!(
            matches!(e, MoveError::Illegal { .. })
                && e.to_string().contains("capture is compulsory"),
            "{e}"
        );
    }
    // Ambiguous lists the candidates.
    let pos = intl("W:WK4:B13,32,37,20");
    let e = read_pdn_move(&pos, "4x15").unwrap_err();
    match &e {
        MoveError::Ambiguous { candidates, .. } => assert_eq!(candidates.len(), 2),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().starts_with("ambiguous move '4x15'"));
    // Malformed text.
    for text in [
        "", "32", "32-", "x28", "32-28-", "32 28", "32-99", "k3-l4", "32—28",
    ] {
        assert!(
            matches!(read_move(&start, text), Err(MoveError::Malformed { .. })),
            "{text}"
        );
    }
}

#[test]
fn pdn_readers_accept_leading_zeros_colons_and_algebraic_squares() {
    let start = Position::<International>::start();
    let mv = read_pdn_move(&start, "32-28").unwrap();
    for text in ["032-028", "32:28", "32x28", "d4-e5", " 32-28 "] {
        assert_eq!(read_pdn_move(&start, text), Ok(mv), "{text}");
    }
    let pos = intl("W:W28:B23,14");
    let mv = read_pdn_move(&pos, "28x10").unwrap();
    assert_eq!(read_pdn_move(&pos, "28x19x10"), Ok(mv));
    assert_eq!(read_pdn_move(&pos, "28:19:10"), Ok(mv));
    assert!(matches!(
        read_pdn_move(&pos, "28x23x10"),
        Err(MoveError::Illegal { .. })
    ));
}

/// Random strings: characters from the formats' alphabets, and random bytes
/// decoded as lossy UTF-8. Every reader must answer with an error.
fn random_strings(rng: &mut Rng, count: usize) -> Vec<String> {
    const ALPHABET: &[char] = &[
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'W', 'B', 'K', 'w', 'b', 'e', 'x', 'X',
        '-', ':', ',', '.', '[', ']', '{', '}', '(', ')', '"', '$', '!', '?', ' ', '\n', '\r', ';',
        'a', 'c', 'h', 'k', '*', '/', '\\', 'é', '\u{feff}', '\0',
    ];
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let len = rng.below(80);
        let s = if k % 2 == 0 {
            (0..len)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect()
        } else {
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        };
        out.push(s);
    }
    out
}

/// Valid texts with one character changed, inserted or removed: near
/// misses reach deeper into the parsers than pure noise.
fn mutations(rng: &mut Rng, seeds: &[&str], count: usize) -> Vec<String> {
    let noise = [
        '-', 'x', ':', ',', 'K', '9', '0', '[', '"', '{', '(', ')', '\n', 'é', '.',
    ];
    (0..count)
        .map(|_| {
            let mut chars: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 if at < chars.len() => chars[at] = noise[rng.below(noise.len())],
                    _ => chars.insert(at, noise[rng.below(noise.len())]),
                }
            }
            chars.into_iter().collect()
        })
        .collect()
}

fn readers_reject<R: Rules>(text: &str) {
    let pos = Position::<R>::start();
    assert!(read_fen::<R>(text).is_err(), "FEN {text:?}");
    assert!(read_hub_position::<R>(text).is_err(), "Hub {text:?}");
    assert!(read_move(&pos, text).is_err(), "move {text:?}");
    assert!(read_hub_move(&pos, text).is_err(), "hub move {text:?}");
    assert!(read_pdn_move(&pos, text).is_err(), "pdn move {text:?}");
    assert!(
        parse_square::<R>(text).is_err() || text.trim().len() <= 3,
        "square {text:?}"
    );
}

fn readers_survive<R: Rules>(text: &str) {
    let pos = Position::<R>::start();
    let _ = read_fen::<R>(text);
    let _ = read_hub_position::<R>(text);
    let _ = read_move(&pos, text);
    let _ = read_hub_move(&pos, text);
    let _ = read_pdn_move(&pos, text);
    let _ = parse_square::<R>(text);
    for game in parse_pdn(text).into_iter().flatten() {
        let _ = replay::<R>(&game);
        let _ = game.variant();
        let _ = write_game(&game);
    }
}

#[test]
fn random_input_never_panics_and_is_rejected() {
    let mut rng = Rng::new(7);
    for text in random_strings(&mut rng, 4000) {
        readers_reject::<International>(&text);
        readers_reject::<Russian>(&text);
        readers_reject::<Canadian>(&text);
        readers_survive::<International>(&text);
        readers_survive::<Brazilian>(&text);
    }
    // DXP fields straight off the wire: any numbers at all.
    let start = Position::<International>::start();
    for _ in 0..2000 {
        let n = |rng: &mut Rng| (rng.next() % 60) as u32;
        let (from, to) = (n(&mut rng), n(&mut rng));
        let captured: Vec<u32> = (0..rng.below(4)).map(|_| n(&mut rng)).collect();
        // The nine opening moves; nothing else is legal at the start.
        let opening = [
            (31, 26),
            (31, 27),
            (32, 27),
            (32, 28),
            (33, 28),
            (33, 29),
            (34, 29),
            (34, 30),
            (35, 30),
        ];
        let quiet_ok = captured.is_empty() && opening.contains(&(from, to));
        assert_eq!(
            read_dxp(&start, from, to, &captured).is_ok(),
            quiet_ok,
            "{from} {to} {captured:?}"
        );
    }
    let seeds = [
        "W:W31-50:B1-20",
        "B:W27,28,38,39,42:BK25",
        "W:Wa1,c1:Bb6",
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        "28x19x23",
        "47x38x24x13x36",
        "c3:e5:g7",
        "[Event \"x\"]\n[FEN \"W:W31-50:B1-20\"]\n1. 32-28 {c} (1. 31-27) 19-23 $1 2. 28x19 14x23 2-0\n",
    ];
    for text in mutations(&mut rng, &seeds, 4000) {
        readers_survive::<International>(&text);
        readers_survive::<Russian>(&text);
        readers_survive::<Canadian>(&text);
    }
}

// ------------------------------------------------------------------ PDN

/// A small collection: CRLF and a byte-order mark, comments of both kinds,
/// nested variations, NAGs and annotations, move numbers glued to moves, a
/// `1-18` move next to a `1-1` result, a Russian game, junk between games
/// and a last game without a result.
const COLLECTION: &str = "\u{feff}[Event \"Club \\\"Open\\\"\"]\r\n\
[Site \"Utrecht\"]\r\n\
[Date \"2024.05.01\"]\r\n\
[Round \"1\"]\r\n\
[White \"Alpha\"]\r\n\
[Black \"Beta\"]\r\n\
[Result \"1-1\"]\r\n\
[GameType \"20\"]\r\n\
\r\n\
1. 32-28 {the classical centre} 19-23 2. 28x19 14x23 (2... 13x24 $2 (2... 13x24!? {same})) 3. 33-28!\r\n\
23x32 ; forced\r\n\
4. 37x28 $1 1-1\r\n\
\r\n\
[Event \"Endgame\"]\r\n\
[FEN \"W:WK1,45:B20,36\"]\r\n\
\r\n\
1. 1-18 20-25 2. 18-1 36-41 3.1-18 1-1\r\n\
\r\n\
this line is junk between games\r\n\
\r\n\
[Event \"Russian\"]\r\n\
[GameType \"25,W,8,8,A0,0\"]\r\n\
[Result \"1/2-1/2\"]\r\n\
1. c3-d4 f6-e5 2. d4:f6 g7:e5 1/2-1/2\r\n\
\r\n\
[Event \"Unfinished\"]\r\n\
[FEN \"B:W27,28,38,39,42:BK25\"]\r\n\
1... 25x33 2. 38x29\r\n";

/// The tags in the order the writer puts them: roster first.
fn roster_order(game: &PdnGame) -> Vec<(String, String)> {
    let roster = |n: &str| {
        SEVEN_TAG_ROSTER
            .iter()
            .position(|r| r.eq_ignore_ascii_case(n))
    };
    let mut tags: Vec<(usize, (String, String))> = game
        .tags
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                roster(&t.0).unwrap_or(SEVEN_TAG_ROSTER.len() + i),
                t.clone(),
            )
        })
        .collect();
    tags.sort_by_key(|(k, _)| *k);
    tags.into_iter().map(|(_, t)| t).collect()
}

fn replay_in_its_variant(game: &PdnGame) -> usize {
    fn count<R: Rules>(game: &PdnGame) -> usize {
        let r = replay::<R>(game).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.positions.len(), r.moves.len() + 1);
        r.moves.len()
    }
    match game.variant().unwrap() {
        Variant::International => count::<International>(game),
        Variant::Brazilian => count::<Brazilian>(game),
        Variant::Russian => count::<Russian>(game),
        Variant::Canadian => count::<Canadian>(game),
    }
}

#[test]
fn pdn_collection_parses_replays_and_round_trips() {
    let entries = parse_pdn(COLLECTION);
    assert_eq!(entries.len(), 5, "{entries:#?}");
    let junk = entries[2].as_ref().unwrap_err();
    assert_eq!((junk.line, junk.column), (19, 1), "{junk}");
    let games: Vec<PdnGame> = entries.into_iter().filter_map(Result::ok).collect();
    assert_eq!(games.len(), 4);

    let first = &games[0];
    assert_eq!(first.tag("Event"), Some("Club \"Open\""));
    assert_eq!(first.tag("event"), Some("Club \"Open\""));
    assert_eq!(
        first.moves,
        [
            "32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"
        ]
    );
    assert_eq!(first.result.as_deref(), Some("1-1"));
    assert_eq!(games[1].moves, ["1-18", "20-25", "18-1", "36-41", "1-18"]);
    assert_eq!(games[1].result.as_deref(), Some("1-1"));
    assert_eq!(games[2].variant(), Ok(Variant::Russian));
    assert_eq!(games[3].result, None);
    assert!(games[3].black_starts());

    let plies: Vec<usize> = games.iter().map(replay_in_its_variant).collect();
    assert_eq!(plies, [7, 5, 4, 2]);

    let written = write_games(&games);
    assert!(written.lines().all(|l| l.chars().count() <= 80));
    let again: Vec<PdnGame> = parse_pdn(&written)
        .into_iter()
        .map(|g| g.unwrap())
        .collect();
    assert_eq!(again.len(), games.len());
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(b.tags, roster_order(a));
        assert_eq!(b.moves, a.moves);
        assert_eq!(b.result, a.result);
    }
    assert_eq!(write_games(&again), written);
}

#[test]
fn pdn_replay_reports_the_first_bad_move_with_its_number() {
    let games = parse_pdn("1. 32-28 19-23 2. 28x19 14x23 3. 32-28 2-0");
    let game = games[0].as_ref().unwrap();
    let e = replay::<International>(game).unwrap_err();
    match &e {
        tiao_draughts::notation::ReplayError::Move {
            ply,
            number,
            side,
            token,
            ..
        } => {
            assert_eq!(
                (*ply, *number, *side, token.as_str()),
                (4, 3, Colour::White, "32-28")
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().starts_with("move 3. (white)"), "{e}");
    let bad_fen = parse_pdn("[FEN \"W:W3:B20\"]\n*");
    assert!(matches!(
        replay::<International>(bad_fen[0].as_ref().unwrap()),
        Err(tiao_draughts::notation::ReplayError::Start(_))
    ));
}

fn game_record_round_trip<R: Rules>() {
    let mut rng = Rng::new(11);
    let mut pos = Position::<R>::start();
    let mut moves: Vec<Move<Word<R>>> = Vec::new();
    for _ in 0..120 {
        let list = legal(&pos);
        if list.is_empty() {
            break;
        }
        let mv = list[rng.below(list.len())];
        pos = pos.play(&mv);
        moves.push(mv);
    }
    let start = Position::<R>::start();
    let mut game = PdnGame::from_moves(&start, &moves, Some("*"));
    game.set_tag("Event", "Random");
    let text = write_game(&game);
    let back = parse_pdn(&text);
    assert_eq!(back.len(), 1);
    let back = back[0].as_ref().unwrap();
    assert_eq!(back.variant(), Ok(R::VARIANT));
    let r = replay::<R>(back).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(r.moves, moves);
    assert_eq!(r.end(), Some(&pos));

    // From a set-up position with Black to move.
    let setup = sample_positions::<R>(5)
        .into_iter()
        .find(|p| p.side() == Colour::Black && !legal(p).is_empty());
    let setup = setup.unwrap();
    let mv = legal(&setup)[0];
    let game = PdnGame::from_moves(&setup, &[mv], None);
    let text = write_game(&game);
    assert!(text.contains("1... "), "{text}");
    let back = parse_pdn(&text);
    let r = replay::<R>(back[0].as_ref().unwrap()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(r.start(), Some(&setup));
    assert_eq!(r.moves, [mv]);
}

#[test]
fn games_recorded_by_tiao_replay_to_the_same_moves() {
    for_all_variants!(game_record_round_trip);
}

#[test]
fn pdn_tolerates_real_world_mess() {
    // Unterminated comment: that game is an error, the next one still reads.
    let entries = parse_pdn("[Event \"a\"]\n1. 32-28 {oops\n\n[Event \"b\"]\n1. 32-28 *\n");
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert_eq!(entries[0].as_ref().unwrap_err().line, 2);
    assert_eq!(entries[1].as_ref().unwrap().tag("Event"), Some("b"));
    // A broken tag costs only its own game.
    let entries =
        parse_pdn("[Event \"a]\n[Site \"x\"]\n1. 32-28 *\n\n[Event \"b\"]\n1. 31-27 2-0\n");
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(entries[0].is_err());
    assert_eq!(entries[1].as_ref().unwrap().moves, ["31-27"]);
    // No movetext, no result: a game with tags only; an empty file: nothing.
    let entries = parse_pdn("[Event \"a\"]\n[Event \"b\"]\n");
    assert_eq!(entries.len(), 1);
    assert!(parse_pdn("").is_empty());
    assert!(parse_pdn("\u{feff}  \r\n{just a comment}\r\n").is_empty());
    // Result tokens of both families; `*`.
    for (text, result) in [
        ("1. 32-28 0-2", "0-2"),
        ("1. 32-28 1-0", "1-0"),
        ("1. 32-28 0-1", "0-1"),
        ("*", "*"),
    ] {
        let g = parse_pdn(text);
        assert_eq!(
            g[0].as_ref().unwrap().result.as_deref(),
            Some(result),
            "{text}"
        );
    }
}
