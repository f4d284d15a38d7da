//! The rules of `/work/shared/docs/rules.md`, one test per rule and variant,
//! as specifications of the engine's move generator and game result.
//!
//! Most positions are written in algebraic coordinates in the bottom-left
//! corner of the board (a1 is a dark square on every board, White's men go
//! up, Black's men are crowned on rank 1), so that the same position means
//! the same thing on 8x8, 10x10 and 12x12 and one generic check serves the
//! four variants. Every such check is also run on the colour-mirrored
//! position (board turned half a turn, colours swapped, the other side to
//! move), built here independently of the engine's `Position::flipped`, so
//! each rule is checked for both colours.
//!
//! Moves are written `c3-d4` (quiet), `b2xf6 [c3,e5]` (capture, with the set
//! of captured squares) and a trailing `=K` when the moving man ends the
//! move as a king. The positions of perft.md (10x10, numeric squares) are
//! checked with the engine's Hub text (`28x19x23`: from, to, captured).

use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, Geometry, International, Move, Outcome, Position, Rules, Russian,
    Word,
};
use tiao_draughts::movegen::{MoveList, count, generate, has_capture, has_move};
use tiao_draughts::notation::{MoveFormat, legal_moves_text, read_fen, read_hub_move, write_fen};
use tiao_draughts::record::GameHistory;

// ---------------------------------------------------------------------------
// Squares, positions and move text

fn size<R: Rules>() -> i32 {
    R::Geometry::SIZE as i32
}

/// (file, rank) of an algebraic name: `c3` = (2, 3).
fn coords(name: &str) -> (i32, i32) {
    let mut chars = name.chars();
    let file = chars.next().unwrap_or_else(|| panic!("empty square name")) as i32 - 'a' as i32;
    let rank: i32 = chars
        .as_str()
        .parse()
        .unwrap_or_else(|_| panic!("bad square name {name:?}"));
    (file, rank)
}

/// Bit index of a square given by (file, rank), if it is a dark square of the board.
fn bit_at<R: Rules>(file: i32, rank: i32) -> Option<u32> {
    R::Geometry::bit_at(size::<R>() - rank, file)
}

fn bit<R: Rules>(name: &str) -> u32 {
    let (file, rank) = coords(name);
    bit_at::<R>(file, rank)
        .unwrap_or_else(|| panic!("{name} is not a dark square of the {:?} board", R::VARIANT))
}

fn name<R: Rules>(bit: u32) -> String {
    let (row, file) = R::Geometry::row_file(bit);
    let letter = char::from_u32('a' as u32 + file).unwrap_or('?');
    format!("{letter}{}", R::Geometry::SIZE - row)
}

/// The square turned half a turn with the board.
fn mirror_name<R: Rules>(sq: &str) -> String {
    let (file, rank) = coords(sq);
    let n = size::<R>();
    let letter = char::from_u32(('a' as i32 + n - 1 - file) as u32).unwrap_or('?');
    format!("{letter}{}", n + 1 - rank)
}

