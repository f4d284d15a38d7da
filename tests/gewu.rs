//! Gewu: one test per rule of `docs/gewu.md`, the free form solved
//! exhaustively through its `Game` implementation, the expectimax search on
//! small positions whose values are worked out by hand, text round trips,
//! bad input, and whole games against a random mover.

use std::collections::{HashMap, HashSet};
use tiao::board::Colour;
use tiao::game::{Evaluate, Game, Verdict};
use tiao::gewu::{
    CELLS, Expectimax, GewuDrawReason, GewuEval, GewuMove, GewuMoveList, GewuOutcome, GewuPosition,
    GewuWinReason, RandomMover, TURN_LIMIT, Throw, diagram, from_fen, move_text, parse_move,
    parse_throw, parse_throw_move, play_game, play_throw_game, to_fen, turn_text,
};

/// A position from 1-based cell numbers.
fn at(side: Colour, white: &[u32], black: &[u32]) -> GewuPosition {
    let bits = |cells: &[u32]| cells.iter().fold(0u32, |acc, &c| acc | 1 << (c - 1));
    GewuPosition::new(bits(white), bits(black), side).expect("valid test position")
}

/// A move from 1-based cells.
fn mv(from: u8, to: u8) -> GewuMove {
    GewuMove {
        from: from - 1,
        to: to - 1,
    }
}

fn free_moves(pos: &GewuPosition) -> Vec<GewuMove> {
    let mut list = GewuMoveList::new();
    pos.generate(&mut list);
    list.to_vec()
}

fn throw_moves(pos: &GewuPosition, t: Throw) -> Vec<GewuMove> {
    let mut list = GewuMoveList::new();
    pos.throw_moves(t, &mut list);
    list.to_vec()
}

// ---------------------------------------------------------------- §1–2 setup, goal

#[test]
fn start_has_five_pieces_each_at_the_ends_of_a_19_cell_track_white_first() {
    let p = GewuPosition::start();
    assert_eq!(CELLS, 19);
    assert_eq!(to_fen(&p), "W:WWWWW.........BBBBB");
    assert_eq!(p.side(), Colour::White);
    assert_eq!(p.pieces(Colour::White).count_ones(), 5);
    assert_eq!(p.pieces(Colour::Black).count_ones(), 5);
    assert_eq!(p.result(), None);
}

#[test]
fn entering_any_cell_of_the_enemy_home_wins_at_once() {
    // White on 14 steps to 15, the first cell of Black's home.
    let p = at(Colour::White, &[14], &[6]);
    let after = p.play(&mv(14, 15));
    assert_eq!(
        after.result(),
        Some(GewuOutcome::Win {
            winner: Colour::White,
            reason: GewuWinReason::EnteredHome
        })
    );
    assert_eq!(after.rule_verdict(&()), Some(Verdict::Loss));
    // Black on 6 steps to 5, the first cell of White's home.
    let p = at(Colour::Black, &[10], &[6]);
    assert_eq!(
        p.play(&mv(6, 5)).result(),
        Some(GewuOutcome::Win {
            winner: Colour::Black,
            reason: GewuWinReason::EnteredHome
        })
    );
    // Entering by a jump counts too: White 13 over Black 14 to 15.
    let p = at(Colour::White, &[13], &[14]);
    assert!(free_moves(&p).contains(&mv(13, 15)));
    assert_eq!(
        p.play(&mv(13, 15)).result(),
        Some(GewuOutcome::Win {
            winner: Colour::White,
            reason: GewuWinReason::EnteredHome
        })
    );
    // A composed position with the winner to move is a win for him.
    let p = at(Colour::White, &[16], &[10]);
    assert_eq!(p.rule_verdict(&()), Some(Verdict::Win));
}

// ---------------------------------------------------------------- §3 the unit move

#[test]
fn pieces_step_only_forward_to_an_empty_cell() {
    let p = GewuPosition::start();
    assert_eq!(free_moves(&p), vec![mv(5, 6)]);
    let p = p.play(&mv(5, 6));
    assert_eq!(free_moves(&p), vec![mv(15, 14)]);
    // A lone piece has exactly one move, forward.
    let p = at(Colour::White, &[10], &[18]);
    assert_eq!(free_moves(&p), vec![mv(10, 11)]);
}

