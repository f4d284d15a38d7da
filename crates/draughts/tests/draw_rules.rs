//! The draw rules of `/work/shared/docs/rules.md`, checked through `GameHistory`
//! (`draw`, `outcome`, `counters`, `repetitions`) at the exact ply where each
//! draw arises, with the ply before it checked not to be a draw.
//!
//! International, Brazilian and Canadian draughts follow the FMJD rules:
//! threefold repetition, 25 moves each of kings only without capture, the
//! 16-move endgame (3 kings, 2 kings + 1 man, 1 king + 2 men against 1 king)
//! and the 5-move endgame (2 kings, 1 king + 1 man, 1 king against 1 king).
//! Russian draughts: threefold repetition, 30 moves each without capture,
//! and 3 kings against a lone king drawn after 18 moves of the strong side.
//!
//! Positions are written in algebraic squares in the bottom-left corner (a1
//! is dark on every board), so one check serves every variant. Long quiet
//! stretches are played by a deterministic walker that only makes quiet
//! moves of the requested kind into positions that never occurred before in
//! the game (so repetition cannot interfere) and that leave the opponent
//! without a capture.

use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, DrawReason, Geometry, International, Move, Outcome, Position,
    Rules, Russian, Word,
};
use tiao_draughts::movegen::{MoveList, generate, has_capture};
use tiao_draughts::notation::write_fen;
use tiao_draughts::record::GameHistory;

const W: Colour = Colour::White;
const B: Colour = Colour::Black;

// ---------------------------------------------------------------------------
// Positions and moves in algebraic squares

fn size<R: Rules>() -> i32 {
    R::Geometry::SIZE as i32
}

fn coords(name: &str) -> (i32, i32) {
    let file = name.chars().next().expect("square name") as i32 - 'a' as i32;
    let rank: i32 = name[1..]
        .parse()
        .unwrap_or_else(|_| panic!("bad square {name:?}"));
    (file, rank)
}

fn bit<R: Rules>(name: &str) -> u32 {
    let (file, rank) = coords(name);
    R::Geometry::bit_at(size::<R>() - rank, file)
        .unwrap_or_else(|| panic!("{name} is not a dark square of the {:?} board", R::VARIANT))
}

fn name<R: Rules>(bit: u32) -> String {
    let (row, file) = R::Geometry::row_file(bit);
    let letter = char::from_u32('a' as u32 + file).unwrap_or('?');
    format!("{letter}{}", R::Geometry::SIZE - row)
}

