//! The horizon moves of a quiet position, which quiescence looks at after
//! standing pat: promotions always, exchanges (the opponent must take, and
//! whatever it takes, a capture comes back) only while no king is on the
//! board. International positions, numeric squares, White to move.

use tiao_draughts::board::{International, Position};
use tiao_draughts::movegen::{MoveList, horizon_moves};
use tiao_draughts::notation::{MoveFormat, read_fen, write_move};

fn horizon(fen: &str) -> Vec<String> {
    let pos: Position<International> = read_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::<International>::new();
    horizon_moves(&pos, &mut list);
    let mut moves: Vec<String> = list
        .iter()
        .map(|mv| write_move(&pos, mv, MoveFormat::Hub))
        .collect();
    moves.sort();
    moves
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
