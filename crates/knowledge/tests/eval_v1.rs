//! Evaluation v1 is colour-symmetric: the position turned half a turn with
//! colours swapped scores the negation from White's side (and the same from
//! the side to move's), in every variant, over thousands of positions.

use tiao_core::game::Evaluate;
use tiao_draughts::board::{Brazilian, Canadian, International, Position, Rules, Russian};
use tiao_draughts::movegen::{MoveList, generate};
use tiao_knowledge::eval::Evaluator;

fn symmetric<R: Rules>(seed: u64) {
    let eval = Evaluator::default();
    let mut x = seed;
    let mut checked = 0;
    while checked < 3000 {
        let mut pos = Position::<R>::start();
        for _ in 0..200 {
            let mut list = MoveList::<R>::new();
            generate(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let flipped = pos.flipped();
            assert_eq!(
                eval.white_score(&flipped),
                -eval.white_score(&pos),
                "{pos:?}"
            );
            assert_eq!(eval.evaluate(&flipped), eval.evaluate(&pos), "{pos:?}");
            checked += 1;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play(&list[(x % list.len() as u64) as usize]);
        }
    }
}

#[test]
fn international_evaluation_is_colour_symmetric() {
    symmetric::<International>(1);
}

#[test]
fn brazilian_evaluation_is_colour_symmetric() {
    symmetric::<Brazilian>(2);
}

#[test]
fn russian_evaluation_is_colour_symmetric() {
    symmetric::<Russian>(3);
}

#[test]
fn canadian_evaluation_is_colour_symmetric() {
    symmetric::<Canadian>(4);
}

#[test]
fn the_start_position_is_level_and_material_counts() {
    let eval = Evaluator::default();
    assert_eq!(eval.white_score(&Position::<International>::start()), 0);
    let up = tiao_draughts::notation::read_fen::<International>("W:W31-50:B1-19").expect("fen");
    assert!(
        eval.white_score(&up) >= 80,
        "a man up: {}",
        eval.white_score(&up)
    );
}