/// `"Ka1 c1"` turned half a turn with the board.
fn mirror<R: Rules>(pieces: &str) -> String {
    let n = size::<R>();
    pieces
        .split_whitespace()
        .map(|p| {
            let (k, sq) = match p.strip_prefix('K') {
                Some(sq) => ("K", sq),
                None => ("", p),
            };
            let (file, rank) = coords(sq);
            let letter = char::from_u32(('a' as i32 + n - 1 - file) as u32).unwrap_or('?');
            format!("{k}{letter}{}", n + 1 - rank)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn setup<R: Rules>(side: Colour, white: &str, black: &str) -> Position<R> {
    let mut sets = [[Word::<R>::ZERO; 2]; 2];
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

/// The colour-mirrored twin of a position: the same game with colours swapped.
fn setup_mirrored<R: Rules>(side: Colour, white: &str, black: &str) -> Position<R> {
    setup::<R>(!side, &mirror::<R>(black), &mirror::<R>(white))
}

fn legal<R: Rules>(pos: &Position<R>) -> Vec<Move<Word<R>>> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list.to_vec()
}

/// Plays the quiet move `from-to` (algebraic), which must be legal.
fn play<R: Rules>(game: &mut GameHistory<R>, text: &str) {
    let (from, to) = text.split_once('-').expect("from-to");
    let (from, to) = (bit::<R>(from), bit::<R>(to));
    let pos = *game.position();
    let mv = legal(&pos)
        .into_iter()
        .find(|m| m.from_bit() == from && m.to_bit() == to)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", write_fen(&pos)));
    game.play(mv);
}

fn ply<R: Rules>(game: &GameHistory<R>) -> usize {
    game.moves().len()
}

// ---------------------------------------------------------------------------
// The walker

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A quiet king move leaving the opponent no capture.
    King,
    /// A quiet man move leaving the opponent no capture.
    Man,
    /// A quiet king move after which the opponent has a capture.
    Offer,
    /// A capture (the first legal one).
    Capture,
}

/// Quiet moves of the side to move by kings (or by men) into positions not
/// in `seen`, after which the opponent has no capture.
fn safe_moves<R: Rules>(pos: &Position<R>, seen: &[u64], kings: bool) -> Vec<Move<Word<R>>> {
    if has_capture(pos) {
        return Vec::new();
    }
    legal(pos)
        .into_iter()
        .filter(|m| pos.kings(pos.side()).has(m.from_bit()) == kings)
        .filter(|m| {
            let after = pos.play(m);
            !seen.contains(&after.hash()) && !has_capture(&after)
        })
        .collect()
}

/// Whether the side to move in `pos` has a safe king move after which the
/// opponent has one too (so the walk can go on).
fn can_go_on<R: Rules>(pos: &Position<R>, seen: &mut Vec<u64>) -> bool {
    safe_moves(pos, seen, true).iter().any(|m| {
        let after = pos.play(m);
        seen.push(after.hash());
        let ok = !safe_moves(&after, seen, true).is_empty();
        seen.pop();
        ok
    })
}

/// Plays one move of `kind`, into a position that has not occurred before in
/// the game. Deterministic: the choice depends only on the game so far.
fn step<R: Rules>(game: &mut GameHistory<R>, kind: Kind) {
    let pos = *game.position();
    let moves = legal(&pos);
    let them = !pos.side();
    if kind == Kind::Capture {
        // Preferably one after which the opponent still has a king and no capture.
        let captures: Vec<&Move<Word<R>>> = moves.iter().filter(|m| m.is_capture()).collect();
        let mv = captures
            .iter()
            .find(|m| {
                let after = pos.play(m);
                !has_capture(&after) && after.kings(them).any()
            })
            .or(captures.first())
            .unwrap_or_else(|| panic!("no capture in {}", write_fen(&pos)));
        game.play(**mv);
        return;
    }
    assert!(
        !has_capture(&pos),
        "ply {}: the side to move must capture in {}",
        ply(game),
        write_fen(&pos)
    );
    let mut seen: Vec<u64> = game.positions().iter().map(|p| p.hash()).collect();
    let candidates: Vec<Move<Word<R>>> = if kind == Kind::Offer {
        // A king move after which every capture of the opponent takes
        // exactly one piece.
        moves
            .into_iter()
            .filter(|m| pos.kings(pos.side()).has(m.from_bit()))
            .filter(|m| {
                let after = pos.play(m);
                let replies = legal(&after);
                !seen.contains(&after.hash())
                    && has_capture(&after)
                    && replies.iter().all(|c| c.capture_count() == 1)
                    && replies.iter().any(|c| {
                        let taken = after.play(c);
                        !has_capture(&taken)
                            && taken.kings(pos.side()).any()
                            && can_go_on(&taken, &mut seen.clone())
                    })
            })
            .collect()
    } else {
        safe_moves(&pos, &seen, kind == Kind::King)
            .into_iter()
            .filter(|m| {
                let after = pos.play(m);
                seen.push(after.hash());
                let ok = can_go_on(&after, &mut seen);
                seen.pop();
                ok
            })
            .collect()
    };
    assert!(
        !candidates.is_empty(),
        "ply {}: no {kind:?} move in {}",
        ply(game),
        write_fen(&pos)
    );
    let i = (ply(game) * 7 + 3) % candidates.len();
    game.play(candidates[i]);
}

/// Plays `n` moves of `kind`, checking after each that the game goes on.
fn steps_undrawn<R: Rules>(game: &mut GameHistory<R>, n: usize, kind: Kind) {
    for _ in 0..n {
        step(game, kind);
        assert_eq!(
            game.draw(),
            None,
            "{:?}: drawn too early, at ply {} ({}), counters {:?}",
            R::VARIANT,
            ply(game),
            write_fen(game.position()),
            game.counters()
        );
        assert_eq!(game.outcome(), None, "ply {}", ply(game));
    }
}

/// Asserts that the game is drawn for `reason` now, at ply `at`.
fn assert_drawn<R: Rules>(game: &GameHistory<R>, at: usize, reason: DrawReason) {
    assert_eq!(ply(game), at, "the test itself miscounted plies");
    assert_eq!(
        game.draw(),
        Some(reason),
        "{:?}: not drawn at ply {at} ({}), counters {:?}",
        R::VARIANT,
        write_fen(game.position()),
        game.counters()
    );
    assert_eq!(game.outcome(), Some(Outcome::Draw(reason)));
}

/// Plays king moves up to ply `at - 1` (not drawn), then one more: drawn.
fn draw_exactly_at<R: Rules>(game: &mut GameHistory<R>, at: usize, reason: DrawReason) {
    let before = at - 1 - ply(game);
    steps_undrawn(game, before, Kind::King);
    step(game, Kind::King);
    assert_drawn(game, at, reason);
}

/// Instantiates a generic check for the named variants.
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

// Material of the no-progress tests: two kings and two men each, men on
// edges (they cannot be taken), so no endgame rule applies.
const WHITE_MIDDLEGAME: &str = "Kc3 Kg3 c1 e1";
const BLACK_MIDDLEGAME: &str = "Ke7 Kf8 a5 a7";

// ---------------------------------------------------------------------------
// Threefold repetition (every variant)

/// The same position with the same side to move for the third time is a
/// draw; the second time is not.
fn threefold_repetition<R: Rules>() {
    let start = setup::<R>(W, "Ka1 h2", "Kd8 b8");
    let mut game = GameHistory::new(start);
    assert_eq!(game.repetitions(), 1);
    let cycle = ["a1-b2", "d8-e7", "b2-a1", "e7-d8"];
    for (i, mv) in cycle.iter().chain(cycle.iter()).enumerate() {
        play(&mut game, mv);
        let plies = i + 1;
        if plies < 8 {
            assert_eq!(game.draw(), None, "ply {plies}");
            assert_eq!(game.outcome(), None, "ply {plies}");
        }
        if plies == 4 {
            // Second occurrence: not yet a draw.
            assert_eq!(*game.position(), start);
            assert_eq!(game.repetitions(), 2);
        }
    }
    assert_eq!(game.repetitions(), 3);
    assert_drawn(&game, 8, DrawReason::Repetition);
}
for_variants!(threefold_repetition:
    international_threefold_repetition => International,
    brazilian_threefold_repetition => Brazilian,
    russian_threefold_repetition => Russian,
    canadian_threefold_repetition => Canadian,
);

/// Only occurrences with the same side to move count: the white king goes
/// round a three-move cycle, the black king a two-move one, so the pieces
/// stand as at the start with Black to move at ply 5; the start position
/// itself recurs at plies 12 and 24, and only ply 24 is a draw.
fn repetition_needs_the_same_side_to_move<R: Rules>() {
    let start = setup::<R>(W, "Ka1 h2", "Kd8 b8");
    let mut game = GameHistory::new(start);
    let white = ["a1-c3", "c3-b2", "b2-a1"];
    let black = ["d8-e7", "e7-d8"];
    for plies in 1..=24 {
        let mv = if plies % 2 == 1 {
            white[(plies / 2) % 3]
        } else {
            black[(plies / 2 - 1) % 2]
        };
        play(&mut game, mv);
        if plies == 5 {
            assert_eq!(game.position().with_side(W), start, "same pieces");
            assert_eq!(game.repetitions(), 1);
        }
        if plies == 12 {
            assert_eq!(*game.position(), start);
            assert_eq!(game.repetitions(), 2);
        }
        if plies < 24 {
            assert_eq!(game.draw(), None, "ply {plies}");
        }
    }
    assert_eq!(*game.position(), start);
    assert_drawn(&game, 24, DrawReason::Repetition);
}
for_variants!(repetition_needs_the_same_side_to_move:
    international_repetition_needs_the_same_side_to_move => International,
    brazilian_repetition_needs_the_same_side_to_move => Brazilian,
    russian_repetition_needs_the_same_side_to_move => Russian,
    canadian_repetition_needs_the_same_side_to_move => Canadian,
);

/// Counting starts afresh after an irreversible move: the start position
/// occurs twice, then a man moves; the position after the man move needs
/// three occurrences of its own.
fn repetitions_across_an_irreversible_move_do_not_count<R: Rules>() {
    let start = setup::<R>(W, "Ka1 h2", "Kd8 b8");
    let mut game = GameHistory::new(start);
    for mv in ["a1-b2", "d8-e7", "b2-a1", "e7-d8"] {
        play(&mut game, mv);
    }
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "h2-g3");
    let after_man_move = *game.position();
    assert_eq!(game.repetitions(), 1);
    assert_eq!(game.counters().reversible, 0);
    let cycle = ["d8-e7", "a1-b2", "e7-d8", "b2-a1"];
    for (i, mv) in cycle.iter().chain(cycle.iter()).enumerate() {
        play(&mut game, mv);
        let plies = 5 + i + 1;
        if plies < 13 {
            assert_eq!(game.draw(), None, "ply {plies}");
        }
        if plies == 9 {
            assert_eq!(*game.position(), after_man_move);
            assert_eq!(game.repetitions(), 2);
        }
    }
    assert_eq!(game.repetitions(), 3);
    assert_drawn(&game, 13, DrawReason::Repetition);
}
for_variants!(repetitions_across_an_irreversible_move_do_not_count:
    international_repetitions_across_an_irreversible_move_do_not_count => International,
    brazilian_repetitions_across_an_irreversible_move_do_not_count => Brazilian,
    russian_repetitions_across_an_irreversible_move_do_not_count => Russian,
    canadian_repetitions_across_an_irreversible_move_do_not_count => Canadian,
);

// ---------------------------------------------------------------------------
// FMJD no-progress rule: 25 moves each of kings only, without capture

/// 50 plies of king moves without capture are a draw; 49 are not.
fn fmjd_25_king_moves_each_without_capture<R: Rules>() {
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 49, Kind::King);
    assert_eq!(game.counters().quiet, 49);
    step(&mut game, Kind::King);
    assert_drawn(&game, 50, DrawReason::NoProgress);
    // The same with Black moving first (colours mirrored).
    let mut game = GameHistory::new(setup_mirrored::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    draw_exactly_at(&mut game, 50, DrawReason::NoProgress);
}

/// A man move resets the count: 30 king plies, a man move, then 50 more
/// king plies are needed.
fn fmjd_25_move_rule_reset_by_a_man_move<R: Rules>() {
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 30, Kind::King);
    steps_undrawn(&mut game, 1, Kind::Man);
    assert_eq!(game.counters().quiet, 0);
    draw_exactly_at(&mut game, 31 + 50, DrawReason::NoProgress);
}

