//! Properties of positions, checked over thousands of positions per variant
//! reached by random play-outs (a small deterministic xorshift generator, so
//! every run sees the same positions):
//!
//! - the incremental hash equals `compute_hash()`;
//! - playing a move gives the position rebuilt from FEN after applying the
//!   move by hand (origin, destination, captured set, crowning), hash included;
//! - `GameHistory::play` agrees with `Position::play`;
//! - `write_fen` -> `read_fen` round trips, in numeric and algebraic squares;
//! - `flipped().flipped()` is the identity; the flipped position has the
//!   mirrored moves (so the same number of them) and the same perft.

use std::collections::HashSet;

use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, Geometry, International, Move, Position, Rules, Russian,
    SquareStyle, Word,
};
use tiao_draughts::movegen::{Counting, MoveList, count, generate, has_capture, has_move, perft};
use tiao_draughts::notation::{read_fen, write_fen, write_fen_with};
use tiao_draughts::record::GameHistory;

/// xorshift64* (Vigna): small, fast and good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn legal<R: Rules>(pos: &Position<R>) -> Vec<Move<Word<R>>> {
    let mut list = MoveList::<R>::new();
    generate(pos, &mut list);
    list.to_vec()
}

/// Square number (1-based) of a bit index.
fn number<R: Rules>(bit: u32) -> u32 {
    R::Geometry::square_of(bit) + 1
}

/// Bit index of the square turned half a turn with the board.
fn mirror_bit<R: Rules>(bit: u32) -> u32 {
    R::Geometry::bit_of(R::Geometry::SQUARES - 1 - R::Geometry::square_of(bit))
}

/// The FEN of the position after `mv`, built by hand from square numbers:
/// the moving piece leaves its origin and stands on its destination (a king
/// if it was one or is crowned), the captured pieces are gone, the other
/// side moves.
fn fen_after_by_hand<R: Rules>(pos: &Position<R>, mv: &Move<Word<R>>) -> String {
    let us = pos.side();
    let captured: Vec<u32> = mv.captured.iter().collect();
    let was_king = pos.kings(us).has(mv.from_bit());
    let mut sides: [Vec<(u32, bool)>; 2] = [Vec::new(), Vec::new()];
    for c in [Colour::White, Colour::Black] {
        for b in pos.pieces(c).iter() {
            if c == us && b == mv.from_bit() {
                continue;
            }
            if c != us && captured.contains(&b) {
                continue;
            }
            sides[c.index()].push((number::<R>(b), pos.kings(c).has(b)));
        }
    }
    sides[us.index()].push((number::<R>(mv.to_bit()), was_king || mv.promotes));
    let list = |v: &mut Vec<(u32, bool)>| {
        v.sort_unstable();
        v.iter()
            .map(|&(n, k)| if k { format!("K{n}") } else { n.to_string() })
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{}:W{}:B{}",
        (!us).letter(),
        list(&mut sides[0]),
        list(&mut sides[1])
    )
}

#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    with_kings: usize,
    captures: usize,
    promotions: usize,
    perft3: usize,
}

/// Every property on one position.
fn check_position<R: Rules>(pos: &Position<R>, deep: bool, stats: &mut Stats) {
    let fen = write_fen(pos);
    stats.positions += 1;
    if pos.all_kings().any() {
        stats.with_kings += 1;
    }

    // Hash.
    assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash of {fen}");

    // FEN round trips, in the variant's style and in both square styles.
    for text in [
        fen.clone(),
        write_fen_with(pos, SquareStyle::Numeric),
        write_fen_with(pos, SquareStyle::Algebraic),
    ] {
        let back = read_fen::<R>(&text).unwrap_or_else(|e| panic!("{text} does not read: {e}"));
        assert_eq!(back, *pos, "{text} round trip");
        assert_eq!(back.hash(), pos.hash(), "{text} round trip hash");
        assert_eq!(write_fen(&back), fen);
    }

    // Flipping.
    let flipped = pos.flipped();
    assert_eq!(flipped.side(), !pos.side(), "{fen}");
    assert_eq!(
        flipped.hash(),
        flipped.compute_hash(),
        "flipped hash of {fen}"
    );
    let back = flipped.flipped();
    assert_eq!(back, *pos, "flipped twice: {fen}");
    assert_eq!(back.hash(), pos.hash(), "flipped twice, hash: {fen}");
    let moves = legal(pos);
    let flipped_moves = legal(&flipped);
    assert_eq!(
        count(&flipped),
        count(pos),
        "move count of {fen} and its flipped {}",
        write_fen(&flipped)
    );
    assert_eq!(flipped_moves.len(), moves.len(), "{fen} flipped");
    let mirrored: HashSet<(u32, u32, u128, bool)> = moves
        .iter()
        .map(|m| {
            let cap = m
                .captured
                .iter()
                .fold(0u128, |acc, b| acc | 1u128 << mirror_bit::<R>(b));
            (
                mirror_bit::<R>(m.from_bit()),
                mirror_bit::<R>(m.to_bit()),
                cap,
                m.promotes,
            )
        })
        .collect();
    let of_flipped: HashSet<(u32, u32, u128, bool)> = flipped_moves
        .iter()
        .map(|m| (m.from_bit(), m.to_bit(), m.captured.to_u128(), m.promotes))
        .collect();
    assert_eq!(mirrored, of_flipped, "moves of {fen} mirrored");
    assert_eq!(has_move(&flipped), has_move(pos));
    assert_eq!(has_capture(&flipped), has_capture(pos));
    let d = if deep { 3 } else { 2 };
    if deep {
        stats.perft3 += 1;
    }
    for counting in [Counting::Bulk, Counting::MakeEveryMove] {
        assert_eq!(
            perft(&flipped, d, counting),
            perft(pos, d, counting),
            "perft({d}) of {fen} and its flipped"
        );
    }

    // Every move: against the position rebuilt by hand, and through GameHistory.
    let mut game = GameHistory::new(*pos);
    let distinct: HashSet<&Move<Word<R>>> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "a move listed twice in {fen}");
    for mv in &moves {
        if mv.is_capture() {
            stats.captures += 1;
        }
        if mv.promotes {
            stats.promotions += 1;
            assert!(!pos.kings(pos.side()).has(mv.from_bit()), "a king crowned");
        }
        let after = pos.play(mv);
        assert_eq!(
            after.hash(),
            after.compute_hash(),
            "hash after a move in {fen}"
        );
        let text = fen_after_by_hand(pos, mv);
        let rebuilt = read_fen::<R>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(after, rebuilt, "{fen}, move {mv:?}: expected {text}");
        assert_eq!(after.hash(), rebuilt.hash(), "{fen}, move {mv:?}: hash");
        let mut copy = *pos;
        copy.make(mv);
        assert_eq!(copy, after);
        assert_eq!(copy.hash(), after.hash());
        game.play(*mv);
        assert_eq!(*game.position(), after);
        assert_eq!(game.position().hash(), after.hash());
        game.undo();
        assert_eq!(*game.position(), *pos);
    }
}