#[test]
fn a_piece_jumps_an_adjacent_enemy_onto_the_empty_cell_beyond() {
    let p = at(Colour::White, &[8], &[9, 17]);
    assert_eq!(free_moves(&p), vec![mv(8, 10)]);
    let p = at(Colour::Black, &[8, 2], &[9]);
    assert_eq!(free_moves(&p), vec![mv(9, 7)]);
}

#[test]
fn own_pieces_are_never_jumped() {
    let p = at(Colour::White, &[8, 9], &[16]);
    assert_eq!(free_moves(&p), vec![mv(9, 10)]);
    assert_eq!(p.unit_move(Colour::White, 7), None); // cell 8, behind cell 9
}

#[test]
fn two_enemy_pieces_side_by_side_cannot_be_jumped() {
    let p = at(Colour::White, &[8], &[9, 10]);
    assert_eq!(p.unit_move(Colour::White, 7), None);
    assert_eq!(free_moves(&p), vec![GewuMove::PASS]);
}

#[test]
fn a_jump_needs_the_cell_beyond_on_the_track() {
    // White on 18 facing Black on 19 (a composed, finished position: only
    // the unit move itself is looked at).
    let p = at(Colour::White, &[18], &[19]);
    assert_eq!(p.unit_move(Colour::White, 17), None);
    let p = at(Colour::Black, &[1], &[2]);
    assert_eq!(p.unit_move(Colour::Black, 1), None);
}

#[test]
fn a_jump_captures_nothing() {
    let p = at(Colour::White, &[8], &[9, 17]);
    let after = p.play(&mv(8, 10));
    assert_eq!(after.pieces(Colour::Black), p.pieces(Colour::Black));
    assert_eq!(after.piece_at(9), Some(Colour::White)); // cell 10
    assert_eq!(after.piece_at(7), None);
}

#[test]
fn jumping_is_never_compulsory() {
    // White may jump 8 over 9, or step 3 to 4 instead.
    let p = at(Colour::White, &[3, 8], &[9]);
    assert_eq!(free_moves(&p), vec![mv(3, 4), mv(8, 10)]);
}

// ---------------------------------------------------------------- §4 free form

#[test]
fn free_form_one_unit_move_per_turn_so_jumps_never_chain() {
    // 8 over 9 to 10; a second jump over 11 to 12 would be a second move.
    let p = at(Colour::White, &[8], &[9, 11]);
    assert_eq!(free_moves(&p), vec![mv(8, 10)]);
}

#[test]
fn a_player_with_no_unit_move_passes() {
    // White's pieces all blocked (8 faces two Black pieces, 7 is behind
    // 8); Black can still move 16.
    let p = at(Colour::White, &[7, 8], &[9, 10, 16]);
    assert_eq!(free_moves(&p), vec![GewuMove::PASS]);
    assert_eq!(p.result(), None);
    let after = p.play(&GewuMove::PASS);
    assert_eq!(after.side(), Colour::Black);
    assert_eq!(after.pieces(Colour::White), p.pieces(Colour::White));
    assert_eq!(after.pieces(Colour::Black), p.pieces(Colour::Black));
    assert_eq!(free_moves(&after), vec![mv(16, 15)]);
}

// ---------------------------------------------------------------- §6 end

#[test]
fn a_deadlock_where_neither_side_can_move_is_a_draw() {
    let p = from_fen("W:....WWWWWBBBBB.....").expect("valid");
    assert!(!p.can_move(Colour::White) && !p.can_move(Colour::Black));
    assert_eq!(
        p.result(),
        Some(GewuOutcome::Draw(GewuDrawReason::Deadlock))
    );
    assert_eq!(p.rule_verdict(&()), Some(Verdict::Draw));
    let rec = play_game(
        p,
        RandomMover::new(1).player(),
        RandomMover::new(2).player(),
    );
    assert_eq!(rec.outcome, GewuOutcome::Draw(GewuDrawReason::Deadlock));
    assert!(rec.turns.is_empty());
}