/// `"c3 Kd4"` mirrored: `"f6 Ke5"` on 8x8.
fn mirror_pieces<R: Rules>(pieces: &str) -> String {
    pieces
        .split_whitespace()
        .map(|p| match p.strip_prefix('K') {
            Some(sq) => format!("K{}", mirror_name::<R>(sq)),
            None => mirror_name::<R>(p),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A position from space-separated lists of squares (`K` marks a king).
fn setup<R: Rules>(side: Colour, white: &str, black: &str) -> Position<R> {
    let mut sets = [[Word::<R>::ZERO; 2]; 2]; // [colour][king]
    for (c, list) in [(0, white), (1, black)] {
        for p in list.split_whitespace() {
            let (king, sq) = match p.strip_prefix('K') {
                Some(sq) => (1, sq),
                None => (0, p),
            };
            sets[c][king] |= Word::<R>::bit(bit::<R>(sq));
        }
    }
    Position::from_bitboards(sets[0][0], sets[0][1], sets[1][0], sets[1][1], side)
        .unwrap_or_else(|e| panic!("{:?}: bad position W {white} / B {black}: {e}", R::VARIANT))
}

/// A move in the identity the rules give it: origin, destination, captured
/// squares (sorted) and whether the man is crowned.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Spec {
    from: String,
    to: String,
    captured: Vec<String>,
    crowned: bool,
}

impl Spec {
    fn of<R: Rules>(mv: &Move<Word<R>>) -> Spec {
        let mut captured: Vec<u32> = mv.captured.iter().collect();
        captured.sort_unstable();
        Spec {
            from: name::<R>(mv.from_bit()),
            to: name::<R>(mv.to_bit()),
            captured: captured.into_iter().map(name::<R>).collect(),
            crowned: mv.promotes,
        }
    }

    /// Reads `c3-d4`, `b2xf6 [c3,e5]`, `b2-a1=K`, `e3xa3 [b2,d2] =K`.
    fn parse<R: Rules>(text: &str) -> Spec {
        let t = text.trim();
        let (t, crowned) = match t.strip_suffix("=K") {
            Some(rest) => (rest.trim(), true),
            None => (t, false),
        };
        let (ends, captured) = match t.split_once('[') {
            Some((ends, rest)) => {
                let list = rest.trim().strip_suffix(']').expect("missing ']'");
                let mut bits: Vec<u32> = list.split(',').map(|s| bit::<R>(s.trim())).collect();
                bits.sort_unstable();
                (ends.trim(), bits)
            }
            None => (t, Vec::new()),
        };
        let sep = if captured.is_empty() { '-' } else { 'x' };
        let (from, to) = ends
            .split_once(sep)
            .unwrap_or_else(|| panic!("bad move text {text:?}"));
        Spec {
            from: name::<R>(bit::<R>(from)),
            to: name::<R>(bit::<R>(to)),
            captured: captured.into_iter().map(name::<R>).collect(),
            crowned,
        }
    }

    fn mirrored<R: Rules>(&self) -> Spec {
        let mut captured: Vec<u32> = self
            .captured
            .iter()
            .map(|s| bit::<R>(&mirror_name::<R>(s)))
            .collect();
        captured.sort_unstable();
        Spec {
            from: mirror_name::<R>(&self.from),
            to: mirror_name::<R>(&self.to),
            captured: captured.into_iter().map(name::<R>).collect(),
            crowned: self.crowned,
        }
    }

    fn text(&self) -> String {
        let mut s = if self.captured.is_empty() {
            format!("{}-{}", self.from, self.to)
        } else {
            format!("{}x{} [{}]", self.from, self.to, self.captured.join(","))
        };
        if self.crowned {
            s.push_str(" =K");
        }
        s
    }
}

fn legal<R: Rules>(pos: &Position<R>) -> Vec<Move<Word<R>>> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list.to_vec()
}

/// The legal moves of `pos` as sorted move texts, after checking that the
/// generator's other entry points agree with the list.
fn move_texts<R: Rules>(pos: &Position<R>) -> Vec<String> {
    let list = legal(pos);
    assert_eq!(count(pos), list.len() as u64, "count() of {pos:?}");
    assert_eq!(has_move(pos), !list.is_empty(), "has_move() of {pos:?}");
    assert_eq!(
        has_capture(pos),
        list.iter().any(|m| m.is_capture()),
        "has_capture() of {pos:?}"
    );
    let mut specs: Vec<Spec> = list.iter().map(Spec::of::<R>).collect();
    specs.sort();
    specs.iter().map(Spec::text).collect()
}

fn canonical<R: Rules>(expected: &[&str]) -> Vec<String> {
    let mut specs: Vec<Spec> = expected.iter().map(|t| Spec::parse::<R>(t)).collect();
    specs.sort();
    specs.iter().map(Spec::text).collect()
}

fn canonical_mirrored<R: Rules>(expected: &[&str]) -> Vec<String> {
    let mut specs: Vec<Spec> = expected
        .iter()
        .map(|t| Spec::parse::<R>(t).mirrored::<R>())
        .collect();
    specs.sort();
    specs.iter().map(Spec::text).collect()
}

/// Asserts the complete list of legal moves (each listed once), for the
/// position as given and for its colour-mirrored twin.
fn assert_moves<R: Rules>(side: Colour, white: &str, black: &str, expected: &[&str]) {
    let pos = setup::<R>(side, white, black);
    assert_eq!(
        move_texts(&pos),
        canonical::<R>(expected),
        "{:?}: {} to move, White {white:?}, Black {black:?} ({})",
        R::VARIANT,
        side.name(),
        write_fen(&pos)
    );
    let (mw, mb) = (mirror_pieces::<R>(black), mirror_pieces::<R>(white));
    let twin = setup::<R>(!side, &mw, &mb);
    assert_eq!(
        move_texts(&twin),
        canonical_mirrored::<R>(expected),
        "{:?} (mirrored): {} to move, White {mw:?}, Black {mb:?} ({})",
        R::VARIANT,
        (!side).name(),
        write_fen(&twin)
    );
}

/// Every square along a diagonal from `from` (exclusive) to the edge of the board.
fn ray<R: Rules>(from: &str, df: i32, dr: i32) -> Vec<String> {
    let (mut f, mut r) = coords(from);
    let mut out = Vec::new();
    loop {
        f += df;
        r += dr;
        match bit_at::<R>(f, r) {
            Some(b) => out.push(name::<R>(b)),
            None => return out,
        }
    }
}

/// Plays the legal move with the given text (panics if there is none).
fn play_text<R: Rules>(game: &mut GameHistory<R>, text: &str) {
    let want = canonical::<R>(&[text]);
    let pos = *game.position();
    let mv = legal(&pos)
        .into_iter()
        .find(|m| Spec::of::<R>(m).text() == want[0])
        .unwrap_or_else(|| panic!("{text} is not legal in {}", write_fen(&pos)));
    game.play(mv);
}

const W: Colour = Colour::White;
const B: Colour = Colour::Black;

/// Instantiates a generic rule check for the named variants.
macro_rules! for_variants {
    ($check:ident: $($test:ident => $rules:ty),+ $(,)?) => {
        $(
            #[test]
            fn $test() {
                $check::<$rules>();
            }
        )+
    };
}

// ---------------------------------------------------------------------------
// Common to all draughts variants

/// A man moves one square diagonally forward onto an empty square, never
/// backwards or sideways, and not onto an occupied square.
fn men_move_diagonally_forward_only<R: Rules>() {
    assert_moves::<R>(W, "d4 a3", "a7", &["d4-c5", "d4-e5", "a3-b4"]);
    // Blocked in front by its own man and by an enemy man that cannot be taken.
    assert_moves::<R>(W, "d4 c5", "e5 f6", &["c5-b6", "c5-d6"]);
}
for_variants!(men_move_diagonally_forward_only:
    international_men_move_diagonally_forward_only => International,
    brazilian_men_move_diagonally_forward_only => Brazilian,
    russian_men_move_diagonally_forward_only => Russian,
    canadian_men_move_diagonally_forward_only => Canadian,
);

/// A king moves any number of empty squares along a diagonal, forwards or
/// backwards, up to the first occupied square.
fn kings_fly<R: Rules>() {
    // Alone on d4 (Black's man on b8 is on none of its diagonals): every
    // square of its four diagonals, to the edge of the board.
    let expected: Vec<String> = [(-1, 1), (1, 1), (-1, -1), (1, -1)]
        .iter()
        .flat_map(|&(df, dr)| ray::<R>("d4", df, dr))
        .map(|to| format!("d4-{to}"))
        .collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_moves::<R>(W, "Kd4", "b8", &expected);
    // Stopped by its own man on f6 and by two black men side by side on b6
    // and a7 (no capture: nothing empty behind b6).
    let mut expected: Vec<String> = ["d4-c5", "d4-e5", "f6-e7", "f6-g7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (df, dr) in [(-1, -1), (1, -1)] {
        expected.extend(ray::<R>("d4", df, dr).iter().map(|to| format!("d4-{to}")));
    }
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_moves::<R>(W, "Kd4 f6", "b6 a7", &expected);
}
for_variants!(kings_fly:
    international_kings_fly => International,
    brazilian_kings_fly => Brazilian,
    russian_kings_fly => Russian,
    canadian_kings_fly => Canadian,
);

/// A player who can capture must: every quiet move is then illegal, whichever
/// piece could make it.
fn capture_is_compulsory<R: Rules>() {
    // The man on d4 can take e5; the king on c1 and the man on g1 could move.
    assert_moves::<R>(W, "d4 g1 Kc1", "e5", &["d4xf6 [e5]"]);
    // Only the king has a capture, at a distance; the men must not move.
    assert_moves::<R>(W, "Kb2 f2 g7", "e5", &["b2xf6 [e5]"]);
}
for_variants!(capture_is_compulsory:
    international_capture_is_compulsory => International,
    brazilian_capture_is_compulsory => Brazilian,
    russian_capture_is_compulsory => Russian,
    canadian_capture_is_compulsory => Canadian,
);

/// A man captures forwards and backwards over an adjacent enemy piece onto
/// the empty square directly behind it.
fn men_capture_backwards<R: Rules>() {
    assert_moves::<R>(W, "d4", "e3", &["d4xf2 [e3]"]);
    assert_moves::<R>(W, "d4", "c3 e5", &["d4xb2 [c3]", "d4xf6 [e5]"]);
    // Not over a piece that is not adjacent, nor onto an occupied square.
    assert_moves::<R>(W, "e5", "c3 f4 g3", &["e5-d6", "e5-f6"]);
}
for_variants!(men_capture_backwards:
    international_men_capture_backwards => International,
    brazilian_men_capture_backwards => Brazilian,
    russian_men_capture_backwards => Russian,
    canadian_men_capture_backwards => Canadian,
);

/// A king captures at a distance over empty squares and may land on any
/// empty square beyond the piece, up to the next occupied square.
fn king_captures_at_a_distance_landing_on_any_square_beyond<R: Rules>() {
    // a1 .. d4 over b2, c3; landings e5, f6 (g7 is White's own man).
    assert_moves::<R>(W, "Ka1 g7", "d4", &["a1xe5 [d4]", "a1xf6 [d4]"]);
    // Two enemy pieces side by side cannot be jumped.
    assert_moves::<R>(W, "Ka1", "d4 e5", &["a1-b2", "a1-c3"]);
}
for_variants!(king_captures_at_a_distance_landing_on_any_square_beyond:
    international_king_captures_at_a_distance_landing_on_any_square_beyond => International,
    brazilian_king_captures_at_a_distance_landing_on_any_square_beyond => Brazilian,
    russian_king_captures_at_a_distance_landing_on_any_square_beyond => Russian,
    canadian_king_captures_at_a_distance_landing_on_any_square_beyond => Canadian,
);

/// The landing square matters when the capture continues from one of them:
/// the king must land where it can go on.
fn king_lands_where_the_capture_continues<R: Rules>() {
    // a5 takes c3 and may land on d2 or e1; only from d2 can it take f4
    // (landing on g5, h6 being White's own man).
    assert_moves::<R>(W, "Ka5 h6", "c3 f4", &["a5xg5 [c3,f4]"]);
}
for_variants!(king_lands_where_the_capture_continues:
    international_king_lands_where_the_capture_continues => International,
    brazilian_king_lands_where_the_capture_continues => Brazilian,
    russian_king_lands_where_the_capture_continues => Russian,
    canadian_king_lands_where_the_capture_continues => Canadian,
);

/// After a jump the same piece must go on capturing while it can: stopping
/// half-way is not a move.
fn multiple_captures_must_continue<R: Rules>() {
    assert_moves::<R>(W, "b2", "c3 e5", &["b2xf6 [c3,e5]"]);
    // A king too: a1 over c3 must land on d4 and go on over e3.
    assert_moves::<R>(W, "Ka1", "c3 e3", &["a1xf2 [c3,e3]", "a1xg1 [c3,e3]"]);
}
for_variants!(multiple_captures_must_continue:
    international_multiple_captures_must_continue => International,
    brazilian_multiple_captures_must_continue => Brazilian,
    russian_multiple_captures_must_continue => Russian,
    canadian_multiple_captures_must_continue => Canadian,
);

/// The capturing piece may pass the same empty square more than once, its
/// own origin included (the origin is empty during the capture).
fn capture_may_pass_a_square_twice<R: Rules>() {
    // a3 goes round b4, d4, d2, b2 (either way round) back to a3.
    assert_moves::<R>(W, "a3", "b4 d4 d2 b2", &["a3xa3 [b2,b4,d2,d4]"]);
    // g5 takes f4 landing on e3, goes round the same ring back to e3 and
    // leaves it again over f2 to g1: e3 is passed twice.
    let expected: &[&str] = if R::MAJORITY {
        &["g5xg1 [b2,b4,d2,d4,f2,f4]"]
    } else {
        // Free choice (Russian): also the short way, over f2 at once.
        &["g5xg1 [b2,b4,d2,d4,f2,f4]", "g5xg1 [f2,f4]"]
    };
    assert_moves::<R>(W, "g5", "f4 d4 b4 b2 d2 f2", expected);
}
for_variants!(capture_may_pass_a_square_twice:
    international_capture_may_pass_a_square_twice => International,
    brazilian_capture_may_pass_a_square_twice => Brazilian,
    russian_capture_may_pass_a_square_twice => Russian,
    canadian_capture_may_pass_a_square_twice => Canadian,
);

/// Turkish strike: captured pieces stay on the board until the move ends; a
/// captured piece can be neither jumped again nor passed through.
fn turkish_strike_captured_pieces_block<R: Rules>() {
    // a1 takes c3 (landing e5), d6 (landing c7), b6 (landing a5). From a5 the
    // captured c3, still on the board, blocks the way to d2: if captured
    // pieces were removed at once the king would go on over d2 to e1 and
    // take four.
    let expected: &[&str] = if R::MAJORITY {
        &["a1xa5 [b6,c3,d6]"]
    } else {
        // Free choice (Russian): also over c3 to d4 and over b6 to a7,
        // where the capture ends.
        &["a1xa5 [b6,c3,d6]", "a1xa7 [b6,c3]"]
    };
    assert_moves::<R>(W, "Ka1", "c3 d6 b6 d2", expected);
    // A man cannot jump the same piece twice: a3 over b4, d4, d2 ends on c1
    // (jumping d2 again back to e3 is not allowed).
    assert_moves::<R>(W, "a3", "b4 d4 d2", &["a3xc1 [b4,d2,d4]"]);
}
for_variants!(turkish_strike_captured_pieces_block:
    international_turkish_strike_captured_pieces_block => International,
    brazilian_turkish_strike_captured_pieces_block => Brazilian,
    russian_turkish_strike_captured_pieces_block => Russian,
    canadian_turkish_strike_captured_pieces_block => Canadian,
);

/// Own pieces can never be jumped, by men or kings.
fn own_pieces_cannot_be_jumped<R: Rules>() {
    // The king on a1 is stopped by its own man on c3; e5 is out of reach.
    assert_moves::<R>(W, "Ka1 c3", "e5", &["a1-b2", "c3-b4", "c3-d4"]);
    // c3 cannot jump its own d4 (and d4 cannot take e5: f6 is occupied).
    assert_moves::<R>(W, "c3 d4", "e5 f6", &["c3-b4", "d4-c5"]);
}
for_variants!(own_pieces_cannot_be_jumped:
    international_own_pieces_cannot_be_jumped => International,
    brazilian_own_pieces_cannot_be_jumped => Brazilian,
    russian_own_pieces_cannot_be_jumped => Russian,
    canadian_own_pieces_cannot_be_jumped => Canadian,
);

/// A player without pieces loses (`GameHistory::outcome`).
fn player_without_pieces_loses<R: Rules>() {
    let pos = setup::<R>(W, "", "d6");
    assert_eq!(move_texts(&pos), Vec::<String>::new());
    assert_eq!(GameHistory::new(pos).outcome(), Some(Outcome::Win(B)));
    let pos = setup::<R>(B, "c3", "");
    assert_eq!(GameHistory::new(pos).outcome(), Some(Outcome::Win(W)));
    // The side with pieces has moves: no result yet.
    assert_eq!(GameHistory::new(setup::<R>(B, "c3", "d6")).outcome(), None);
    // Losing the last piece ends the game.
    let mut game = GameHistory::new(setup::<R>(W, "c3", "d4"));
    assert_eq!(game.outcome(), None);
    play_text(&mut game, "c3xe5 [d4]");
    assert_eq!(game.outcome(), Some(Outcome::Win(W)));
}
for_variants!(player_without_pieces_loses:
    international_player_without_pieces_loses => International,
    brazilian_player_without_pieces_loses => Brazilian,
    russian_player_without_pieces_loses => Russian,
    canadian_player_without_pieces_loses => Canadian,
);

/// A player whose pieces are all blocked loses (`GameHistory::outcome`).
fn player_with_all_pieces_blocked_loses<R: Rules>() {
    // a3 faces b4 with c5 behind it; the king on a1 faces b2 with c3 behind.
    for (white, black) in [
        ("a3", "b4 c5"),
        ("Ka1", "b2 c3"),
        ("a3 Ka1", "b4 c5 b2 c3 Kc1"),
    ] {
        let pos = setup::<R>(W, white, black);
        assert_eq!(move_texts(&pos), Vec::<String>::new(), "{white} / {black}");
        assert_eq!(
            GameHistory::new(pos).outcome(),
            Some(Outcome::Win(B)),
            "{white} / {black}"
        );
        let twin = setup::<R>(B, &mirror_pieces::<R>(black), &mirror_pieces::<R>(white));
        assert_eq!(move_texts(&twin), Vec::<String>::new(), "mirrored");
        assert_eq!(
            GameHistory::new(twin).outcome(),
            Some(Outcome::Win(W)),
            "mirrored"
        );
    }
    // One free move is enough: no result.
    assert_eq!(
        GameHistory::new(setup::<R>(W, "a3 g1", "b4 c5")).outcome(),
        None
    );
}
for_variants!(player_with_all_pieces_blocked_loses:
    international_player_with_all_pieces_blocked_loses => International,
    brazilian_player_with_all_pieces_blocked_loses => Brazilian,
    russian_player_with_all_pieces_blocked_loses => Russian,
    canadian_player_with_all_pieces_blocked_loses => Canadian,
);

/// Two jump paths with the same origin, destination and captured set are one
/// move, listed once.
fn duplicate_captures_are_listed_once<R: Rules>() {
    // A man (the ring of `capture_may_pass_a_square_twice`) and a king going
    // round the same four pieces either way.
    assert_moves::<R>(W, "a3", "b4 d4 d2 b2", &["a3xa3 [b2,b4,d2,d4]"]);
    assert_moves::<R>(W, "Ka3", "b4 d4 d2 b2", &["a3xa3 [b2,b4,d2,d4]"]);
    // The same ring entered from another corner.
    assert_moves::<R>(W, "c1", "b2 d2 b4 d4", &["c1xc1 [b2,b4,d2,d4]"]);
}
for_variants!(duplicate_captures_are_listed_once:
    international_duplicate_captures_are_listed_once => International,
    brazilian_duplicate_captures_are_listed_once => Brazilian,
    russian_duplicate_captures_are_listed_once => Russian,
    canadian_duplicate_captures_are_listed_once => Canadian,
);

/// Two captures with the same origin and destination but different captured
/// sets are two moves.
fn same_from_to_with_different_captured_sets_are_two_moves<R: Rules>() {
    // a3 takes b4, landing on c5 or d6; from c5 it takes d4 (landing e3) and
    // from d6 e5 (landing f4); both then take d2 and end on c1.
    assert_moves::<R>(
        W,
        "Ka3",
        "b4 d4 e5 d2",
        &["a3xc1 [b4,d2,d4]", "a3xc1 [b4,d2,e5]"],
    );
}
for_variants!(same_from_to_with_different_captured_sets_are_two_moves:
    international_same_from_to_with_different_captured_sets_are_two_moves => International,
    brazilian_same_from_to_with_different_captured_sets_are_two_moves => Brazilian,
    russian_same_from_to_with_different_captured_sets_are_two_moves => Russian,
    canadian_same_from_to_with_different_captured_sets_are_two_moves => Canadian,
);

/// A man that ends a quiet move on the far row is crowned; on its next move
/// it moves as a king.
fn man_reaching_the_last_row_is_crowned<R: Rules>() {
    assert_moves::<R>(B, "g1", "b2", &["b2-a1 =K", "b2-c1 =K"]);
    let mut game = GameHistory::new(setup::<R>(B, "h2", "b2"));
    play_text(&mut game, "b2-c1 =K");
    assert_eq!(game.position().kings(B).count(), 1);
    assert_eq!(game.position().men(B).count(), 0);
    play_text(&mut game, "h2-g3");
    let texts = move_texts(game.position());
    assert!(texts.contains(&"c1-a3".to_string()), "{texts:?}");
    assert!(texts.contains(&"c1-f4".to_string()), "{texts:?}");
}
for_variants!(man_reaching_the_last_row_is_crowned:
    international_man_reaching_the_last_row_is_crowned => International,
    brazilian_man_reaching_the_last_row_is_crowned => Brazilian,
    russian_man_reaching_the_last_row_is_crowned => Russian,
    canadian_man_reaching_the_last_row_is_crowned => Canadian,
);

// ---------------------------------------------------------------------------
// Majority rule and promotion (international, Brazilian, Canadian)

/// Majority rule: only captures taking the most pieces are legal, counting
/// kings and men alike.
fn majority_rule_counts_kings_and_men_alike<R: Rules>() {
    // a1 can take three men (b2, d4, f6); h2 two kings (g3, g5).
    assert_moves::<R>(W, "a1 h2", "b2 d4 f6 Kg3 Kg5", &["a1xg7 [b2,d4,f6]"]);
    // Two men beat one king.
    assert_moves::<R>(W, "a1 h2", "b2 d4 Kg3", &["a1xe5 [b2,d4]"]);
    // A king's capture of two beats a man's capture of one ...
    assert_moves::<R>(W, "Ka5 b2 h6", "c3 f4", &["a5xg5 [c3,f4]"]);
    // ... and two men taken by a man beat one by a king.
    assert_moves::<R>(W, "Ke1 a1", "b4 b2 d4", &["a1xe5 [b2,d4]", "a1xa5 [b2,b4]"]);
}

/// Majority rule: among captures of the greatest number the choice is free.
fn majority_rule_free_choice_among_equal_maxima<R: Rules>() {
    // a1 takes two men, h2 two kings: both legal.
    assert_moves::<R>(
        W,
        "a1 h2",
        "b2 d4 Kg3 Kg5",
        &["a1xe5 [b2,d4]", "h2xh6 [g3,g5]"],
    );
    // The same piece, two ways of taking two.
    assert_moves::<R>(W, "b2", "c3 e5 c5", &["b2xf6 [c3,e5]", "b2xb6 [c3,c5]"]);
}

/// A man becomes a king only when it ends its move on the far row; passing
/// it during a capture does not crown.
fn promotion_only_when_ending_on_the_last_row<R: Rules>() {
    // A capture ending on the last row crowns.
    assert_moves::<R>(B, "d4 b2", "e5", &["e5xa1 [b2,d4] =K"]);
    // e3 takes d2 reaching c1 and must go on over b2 to a3: still a man.
    assert_moves::<R>(B, "d2 b2", "e3", &["e3xa3 [b2,d2]"]);
    let mut game = GameHistory::new(setup::<R>(B, "d2 b2 h2", "e3"));
    play_text(&mut game, "e3xa3 [b2,d2]");
    assert_eq!(game.position().kings(B).count(), 0);
    assert_eq!(game.position().men(B).count(), 1);
}

/// A man crowned at the end of a capture does not go on capturing as a king
/// in the same move; it moves as a king from its next move on.
fn newly_crowned_king_moves_as_a_king_only_from_its_next_move<R: Rules>() {
    // g3 takes f2 and lands on e1, where a king could take c3; the move ends.
    assert_moves::<R>(B, "f2 c3", "g3", &["g3xe1 [f2] =K"]);
    let mut game = GameHistory::new(setup::<R>(B, "f2 c3", "g3"));
    play_text(&mut game, "g3xe1 [f2] =K");
    play_text(&mut game, "c3-d4");
    let texts = move_texts(game.position());
    for m in ["e1-a5", "e1-b4", "e1-h4"] {
        assert!(texts.contains(&m.to_string()), "{m} missing from {texts:?}");
    }
}

for_variants!(majority_rule_counts_kings_and_men_alike:
    international_majority_rule_counts_kings_and_men_alike => International,
    brazilian_majority_rule_counts_kings_and_men_alike => Brazilian,
    canadian_majority_rule_counts_kings_and_men_alike => Canadian,
);
for_variants!(majority_rule_free_choice_among_equal_maxima:
    international_majority_rule_free_choice_among_equal_maxima => International,
    brazilian_majority_rule_free_choice_among_equal_maxima => Brazilian,
    canadian_majority_rule_free_choice_among_equal_maxima => Canadian,
);
for_variants!(promotion_only_when_ending_on_the_last_row:
    international_promotion_only_when_ending_on_the_last_row => International,
    brazilian_promotion_only_when_ending_on_the_last_row => Brazilian,
    canadian_promotion_only_when_ending_on_the_last_row => Canadian,
);
for_variants!(newly_crowned_king_moves_as_a_king_only_from_its_next_move:
    international_newly_crowned_king_moves_as_a_king_only_from_its_next_move => International,
    brazilian_newly_crowned_king_moves_as_a_king_only_from_its_next_move => Brazilian,
    canadian_newly_crowned_king_moves_as_a_king_only_from_its_next_move => Canadian,
);

// ---------------------------------------------------------------------------
// Russian draughts: free choice of capture, crowning during a capture

/// The majority rule does not apply: any capture may be chosen, including a
/// shorter one, by any piece.
#[test]
fn russian_free_choice_of_capture_including_a_shorter_one() {
    type R = Russian;
    // Three men by a1 or two kings by h2.
    assert_moves::<R>(
        W,
        "a1 h2",
        "b2 d4 f6 Kg3 Kg5",
        &["a1xg7 [b2,d4,f6]", "h2xh6 [g3,g5]"],
    );
    // The same man: two pieces by way of a3, or one by way of e3.
    assert_moves::<R>(W, "c1", "b2 b4 d2", &["c1xc5 [b2,b4]", "c1xe3 [d2]"]);
    // A king's capture of two or a man's capture of one.
    assert_moves::<R>(W, "Ka5 b2 h6", "c3 f4", &["a5xg5 [c3,f4]", "b2xd4 [c3]"]);
    // Under the majority rule only the longest of the same positions.
    assert_moves::<Brazilian>(W, "c1", "b2 b4 d2", &["c1xc5 [b2,b4]"]);
}

/// A chosen capture must be finished: the piece goes on while it can.
#[test]
fn russian_chosen_capture_must_be_finished() {
    type R = Russian;
    // After b2xd4 the man must go on, over e5 or over c5.
    assert_moves::<R>(W, "b2", "c3 e5 c5", &["b2xf6 [c3,e5]", "b2xb6 [c3,c5]"]);
    // g5 takes f4 landing on e3; from there it may take f2 at once (and it
    // ends on g1), or go round the ring d4, b4, b2, d2 first, back through
    // e3, and then it must still take f2: two moves g5xg1 with different
    // captured sets, but never one that stops on e3, c5, a3 or c1.
    assert_moves::<R>(
        W,
        "g5",
        "f4 d4 b4 b2 d2 f2",
        &["g5xg1 [f2,f4]", "g5xg1 [b2,b4,d2,d4,f2,f4]"],
    );
    // A king as well.
    assert_moves::<R>(W, "Ka1", "c3 e3", &["a1xf2 [c3,e3]", "a1xg1 [c3,e3]"]);
}

/// A man reaching the far row during a capture is crowned at once and, if it
/// can capture further as a king, must go on as a king in the same move.
#[test]
fn russian_man_crowned_mid_capture_continues_as_king() {
    type R = Russian;
    // g3 takes f2, lands on e1 and is crowned; as a king it takes c3 at a
    // distance, landing on b4 or a5.
    assert_moves::<R>(B, "f2 c3", "g3", &["g3xb4 [c3,f2] =K", "g3xa5 [c3,f2] =K"]);
    // e3 takes d2 reaching c1 and goes on over b2: it ends on a3 as a king.
    assert_moves::<R>(B, "d2 b2", "e3", &["e3xa3 [b2,d2] =K"]);
    let mut game = GameHistory::new(setup::<R>(B, "d2 b2 h2", "e3"));
    play_text(&mut game, "e3xa3 [b2,d2] =K");
    assert_eq!(game.position().kings(B).count(), 1);
    assert_eq!(game.position().men(B).count(), 0);
    // Crowned on the last square of the capture.
    assert_moves::<R>(B, "d2", "e3", &["e3xc1 [d2] =K"]);
    // The 8x8 numeric squares of protocols.md: f6 (11) takes e7 (7), is
    // crowned on d8 (2) and takes b6 (9) at a distance, ending on a5 (13).
    let pos = read_fen::<R>("W:W11:B7,9").expect("FEN");
    let texts: Vec<String> = legal_moves_text(&pos, MoveFormat::Hub)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(texts, vec!["11x13x7x9".to_string()]);
    let mv = read_hub_move(&pos, "11x13x7x9").expect("legal");
    assert!(mv.promotes);
    assert_eq!(write_fen(&pos.play(&mv)), "B:WKa5:B");
}

/// A man that ends a quiet move on the far row is crowned too.
#[test]
fn russian_quiet_move_to_the_last_row_crowns() {
    type R = Russian;
    assert_moves::<R>(B, "g1", "b2", &["b2-a1 =K", "b2-c1 =K"]);
    assert_moves::<R>(W, "c7", "a5", &["c7-b8 =K", "c7-d8 =K"]);
    let mut game = GameHistory::new(setup::<R>(W, "c7", "a3"));
    play_text(&mut game, "c7-d8 =K");
    assert_eq!(write_fen(game.position()), "B:WKd8:Ba3");
}

// ---------------------------------------------------------------------------
// Canadian draughts (12x12)

/// 30 men each on the first five rows; White has 11 first moves.
#[test]
fn canadian_start_position_has_30_men_each_and_11_first_moves() {
    type R = Canadian;
    let start = Position::<R>::start();
    assert_eq!(start.men(W).count(), 30);
    assert_eq!(start.men(B).count(), 30);
    assert_eq!(start.kings(W).count() + start.kings(B).count(), 0);
    assert_eq!(start.side(), W);
    assert_eq!(start, read_fen::<R>("W:W43-72:B1-30").expect("FEN"));
    // In algebraic terms White's men fill ranks 1..5, Black's ranks 8..12.
    for rank in 1..=12 {
        for file in 0..12 {
            if let Some(b) = bit_at::<R>(file, rank) {
                let want = match rank {
                    1..=5 => Some(W),
                    8..=12 => Some(B),
                    _ => None,
                };
                assert_eq!(
                    start.piece_at(b).map(|p| p.colour),
                    want,
                    "{}",
                    name::<R>(b)
                );
            }
        }
    }
    let texts: Vec<String> = legal_moves_text(&start, MoveFormat::Hub)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(
        texts,
        [
            "43-37", "44-37", "44-38", "45-38", "45-39", "46-39", "46-40", "47-40", "47-41",
            "48-41", "48-42"
        ]
    );
    // Black's reply count is the same by symmetry.
    assert_eq!(count(&start.with_side(B)), 11);
}

/// The majority rule on the far side of the 12x12 board: the king on 67 (a1)
/// can take 12 (k11) along the long diagonal, landing on 6 (l12); the man on
/// 20 takes 14 and 15 and must be chosen.
#[test]
fn canadian_majority_rule_on_the_whole_board() {
    type R = Canadian;
    let pos = read_fen::<R>("W:WK67,20:B12,14,15").expect("FEN");
    let texts: Vec<String> = legal_moves_text(&pos, MoveFormat::Hub)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(texts, ["20x22x14x15"]);
    // Without the man's capture the king's long one is the move.
    let pos = read_fen::<R>("W:WK67,20:B12").expect("FEN");
    let texts: Vec<String> = legal_moves_text(&pos, MoveFormat::Hub)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert_eq!(texts, ["67x6x12"]);
}

// ---------------------------------------------------------------------------
// International rule positions of perft.md, with complete move lists

/// The legal moves of an international FEN in Hub text (sorted).
fn hub_moves(fen: &str) -> Vec<String> {
    let pos = read_fen::<International>(fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    let mut texts: Vec<String> = legal_moves_text(&pos, MoveFormat::Hub)
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    texts.sort();
    texts
}

/// Short form (from x to, from - to) of Hub texts.
fn short_forms(hub: &[String]) -> Vec<String> {
    let mut v: Vec<String> = hub
        .iter()
        .map(|t| {
            if t.contains('x') {
                let parts: Vec<&str> = t.split('x').collect();
                format!("{}x{}", parts[0], parts[1])
            } else {
                t.clone()
            }
        })
        .collect();
    v.sort();
    v
}

/// Checks a perft.md row: the short forms it gives and the complete moves
/// (Hub text, captured squares ascending).
fn assert_table_row(fen: &str, short: &[&str], hub: &[&str]) {
    let got = hub_moves(fen);
    let mut want_short: Vec<String> = short.iter().map(|s| s.to_string()).collect();
    want_short.sort();
    assert_eq!(short_forms(&got), want_short, "{fen}: short forms");
    let mut want: Vec<String> = hub.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(got, want, "{fen}: complete moves");
}

#[test]
fn international_table_men_move_forward_only() {
    assert_table_row("W:W28", &["28-22", "28-23"], &["28-22", "28-23"]);
}

#[test]
fn international_table_promotion_at_the_end_of_a_move() {
    assert_table_row("W:W8", &["8-2", "8-3"], &["8-2", "8-3"]);
    let pos = read_fen::<International>("W:W8").expect("FEN");
    for (mv, _) in legal_moves_text(&pos, MoveFormat::Hub) {
        assert!(mv.promotes);
        assert_eq!(pos.play(&mv).kings(W).count(), 1);
    }
}

#[test]
fn international_table_flying_king() {
    let tos = [
        5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33, 37, 39, 41, 44, 46, 50,
    ];
    let moves: Vec<String> = tos.iter().map(|t| format!("28-{t}")).collect();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    assert_eq!(moves.len(), 17);
    assert_table_row("W:WK28", &moves, &moves);
}

#[test]
fn international_table_king_may_land_on_any_square_behind() {
    assert_table_row(
        "W:WK46:B23",
        &["46x19", "46x14", "46x10", "46x5"],
        &["46x19x23", "46x14x23", "46x10x23", "46x5x23"],
    );
}

#[test]
fn international_table_several_final_landing_squares() {
    assert_table_row(
        "W:WK47:B9,12,33",
        &["47x17", "47x21", "47x26"],
        &["47x17x9x12x33", "47x21x9x12x33", "47x26x9x12x33"],
    );
}

#[test]
fn international_table_same_from_to_different_captured_set() {
    assert_table_row(
        "W:WK4:B13,32,37,20",
        &["4x15", "4x15"],
        &["4x15x13x20x32", "4x15x13x20x37"],
    );
}

#[test]
fn international_table_duplicate_paths_count_once() {
    assert_table_row("W:WK2:B7,8,17,18", &["2x2"], &["2x2x7x8x17x18"]);
}

#[test]
fn international_table_men_capture_backwards() {
    assert_table_row(
        "W:W35:B30,K40",
        &["35x24", "35x44"],
        &["35x24x30", "35x44x40"],
    );
}

#[test]
fn international_table_multi_capture_ending_on_last_row_crowns() {
    assert_table_row("W:W15:B8,19,20", &["15x2"], &["15x2x8x19x20"]);
    let pos = read_fen::<International>("W:W15:B8,19,20").expect("FEN");
    let mv = read_hub_move(&pos, "15x2x8x19x20").expect("legal");
    assert!(mv.promotes);
    assert_eq!(write_fen(&pos.play(&mv)), "B:WK2:B");
}

#[test]
fn international_table_passing_the_last_row_does_not_crown() {
    assert_table_row("W:W15:B9,10", &["15x13"], &["15x13x9x10"]);
    let pos = read_fen::<International>("W:W15:B9,10").expect("FEN");
    let mv = read_hub_move(&pos, "15x13x9x10").expect("legal");
    assert!(!mv.promotes);
    assert_eq!(write_fen(&pos.play(&mv)), "B:W13:B");
}

#[test]
fn international_table_turkish_strike() {
    assert_table_row(
        "W:WK41,49:B9,10,12,19,38",
        &["41x43"],
        &["41x43x9x12x19x38"],
    );
    assert_table_row("B:W27,28,38,39,42:BK25", &["25x33"], &["25x33x27x28x39x42"]);
}

#[test]
fn international_table_majority_counts_pieces_kings_not_worth_more() {
    assert_table_row("W:W48:B24,K31,34,K42,43", &["48x19"], &["48x19x24x34x43"]);
}

#[test]
fn international_table_majority_capture_by_a_king() {
    assert_table_row("W:WK48:B7,8,31,34,K42,44", &["48x50"], &["48x50x7x8x34x44"]);
}

#[test]
fn international_table_equal_majorities_free_choice() {
    assert_table_row(
        "W:W26:B12,K21,31,32",
        &["26x8", "26x28"],
        &["26x8x12x21", "26x28x31x32"],
    );
}
