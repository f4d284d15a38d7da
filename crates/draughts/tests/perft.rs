//! Perft of the engine's move generator against every table of
//! `/work/shared/reference/perft.md` (duplicate captures removed, draw rules
//! not applied).
//!
//! The normal run (`cargo test -p tiao-draughts --test perft`, optimised test profile) checks
//! every table as deep as keeps the whole file well under three minutes on
//! two cores, with bulk counting, and to a moderate depth also with every
//! leaf move made. The deepest values are `#[ignore]`d; `make perft-deep`
//! runs them (`cargo test --release -p tiao-draughts --test perft -- --ignored`).

use std::ops::RangeInclusive;
use std::time::Instant;

use tiao_draughts::board::{Brazilian, Canadian, International, Position, Rules, Russian};
use tiao_draughts::movegen::{Counting, perft};
use tiao_draughts::notation::read_fen;

/// International start, d1..d12.
const INTERNATIONAL_START: &[u64] = &[
    9,
    81,
    658,
    4265,
    27117,
    167140,
    1049442,
    6483961,
    41022423,
    258895763,
    1665861398,
    10749771911,
];

const WOLDOUBY_FEN: &str = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26";
/// Woldouby, d1..d15.
const WOLDOUBY: &[u64] = &[
    6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989, 9872645, 58360286,
    346184885,
];

const ALL_KINGS_FEN: &str = "W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50:BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20";
/// All kings, d1..d11.
const ALL_KINGS: &[u64] = &[
    17, 79, 352, 1399, 7062, 37589, 217575, 1333217, 8558321, 58381162, 417920283,
];

const ALMOST_PROMOTION_FEN: &str = "W:W6,7,8,9,10:B41,42,43,44,45";
/// Almost promotion, d1..d9.
const ALMOST_PROMOTION: &[u64] = &[
    9, 81, 795, 7578, 86351, 936311, 11448262, 138362698, 1799526674,
];

/// Russian start, d1..d13.
const RUSSIAN_START: &[u64] = &[
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189, 544770444,
    2673979569,
];

/// Brazilian start, d1..d13.
const BRAZILIAN_START: &[u64] = &[
    7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022, 105491257, 511882477,
    2481546396,
];

/// Canadian start, d1..d10.
const CANADIAN_START: &[u64] = &[
    11, 121, 1222, 10053, 79049, 584100, 4369366, 31839056, 237209258, 1761652936,
];

fn fen<R: Rules>(text: &str) -> Position<R> {
    read_fen::<R>(text).unwrap_or_else(|e| panic!("{:?}: bad FEN {text}: {e}", R::VARIANT))
}

/// Checks perft(d) of `pos` for every d in `depths` against `expected[d - 1]`.
fn check<R: Rules>(
    name: &str,
    pos: &Position<R>,
    expected: &[u64],
    depths: RangeInclusive<u32>,
    counting: Counting,
) {
    for d in depths {
        let want = expected[d as usize - 1];
        let t = Instant::now();
        let got = perft(pos, d, counting);
        eprintln!(
            "{name} ({:?}, {counting:?}) d{d}: {got} in {:.2?}",
            R::VARIANT,
            t.elapsed()
        );
        assert_eq!(
            got,
            want,
            "{name} ({:?}, {counting:?}) perft({d})",
            R::VARIANT
        );
    }
}

// ---------------------------------------------------------------------------
// Start positions are what perft.md says they are.

#[test]
fn start_positions_match_their_fens() {
    assert_eq!(
        Position::<International>::start(),
        fen::<International>("W:W31-50:B1-20")
    );
    assert_eq!(
        Position::<Russian>::start(),
        fen::<Russian>("W:W21-32:B1-12")
    );
    // Russian start in algebraic squares (a1 .. g3 against b6 .. h8).
    assert_eq!(
        Position::<Russian>::start(),
        fen::<Russian>(
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        )
    );
    assert_eq!(
        Position::<Brazilian>::start(),
        fen::<Brazilian>("W:W21-32:B1-12")
    );
    assert_eq!(
        Position::<Canadian>::start(),
        fen::<Canadian>("W:W43-72:B1-30")
    );
}

// ---------------------------------------------------------------------------
// International start

#[test]
fn international_start_perft() {
    let pos = fen::<International>("W:W31-50:B1-20");
    check("start", &pos, INTERNATIONAL_START, 1..=10, Counting::Bulk);
}

