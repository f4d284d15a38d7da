//! The horizon moves of a quiet position, which quiescence looks at after
//! standing pat: promotions always, exchanges (the opponent must take, and
//! whatever it takes, a capture comes back) only while no king is on the
//! board. International positions with numeric squares, then every quiet
//! position of random games of three rule sets against the definition
//! played out move by move.

use tiao_core::bits::BitWord;
use tiao_core::rng::Rng;
use tiao_draughts::board::{Brazilian, International, Position, Rules, Russian};
use tiao_draughts::movegen::{MoveList, generate, has_capture, horizon_moves};
use tiao_draughts::notation::{MoveFormat, read_fen, write_move};

/// The horizon moves of `pos`, sorted, in Hub notation.
fn horizon_of<R: Rules>(pos: &Position<R>) -> Vec<String> {
    let mut list = MoveList::<R>::new();
    horizon_moves(pos, &mut list);
    let mut moves: Vec<String> = list
        .iter()
        .map(|mv| write_move(pos, mv, MoveFormat::Hub))
        .collect();
    moves.sort();
    moves
}

fn horizon(fen: &str) -> Vec<String> {
    let pos: Position<International> = read_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    horizon_of(&pos)
}

#[test]
fn a_man_about_to_crown_is_a_horizon_move() {
    assert_eq!(horizon("W:W6,45:B20"), vec!["6-1"]);
}

#[test]
fn a_man_offered_and_taken_back_is_an_exchange() {
    // 33-28 22x33 39x28 (44 stops 22x33 going on over 39); 33-29, 39-34
    // and 44-40 offer nothing.
    assert_eq!(horizon("W:W33,39,44:B22"), vec!["33-28"]);
}

#[test]
fn a_man_given_away_for_nothing_is_not_an_exchange() {
    // 33-28 22x33 and nothing takes back.
    assert!(horizon("W:W33:B22").is_empty());
    // 33-28 22x33x44: the taker runs on over 39, out of reach.
    assert!(horizon("W:W33,39:B22").is_empty());
}

#[test]
fn with_a_king_on_the_board_exchanges_are_not_looked_at() {
    assert!(horizon("W:W33,39,44:B22,K5").is_empty());
    // Promotions still are.
    assert_eq!(horizon("W:W6,33,39,44:B22,K5"), vec!["6-1"]);
}

#[test]
fn a_position_with_a_capture_pending_has_no_horizon_moves() {
    // 28x17 is forced: quiescence resolves it as a capture, not here.
    assert!(horizon("W:W28,33:B22").is_empty());
}

#[test]
fn black_takes_back_too() {
    // The position above turned half a turn: 18-23 29x18 12x23.
    assert_eq!(horizon("B:W29:B18,12,7"), vec!["18-23"]);
}

/// The definition, by playing the moves out: a quiet move the opponent
/// must answer by a capture, each of which allows a capture back.
fn exchanges_played_out<R: Rules>(pos: &Position<R>) -> Vec<String> {
    let mut all = MoveList::<R>::new();
    generate(pos, &mut all);
    let mut found = Vec::new();
    for mv in &all {
        let after = pos.play(mv);
        let mut replies = MoveList::<R>::new();
        generate(&after, &mut replies);
        if mv.promotes
            || (has_capture(&after) && replies.iter().all(|r| has_capture(&after.play(r))))
        {
            found.push(write_move(pos, mv, MoveFormat::Hub));
        }
    }
    found.sort();
    found
}

/// Random games until a king appears, checking every quiet position on the
/// way (both sides to move, exchanges found and not).
fn agrees_with_playing_out<R: Rules>(seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..200 {
        let mut pos = Position::<R>::start();
        loop {
            if pos.all_kings().any() {
                break;
            }
            let mut list = MoveList::<R>::new();
            generate(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            if !has_capture(&pos) {
                assert_eq!(horizon_of(&pos), exchanges_played_out(&pos), "{pos:?}");
                checked += usize::from(!horizon_of(&pos).is_empty());
            }
            pos = pos.play(&list[rng.below(list.len())]);
        }
    }
    checked
}

#[test]
fn exchanges_are_the_moves_that_play_out_as_exchanges() {
    // Each variant must meet positions with horizon moves, or the test
    // compares empty lists.
    assert!(agrees_with_playing_out::<International>(1) > 100);
    assert!(agrees_with_playing_out::<Russian>(2) > 100);
    assert!(agrees_with_playing_out::<Brazilian>(3) > 100);
}