#[test]
fn positions_never_repeat_and_free_games_end_within_223_plies() {
    const { assert!(!GewuPosition::REPETITION_DRAWS) };
    for seed in 0..200u64 {
        let rec = play_game(
            GewuPosition::start(),
            RandomMover::new(seed).player(),
            RandomMover::new(seed ^ 0xABCD).player(),
        );
        assert!(rec.turns.len() <= 223, "{} plies", rec.turns.len());
        assert!(matches!(
            rec.outcome,
            GewuOutcome::Win {
                reason: GewuWinReason::EnteredHome,
                ..
            } | GewuOutcome::Draw(GewuDrawReason::Deadlock)
        ));
        let mut pos = rec.start;
        let mut seen = HashSet::new();
        for (_, m) in &rec.turns {
            assert!(seen.insert(pos.hash()), "a position repeated");
            pos = pos.play(m);
        }
        assert_eq!(pos, rec.final_position);
    }
}

/// Exact value of the free form for the side to move (1 win, 0 draw, -1
/// loss), by negamax over the `Game` implementation.
fn solve(pos: &GewuPosition, memo: &mut HashMap<u64, i8>) -> i8 {
    if let Some(v) = pos.rule_verdict(&()) {
        return match v {
            Verdict::Win => 1,
            Verdict::Draw => 0,
            Verdict::Loss => -1,
        };
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let mut list = GewuMoveList::new();
    Game::generate(pos, &mut list);
    let best = list
        .iter()
        .map(|m| -solve(&Game::play(pos, m), memo))
        .max()
        .unwrap_or(0);
    memo.insert(pos.hash(), best);
    best
}

#[test]
fn free_form_start_is_a_draw_with_perfect_play() {
    let mut memo = HashMap::new();
    assert_eq!(solve(&GewuPosition::start(), &mut memo), 0);
    // Sanity: a position where White is one step from Black's home wins.
    assert_eq!(solve(&at(Colour::White, &[14], &[10]), &mut memo), 1);
    // And one where Black will certainly get there first loses.
    assert_eq!(solve(&at(Colour::White, &[3], &[6]), &mut memo), -1);
}

// ---------------------------------------------------------------- §5 throw form

#[test]
fn throw_faces_move_one_two_three_or_lose_the_turn() {
    let p = GewuPosition::start();
    assert_eq!(throw_moves(&p, Throw::Sai), vec![mv(5, 6)]);
    assert_eq!(throw_moves(&p, Throw::Bai), vec![mv(5, 7)]);
    assert_eq!(throw_moves(&p, Throw::Hei), vec![mv(5, 8)]);
    assert_eq!(throw_moves(&p, Throw::Wu), vec![GewuMove::PASS]);
    assert_eq!(Throw::ALL.map(Throw::units), [1, 2, 3, 0]);
}

#[test]
fn a_throw_moves_one_piece_all_its_units_and_a_jump_counts_as_one() {
    // 白: White 8 jumps 9 to 10, then steps to 11. 黑: then to 12.
    let p = at(Colour::White, &[8], &[9, 17]);
    assert_eq!(throw_moves(&p, Throw::Bai), vec![mv(8, 11)]);
    assert_eq!(throw_moves(&p, Throw::Hei), vec![mv(8, 12)]);
    // Several pieces: each may be chosen, but only one moves.
    let p = at(Colour::White, &[2, 8], &[9, 17]);
    assert_eq!(throw_moves(&p, Throw::Sai), vec![mv(2, 3), mv(8, 10)]);
    let after = p.play(&mv(8, 10));
    assert_eq!(after.piece_at(1), Some(Colour::White)); // cell 2 stayed
}

#[test]
fn a_throw_that_no_piece_can_use_in_full_loses_the_turn() {
    // White 8 can make one unit (to 9) but not two: 白 and 黑 lose the turn.
    let p = at(Colour::White, &[8], &[10, 11]);
    assert_eq!(throw_moves(&p, Throw::Sai), vec![mv(8, 9)]);
    assert_eq!(throw_moves(&p, Throw::Bai), vec![GewuMove::PASS]);
    assert_eq!(throw_moves(&p, Throw::Hei), vec![GewuMove::PASS]);
    let after = p.play(&GewuMove::PASS);
    assert_eq!(
        (after.side(), after.pieces(Colour::White)),
        (Colour::Black, p.pieces(Colour::White))
    );
}

#[test]
fn a_throw_stops_early_when_the_piece_enters_the_enemy_home() {
    // 黑 from 13: 14, then 15 (Black's home): the third unit is not needed.
    let p = at(Colour::White, &[13], &[6]);
    assert_eq!(throw_moves(&p, Throw::Hei), vec![mv(13, 15)]);
    assert_eq!(
        p.play(&mv(13, 15)).result(),
        Some(GewuOutcome::Win {
            winner: Colour::White,
            reason: GewuWinReason::EnteredHome
        })
    );
}

#[test]
fn the_four_faces_are_equally_likely() {
    assert_eq!(Throw::PROBABILITY * 4.0, 1.0);
    let mut rng = RandomMover::new(5);
    let mut counts = HashMap::new();
    let n = 40_000;
    for _ in 0..n {
        *counts.entry(rng.throw()).or_insert(0) += 1;
    }
    for t in Throw::ALL {
        let share = f64::from(counts[&t]) / f64::from(n);
        assert!((share - 0.25).abs() < 0.01, "{t}: {share}");
    }
}

// ---------------------------------------------------------------- expectimax

/// A leaf evaluation of 0 everywhere, so that values are pure win
/// probabilities and can be worked out by hand.
struct Zero;
impl Evaluate<GewuPosition> for Zero {
    type State = ();

    fn evaluate(&self, _: &GewuPosition) -> i32 {
        0
    }
}

#[test]
fn expectimax_value_of_a_small_race_matches_the_hand_computation() {
    // White: one piece on 12, 3 units from Black's home (15).
    // Black: one piece on 6, 1 unit from White's home (5). White to throw.
    let p = at(Colour::White, &[12], &[6]);
    let mut search = Expectimax::new(Zero);

    // Depth 1 (White's turn, then leaves worth tanh(0) = 0):
    //   黑 (1/4): 12-15 wins            -> +1
    //   塞, 白, 五 (3/4): no win yet     ->  0
    //   V1 = 1/4 = 0.25
    assert!((search.value(&p, 1) - 0.25).abs() < 1e-12);

    // Depth 2 (White's turn, then Black's, then leaves worth 0):
    //   Black, at his turn, wins with any of 塞, 白, 黑 (his piece enters 5
    //   with its first unit and stops), and on 五 reaches a leaf (0):
    //   Black's value = 3/4 * 1 + 1/4 * 0 = 3/4, so White's = -3/4.
    //   White's throw:
    //     黑 (1/4): wins                                -> +1
    //     塞 (1/4): 12-13, then Black's turn            -> -3/4
    //     白 (1/4): 12-14, then Black's turn            -> -3/4
    //     五 (1/4): turn lost, then Black's turn         -> -3/4
    //   V2 = 1/4 * 1 + 3/4 * (-3/4) = 4/16 - 9/16 = -5/16 = -0.3125
    assert!((search.value(&p, 2) - (-0.3125)).abs() < 1e-12);

    // The cache gives the same values as a fresh search.
    let mut fresh = Expectimax::new(Zero);
    assert!((fresh.value(&p, 2) - search.value(&p, 2)).abs() < 1e-12);
}

#[test]
fn expectimax_chooses_the_best_move_under_each_throw() {
    // White pieces on 10 and 13, Black's on 7 (2 units from cell 5).
    let p = at(Colour::White, &[10, 13], &[7]);
    let mut search = Expectimax::new(Zero);
    // Depth 1: 塞 wins with neither piece (0); 白: 13-15 wins (+1);
    // 黑: 13-14-15 enters and stops (+1); 五: 0.  V1 = 2/4 = 0.5
    assert!((search.value(&p, 1) - 0.5).abs() < 1e-12);
    assert_eq!(search.choose(&p, Throw::Bai, 1).0, mv(13, 15));
    assert_eq!(search.choose(&p, Throw::Hei, 1).0, mv(13, 15));
    // Depth 2: after a White move that does not win, Black wins with 白 or
    // 黑 (2 units reach 5) and not with 塞 (6, a leaf worth 0) or 五 (0):
    // Black's value 2/4 = 1/2, White's -1/2.
    //   V2 = 1/4 (-1/2) [塞] + 1/4 (1) [白] + 1/4 (1) [黑] + 1/4 (-1/2) [五]
    //      = (-1/2 + 1 + 1 - 1/2) / 4 = 1/4
    assert!((search.value(&p, 2) - 0.25).abs() < 1e-12);
    // With the real evaluation the search still takes the win.
    let mut real = Expectimax::new(GewuEval);
    let (best, v) = real.choose(&p, Throw::Bai, 3);
    assert_eq!((best, v), (mv(13, 15), 1.0));
    assert!(real.nodes() > 0);
}

/// The expectimax value by plain recursion, no cache: the definition in
/// `docs/gewu.md` §11 written out again.
fn plain_value(pos: &GewuPosition, depth: u32) -> f64 {
    match pos.result() {
        Some(GewuOutcome::Win { winner: c, .. }) => {
            return if c == pos.side() { 1.0 } else { -1.0 };
        }
        Some(GewuOutcome::Draw(_)) => return 0.0,
        None => {}
    }
    if depth == 0 {
        return (f64::from(GewuEval.evaluate(pos)) / tiao::gewu::LEAF_SCALE).tanh();
    }
    Throw::ALL
        .iter()
        .map(|&t| {
            let best = throw_moves(pos, t)
                .iter()
                .map(|m| -plain_value(&pos.play(m), depth - 1))
                .fold(f64::NEG_INFINITY, f64::max);
            0.25 * best
        })
        .sum()
}

#[test]
fn expectimax_with_its_cache_equals_the_plain_recursive_expectation() {
    let mut search = Expectimax::new(GewuEval);
    for seed in 0..30u64 {
        let rec = play_game(
            GewuPosition::start(),
            RandomMover::new(seed).player(),
            RandomMover::new(seed + 50).player(),
        );
        let mut pos = rec.start;
        for (i, (_, m)) in rec.turns.iter().enumerate() {
            if i % 5 == 0 {
                let cached = search.value(&pos, 3);
                assert!(
                    (cached - plain_value(&pos, 3)).abs() < 1e-12,
                    "{}",
                    to_fen(&pos)
                );
            }
            pos = pos.play(m);
        }
    }
}

#[test]
fn expectimax_beats_a_random_mover_in_most_throw_games() {
    // The throws decide much: over 400 games a depth-2 search wins about
    // 77% against random play (a depth-6 search about 80%), and random
    // play against itself about 50%. 24 of 40 leaves room for luck.
    let mut wins = 0;
    let games = 40u64;
    for g in 0..games {
        let mut search = Expectimax::new(GewuEval);
        let engine = move |pos: &GewuPosition, t: Throw, _: &[GewuMove]| search.choose(pos, t, 2).0;
        let random = RandomMover::new(g + 7).throw_player();
        let mut throws = RandomMover::new(g * 31 + 1);
        let engine_white = g % 2 == 0;
        let rec = if engine_white {
            play_throw_game(GewuPosition::start(), &mut throws, engine, random)
        } else {
            play_throw_game(GewuPosition::start(), &mut throws, random, engine)
        };
        assert!(rec.turns.len() < TURN_LIMIT);
        // Replaying the record with its throws gives legal turns only.
        let mut pos = rec.start;
        for (t, m) in &rec.turns {
            let t = t.expect("throw games record their throws");
            assert!(throw_moves(&pos, t).contains(m));
            pos = pos.play(m);
        }
        assert_eq!(pos, rec.final_position);
        let engine_colour = if engine_white {
            Colour::White
        } else {
            Colour::Black
        };
        if rec.outcome.winner() == Some(engine_colour) {
            wins += 1;
        }
    }
    assert!(wins >= 24, "expectimax won {wins} of {games}");
}

// ---------------------------------------------------------------- free-form play

fn greedy(pos: &GewuPosition, moves: &[GewuMove]) -> GewuMove {
    let mut best = (i32::MIN, moves[0]);
    for m in moves {
        let child = pos.play(m);
        let score = match child.rule_verdict(&()) {
            Some(Verdict::Loss) => i32::MAX,
            Some(Verdict::Win) => i32::MIN + 1,
            Some(Verdict::Draw) => 0,
            None => -GewuEval.evaluate(&child),
        };
        if score > best.0 {
            best = (score, *m);
        }
    }
    best.1
}

#[test]
fn greedy_player_with_the_evaluation_beats_a_random_mover() {
    let games = 40u64;
    let mut wins = 0;
    for g in 0..games {
        let random = RandomMover::new(g + 3).player();
        let greedy_white = g % 2 == 0;
        let rec = if greedy_white {
            play_game(GewuPosition::start(), greedy, random)
        } else {
            play_game(GewuPosition::start(), random, greedy)
        };
        let colour = if greedy_white {
            Colour::White
        } else {
            Colour::Black
        };
        if rec.outcome.winner() == Some(colour) {
            wins += 1;
        }
    }
    assert!(wins >= 30, "greedy won {wins} of {games}");
}

#[test]
fn an_illegal_move_from_a_player_forfeits_the_game() {
    let rec = play_game(
        GewuPosition::start(),
        |_: &GewuPosition, _: &[GewuMove]| mv(1, 2),
        RandomMover::new(1).player(),
    );
    assert_eq!(
        rec.outcome,
        GewuOutcome::Win {
            winner: Colour::Black,
            reason: GewuWinReason::IllegalMove
        }
    );
}

// ---------------------------------------------------------------- text

#[test]
fn move_text_and_position_strings_round_trip() {
    let mut rng = RandomMover::new(17);
    for seed in 0..100u64 {
        let rec = play_game(
            GewuPosition::start(),
            RandomMover::new(seed).player(),
            RandomMover::new(seed + 1000).player(),
        );
        let mut pos = rec.start;
        for (_, m) in &rec.turns {
            assert_eq!(from_fen(&to_fen(&pos)), Ok(pos));
            assert_eq!(parse_move(&pos, &move_text(m)), Ok(*m));
            let t = rng.throw();
            for tm in throw_moves(&pos, t) {
                assert_eq!(parse_throw_move(&pos, t, &move_text(&tm)), Ok(tm));
            }
            pos = pos.play(m);
        }
        assert_eq!(from_fen(&to_fen(&pos)), Ok(pos));
    }
    assert_eq!(move_text(&mv(5, 6)), "5-6");
    assert_eq!(move_text(&GewuMove::PASS), "pass");
    assert_eq!(turn_text(Throw::Hei, &mv(5, 8)), "hei 5-8");
    for t in Throw::ALL {
        assert_eq!(parse_throw(t.name()), Ok(t));
        assert_eq!(parse_throw(&t.hanzi().to_string()), Ok(t));
        assert_eq!(parse_throw(&t.units().to_string()), Ok(t));
    }
}

#[test]
fn bad_moves_throws_and_position_strings_are_errors() {
    let p = GewuPosition::start();
    for text in [
        "", "5", "5-", "-6", "5-7", "6-7", "15-14", "0-1", "5-20", "x-y", "5--6", "pass", "5-6-7",
        "٥-6",
    ] {
        assert!(parse_move(&p, text).is_err(), "'{text}' accepted");
    }
    assert_eq!(parse_move(&p, " 5-6 "), Ok(mv(5, 6)));
    assert!(parse_throw_move(&p, Throw::Sai, "5-7").is_err());
    assert!(parse_throw_move(&p, Throw::Wu, "5-6").is_err());
    assert_eq!(parse_throw_move(&p, Throw::Wu, "pass"), Ok(GewuMove::PASS));
    for text in ["", "4", "six", "塞塞"] {
        assert!(parse_throw(text).is_err(), "'{text}' accepted");
    }
    for text in [
        "",
        "W",
        "W:",
        "X:WWWWW.........BBBBB",
        "W:WWWWW.........BBBB",
        "W:WWWWW.........BBBBBB",
        "W:WWWWW.........BBBBx",
        "W:WWWWWW........BBBBB",
        "W:.....................",
        "W:.................BB",
        "W:WWWWW..............",
        "WWWWW.........BBBBB",
    ] {
        assert!(from_fen(text).is_err(), "'{text}' accepted");
    }
    // Random text never panics.
    let mut rng = RandomMover::new(3);
    let alphabet: Vec<char> = "WB.:-0123456789 passhei塞".chars().collect();
    for _ in 0..20_000 {
        let len = (rng.next_u64() % 24) as usize;
        let s: String = (0..len)
            .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
            .collect();
        let _ = from_fen(&s);
        let _ = parse_move(&p, &s);
        let _ = parse_throw(&s);
    }
}

#[test]
fn diagram_shows_the_track_homes_and_side_to_move() {
    let d = diagram(&GewuPosition::start());
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].trim_start().starts_with("1  2  3"));
    assert!(lines[1].contains("W  W  W  W  W  .  .  .  .  .  .  .  .  .  B  B  B  B  B"));
    assert!(lines[2].contains("White home") && lines[2].contains("Black home"));
    assert_eq!(lines[3], "White to move");
}

