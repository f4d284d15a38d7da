//! Halma: one test per rule of `docs/halma.md`, the bitboard generator
//! against the simple reference generator of `tests/halma_reference` on
//! random positions, perft against the reference, notation and position
//! string round trips, bad input, and whole games (a greedy 1-ply player
//! with the evaluation against a random mover).

mod halma_reference;

use halma_reference::{Cell, RefBoard, RefMove};
use std::collections::HashSet;
use tiao::bits::BitWord;
use tiao::board::Colour;
use tiao::game::{Evaluate, Game, Verdict};
use tiao::halma::{
    DrawReason, Halma8, Halma10, HalmaBoard, HalmaCounters, HalmaError, HalmaEval, HalmaMove,
    HalmaMoveList, HalmaOutcome, HalmaPosition, RandomMover, Turn, WinReason, diagram, from_fen,
    move_text, outcome, parse_move, parse_square, perft, play_game, rules_outcome, square_name,
    to_fen,
};

/// xorshift64*: a tiny deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 16) % n as u64) as usize
    }
}

fn sq<B: HalmaBoard>(name: &str) -> u32 {
    parse_square::<B>(name).expect("test square names are valid")
}

fn set<B: HalmaBoard>(names: &[&str]) -> B::W {
    names
        .iter()
        .fold(B::W::ZERO, |acc, n| acc | B::W::bit(sq::<B>(n)))
}

fn pos8(white: &[&str], black: &[&str], side: Colour) -> HalmaPosition<Halma8> {
    HalmaPosition::new(set::<Halma8>(white), set::<Halma8>(black), side)
        .expect("valid test position")
}

fn moves_of<B: HalmaBoard>(pos: &HalmaPosition<B>) -> Vec<HalmaMove> {
    let mut list = HalmaMoveList::new();
    pos.generate(&mut list);
    list.to_vec()
}

/// Destinations of the piece on `from`, as square names, sorted.
fn destinations<B: HalmaBoard>(pos: &HalmaPosition<B>, from: &str) -> Vec<String> {
    let f = sq::<B>(from);
    let mut v: Vec<String> = moves_of(pos)
        .iter()
        .filter(|m| u32::from(m.from) == f)
        .map(|m| square_name::<B>(u32::from(m.to)))
        .collect();
    v.sort();
    v
}

fn counters(w: u16, b: u16) -> HalmaCounters {
    HalmaCounters {
        moves: [w, b],
        reversible: 0,
    }
}

// ---------------------------------------------------------------- setup

#[test]
fn start_fills_staircase_yards_white_bottom_left_black_top_right_white_first() {
    let p8 = HalmaPosition::<Halma8>::start();
    assert_eq!(p8.side(), Colour::White);
    assert_eq!(
        to_fen(&p8, &HalmaCounters::START),
        "W:Wa1,b1,c1,d1,a2,b2,c2,a3,b3,a4:Bh5,g6,h6,f7,g7,h7,e8,f8,g8,h8:M0,0"
    );
    assert_eq!(p8.pieces(Colour::White).count(), 10);
    let p10 = HalmaPosition::<Halma10>::start();
    assert_eq!(p10.pieces(Colour::White).count(), 15);
    assert_eq!(p10.pieces(Colour::Black).count(), 15);
    assert_eq!(p10.piece_at(sq::<Halma10>("e1")), Some(Colour::White));
    assert_eq!(p10.piece_at(sq::<Halma10>("a5")), Some(Colour::White));
    assert_eq!(p10.piece_at(sq::<Halma10>("f1")), None);
    assert_eq!(p10.piece_at(sq::<Halma10>("j6")), Some(Colour::Black));
    assert_eq!(p10.piece_at(sq::<Halma10>("f10")), Some(Colour::Black));
    assert_eq!(p10.piece_at(sq::<Halma10>("e10")), None);
}

// ---------------------------------------------------------------- steps