/// A capture resets the count: 41 king plies, a black king offered, taken
/// at ply 43; the draw comes 50 plies later.
fn fmjd_25_move_rule_reset_by_a_capture<R: Rules>() {
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 41, Kind::King);
    steps_undrawn(&mut game, 1, Kind::Offer);
    steps_undrawn(&mut game, 1, Kind::Capture);
    assert_eq!(game.counters().quiet, 0);
    assert!(game.position().kings(B).any() && game.position().men(B).any());
    draw_exactly_at(&mut game, 43 + 50, DrawReason::NoProgress);
}

for_variants!(fmjd_25_king_moves_each_without_capture:
    international_25_king_moves_each_without_capture_draw => International,
    brazilian_25_king_moves_each_without_capture_draw => Brazilian,
    canadian_25_king_moves_each_without_capture_draw => Canadian,
);
for_variants!(fmjd_25_move_rule_reset_by_a_man_move:
    international_25_move_rule_reset_by_a_man_move => International,
    brazilian_25_move_rule_reset_by_a_man_move => Brazilian,
    canadian_25_move_rule_reset_by_a_man_move => Canadian,
);
for_variants!(fmjd_25_move_rule_reset_by_a_capture:
    international_25_move_rule_reset_by_a_capture => International,
    brazilian_25_move_rule_reset_by_a_capture => Brazilian,
    canadian_25_move_rule_reset_by_a_capture => Canadian,
);

