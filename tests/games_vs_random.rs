//! Tiao's search (the same generic core that plays draughts) against a
//! random mover in Halma and Gewu: it wins every game of Halma 8x8, Halma
//! 10x10 and free Gewu, in both colours, and Halma games end with all of
//! Tiao's pieces home long before the move cap. Gewu with throws is a game
//! of chance: there the expectimax search must win clearly more often.

use tiao::board::Colour;
use tiao::gewu::{
    Expectimax, GewuEval, GewuOutcome, GewuPosition, RandomMover as GewuRandom,
    play_game as play_gewu, play_throw_game,
};
use tiao::halma::{
    Halma8, Halma10, HalmaBoard, HalmaCounters, HalmaEval, HalmaMove, HalmaOutcome, HalmaPosition,
    RandomMover, Turn, WinReason, play_game,
};
use tiao::search::{Limits, Mode, Params, Root, Searcher};

fn tiao_halma<B: HalmaBoard>(s: &mut Searcher, turn: &Turn<B>, depth: u32) -> HalmaMove {
    let root = Root {
        position: *turn.position,
        counters: turn.counters,
        history: turn.history.to_vec(),
    };
    s.prepare(Mode::Think);
    let out = s.search(
        &root,
        &HalmaEval,
        &Params::think(Limits::depth(depth)),
        &|_| {},
    );
    let best = out.best.expect("the search returns a move");
    assert!(turn.moves.contains(&best), "the search's move is legal");
    best
}

fn halma_beats_random<B: HalmaBoard>(games: u64, depth: u32) {
    let mut s = Searcher::new(1, 16).expect("searcher");
    for g in 0..games {
        let tiao = if g % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let mut random = RandomMover::new(g + 1).player::<B>();
        let rec = {
            let mut tiao_move = |t: &Turn<B>| tiao_halma(&mut s, t, depth);
            if tiao == Colour::White {
                play_game(
                    HalmaPosition::<B>::start(),
                    HalmaCounters::START,
                    &mut tiao_move,
                    &mut random,
                )
            } else {
                play_game(
                    HalmaPosition::<B>::start(),
                    HalmaCounters::START,
                    &mut random,
                    &mut tiao_move,
                )
            }
        };
        match rec.outcome {
            HalmaOutcome::Win { winner, reason } => {
                assert_eq!(winner, tiao, "game {g}: {:?}", rec.outcome);
                // Won by bringing every piece home, not by the opponent's yard-rule loss alone.
                if reason == WinReason::AllInTarget {
                    assert!(rec.final_position.has_won(tiao));
                }
            }
            other => panic!("game {g} was not won: {other:?}"),
        }
        let tiao_moves = rec.final_counters.of(tiao);
        assert!(tiao_moves < B::MOVE_CAP / 2, "game {g}: {tiao_moves} moves");
    }
}

#[test]
fn tiao_beats_a_random_mover_at_halma_8x8_in_20_of_20() {
    halma_beats_random::<Halma8>(20, 3);
}

#[test]
fn tiao_beats_a_random_mover_at_halma_10x10_in_20_of_20() {
    halma_beats_random::<Halma10>(20, 2);
}

#[test]
fn tiao_beats_a_random_mover_at_gewu_in_20_of_20() {
    let mut s = Searcher::new(1, 16).expect("searcher");
    for g in 0..20u64 {
        let tiao = if g % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let mut random = GewuRandom::new(g + 7).player();
        let mut tiao_move = |pos: &GewuPosition, moves: &[tiao::gewu::GewuMove]| {
            s.prepare(Mode::Think);
            let out = s.search(
                &Root::new(*pos),
                &GewuEval,
                &Params::think(Limits::depth(20)),
                &|_| {},
            );
            let best = out.best.expect("the search returns a move");
            assert!(moves.contains(&best), "the search's move is legal");
            best
        };
        let rec = if tiao == Colour::White {
            play_gewu(GewuPosition::start(), &mut tiao_move, &mut random)
        } else {
            play_gewu(GewuPosition::start(), &mut random, &mut tiao_move)
        };
        assert!(
            matches!(rec.outcome, GewuOutcome::Win { winner, .. } if winner == tiao),
            "game {g}: {:?}",
            rec.outcome
        );
    }
}

#[test]
fn expectimax_beats_a_random_mover_at_gewu_with_throws_most_of_the_time() {
    // Throws decide a good part of each game (docs/gewu.md §7): a clear
    // majority, not every game, is what skill can get.
    let games = 40u64;
    let mut wins = 0;
    for g in 0..games {
        let tiao = if g % 2 == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let mut ex = Expectimax::new(GewuEval);
        let mut random = GewuRandom::new(g + 100).throw_player();
        let mut tiao_move =
            |pos: &GewuPosition, throw, _moves: &[tiao::gewu::GewuMove]| ex.choose(pos, throw, 4).0;
        let mut throws = GewuRandom::new(g + 1000);
        let rec = if tiao == Colour::White {
            play_throw_game(
                GewuPosition::start(),
                &mut throws,
                &mut tiao_move,
                &mut random,
            )
        } else {
            play_throw_game(
                GewuPosition::start(),
                &mut throws,
                &mut random,
                &mut tiao_move,
            )
        };
        if matches!(rec.outcome, GewuOutcome::Win { winner, .. } if winner == tiao) {
            wins += 1;
        }
    }
    assert!(wins >= 26, "won {wins} of {games}");
}