#[test]
fn step_goes_to_each_of_the_eight_adjacent_empty_squares() {
    let p = pos8(&["d4"], &["h8"], Colour::White);
    assert_eq!(
        destinations(&p, "d4"),
        vec!["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
    );
    assert!(moves_of(&p).iter().all(|m| !m.jump));
    // On the edge and in the corner only the squares on the board.
    let p = pos8(&["a1"], &["h8"], Colour::White);
    assert_eq!(destinations(&p, "a1"), vec!["a2", "b1", "b2"]);
    let p = HalmaPosition::<Halma10>::new(
        set::<Halma10>(&["j10"]),
        set::<Halma10>(&["a1"]),
        Colour::White,
    )
    .expect("valid");
    assert_eq!(destinations(&p, "j10"), vec!["i10", "i9", "j9"]);
}

#[test]
fn step_needs_an_empty_square() {
    // d5 own, e5 enemy: neither is a step; the jumps over them are.
    let p = pos8(&["d4", "d5"], &["e5", "h8"], Colour::White);
    let d = destinations(&p, "d4");
    assert!(!d.contains(&"d5".to_string()) && !d.contains(&"e5".to_string()));
    assert!(d.contains(&"d6".to_string()) && d.contains(&"f6".to_string()));
}

// ---------------------------------------------------------------- jumps

#[test]
fn jump_over_a_piece_of_either_colour_in_all_eight_directions() {
    // White d4 surrounded by a ring of pieces, alternating colours; every
    // square two away is empty.
    let ring_w = ["c3", "d5", "e3", "c4"];
    let ring_b = ["c5", "d3", "e4", "e5"];
    let mut white = vec!["d4"];
    white.extend(ring_w);
    let p = pos8(&white, &ring_b, Colour::White);
    let d = destinations(&p, "d4");
    for target in ["b2", "b4", "b6", "d2", "d6", "f2", "f4", "f6"] {
        assert!(
            d.contains(&target.to_string()),
            "missing jump to {target}: {d:?}"
        );
    }
}

#[test]
fn jump_needs_an_adjacent_piece_and_an_empty_square_right_behind_it() {
    // Gap between the piece and the jumper: no long jump. Two pieces in a
    // row: no jump over both.
    let p = pos8(&["a1"], &["c1", "a2", "a3", "h8"], Colour::White);
    let d = destinations(&p, "a1");
    assert!(
        !d.contains(&"e1".to_string()),
        "long jump over a gap: {d:?}"
    );
    assert!(
        !d.contains(&"a4".to_string()),
        "jump over two pieces: {d:?}"
    );
    assert!(!d.contains(&"a5".to_string()));
    assert_eq!(d, vec!["b1", "b2"]);
}

#[test]
fn jumps_chain_with_the_same_piece_and_may_stop_after_any_jump() {
    // a1 over b2 to c3, over d4 to e5, over f6 to g7, turning is allowed:
    // from c3 over c4 to c5.
    let p = pos8(&["a1", "d4", "c4"], &["b2", "f6", "h8"], Colour::White);
    let d = destinations(&p, "a1");
    for stop in ["c3", "e5", "g7", "c5"] {
        assert!(
            d.contains(&stop.to_string()),
            "cannot stop on {stop}: {d:?}"
        );
    }
}

#[test]
fn a_step_and_a_jump_are_never_combined() {
    // a1 could step to b1 and then jump c2 to d3, or jump b2 to c3 and then
    // step to d3: neither makes d3 reachable. Nor a1-b1 step then c1 jump.
    let p = pos8(&["a1", "c2"], &["b2", "h8"], Colour::White);
    let d = destinations(&p, "a1");
    assert!(d.contains(&"c3".to_string()));
    assert!(!d.contains(&"d3".to_string()), "{d:?}");
    assert!(!d.contains(&"d4".to_string()), "{d:?}");
    // Every move is exactly a step (king move) or a chain of even hops.
    for m in moves_of(&p) {
        let (f0, r0) = (m.from % 8, m.from / 8);
        let (f1, r1) = (m.to % 8, m.to / 8);
        let adjacent = f0.abs_diff(f1) <= 1 && r0.abs_diff(r1) <= 1;
        assert_eq!(adjacent, !m.jump);
        if m.jump {
            assert!(f0.abs_diff(f1) % 2 == 0 && r0.abs_diff(r1) % 2 == 0);
        }
    }
}

#[test]
fn each_destination_is_generated_once_whatever_the_jump_path() {
    // A diamond: a1 reaches e1 directly along rank 1 (over b1, d1) and via
    // c3 (over b2, then d2): e1 appears once.
    let p = pos8(&["a1", "b1", "d1"], &["b2", "d2", "h8"], Colour::White);
    let moves = moves_of(&p);
    let e1 = sq::<Halma8>("e1") as u8;
    let a1 = sq::<Halma8>("a1") as u8;
    assert_eq!(
        moves.iter().filter(|m| m.from == a1 && m.to == e1).count(),
        1
    );
    let unique: HashSet<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    assert_eq!(unique.len(), moves.len());
}

#[test]
fn a_jump_chain_never_ends_on_its_start_square() {
    // a1 can go round a square of pieces: c1 over b1, c3 over c2, a3 over
    // b3... and back to a1 over a2: the start is not a move.
    let p = pos8(&["a1", "b1", "c2"], &["b3", "a2", "h8"], Colour::White);
    let a1 = sq::<Halma8>("a1") as u8;
    assert!(moves_of(&p).iter().all(|m| !(m.from == a1 && m.to == a1)));
    let d = destinations(&p, "a1");
    assert!(d.contains(&"c3".to_string()) && d.contains(&"a3".to_string()));
}

#[test]
fn nothing_is_captured_by_a_jump() {
    let p = pos8(&["a1"], &["b2", "d4", "h8"], Colour::White);
    let mv = parse_move(&p, "a1-c3-e5").expect("legal chain");
    let after = p.play(&mv);
    assert_eq!(after.pieces(Colour::Black), p.pieces(Colour::Black));
    assert_eq!(after.piece_at(sq::<Halma8>("e5")), Some(Colour::White));
    assert_eq!(after.piece_at(sq::<Halma8>("a1")), None);
    assert_eq!(after.side(), Colour::Black);
}

// ---------------------------------------------------------------- win

#[test]
fn win_when_all_own_pieces_stand_in_the_opponents_yard() {
    // Nine white pieces in Black's yard, the tenth on f6; g7 is free.
    let white = ["h5", "g6", "h6", "f7", "h7", "e8", "f8", "g8", "h8", "f6"];
    let p = pos8(&white, &["a1", "c3"], Colour::White);
    let c = counters(40, 40);
    assert_eq!(rules_outcome(&p, &c), None);
    // A move that leaves a piece outside is no win.
    let not_yet = parse_move(&p, "f6-e6").expect("legal");
    assert_eq!(rules_outcome(&p.play(&not_yet), &c.next(&p)), None);
    // The last piece enters: White wins at once.
    let mv = parse_move(&p, "f6-g7").expect("legal");
    let after = p.play(&mv);
    let c2 = c.next(&p);
    assert_eq!(
        rules_outcome(&after, &c2),
        Some(HalmaOutcome::Win {
            winner: Colour::White,
            reason: WinReason::AllInTarget
        })
    );
    // The search sees it from Black's side: a loss.
    assert_eq!(after.rule_verdict(&c2), Some(Verdict::Loss));
    assert!(after.has_won(Colour::White));
    // Composed with the winner to move, it is a win for the side to move.
    let composed = HalmaPosition::<Halma8>::new(
        after.pieces(Colour::White),
        after.pieces(Colour::Black),
        Colour::White,
    )
    .expect("valid");
    assert_eq!(composed.rule_verdict(&counters(41, 41)), Some(Verdict::Win));
}

#[test]
fn black_wins_by_filling_whites_yard() {
    let yard = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3"];
    let mut black: Vec<&str> = yard.to_vec();
    black.push("b4");
    let p = pos8(&["h8", "e5"], &black, Colour::Black);
    let mv = parse_move(&p, "b4-a4").expect("legal");
    let after = p.play(&mv);
    assert_eq!(
        outcome(&after, &counters(41, 41), &[]),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::AllInTarget
        })
    );
}

