//! Tests of the reference move generator (`tests/reference/mod.rs`) itself:
//! every rule position of `/work/shared/reference/perft.md`, perft from the
//! start positions, and hand-made positions for the Russian rules.
//!
//! Slow perft depths are `#[ignore]`d; run them with
//! `cargo test --release -p tiao-draughts --test reference_rules -- --ignored`.

mod reference;

use reference::*;

use RefRules::{Brazilian, Canadian, International, Russian};

fn board(rules: RefRules, fen: &str) -> RefBoard {
    RefBoard::from_fen(rules, fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"))
}

fn moves(rules: RefRules, fen: &str) -> Vec<RefMove> {
    legal_moves(rules, &board(rules, fen))
}

/// PDN short form: `28-22` or `46x19`.
fn short(m: &RefMove) -> String {
    let sep = if m.captured.is_empty() { '-' } else { 'x' };
    format!("{}{}{}", m.from, sep, m.to)
}

/// Short forms of the legal moves, sorted (duplicates kept: two moves with
/// the same short form but different captured sets show up twice).
fn shorts(rules: RefRules, fen: &str) -> Vec<String> {
    let mut v: Vec<String> = moves(rules, fen).iter().map(short).collect();
    v.sort();
    v
}

fn sorted(expected: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts the legal moves in short form (multiset comparison).
fn assert_shorts(rules: RefRules, fen: &str, expected: &[&str]) {
    assert_eq!(shorts(rules, fen), sorted(expected), "{rules:?} {fen}");
}

/// Asserts the complete legal move list in Hub form (`4x15x13x20x32`:
/// from, to, captured squares ascending).
fn assert_full(rules: RefRules, fen: &str, expected: &[&str]) {
    let mut got: Vec<String> = moves(rules, fen).iter().map(|m| m.to_string()).collect();
    got.sort();
    assert_eq!(got, sorted(expected), "{rules:?} {fen}");
}

fn mv(from: usize, to: usize, captured: &[usize], crowned: bool) -> RefMove {
    RefMove {
        from,
        to,
        captured: captured.to_vec(),
        crowned,
    }
}

// ---------------------------------------------------------------------------
// Numbering and FEN

#[test]
fn numbering_matches_protocols() {
    // 10x10: 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1.
    assert_eq!(square_to_rc(10, 1), (0, 1));
    assert_eq!(square_to_rc(10, 5), (0, 9));
    assert_eq!(square_to_rc(10, 6), (1, 0));
    assert_eq!(square_to_rc(10, 46), (9, 0));
    assert_eq!(square_to_rc(10, 50), (9, 8));
    // 8x8: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1.
    assert_eq!(square_to_rc(8, 1), (0, 1));
    assert_eq!(square_to_rc(8, 4), (0, 7));
    assert_eq!(square_to_rc(8, 5), (1, 0));
    assert_eq!(square_to_rc(8, 29), (7, 0));
    assert_eq!(square_to_rc(8, 32), (7, 6));
    // 12x12: 72 squares, 6 per row.
    assert_eq!(square_to_rc(12, 1), (0, 1));
    assert_eq!(square_to_rc(12, 7), (1, 0));
    assert_eq!(square_to_rc(12, 67), (11, 0));
    assert_eq!(square_to_rc(12, 72), (11, 10));
    for size in [8, 10, 12] {
        for n in 1..=size * size / 2 {
            let (r, c) = square_to_rc(size, n);
            assert_eq!((r + c) % 2, 1, "square {n} must be dark");
            assert_eq!(rc_to_square(size, r, c), Some(n));
        }
        let dark = (0..size)
            .flat_map(|r| (0..size).map(move |c| (r, c)))
            .filter(|&(r, c)| rc_to_square(size, r, c).is_some())
            .count();
        assert_eq!(dark, size * size / 2);
        assert_eq!(rc_to_square(size, size, 1), None);
        assert_eq!(rc_to_square(size, 0, 0), None);
    }
}

#[test]
fn start_positions() {
    assert_eq!(
        to_fen(&start(International)),
        to_fen(&board(International, "W:W31-50:B1-20"))
    );
    assert_eq!(start(International), board(International, "W:W31-50:B1-20"));
    assert_eq!(start(Russian), board(Russian, "W:W21-32:B1-12"));
    assert_eq!(start(Brazilian), board(Brazilian, "W:W21-32:B1-12"));
    assert_eq!(start(Canadian), board(Canadian, "W:W43-72:B1-30"));
    // Russian start in algebraic terms: White men on a1 c1 ... g3, i.e. rows
    // 5..7 (from the top); Black men on rows 0..2.
    let b = start(Russian);
    assert_eq!(b.cells[7][0], Cell::WhiteMan); // a1
    assert_eq!(b.cells[5][6], Cell::WhiteMan); // g3
    assert_eq!(b.cells[2][7], Cell::BlackMan); // h6
    assert_eq!(b.cells[0][1], Cell::BlackMan); // b8
    assert_eq!(b.cells[4][1], Cell::Empty);
}

#[test]
fn fen_parsing_and_writing() {
    let b = board(International, "W:WK31,K32,40:B1,2");
    assert_eq!(b.get(31), Cell::WhiteKing);
    assert_eq!(b.get(40), Cell::WhiteMan);
    assert_eq!(b.get(2), Cell::BlackMan);
    assert_eq!(to_fen(&b), "W:WK31,K32,40:B1,2");
    // Either section order, black to move, empty lists, ranges, a trailing dot.
    let b = board(International, "B:BK25:W27,28.");
    assert!(!b.white_to_move);
    assert_eq!(to_fen(&b), "B:W27,28:BK25");
    assert_eq!(to_fen(&board(Russian, "W:W:B1-3")), "W:W:B1,2,3");
    assert_eq!(to_fen(&board(Russian, "B:W:B")), "B:W:B");
    assert_eq!(
        to_fen(&board(Canadian, "W:WK70-72:B1")),
        "W:WK70,K71,K72:B1"
    );
    for fen in ["B:W27,28,38,39,42:BK25", "W:WK48:B7,8,31,34,K42,44"] {
        assert_eq!(to_fen(&board(International, fen)), fen);
    }
}

#[test]
fn fen_errors_are_reported() {
    for fen in [
        "",
        "X:W1:B2",
        "W:W51:B1",
        "W:W0:B1",
        "W:Wx:B1",
        "W:W1,1:B2",
        "W:W1:B1",
        "W:W5-3:B1",
        "W:W1:W2",
        "W:Q1",
        "W:W1,:B2",
    ] {
        assert!(
            RefBoard::from_fen(International, fen).is_err(),
            "{fen:?} must be rejected"
        );
    }
    assert!(RefBoard::from_fen(Russian, "W:W33:B1").is_err());
    assert!(RefBoard::from_fen(Canadian, "W:W72:B1").is_ok());
}

// ---------------------------------------------------------------------------
// Rule positions of perft.md (International), complete move lists

#[test]
fn men_move_forward_only() {
    assert_shorts(International, "W:W28", &["28-22", "28-23"]);
    // Black men move down the board.
    assert_shorts(International, "B:W50:B23", &["23-28", "23-29"]);
}

#[test]
fn promotion_at_the_end_of_a_move() {
    assert_eq!(
        moves(International, "W:W8"),
        vec![mv(8, 2, &[], true), mv(8, 3, &[], true)]
    );
    let b = apply(&board(International, "W:W8"), &mv(8, 2, &[], true));
    assert_eq!(to_fen(&b), "B:WK2:B");
    // Black crowns on 46..50.
    assert_eq!(
        moves(International, "B:W1:B44"),
        vec![mv(44, 49, &[], true), mv(44, 50, &[], true)]
    );
}

#[test]
fn flying_king() {
    let expected: Vec<String> = [
        5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33, 37, 39, 41, 44, 46, 50,
    ]
    .iter()
    .map(|to| format!("28-{to}"))
    .collect();
    let expected: Vec<&str> = expected.iter().map(|s| s.as_str()).collect();
    assert_shorts(International, "W:WK28", &expected);
}

#[test]
fn king_may_land_on_any_square_behind() {
    assert_full(
        International,
        "W:WK46:B23",
        &["46x19x23", "46x14x23", "46x10x23", "46x5x23"],
    );
}

#[test]
fn king_several_final_landing_squares() {
    assert_shorts(
        International,
        "W:WK47:B9,12,33",
        &["47x17", "47x21", "47x26"],
    );
    for m in moves(International, "W:WK47:B9,12,33") {
        assert_eq!(m.captured.len(), 3, "{m}");
    }
}

#[test]
fn same_from_to_different_captured_sets_are_different_moves() {
    assert_full(
        International,
        "W:WK4:B13,32,37,20",
        &["4x15x13x20x32", "4x15x13x20x37"],
    );
}

#[test]
fn duplicate_paths_count_once() {
    // The king goes round the four pieces either way and returns to its
    // origin square, which counts as empty during the capture.
    assert_full(International, "W:WK2:B7,8,17,18", &["2x2x7x8x17x18"]);
}

#[test]
fn origin_square_counts_as_empty_during_capture() {
    assert_eq!(
        moves(International, "W:WK2:B7,8,17,18"),
        vec![mv(2, 2, &[7, 8, 17, 18], false)]
    );
    // A man can also come back to its origin square: white man on 21 (a3)
    // goes round the diamond 21-14-23-30-21 over 17, 18, 26, 25 (8x8). Both
    // directions give the same move.
    assert_full(Brazilian, "W:W21:B17,18,25,26", &["21x21x17x18x25x26"]);
    let b = apply(
        &board(Brazilian, "W:W21:B17,18,25,26"),
        &mv(21, 21, &[17, 18, 25, 26], false),
    );
    assert_eq!(to_fen(&b), "B:W21:B");
}

#[test]
fn men_capture_backwards() {
    assert_shorts(International, "W:W35:B30,K40", &["35x24", "35x44"]);
}

#[test]
fn multi_capture_ending_on_last_row_crowns() {
    assert_shorts(International, "W:W15:B8,19,20", &["15x2"]);
    let m = &moves(International, "W:W15:B8,19,20")[0];
    assert!(m.crowned);
    assert_eq!(m.captured, vec![8, 19, 20]);
}

#[test]
fn passing_the_last_row_during_a_capture_does_not_crown() {
    assert_shorts(International, "W:W15:B9,10", &["15x13"]);
    let m = &moves(International, "W:W15:B9,10")[0];
    assert!(!m.crowned);
    assert_eq!(m.captured, vec![9, 10]);
    assert_eq!(
        to_fen(&apply(&board(International, "W:W15:B9,10"), m)),
        "B:W13:B"
    );
}

#[test]
fn turkish_strike_blocks_second_jump() {
    assert_shorts(International, "W:WK41,49:B9,10,12,19,38", &["41x43"]);
    assert_shorts(International, "B:W27,28,38,39,42:BK25", &["25x33"]);
}

#[test]
fn majority_counts_pieces_kings_are_not_worth_more() {
    assert_shorts(International, "W:W48:B24,K31,34,K42,43", &["48x19"]);
}

#[test]
fn majority_capture_by_a_king() {
    assert_shorts(International, "W:WK48:B7,8,31,34,K42,44", &["48x50"]);
}

#[test]
fn equal_majorities_free_choice() {
    assert_shorts(International, "W:W26:B12,K21,31,32", &["26x8", "26x28"]);
}

// ---------------------------------------------------------------------------
// Further rules

#[test]
fn captures_are_compulsory() {
    // White man 32 can capture 27 (landing on 21 is empty); the quiet moves of
    // the man on 46 are then illegal.
    let ms = moves(International, "W:W32,46:B27");
    assert_eq!(ms, vec![mv(32, 21, &[27], false)]);
}

#[test]
fn own_pieces_cannot_be_jumped() {
    // White king 46 is blocked by its own man on 37; only the man moves.
    assert_shorts(International, "W:WK46,37:B28", &["37-31", "37-32", "46-41"]);
    // A man cannot jump its own man either: 33-28 is blocked, no capture.
    assert_shorts(International, "W:W28,33", &["28-22", "28-23", "33-29"]);
    // A king cannot jump an own piece to reach an enemy behind it: the king
    // on 50 faces its man on 44 with black men on 39 and 33 beyond (33 also
    // stops the man from taking 39): no capture at all.
    assert_shorts(International, "W:WK50,44:B33,39", &["44-40", "50-45"]);
}

#[test]
fn king_cannot_jump_two_adjacent_pieces() {
    // Black men on 23 and 19 touch along the king's diagonal: no capture.
    assert_shorts(
        International,
        "W:WK28:B23,19",
        &[
            "28-22", "28-17", "28-11", "28-6", "28-32", "28-37", "28-41", "28-46", "28-33",
            "28-39", "28-44", "28-50",
        ],
    );
}

#[test]
fn no_moves_when_blocked_or_no_pieces() {
    assert!(moves(International, "W:W:B1").is_empty());
    // White man on 46 blocked by black on 41, which cannot be captured
    // because 37 behind it is occupied.
    assert!(moves(International, "W:W46:B41,37").is_empty());
    assert_eq!(perft(International, &board(International, "W:W:B1"), 3), 0);
}

#[test]
fn king_captures_at_distance_and_continues() {
    // King on 50 captures 28 far away; 17 right behind leaves only 22 as a
    // landing square, from which it must go on over 17 to 11 or 6.
    assert_full(
        International,
        "W:WK50:B28,17",
        &["50x6x17x28", "50x11x17x28"],
    );
}

// ---------------------------------------------------------------------------
// Russian rules (hand-made positions, 8x8 numeric squares: 1 = b8 .. 32 = g1)

#[test]
fn russian_free_choice_shorter_capture_is_legal() {
    // 29 (a1) takes 25 and 18 landing on 15; 31 (e1) takes only 27.
    let fen = "W:W29,31:B18,25,27";
    assert_eq!(
        moves(Russian, fen),
        vec![mv(29, 15, &[18, 25], false), mv(31, 24, &[27], false)]
    );
    // With the majority rule only the longer capture is legal.
    assert_eq!(moves(Brazilian, fen), vec![mv(29, 15, &[18, 25], false)]);
}

#[test]
fn russian_chosen_capture_must_be_completed() {
    // 29x22 stopping after one piece is not a legal move.
    let ms = moves(Russian, "W:W29:B18,25");
    assert_eq!(ms, vec![mv(29, 15, &[18, 25], false)]);
}

#[test]
fn russian_man_crowned_mid_capture_continues_as_king() {
    // White man 11 (f6) jumps 7 (e7) onto 2 (d8), is crowned and continues as a
    // flying king over 9 (b6), which is not adjacent, landing on 13 (a5).
    let fen = "W:W11:B7,9";
    assert_eq!(moves(Russian, fen), vec![mv(11, 13, &[7, 9], true)]);
    let after = apply(&board(Russian, fen), &mv(11, 13, &[7, 9], true));
    assert_eq!(to_fen(&after), "B:WK13:B");
    // Under international rules (Brazilian) the man stops on the last row
    // and is crowned at the end of the move.
    assert_eq!(moves(Brazilian, fen), vec![mv(11, 2, &[7], true)]);
}

#[test]
fn russian_king_from_mid_capture_chooses_landing_square() {
    // 11x7 lands on 2 (d8) and becomes a king; it takes 9 (b6) landing on
    // 13 (a5), then 22 (c3) at a distance, landing on 26 (d2) or 31 (e1).
    let fen = "W:W11:B7,9,22";
    assert_eq!(
        moves(Russian, fen),
        vec![mv(11, 26, &[7, 9, 22], true), mv(11, 31, &[7, 9, 22], true)]
    );
}

#[test]
fn russian_man_crowned_mid_capture_that_cannot_continue() {
    // Same as international: the man reaches the last row and stops there.
    assert_eq!(moves(Russian, "W:W11:B7"), vec![mv(11, 2, &[7], true)]);
    // Black crowns on 29..32.
    assert_eq!(moves(Russian, "B:W26:B22"), vec![mv(22, 31, &[26], true)]);
}

#[test]
fn russian_quiet_move_to_last_row_crowns() {
    assert_eq!(moves(Russian, "W:W5"), vec![mv(5, 1, &[], true)]);
    assert_eq!(
        to_fen(&apply(&board(Russian, "W:W5"), &mv(5, 1, &[], true))),
        "B:WK1:B"
    );
}

#[test]
fn russian_turkish_strike_blocks_passage() {
    // King 23 (e3) between 19 (f4) and 26 (d2) on one diagonal: having taken
    // 19 it may not come back through it to take 26, and vice versa.
    assert_full(
        Russian,
        "W:WK23:B19,26",
        &["23x12x19", "23x16x19", "23x30x26"],
    );
    // A man going round four men takes each once and returns to its origin.
    assert_eq!(
        moves(Russian, "W:W21:B17,18,25,26"),
        vec![mv(21, 21, &[17, 18, 25, 26], false)]
    );
}

#[test]
fn russian_king_must_land_where_capture_continues() {
    // King 29 (a1) takes 22 (c3) and may land on 18, 15, 11, 8 or 4, but only
    // from 15 (e5) can it go on (over 10): it must land there and continue.
    // Free choice among captures does not allow stopping early.
    let fen = "W:WK29:B10,22";
    assert_full(Russian, fen, &["29x1x10x22", "29x6x10x22"]);
    assert_full(Brazilian, fen, &["29x1x10x22", "29x6x10x22"]);
    // From the Russian perft tree (ply 8): the black man 13 takes 17 and 26,
    // is crowned on 31 and must continue as a king over 27. Of the landing
    // squares 24 and 20 only 24 lets it go on (over 19), so 13x20 (taking
    // 17, 26, 27) is illegal. Allowing it gives Russian perft(8) = 929901.
    assert_eq!(
        moves(
            Russian,
            "B:W17,19,21,23,25,26,27,28,29,30,32:B1,2,3,4,5,6,7,8,10,12,13"
        ),
        vec![mv(13, 15, &[17, 19, 26, 27], true)]
    );
}

// ---------------------------------------------------------------------------
// Perft (values from perft.md)

fn check_perft(
    rules: RefRules,
    fen: &str,
    expected: &[u64],
    depths: std::ops::RangeInclusive<usize>,
) {
    let b = board(rules, fen);
    for depth in depths {
        let nodes = expected[depth - 1];
        assert_eq!(
            perft(rules, &b, depth as u32),
            nodes,
            "{rules:?} perft({depth}) of {fen}"
        );
    }
}

const INTERNATIONAL_START: &[u64] = &[9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423];
const WOLDOUBY: &str = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26";
const WOLDOUBY_PERFT: &[u64] = &[
    6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989, 9872645,
];
const ALL_KINGS: &str = "W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20";
const ALL_KINGS_PERFT: &[u64] = &[17, 79, 352, 1399, 7062, 37589, 217575, 1333217, 8558321];
const ALMOST_PROMOTION: &str = "W:W6,7,8,9,10:B41,42,43,44,45";
const ALMOST_PROMOTION_PERFT: &[u64] = &[9, 81, 795, 7578, 86351, 936311, 11448262];
const RUSSIAN_START: &[u64] = &[
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032,
];
const BRAZILIAN_START: &[u64] = &[
    7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022,
];
const CANADIAN_START: &[u64] = &[11, 121, 1222, 10053, 79049, 584100, 4369366, 31839056];

// Quick depths run in every `cargo test`; the `_deep` tests continue from
// there and are meant for `cargo test --release -p tiao-draughts -- --ignored`.

#[test]
fn perft_international_start() {
    check_perft(
        International,
        "W:W31-50:B1-20",
        INTERNATIONAL_START,
        1..=DEBUG_INTERNATIONAL,
    );
}

#[test]
#[ignore]
fn perft_international_start_deep() {
    check_perft(
        International,
        "W:W31-50:B1-20",
        INTERNATIONAL_START,
        DEBUG_INTERNATIONAL + 1..=9,
    );
}

#[test]
fn perft_woldouby() {
    check_perft(International, WOLDOUBY, WOLDOUBY_PERFT, 1..=DEBUG_WOLDOUBY);
}

#[test]
#[ignore]
fn perft_woldouby_deep() {
    check_perft(
        International,
        WOLDOUBY,
        WOLDOUBY_PERFT,
        DEBUG_WOLDOUBY + 1..=13,
    );
}

#[test]
fn perft_all_kings() {
    check_perft(
        International,
        ALL_KINGS,
        ALL_KINGS_PERFT,
        1..=DEBUG_ALL_KINGS,
    );
}

#[test]
#[ignore]
fn perft_all_kings_deep() {
    check_perft(
        International,
        ALL_KINGS,
        ALL_KINGS_PERFT,
        DEBUG_ALL_KINGS + 1..=9,
    );
}

#[test]
fn perft_almost_promotion() {
    check_perft(
        International,
        ALMOST_PROMOTION,
        ALMOST_PROMOTION_PERFT,
        1..=DEBUG_ALMOST_PROMOTION,
    );
}

#[test]
#[ignore]
fn perft_almost_promotion_deep() {
    check_perft(
        International,
        ALMOST_PROMOTION,
        ALMOST_PROMOTION_PERFT,
        DEBUG_ALMOST_PROMOTION + 1..=7,
    );
}

/// Depth 8 is the first depth where a man crowned in the middle of a capture
/// must continue as a king (a generator that does not gets 929896).
#[test]
fn perft_russian_start() {
    check_perft(Russian, "W:W21-32:B1-12", RUSSIAN_START, 1..=DEBUG_RUSSIAN);
}

#[test]
#[ignore]
fn perft_russian_start_deep() {
    check_perft(
        Russian,
        "W:W21-32:B1-12",
        RUSSIAN_START,
        DEBUG_RUSSIAN + 1..=10,
    );
}

#[test]
fn perft_brazilian_start() {
    check_perft(
        Brazilian,
        "W:W21-32:B1-12",
        BRAZILIAN_START,
        1..=DEBUG_BRAZILIAN,
    );
}

#[test]
#[ignore]
fn perft_brazilian_start_deep() {
    check_perft(
        Brazilian,
        "W:W21-32:B1-12",
        BRAZILIAN_START,
        DEBUG_BRAZILIAN + 1..=10,
    );
}

#[test]
fn perft_canadian_start() {
    check_perft(
        Canadian,
        "W:W43-72:B1-30",
        CANADIAN_START,
        1..=DEBUG_CANADIAN,
    );
}

#[test]
#[ignore]
fn perft_canadian_start_deep() {
    check_perft(
        Canadian,
        "W:W43-72:B1-30",
        CANADIAN_START,
        DEBUG_CANADIAN + 1..=8,
    );
}

const DEBUG_INTERNATIONAL: usize = 7;
const DEBUG_WOLDOUBY: usize = 11;
const DEBUG_ALL_KINGS: usize = 7;
const DEBUG_ALMOST_PROMOTION: usize = 6;
const DEBUG_RUSSIAN: usize = 8;
const DEBUG_BRAZILIAN: usize = 8;
const DEBUG_CANADIAN: usize = 6;