// ---------------------------------------------------------------------------
// FMJD endgame rules

/// 3 kings, 2 kings + 1 man or 1 king + 2 men against 1 king: drawn when
/// each player has made 16 more moves (32 plies), whoever moves first.
fn fmjd_16_move_endgame<R: Rules>() {
    for white in ["Ka1 Kc1 Ke1", "Ka1 Kc1 e1", "Ka1 c1 e1"] {
        for side in [W, B] {
            let mut game = GameHistory::new(setup::<R>(side, white, "Kd8"));
            draw_exactly_at(&mut game, 32, DrawReason::Endgame);
            // Black the strong side.
            let mut game = GameHistory::new(setup_mirrored::<R>(side, white, "Kd8"));
            draw_exactly_at(&mut game, 32, DrawReason::Endgame);
        }
    }
}

/// The 16 moves count from the moment the material arises: here from the
/// capture of Black's last man at ply 1.
fn fmjd_16_move_endgame_counts_from_when_the_material_arises<R: Rules>() {
    let mut game = GameHistory::new(setup::<R>(W, "Ka1 Kc1 Ke1", "Ka7 b2"));
    steps_undrawn(&mut game, 1, Kind::Capture);
    assert_eq!(game.position().pieces(B).count(), 1);
    draw_exactly_at(&mut game, 1 + 32, DrawReason::Endgame);
}