#[test]
fn game_trait_keys_moves_distinctly() {
    let p = at(Colour::White, &[2, 8], &[9, 17]);
    let keys: HashSet<u32> = free_moves(&p)
        .iter()
        .chain([GewuMove::PASS].iter())
        .map(<GewuPosition as Game>::move_key)
        .collect();
    assert_eq!(keys.len(), 3);
    assert!(!keys.contains(&0));
    assert!(p.is_tactical(&mv(8, 10)));
    assert!(!p.is_tactical(&mv(2, 3)));
    assert_eq!(GewuMove::default(), GewuMove::PASS);
}

#[test]
fn a_malformed_move_and_an_illegal_one_are_told_apart() {
    use tiao::engine::{GameKind, MoveReading, new_game_session};
    use tiao::gewu::GewuError;
    use tiao::notation::MoveError;
    let p = GewuPosition::start();
    for text in ["", "5", "x-y", "0-1", "5-20", "five"] {
        assert!(
            matches!(parse_move(&p, text), Err(GewuError::MalformedMove(_))),
            "{text:?}"
        );
    }
    for text in ["5-7", "15-14", "6-7"] {
        assert!(
            matches!(parse_move(&p, text), Err(GewuError::IllegalMove(_))),
            "{text:?}"
        );
    }
    // The sessions report the reader's kind, a '-' or not.
    let cases = [
        (GameKind::Gewu, ["5-20", "x-y"], ["6-7", "pass"]),
        (
            GameKind::GewuDice,
            ["hei:5-20", "hei:x-y"],
            ["hei:6-7", "hei:pass"],
        ),
    ];
    for (kind, malformed, illegal) in cases {
        let mut session = new_game_session(kind);
        for text in malformed {
            assert!(
                matches!(
                    session.play(text, MoveReading::Any),
                    Err(MoveError::Malformed { .. })
                ),
                "{kind} {text}"
            );
        }
        for text in illegal {
            assert!(
                matches!(
                    session.play(text, MoveReading::Any),
                    Err(MoveError::Illegal { .. })
                ),
                "{kind} {text}"
            );
        }
    }
}

#[test]
fn the_throw_game_search_honours_its_time_and_stop() {
    use std::time::{Duration, Instant};
    use tiao::engine::{Engine, GameKind, Options};
    use tiao::notation::MoveFormat;
    use tiao::search::{Limits, Mode, Params};
    let mut engine = Engine::new(Options::default()).expect("engine");
    engine
        .set_game(GameKind::GewuDice)
        .expect("no knowledge to open");
    let think = |limits: Limits| Params {
        limits,
        mode: Mode::Think,
        multipv: 1,
    };
    // A move time bounds a search that has no depth limit.
    let start = Instant::now();
    let out = engine.search(
        &think(Limits::move_time(Duration::from_millis(200))),
        MoveFormat::Hub,
        &|_| {},
    );
    assert!(out.best.is_some());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // `stop` ends an unbounded search, which still gives its move.
    let control = engine.control();
    engine.prepare(Mode::Analyze);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        control.stop();
    });
    let start = Instant::now();
    let infinite = Params::analyze(Limits {
        infinite: true,
        ..Limits::default()
    });
    let out = engine.search_prepared(&infinite, MoveFormat::Hub, &|_| {});
    stopper.join().expect("stopper");
    assert!(out.best.is_some());
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}