/// A random position: a few men and kings of each side on random squares
/// (men never on their crowning row), a random side to move.
fn random_position<R: Rules>(rng: &mut Rng) -> Position<R> {
    loop {
        let mut sets = [[Word::<R>::ZERO; 2]; 2];
        let mut taken = Word::<R>::ZERO;
        for (c, set) in sets.iter_mut().enumerate() {
            let pieces = 1 + rng.below(R::MEN as usize / 2);
            for _ in 0..pieces {
                let b = R::Geometry::bit_of(rng.below(R::Geometry::SQUARES as usize) as u32);
                if taken.has(b) {
                    continue;
                }
                let king = rng.below(3) == 0;
                let crowning_row = R::Geometry::promotion_row(c == 0);
                if !king && crowning_row.has(b) {
                    continue;
                }
                taken |= Word::<R>::bit(b);
                set[usize::from(king)] |= Word::<R>::bit(b);
            }
        }
        let side = if rng.below(2) == 0 {
            Colour::White
        } else {
            Colour::Black
        };
        if let Ok(p) =
            Position::from_bitboards(sets[0][0], sets[0][1], sets[1][0], sets[1][1], side)
        {
            return p;
        }
    }
}

/// Random play-outs: `from_start` games from the start position and
/// `from_random` from random positions, each up to `max_plies` plies; every
/// position on the way is checked, every `deep_every`-th with perft(3).
fn random_playouts<R: Rules>(seed: u64, from_start: usize, from_random: usize, max_plies: usize) {
    let mut rng = Rng::new(seed);
    let mut stats = Stats::default();
    let deep_every = 16;
    for g in 0..from_start + from_random {
        let mut pos = if g < from_start {
            Position::<R>::start()
        } else {
            random_position::<R>(&mut rng)
        };
        for _ in 0..max_plies {
            let deep = stats.positions % deep_every == 0;
            check_position(&pos, deep, &mut stats);
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{:?}: {stats:?}", R::VARIANT);
    assert!(stats.positions >= 3000, "{stats:?}");
    assert!(stats.with_kings >= 500, "{stats:?}");
    assert!(stats.captures >= 1000, "{stats:?}");
    assert!(stats.promotions >= 50, "{stats:?}");
}

#[test]
fn international_random_positions_properties() {
    random_playouts::<International>(1, 30, 60, 150);
}

#[test]
fn brazilian_random_positions_properties() {
    random_playouts::<Brazilian>(2, 60, 100, 120);
}

#[test]
fn russian_random_positions_properties() {
    random_playouts::<Russian>(3, 60, 100, 120);
}

#[test]
fn canadian_random_positions_properties() {
    random_playouts::<Canadian>(4, 25, 60, 200);
}

/// The start positions: flipping gives the start position with Black to
/// move (the start is symmetric), and perft agrees.
#[test]
fn start_positions_are_symmetric() {
    fn check<R: Rules>() {
        let start = Position::<R>::start();
        assert_eq!(start.flipped(), start.with_side(Colour::Black));
        for d in 1..=4 {
            assert_eq!(
                perft(&start.flipped(), d, Counting::Bulk),
                perft(&start, d, Counting::Bulk),
                "{:?} d{d}",
                R::VARIANT
            );
        }
    }
    check::<International>();
    check::<Brazilian>();
    check::<Russian>();
    check::<Canadian>();
}
