//! Quiet moves the quiescence search looks at in a quiet position, after
//! standing pat: promotions, and, while no king is on the board, exchanges
//! (a man steps where the opponent must take it and, whatever it takes, a
//! capture comes back). Scan 2.0 looks at the same two kinds: a static
//! evaluation cannot see a man about to crown, nor a trade that is one
//! move away, and in the king-less middle game the trades decide.

use super::{MoveList, Sides, any_capture, capture, generate};
use crate::board::{Colour, Move, Position, Rules, Word};
use tiao_core::bits::BitWord;

/// The horizon moves of a quiet position (cleared first): promotions, then
/// exchanges when neither side has a king.
pub fn horizon_moves<R: Rules>(pos: &Position<R>, list: &mut MoveList<R>) {
    list.clear();
    let mut all = MoveList::<R>::new();
    generate(pos, &mut all);
    // With a capture pending every move is one (the rule forces it): the
    // position is not quiet and quiescence resolves it as captures.
    if all.first().is_some_and(|mv| mv.is_capture()) {
        return;
    }
    let exchanges = !pos.all_kings().any();
    let mut replies = MoveList::<R>::new();
    for mv in &all {
        if mv.promotes || (exchanges && is_exchange(pos, mv, &mut replies)) {
            list.push(*mv);
        }
    }
}

/// Whether the opponent must capture after `mv` and every capture it has
/// leaves the mover a capture back. Only asked with no king on the board,
/// so the two sides' men are the whole position and the test runs on
/// bitboards: no position is played, no hash updated.
fn is_exchange<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>, replies: &mut MoveList<R>) -> bool {
    let us = pos.side();
    let moved = Word::<R>::bit(mv.from_bit()) ^ Word::<R>::bit(mv.to_bit());
    let own = pos.men(us) ^ moved;
    let opp = pos.men(!us);
    let empty = pos.empty_squares() ^ moved;
    let reply = Sides {
        men: opp,
        kings: Word::<R>::ZERO,
        opp: own,
        empty,
    };
    // Most quiet moves offer nothing: one bitboard test settles them.
    if !any_capture::<R>(&reply) {
        return false;
    }
    replies.clear();
    capture::generate::<R>(&reply, us == Colour::Black, replies);
    replies.iter().all(|r| {
        let taken = Word::<R>::bit(r.from_bit()) ^ Word::<R>::bit(r.to_bit());
        // A man crowned by the reply is still a piece to take back.
        let back = Sides {
            men: own & !r.captured,
            kings: Word::<R>::ZERO,
            opp: opp ^ taken,
            empty: (empty | r.captured) ^ taken,
        };
        any_capture::<R>(&back)
    })
}
