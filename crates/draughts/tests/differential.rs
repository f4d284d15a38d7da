//! Differential testing: the fast bitboard generator against the simple
//! reference generator of `tests/reference`, on random positions reached by
//! random play-outs from the start and from random king-heavy endgames.
//! Every legal move list must be identical, and every move must produce the
//! same board (and a correct incremental hash).

mod reference;

use reference::{Cell, RefBoard, RefMove, RefRules};
use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, Geometry, International, Move, Position, Rules, Russian, Word,
};
use tiao_draughts::movegen::{MoveList, count, generate, has_capture, has_move};

/// Positions compared per variant.
const POSITIONS: usize = 100_000;

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
        (self.next() % n as u64) as usize
    }
}

fn ref_rules<R: Rules>() -> RefRules {
    match R::VARIANT {
        tiao_draughts::board::Variant::International => RefRules::International,
        tiao_draughts::board::Variant::Brazilian => RefRules::Brazilian,
        tiao_draughts::board::Variant::Russian => RefRules::Russian,
        tiao_draughts::board::Variant::Canadian => RefRules::Canadian,
    }
}

fn to_ref<R: Rules>(pos: &Position<R>) -> RefBoard {
    let mut b = RefBoard::empty(R::Geometry::SIZE as usize, pos.side() == Colour::White);
    for sq in 0..R::Geometry::SQUARES {
        let cell = match pos.piece_at(R::Geometry::bit_of(sq)) {
            None => Cell::Empty,
            Some(p) => match (p.colour, p.king) {
                (Colour::White, false) => Cell::WhiteMan,
                (Colour::White, true) => Cell::WhiteKing,
                (Colour::Black, false) => Cell::BlackMan,
                (Colour::Black, true) => Cell::BlackKing,
            },
        };
        b.set(sq as usize + 1, cell);
    }
    b
}

fn to_ref_move<R: Rules>(mv: &Move<Word<R>>) -> RefMove {
    let sq = |bit: u32| R::Geometry::square_of(bit) as usize + 1;
    let mut captured: Vec<usize> = mv.captured.iter().map(sq).collect();
    captured.sort_unstable();
    RefMove {
        from: sq(mv.from_bit()),
        to: sq(mv.to_bit()),
        captured,
        crowned: mv.promotes,
    }
}

/// Compare both generators on `pos`; returns the fast generator's moves.
fn compare<R: Rules>(pos: &Position<R>) -> MoveList<R> {
    let rules = ref_rules::<R>();
    let board = to_ref(pos);
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    let mut fast: Vec<RefMove> = list.iter().map(to_ref_move::<R>).collect();
    fast.sort();
    let slow = reference::legal_moves(rules, &board);
    assert_eq!(
        fast,
        slow,
        "move lists differ in {}",
        reference::to_fen(&board)
    );
    assert_eq!(
        count(pos),
        slow.len() as u64,
        "bulk count differs in {}",
        reference::to_fen(&board)
    );
    assert_eq!(has_move(pos), !slow.is_empty());
    assert_eq!(has_capture(pos), slow.iter().any(RefMove::is_capture));
    for mv in &list {
        let next = pos.play(mv);
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "incremental hash after {mv:?}"
        );
        let expected = reference::apply(&board, &to_ref_move::<R>(mv));
        assert_eq!(
            to_ref(&next),
            expected,
            "board after {mv:?} in {}",
            reference::to_fen(&board)
        );
    }
    list
}

/// A random position with a few men and kings per side (men never on their crowning row).
fn random_endgame<R: Rules>(rng: &mut Rng) -> Option<Position<R>> {
    let n = R::Geometry::SQUARES as usize;
    let mut free: Vec<u32> = (0..n as u32).collect();
    let mut sets = [Word::<R>::ZERO; 4]; // white men, white kings, black men, black kings
    for (i, set) in sets.iter_mut().enumerate() {
        let pieces = if i % 2 == 1 {
            1 + rng.below(4)
        } else {
            rng.below(5)
        };
        for _ in 0..pieces {
            if free.is_empty() {
                break;
            }
            let sq = free.swap_remove(rng.below(free.len()));
            let bit = R::Geometry::bit_of(sq);
            let crowning = match i {
                0 => R::Geometry::promotion_row(true),
                2 => R::Geometry::promotion_row(false),
                _ => Word::<R>::ZERO,
            };
            if !crowning.has(bit) {
                *set |= Word::<R>::bit(bit);
            }
        }
    }
    let side = if rng.next() & 1 == 0 {
        Colour::White
    } else {
        Colour::Black
    };
    Position::from_bitboards(sets[0], sets[1], sets[2], sets[3], side).ok()
}

fn differential<R: Rules>(seed: u64) {
    let mut rng = Rng(seed);
    let mut compared = 0;
    while compared < POSITIONS {
        // Alternate full games from the start and short games from random endgames.
        let (mut pos, plies) = if rng.next().is_multiple_of(2) {
            (Position::<R>::start(), 300)
        } else {
            match random_endgame::<R>(&mut rng) {
                Some(p) => (p, 40),
                None => continue,
            }
        };
        for _ in 0..plies {
            let list = compare(&pos);
            compared += 1;
            if list.is_empty() {
                break;
            }
            pos = pos.play(&list[rng.below(list.len())]);
        }
    }
}

#[test]
fn international_generator_agrees_with_reference() {
    differential::<International>(1);
}

#[test]
fn brazilian_generator_agrees_with_reference() {
    differential::<Brazilian>(2);
}

#[test]
fn russian_generator_agrees_with_reference() {
    differential::<Russian>(3);
}

#[test]
fn canadian_generator_agrees_with_reference() {
    differential::<Canadian>(4);
}