// ---------------------------------------------------------------- yard rule

/// After a player's move numbered `B::YARD_LIMIT` with a piece left in
/// his own yard he loses, White and Black alike; one move earlier nothing
/// happens.
fn check_yard_deadline<B: HalmaBoard>(white_stays: &str) {
    let limit = B::YARD_LIMIT;
    let start = HalmaPosition::<B>::start();
    // White, about to make his limit-th move, still has all pieces at home
    // (a composed position: the counters say he has moved limit-1 times).
    let c = counters(limit - 1, limit - 1);
    assert_eq!(rules_outcome(&start, &c), None);
    let after = start.play(&parse_move(&start, white_stays).expect("legal"));
    let c1 = c.next(&start);
    assert_eq!(c1.moves, [limit, limit - 1]);
    assert_eq!(
        rules_outcome(&after, &c1),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::YardRule
        })
    );
    assert_eq!(after.rule_verdict(&c1), Some(Verdict::Win));
    // One move earlier the same move is fine.
    assert_eq!(
        rules_outcome(&after, &counters(limit - 2, limit - 2).next(&start)),
        None
    );
    // Black at home, White's single piece in the middle of the board.
    let middle = B::N / 2 * B::N + B::N / 2;
    let p = HalmaPosition::<B>::new(B::W::bit(middle), B::YARD[1], Colour::Black).expect("valid");
    let mut list = HalmaMoveList::new();
    p.generate(&mut list);
    let after = p.play(&list[0]);
    assert_eq!(
        rules_outcome(&after, &counters(limit, limit - 1).next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::White,
            reason: WinReason::YardRule
        })
    );
    assert_eq!(
        rules_outcome(&after, &counters(limit - 1, limit - 2).next(&p)),
        None
    );
}

#[test]
fn yard_rule_a_piece_left_in_own_yard_after_move_30_loses_on_8x8() {
    check_yard_deadline::<Halma8>("d1-e1");
    // Leaving with the last yard piece on the 30th move is in time.
    let p = pos8(&["d1"], &["h8"], Colour::White);
    let mv = parse_move(&p, "d1-e1").expect("legal");
    let c = counters(29, 29);
    assert_eq!(rules_outcome(&p.play(&mv), &c.next(&p)), None);
    let mv = parse_move(&p, "d1-c2").expect("legal");
    assert!(matches!(
        rules_outcome(&p.play(&mv), &c.next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::YardRule
        })
    ));
}