/// 2 kings, 1 king + 1 man or 1 king against 1 king: drawn when each player
/// has made 5 more moves (10 plies).
fn fmjd_5_move_endgame<R: Rules>() {
    for white in ["Ka1 Kc1", "Ka1 c1", "Ka1"] {
        for side in [W, B] {
            let mut game = GameHistory::new(setup::<R>(side, white, "Kd8"));
            draw_exactly_at(&mut game, 10, DrawReason::Endgame);
            let mut game = GameHistory::new(setup_mirrored::<R>(side, white, "Kd8"));
            draw_exactly_at(&mut game, 10, DrawReason::Endgame);
        }
    }
}

/// From 3 kings against 1 the lone king takes a king at ply 18: the 5-move
/// rule now applies, counted from that capture (draw at ply 28, not before).
fn fmjd_5_move_endgame_counts_afresh_after_a_capture<R: Rules>() {
    let mut game = GameHistory::new(setup::<R>(W, "Ka1 Kc1 Ke1", "Kd8"));
    steps_undrawn(&mut game, 16, Kind::King);
    steps_undrawn(&mut game, 1, Kind::Offer);
    steps_undrawn(&mut game, 1, Kind::Capture);
    let white = game.position().pieces(W).count();
    assert!(white == 2 || white == 1, "{}", write_fen(game.position()));
    draw_exactly_at(&mut game, 18 + 10, DrawReason::Endgame);
}

for_variants!(fmjd_16_move_endgame:
    international_16_move_endgame => International,
    brazilian_16_move_endgame => Brazilian,
    canadian_16_move_endgame => Canadian,
);
for_variants!(fmjd_16_move_endgame_counts_from_when_the_material_arises:
    international_16_move_endgame_counts_from_when_the_material_arises => International,
    brazilian_16_move_endgame_counts_from_when_the_material_arises => Brazilian,
    canadian_16_move_endgame_counts_from_when_the_material_arises => Canadian,
);
for_variants!(fmjd_5_move_endgame:
    international_5_move_endgame => International,
    brazilian_5_move_endgame => Brazilian,
    canadian_5_move_endgame => Canadian,
);
for_variants!(fmjd_5_move_endgame_counts_afresh_after_a_capture:
    international_5_move_endgame_counts_afresh_after_a_capture => International,
    brazilian_5_move_endgame_counts_afresh_after_a_capture => Brazilian,
    canadian_5_move_endgame_counts_afresh_after_a_capture => Canadian,
);

/// Material outside the endgame rules (4 kings, or a lone king against a
/// king and a man) is not drawn by them: 40 plies go by.
fn fmjd_endgame_rules_need_a_lone_king<R: Rules>() {
    for (white, black) in [("Ka1 Kc1 Ke1 Kg1", "Kd8"), ("Ka1 Kc1", "Kd8 a7")] {
        let mut game = GameHistory::new(setup::<R>(W, white, black));
        steps_undrawn(&mut game, 40, Kind::King);
    }
}
for_variants!(fmjd_endgame_rules_need_a_lone_king:
    international_endgame_rules_need_a_lone_king => International,
    brazilian_endgame_rules_need_a_lone_king => Brazilian,
    canadian_endgame_rules_need_a_lone_king => Canadian,
);