#[test]
fn international_start_perft_make_every_move() {
    let pos = fen::<International>("W:W31-50:B1-20");
    check(
        "start",
        &pos,
        INTERNATIONAL_START,
        1..=9,
        Counting::MakeEveryMove,
    );
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn international_start_perft_deep() {
    let pos = fen::<International>("W:W31-50:B1-20");
    check("start", &pos, INTERNATIONAL_START, 11..=12, Counting::Bulk);
}

// ---------------------------------------------------------------------------
// Woldouby

#[test]
fn international_woldouby_perft() {
    let pos = fen::<International>(WOLDOUBY_FEN);
    check("Woldouby", &pos, WOLDOUBY, 1..=14, Counting::Bulk);
}

#[test]
fn international_woldouby_perft_make_every_move() {
    let pos = fen::<International>(WOLDOUBY_FEN);
    check("Woldouby", &pos, WOLDOUBY, 1..=13, Counting::MakeEveryMove);
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn international_woldouby_perft_deep() {
    let pos = fen::<International>(WOLDOUBY_FEN);
    check("Woldouby", &pos, WOLDOUBY, 15..=15, Counting::Bulk);
}

// ---------------------------------------------------------------------------
// All kings

#[test]
fn international_all_kings_perft() {
    let pos = fen::<International>(ALL_KINGS_FEN);
    check("all kings", &pos, ALL_KINGS, 1..=9, Counting::Bulk);
}

#[test]
fn international_all_kings_perft_make_every_move() {
    let pos = fen::<International>(ALL_KINGS_FEN);
    check("all kings", &pos, ALL_KINGS, 1..=8, Counting::MakeEveryMove);
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn international_all_kings_perft_deep() {
    let pos = fen::<International>(ALL_KINGS_FEN);
    check("all kings", &pos, ALL_KINGS, 10..=11, Counting::Bulk);
}

// ---------------------------------------------------------------------------
// Almost promotion

#[test]
fn international_almost_promotion_perft() {
    let pos = fen::<International>(ALMOST_PROMOTION_FEN);
    check(
        "almost promotion",
        &pos,
        ALMOST_PROMOTION,
        1..=8,
        Counting::Bulk,
    );
}

#[test]
fn international_almost_promotion_perft_make_every_move() {
    let pos = fen::<International>(ALMOST_PROMOTION_FEN);
    check(
        "almost promotion",
        &pos,
        ALMOST_PROMOTION,
        1..=7,
        Counting::MakeEveryMove,
    );
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn international_almost_promotion_perft_deep() {
    let pos = fen::<International>(ALMOST_PROMOTION_FEN);
    check(
        "almost promotion",
        &pos,
        ALMOST_PROMOTION,
        9..=9,
        Counting::Bulk,
    );
}

// ---------------------------------------------------------------------------
// Russian

#[test]
fn russian_start_perft() {
    let pos = Position::<Russian>::start();
    check("start", &pos, RUSSIAN_START, 1..=11, Counting::Bulk);
}

#[test]
fn russian_start_perft_make_every_move() {
    let pos = Position::<Russian>::start();
    check(
        "start",
        &pos,
        RUSSIAN_START,
        1..=10,
        Counting::MakeEveryMove,
    );
}

/// perft.md: depth 8 is the first depth where a man crowned in the middle of
/// a capture must go on capturing as a king (929896 without that rule).
#[test]
fn russian_start_perft_depth_8_needs_crowning_mid_capture() {
    let pos = Position::<Russian>::start();
    assert_eq!(perft(&pos, 8, Counting::Bulk), 929899);
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn russian_start_perft_deep() {
    let pos = Position::<Russian>::start();
    check("start", &pos, RUSSIAN_START, 12..=13, Counting::Bulk);
}

// ---------------------------------------------------------------------------
// Brazilian

#[test]
fn brazilian_start_perft() {
    let pos = Position::<Brazilian>::start();
    check("start", &pos, BRAZILIAN_START, 1..=11, Counting::Bulk);
}

#[test]
fn brazilian_start_perft_make_every_move() {
    let pos = Position::<Brazilian>::start();
    check(
        "start",
        &pos,
        BRAZILIAN_START,
        1..=10,
        Counting::MakeEveryMove,
    );
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn brazilian_start_perft_deep() {
    let pos = Position::<Brazilian>::start();
    check("start", &pos, BRAZILIAN_START, 12..=13, Counting::Bulk);
}

// ---------------------------------------------------------------------------
// Canadian

#[test]
fn canadian_start_perft() {
    let pos = Position::<Canadian>::start();
    check("start", &pos, CANADIAN_START, 1..=9, Counting::Bulk);
}

#[test]
fn canadian_start_perft_make_every_move() {
    let pos = Position::<Canadian>::start();
    check(
        "start",
        &pos,
        CANADIAN_START,
        1..=8,
        Counting::MakeEveryMove,
    );
}

#[test]
#[ignore = "deep perft: make perft-deep"]
fn canadian_start_perft_deep() {
    let pos = Position::<Canadian>::start();
    check("start", &pos, CANADIAN_START, 10..=10, Counting::Bulk);
}