#[test]
fn yard_rule_a_piece_left_in_own_yard_after_move_50_loses_on_10x10() {
    check_yard_deadline::<Halma10>("e1-f1");
    let p = HalmaPosition::<Halma10>::new(
        set::<Halma10>(&["j1"]),
        set::<Halma10>(&["f10", "a6"]),
        Colour::Black,
    )
    .expect("valid");
    // Black's 50th move: f10 stays in Black's yard (g10 is in it too).
    let c = counters(50, 49);
    let mv = parse_move(&p, "f10-g10").expect("legal");
    assert!(matches!(
        rules_outcome(&p.play(&mv), &c.next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::White,
            reason: WinReason::YardRule
        })
    ));
    // Leaving on the 50th move is in time.
    let mv = parse_move(&p, "f10-e10").expect("legal");
    assert_eq!(rules_outcome(&p.play(&mv), &c.next(&p)), None);
    // At move 49 staying is still allowed.
    assert_eq!(
        rules_outcome(
            &p.play(&parse_move(&p, "f10-g10").expect("legal")),
            &counters(49, 49)
        ),
        None
    );
}

#[test]
fn moving_back_into_own_yard_after_the_limit_loses() {
    // White's 35th move steps back into his own yard.
    let p = pos8(&["e1", "f5"], &["h1", "a8"], Colour::White);
    let c = counters(34, 34);
    let back = parse_move(&p, "e1-d1").expect("legal");
    assert_eq!(
        rules_outcome(&p.play(&back), &c.next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::YardRule
        })
    );
    let away = parse_move(&p, "e1-f1").expect("legal");
    assert_eq!(rules_outcome(&p.play(&away), &c.next(&p)), None);
    // Black, on 10x10, after his 50th move.
    let p = HalmaPosition::<Halma10>::new(
        set::<Halma10>(&["a1"]),
        set::<Halma10>(&["e9", "c3"]),
        Colour::Black,
    )
    .expect("valid");
    let back = parse_move(&p, "e9-f10").expect("legal");
    assert!(matches!(
        rules_outcome(&p.play(&back), &counters(60, 59).next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::White,
            reason: WinReason::YardRule
        })
    ));
}

#[test]
fn a_jump_chain_may_pass_through_own_yard_after_the_limit() {
    // Only where a move ends counts: d4 over c3 to b2 (White's yard), over
    // c2 to d2 (outside) is fine; stopping on b2 loses.
    let p = pos8(&["d4"], &["c3", "c2", "h1"], Colour::White);
    let c = counters(31, 31);
    let through = parse_move(&p, "d4-b2-d2").expect("legal");
    assert_eq!(rules_outcome(&p.play(&through), &c.next(&p)), None);
    let stop = parse_move(&p, "d4-b2").expect("legal");
    assert!(matches!(
        rules_outcome(&p.play(&stop), &c.next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::YardRule
        })
    ));
}

#[test]
fn the_yard_rule_clears_a_target_blocked_by_the_owner() {
    // Black keeps h8 in his own yard, which White needs. After Black's
    // 30th move that loses for Black, so a blocked yard never stops White.
    let p = pos8(
        &["h5", "g6", "h6", "f7", "g7", "h7", "e8", "f8", "g8", "e5"],
        &["h8", "a1"],
        Colour::Black,
    );
    let mv = parse_move(&p, "a1-a2").expect("legal");
    let c = counters(30, 29);
    assert_eq!(
        rules_outcome(&p.play(&mv), &c.next(&p)),
        Some(HalmaOutcome::Win {
            winner: Colour::White,
            reason: WinReason::YardRule
        })
    );
}

// ---------------------------------------------------------------- no move, draws

#[test]
fn a_side_without_a_legal_move_loses() {
    // White's only piece in the corner, boxed in with no jump landing.
    let p = pos8(
        &["a1"],
        &["b1", "a2", "b2", "c1", "a3", "c3"],
        Colour::White,
    );
    assert!(moves_of(&p).is_empty());
    assert_eq!(p.no_move_verdict(), Verdict::Loss);
    assert_eq!(
        outcome(&p, &counters(5, 5), &[]),
        Some(HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::NoMove
        })
    );
}

#[test]
fn threefold_repetition_draws_once_both_sides_are_past_the_yard_limit() {
    let p = pos8(&["d4"], &["e6"], Colour::White);
    let mut pos = p;
    let mut c = counters(30, 30);
    let mut history = Vec::new();
    let cycle = ["d4-d3", "e6-e7", "d3-d4", "e7-e6"];
    for (i, text) in cycle.iter().cycle().take(8).enumerate() {
        assert_eq!(outcome(&pos, &c, &history), None, "ended early at ply {i}");
        let mv = parse_move(&pos, text).expect("legal");
        history.push(pos.hash());
        c = pos.next_counters(&c, &mv, &pos.play(&mv));
        pos = pos.play(&mv);
    }
    // The start position is on the board for the third time.
    assert_eq!(pos, p);
    assert_eq!(
        outcome(&pos, &c, &history),
        Some(HalmaOutcome::Draw(DrawReason::Repetition))
    );
    // The same shuffle before the limit is no repetition: the moves left
    // before the yard deadline differ each time.
    let mut pos = p;
    let mut c = counters(3, 3);
    let mut history = Vec::new();
    for text in cycle.iter().cycle().take(8) {
        let mv = parse_move(&pos, text).expect("legal");
        history.push(pos.hash());
        c = c.next(&pos);
        pos = pos.play(&mv);
    }
    assert_eq!(outcome(&pos, &c, &history), None);
    const { assert!(HalmaPosition::<Halma8>::REPETITION_DRAWS) };
}