// ---------------------------------------------------------------------------
// Russian draw rules

/// 30 moves each (60 plies) without a capture are a draw; 59 are not.
#[test]
fn russian_30_moves_each_without_capture() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 59, Kind::King);
    assert_eq!(game.counters().quiet, 59);
    step(&mut game, Kind::King);
    assert_drawn(&game, 60, DrawReason::NoProgress);
}

/// Man moves do not reset the Russian count (only captures do).
#[test]
fn russian_30_move_rule_not_reset_by_a_man_move() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 30, Kind::King);
    steps_undrawn(&mut game, 1, Kind::Man);
    steps_undrawn(&mut game, 1, Kind::Man);
    assert_eq!(game.counters().quiet, 32);
    draw_exactly_at(&mut game, 60, DrawReason::NoProgress);
}

/// A capture resets the Russian count.
#[test]
fn russian_30_move_rule_reset_by_a_capture() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 41, Kind::King);
    steps_undrawn(&mut game, 1, Kind::Offer);
    steps_undrawn(&mut game, 1, Kind::Capture);
    assert_eq!(game.counters().quiet, 0);
    draw_exactly_at(&mut game, 43 + 60, DrawReason::NoProgress);
}

/// The FMJD no-progress count does not apply in Russian draughts: 50 plies
/// of king moves are not a draw there.
#[test]
fn russian_no_fmjd_25_move_rule() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, WHITE_MIDDLEGAME, BLACK_MIDDLEGAME));
    steps_undrawn(&mut game, 55, Kind::King);
}

/// Three kings against a lone king: drawn when the strong side has made 18
/// moves without taking the king. Strong side to move: its 18th move is ply
/// 35; lone king to move: ply 36.
#[test]
fn russian_3_kings_against_a_lone_king_18_moves() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, "Ka1 Kc1 Ke1", "Kd8"));
    draw_exactly_at(&mut game, 35, DrawReason::Endgame);
    let mut game = GameHistory::new(setup::<R>(B, "Ka1 Kc1 Ke1", "Kd8"));
    draw_exactly_at(&mut game, 36, DrawReason::Endgame);
    // Black the strong side: to move first (ply 35), or second (ply 36).
    let mut game = GameHistory::new(setup_mirrored::<R>(W, "Ka1 Kc1 Ke1", "Kd8"));
    assert_eq!(game.position().side(), B);
    draw_exactly_at(&mut game, 35, DrawReason::Endgame);
    let mut game = GameHistory::new(setup_mirrored::<R>(B, "Ka1 Kc1 Ke1", "Kd8"));
    draw_exactly_at(&mut game, 36, DrawReason::Endgame);
}

/// The 18 moves count after the material first arises: White takes Black's
/// last man at ply 1; White's 18th move after that is ply 37.
#[test]
fn russian_3_kings_against_a_lone_king_counts_from_when_the_material_arises() {
    type R = Russian;
    let mut game = GameHistory::new(setup::<R>(W, "Ka1 Kc1 Ke1", "Ka7 b2"));
    steps_undrawn(&mut game, 1, Kind::Capture);
    assert_eq!(game.position().pieces(B).count(), 1);
    draw_exactly_at(&mut game, 37, DrawReason::Endgame);
}

/// The FMJD endgame rules do not apply in Russian draughts: 2 kings, a king
/// and a man, a king against a lone king, or 2 kings and a man against it,
/// play on (40 plies, well short of the 60-ply rule).
#[test]
fn russian_no_fmjd_endgame_rules() {
    type R = Russian;
    for white in ["Ka1 Kc1", "Ka1 c1", "Ka1", "Ka1 Kc1 e1", "Ka1 c1 e1"] {
        let mut game = GameHistory::new(setup::<R>(W, white, "Kd8"));
        steps_undrawn(&mut game, 40, Kind::King);
    }
}

/// Names of the squares of a position, for messages (keeps `name` used).
#[test]
fn square_names_round_trip() {
    fn check<R: Rules>() {
        for b in (0..R::Geometry::SQUARES).map(R::Geometry::bit_of) {
            assert_eq!(bit::<R>(&name::<R>(b)), b);
        }
    }
    check::<International>();
    check::<Brazilian>();
    check::<Russian>();
    check::<Canadian>();
}