#[test]
fn the_game_is_drawn_when_both_sides_reach_the_move_limit() {
    let p = pos8(&["d4"], &["e6"], Colour::White);
    assert_eq!(rules_outcome(&p, &counters(149, 149)), None);
    let mv = parse_move(&p, "d4-d3").expect("legal");
    let c = counters(149, 149).next(&p);
    assert_eq!(rules_outcome(&p.play(&mv), &c), None);
    let q = p.play(&mv);
    let mv2 = parse_move(&q, "e6-e7").expect("legal");
    assert_eq!(
        rules_outcome(&q.play(&mv2), &c.next(&q)),
        Some(HalmaOutcome::Draw(DrawReason::MoveLimit))
    );
    assert_eq!(q.play(&mv2).rule_verdict(&c.next(&q)), Some(Verdict::Draw));
}

// ---------------------------------------------------------------- differential

fn to_ref<B: HalmaBoard>(pos: &HalmaPosition<B>) -> RefBoard {
    let n = B::N as usize;
    let mut b = RefBoard::empty(n, pos.side() == Colour::White);
    for s in 0..B::SQUARES {
        let (f, r) = ((s % B::N) as usize, (s / B::N) as usize);
        b.cells[f][r] = match pos.piece_at(s) {
            Some(Colour::White) => Cell::White,
            Some(Colour::Black) => Cell::Black,
            None => Cell::Empty,
        };
    }
    b
}

fn to_ref_move<B: HalmaBoard>(m: &HalmaMove) -> RefMove {
    let c = |s: u8| {
        (
            (u32::from(s) % B::N) as usize,
            (u32::from(s) / B::N) as usize,
        )
    };
    RefMove {
        from: c(m.from),
        to: c(m.to),
        jump: m.jump,
    }
}

/// Compares the generators on `pos`, and every move's result and hash.
fn compare<B: HalmaBoard>(pos: &HalmaPosition<B>) -> Vec<HalmaMove> {
    let moves = moves_of(pos);
    let mut fast: Vec<RefMove> = moves.iter().map(to_ref_move::<B>).collect();
    fast.sort();
    let reference = to_ref(pos);
    let slow = reference.legal_moves();
    assert_eq!(
        fast,
        slow,
        "generators differ on {}",
        to_fen(pos, &HalmaCounters::START)
    );
    assert_eq!(pos.count_moves(), moves.len() as u64);
    for m in &moves {
        assert!(pos.is_legal(m));
        let after = pos.play(m);
        assert_eq!(after.hash(), after.hash_from_scratch());
        assert_eq!(to_ref(&after), reference.play(&to_ref_move::<B>(m)));
    }
    moves
}

fn random_placement<B: HalmaBoard>(rng: &mut Rng) -> HalmaPosition<B> {
    let n = B::SQUARES as usize;
    let pieces = B::PIECES as usize;
    loop {
        // Sometimes crowd a region so that long jump chains appear.
        let span = if rng.below(2) == 0 { n } else { n / 2 };
        let offset = rng.below(n - span + 1);
        let (nw, nb) = (1 + rng.below(pieces), 1 + rng.below(pieces));
        let mut taken = HashSet::new();
        let mut white = B::W::ZERO;
        let mut black = B::W::ZERO;
        while taken.len() < nw + nb && taken.len() < span {
            let s = (offset + rng.below(span)) as u32;
            if taken.insert(s) {
                if taken.len() <= nw {
                    white |= B::W::bit(s);
                } else {
                    black |= B::W::bit(s);
                }
            }
        }
        let side = if rng.below(2) == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        if let Ok(p) = HalmaPosition::<B>::new(white, black, side) {
            return p;
        }
    }
}

fn differential<B: HalmaBoard>(positions: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut checked = 0;
    let mut jumps = 0usize;
    // Half random placements, half positions from random play-outs.
    while checked < positions / 2 {
        let p = random_placement::<B>(&mut rng);
        jumps += compare(&p).iter().filter(|m| m.jump).count();
        checked += 1;
    }
    while checked < positions {
        let mut p = HalmaPosition::<B>::start();
        let plies = rng.below(120);
        for _ in 0..plies {
            let moves = compare(&p);
            checked += 1;
            if moves.is_empty() {
                break;
            }
            jumps += moves.iter().filter(|m| m.jump).count();
            p = p.play(&moves[rng.below(moves.len())]);
        }
    }
    assert!(jumps > positions, "too few jumps exercised: {jumps}");
}

#[test]
fn generator_matches_reference_on_random_positions_8x8() {
    differential::<Halma8>(12_000, 0x8888_1234);
}

#[test]
fn generator_matches_reference_on_random_positions_10x10() {
    differential::<Halma10>(12_000, 0x1010_5678);
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_matches_reference_generator_8x8() {
    let start = HalmaPosition::<Halma8>::start();
    let reference = RefBoard::start(8, 4);
    assert_eq!(to_ref(&start), reference);
    for depth in 1..=4 {
        assert_eq!(
            perft(&start, depth),
            reference.perft(depth),
            "depth {depth}"
        );
    }
    // The values recorded in docs/halma.md.
    assert_eq!(perft(&start, 3), 20_050);
    assert_eq!(perft(&start, 4), 700_034);
    let (mid, _) = from_fen::<Halma8>(
        "W:Wa1,c1,b2,d3,e4,c5,f6,d6,h5,g3:Bh8,f8,g7,e7,d5,e5,c4,b6,f4,a8:M12,12",
    )
    .expect("valid");
    let ref_mid = to_ref(&mid);
    for depth in 1..=3 {
        assert_eq!(
            perft(&mid, depth),
            ref_mid.perft(depth),
            "middle game depth {depth}"
        );
    }
}

#[test]
fn perft_matches_reference_generator_10x10() {
    let start = HalmaPosition::<Halma10>::start();
    let reference = RefBoard::start(10, 5);
    assert_eq!(to_ref(&start), reference);
    for depth in 1..=3 {
        assert_eq!(
            perft(&start, depth),
            reference.perft(depth),
            "depth {depth}"
        );
    }
    assert_eq!(perft(&start, 3), 46_016);
    assert_eq!(perft(&start, 4), 2_067_884);
}

// ---------------------------------------------------------------- notation

fn notation_round_trip<B: HalmaBoard>(seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..300 {
        let p = random_placement::<B>(&mut rng);
        for m in moves_of(&p) {
            let text = move_text(&p, &m);
            assert_eq!(parse_move(&p, &text), Ok(m), "{text}");
            let hops = text.split('-').count();
            assert!(m.jump || hops == 2);
        }
    }
}

#[test]
fn move_text_round_trips_for_every_legal_move() {
    notation_round_trip::<Halma8>(11);
    notation_round_trip::<Halma10>(12);
    let p = pos8(&["a1"], &["b2", "d4", "h8"], Colour::White);
    let mv = parse_move(&p, "a1-c3-e5").expect("legal");
    assert_eq!(move_text(&p, &mv), "a1-c3-e5");
    let p = pos8(&["b2"], &["h8"], Colour::White);
    assert_eq!(
        move_text(&p, &parse_move(&p, "b2-c3").expect("legal")),
        "b2-c3"
    );
    assert_eq!(square_name::<Halma10>(99), "j10");
    assert_eq!(parse_square::<Halma10>("j10"), Ok(99));
}

#[test]
fn reading_accepts_any_valid_jump_path_to_a_destination() {
    // e1 is reached from a1 along rank 1 or via c3; both are the same move.
    let p = pos8(&["a1", "b1", "d1"], &["b2", "d2", "h8"], Colour::White);
    let direct = parse_move(&p, "a1-c1-e1").expect("legal path");
    let around = parse_move(&p, "a1-c3-e1").expect("legal path");
    assert_eq!(direct, around);
    // The writer gives the shortest path.
    assert_eq!(move_text(&p, &direct).split('-').count(), 3);
}

#[test]
fn reading_rejects_malformed_text_and_illegal_moves() {
    let p = pos8(&["a1", "b1", "d1"], &["b2", "d2", "h8"], Colour::White);
    let bad = [
        "",
        "a1",
        "a1-",
        "-c3",
        "a1--c3",
        "a1-z9",
        "a1-a9",
        "a0-a1",
        "11-22",
        "a1-c3-",
        "a1-e1",       // from-to without the landings
        "a1-a2-a3",    // a step then more
        "a1-c3-c3",    // lands twice
        "a1-c3-a1",    // back to the start
        "h8-g7",       // not White's piece
        "a1-b2",       // occupied
        "c3-c4",       // empty start
        "a1-c3-e5",    // no piece on d4
        "a1-a1",       // null
        "a1-b1-c1",    // step into an occupied square
        "a1-c1-e1-c1", // revisits c1
        "a1 c3",
        "a1-c3\u{0}",
        "ä1-c3",
        "a99999999999-c3",
    ];
    for text in bad {
        let r = parse_move(&p, text);
        assert!(r.is_err(), "'{text}' was accepted as {r:?}");
        let msg = r.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(!msg.is_empty());
    }
    assert!(matches!(
        parse_square::<Halma8>("i1"),
        Err(HalmaError::Square(_))
    ));
    assert!(matches!(
        parse_square::<Halma8>("a9"),
        Err(HalmaError::Square(_))
    ));
    assert!(parse_square::<Halma10>("j10").is_ok());
}

#[test]
fn reading_random_text_never_panics() {
    let mut rng = Rng(99);
    let p8 = HalmaPosition::<Halma8>::start();
    let p10 = HalmaPosition::<Halma10>::start();
    let alphabet: Vec<char> = "abcdhijkWBM0123456789-,:x é".chars().collect();
    for _ in 0..20_000 {
        let len = rng.below(14);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = parse_move(&p8, &s);
        let _ = parse_move(&p10, &s);
        let _ = from_fen::<Halma8>(&s);
        let _ = from_fen::<Halma10>(&s);
    }
}

// ---------------------------------------------------------------- position strings

#[test]
fn position_string_round_trips() {
    let mut rng = Rng(7);
    for _ in 0..500 {
        let p = random_placement::<Halma10>(&mut rng);
        let m = rng.below(200) as u16;
        let c = counters(m + u16::from(p.side() == Colour::Black), m);
        let text = to_fen(&p, &c);
        assert_eq!(from_fen::<Halma10>(&text), Ok((p, c)), "{text}");
        let p8 = random_placement::<Halma8>(&mut rng);
        let c8 = counters(u16::from(p8.side() == Colour::Black), 0);
        let text = to_fen(&p8, &c8);
        assert_eq!(from_fen::<Halma8>(&text), Ok((p8, c8)), "{text}");
    }
    // The counters may be left out.
    let (p, c) = from_fen::<Halma8>("B:Wa1:Bh8").expect("valid");
    assert_eq!((p.side(), c.moves), (Colour::Black, [1, 0]));
    let (start, c) = from_fen::<Halma10>(&to_fen(
        &HalmaPosition::<Halma10>::start(),
        &HalmaCounters::START,
    ))
    .expect("valid");
    assert_eq!((start, c), (HalmaPosition::start(), HalmaCounters::START));
}

#[test]
fn position_string_rejects_bad_input() {
    let bad = [
        "",
        "W",
        "W:Wa1",
        "X:Wa1:Bh8",
        "W:a1:Bh8",
        "W:Wa1:h8",
        "W:Wa1:Bh8:M0",
        "W:Wa1:Bh8:M1,0", // White to move but White one ahead
        "B:Wa1:Bh8:M0,0", // Black to move but no White move
        "W:Wa1:Bh8:Mx,y",
        "W:Wa1:Bh8:M0,0:extra",
        "W:Wa1,a1:Bh8",                            // twice
        "W:Wa1:Ba1",                               // both colours
        "W:W:Bh8",                                 // no white piece
        "W:Wa1:B",                                 // no black piece
        "W:Wi1:Bh8",                               // off the 8x8 board
        "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,c2:Bh8", // 11 pieces
        "W:Wa1:Bh8:M99999999,99999999",
    ];
    for text in bad {
        let r = from_fen::<Halma8>(text);
        assert!(r.is_err(), "'{text}' was accepted");
    }
    assert!(from_fen::<Halma10>("W:Wj10:Ba1").is_ok());
    assert!(from_fen::<Halma8>("W:Wj10:Ba1").is_err());
}

// ---------------------------------------------------------------- game trait, diagram

#[test]
fn game_trait_counts_moves_and_keys_moves_distinctly() {
    let p = HalmaPosition::<Halma10>::start();
    let moves = moves_of(&p);
    let keys: HashSet<u32> = moves
        .iter()
        .map(<HalmaPosition<Halma10> as Game>::move_key)
        .collect();
    assert_eq!(keys.len(), moves.len());
    assert!(!keys.contains(&0));
    let c = p.initial_counters();
    let after = p.play(&moves[0]);
    let c1 = p.next_counters(&c, &moves[0], &after);
    assert_eq!(c1.moves, [1, 0]);
    assert!(p.is_quiet());
    assert_eq!(p.rule_verdict(&c), None);
}

#[test]
fn diagram_shows_pieces_yards_and_side_to_move() {
    let d = diagram(&HalmaPosition::<Halma8>::start());
    assert!(d.contains(" 1 | W W W W . . . . |"), "{d}");
    assert!(d.contains(" 8 | . . . . B B B B |"), "{d}");
    assert!(d.ends_with("White to move\n"));
    let p = pos8(&["b1"], &["h8"], Colour::Black);
    let d = diagram(&p);
    assert!(d.contains(" 1 | + W + + . . . . |"), "{d}");
    assert!(d.contains("Black to move"));
    let d10 = diagram(&HalmaPosition::<Halma10>::start());
    assert!(d10.contains("10 | . . . . . B B B B B |"), "{d10}");
}

// ---------------------------------------------------------------- whole games

/// A 1-ply player: a move that wins by the rules, else the best evaluation
/// after the move, avoiding moves that lose by the rules.
fn greedy<B: HalmaBoard>(turn: &Turn<B>) -> HalmaMove {
    let pos = turn.position;
    let next = turn.counters.next(pos);
    let mut best = (i32::MIN, turn.moves[0]);
    for mv in turn.moves {
        let child = pos.play(mv);
        let score = match child.rule_verdict(&next) {
            Some(Verdict::Loss) => i32::MAX,
            Some(Verdict::Win) => i32::MIN + 1,
            Some(Verdict::Draw) => 0,
            None => -HalmaEval.evaluate(&child),
        };
        if score > best.0 {
            best = (score, *mv);
        }
    }
    best.1
}

fn greedy_against_random<B: HalmaBoard>(games: u64) -> u64 {
    let start = HalmaPosition::<B>::start();
    let mut greedy_wins = 0;
    for g in 0..games {
        let random = RandomMover::new(g + 1).player::<B>();
        let greedy_colour = if g % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let rec = if greedy_colour == Colour::White {
            play_game(start, HalmaCounters::START, greedy::<B>, random)
        } else {
            play_game(start, HalmaCounters::START, random, greedy::<B>)
        };
        assert!(rec.moves.len() <= 2 * B::MOVE_CAP as usize);
        if let HalmaOutcome::Win { winner, .. } = rec.outcome
            && winner == greedy_colour
        {
            greedy_wins += 1;
        }
    }
    greedy_wins
}

#[test]
fn greedy_player_with_the_evaluation_beats_a_random_mover() {
    let wins8 = greedy_against_random::<Halma8>(20);
    assert!(wins8 >= 18, "greedy won only {wins8} of 20 on 8x8");
    let wins10 = greedy_against_random::<Halma10>(10);
    assert!(wins10 >= 9, "greedy won only {wins10} of 10 on 10x10");
}

#[test]
fn the_evaluation_finishes_games_greedy_against_greedy() {
    // Both sides race: someone must get all pieces home, well within the limit.
    for_each_size_greedy_race::<Halma8>();
    for_each_size_greedy_race::<Halma10>();
}

fn for_each_size_greedy_race<B: HalmaBoard>() {
    let rec = play_game(
        HalmaPosition::<B>::start(),
        HalmaCounters::START,
        greedy::<B>,
        greedy::<B>,
    );
    assert!(
        matches!(
            rec.outcome,
            HalmaOutcome::Win {
                reason: WinReason::AllInTarget,
                ..
            }
        ),
        "{} greedy race ended {:?} after {} plies",
        B::NAME,
        rec.outcome,
        rec.moves.len()
    );
    assert!(rec.moves.len() < 2 * B::YARD_LIMIT as usize * 2);
}

#[test]
fn games_always_finish_within_the_rule_limits() {
    for seed in 0..6u64 {
        let rec = play_game(
            HalmaPosition::<Halma8>::start(),
            HalmaCounters::START,
            RandomMover::new(seed).player::<Halma8>(),
            RandomMover::new(seed + 100).player::<Halma8>(),
        );
        assert!(rec.moves.len() <= 2 * Halma8::MOVE_CAP as usize);
        // Replaying the record reaches the same end.
        let mut pos = rec.start;
        let mut c = rec.start_counters;
        let mut history = Vec::new();
        for mv in &rec.moves {
            assert_eq!(outcome(&pos, &c, &history), None);
            assert!(pos.is_legal(mv));
            history.push(pos.hash());
            c = c.next(&pos);
            pos = pos.play(mv);
        }
        assert_eq!(outcome(&pos, &c, &history), Some(rec.outcome));
        assert_eq!((pos, c), (rec.final_position, rec.final_counters));
    }
    // An illegal move from a player forfeits, it does not panic.
    let rec = play_game(
        HalmaPosition::<Halma8>::start(),
        HalmaCounters::START,
        |_: &Turn<Halma8>| HalmaMove::default(),
        RandomMover::new(1).player::<Halma8>(),
    );
    assert_eq!(
        rec.outcome,
        HalmaOutcome::Win {
            winner: Colour::Black,
            reason: WinReason::IllegalMove
        }
    );
}

#[test]
fn a_malformed_move_and_an_illegal_one_are_told_apart() {
    use tiao::engine::{GameKind, MoveReading, new_game_session};
    use tiao::notation::MoveError;
    let start = HalmaPosition::<Halma8>::start();
    // Not squares joined by '-', or a square off the board: malformed.
    for text in ["", "b2", "zz", "b2-z9", "b2-c3-"] {
        assert!(
            matches!(parse_move(&start, text), Err(HalmaError::MalformedMove(_))),
            "{text:?}"
        );
    }
    // Squares the board has, but no such move: illegal.
    for text in ["a1-h8", "h8-g7", "a1-a2"] {
        assert!(
            matches!(parse_move(&start, text), Err(HalmaError::IllegalMove(_))),
            "{text:?}"
        );
    }
    // The session reports the reader's kind, a '-' or not.
    let mut session = new_game_session(GameKind::Halma8);
    for text in ["zz", "b2-z9"] {
        assert!(
            matches!(
                session.play(text, MoveReading::Any),
                Err(MoveError::Malformed { .. })
            ),
            "{text}"
        );
    }
    assert!(matches!(
        session.play("a1-h8", MoveReading::Any),
        Err(MoveError::Illegal { .. })
    ));
}
