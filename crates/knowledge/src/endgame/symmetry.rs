//! Colour symmetry and raw-bitboard helpers.
//!
//! Tables store White-to-move positions only. A Black-to-move position is
//! looked up as its mirror: the board turned half a turn (square `s` becomes
//! `N - 1 - s`) and the colours swapped, exactly `Position::flipped`. In the
//! ghost-bit layout the half turn is a bit reversal, because the ghost bits
//! sit symmetrically, so it costs a few instructions instead of a loop.

use tiao_core::bits::BitWord;
use tiao_draughts::board::{Colour, Dir, Geometry, Position, Rules, Word};

/// A position with White to move, as four bitboards widened to `u128`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sides {
    pub wm: u128,
    pub wk: u128,
    pub bm: u128,
    pub bk: u128,
}

impl Sides {
    pub fn white(&self) -> u128 {
        self.wm | self.wk
    }
    pub fn black(&self) -> u128 {
        self.bm | self.bk
    }
    pub fn material(&self) -> super::Material {
        let c = |x: u128| x.count_ones().min(255) as u8;
        super::Material::new(c(self.wm), c(self.wk), c(self.bm), c(self.bk))
    }
}

/// The half turn of the board in the bit layout of `G`.
#[inline(always)]
pub(crate) fn mirror<G: Geometry>(w: u128) -> u128 {
    w.reverse_bits() >> (128 - G::BITS)
}

/// Mirror and swap colours: the same position seen from the other side.
#[inline(always)]
pub(crate) fn flip<G: Geometry>(s: &Sides) -> Sides {
    Sides {
        wm: mirror::<G>(s.bm),
        wk: mirror::<G>(s.bk),
        bm: mirror::<G>(s.wm),
        bk: mirror::<G>(s.wk),
    }
}

/// The White-to-move form of a position (mirrored if Black is to move).
#[inline]
pub(crate) fn canonical<R: Rules>(pos: &Position<R>) -> Sides {
    let s = Sides {
        wm: pos.men(Colour::White).to_u128(),
        wk: pos.kings(Colour::White).to_u128(),
        bm: pos.men(Colour::Black).to_u128(),
        bk: pos.kings(Colour::Black).to_u128(),
    };
    if pos.side() == Colour::White {
        s
    } else {
        flip::<R::Geometry>(&s)
    }
}

/// The position of `s` with White to move. Fails only on bitboards that no
/// index produces (pieces on top of each other, men on a crowning row).
#[inline]
pub(crate) fn to_position<R: Rules>(s: &Sides) -> Option<Position<R>> {
    Position::<R>::from_bitboards(
        Word::<R>::from_u128(s.wm),
        Word::<R>::from_u128(s.wk),
        Word::<R>::from_u128(s.bm),
        Word::<R>::from_u128(s.bk),
        Colour::White,
    )
    .ok()
}

/// Whether a side with these men and kings can capture a piece of `opp`
/// (`empty`: the empty squares). The same test as the move generator's,
/// on raw bitboards, so the solver need not build positions for it.
#[inline(always)]
pub(crate) fn can_capture<G: Geometry>(men: G::W, kings: G::W, opp: G::W, empty: G::W) -> bool {
    let mut hits = G::W::ZERO;
    for d in Dir::ALL {
        let next_empty = G::step(empty, d.reverse());
        hits |= G::step(men, d) & opp & next_empty;
        if kings.any() {
            hits |= G::slide(kings, d, empty) & opp & next_empty;
        }
    }
    hits.any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiao_draughts::board::{B8, B10, B12, Canadian, International, Russian};
    use tiao_draughts::movegen::has_capture;

    use tiao_core::rng::Rng;

    fn random_position<R: Rules>(rng: &mut Rng) -> Option<Position<R>> {
        let n = R::Geometry::SQUARES;
        let mut sets = [0u128; 4];
        let mut used = 0u128;
        let pieces = 2 + rng.next_u64() % 6;
        for _ in 0..pieces {
            let sq = (rng.next_u64() % u64::from(n)) as u32;
            let b = R::Geometry::bit_of(sq);
            if used >> b & 1 == 1 {
                continue;
            }
            used |= 1 << b;
            sets[(rng.next_u64() % 4) as usize] |= 1 << b;
        }
        let side = if rng.next_u64().is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        };
        Position::<R>::from_bitboards(
            Word::<R>::from_u128(sets[0]),
            Word::<R>::from_u128(sets[1]),
            Word::<R>::from_u128(sets[2]),
            Word::<R>::from_u128(sets[3]),
            side,
        )
        .ok()
    }

    fn check<R: Rules>() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut seen = 0;
        while seen < 20_000 {
            let Some(p) = random_position::<R>(&mut rng) else {
                continue;
            };
            seen += 1;
            let f = p.flipped();
            let a = canonical(&p);
            let b = canonical(&f);
            // A position and its mirror have the same White-to-move form.
            assert_eq!(a, b);
            let us = p.side();
            let empty = p.empty_squares();
            assert_eq!(
                can_capture::<R::Geometry>(p.men(us), p.kings(us), p.pieces(!us), empty),
                has_capture(&p)
            );
        }
    }

    #[test]
    fn mirror_matches_position_flipped_and_capture_test_matches_movegen() {
        check::<International>();
        check::<Russian>();
        check::<Canadian>();
        assert_eq!(mirror::<B10>(1), 1 << 53);
        assert_eq!(mirror::<B8>(1 << 8), 1 << 26);
        assert_eq!(mirror::<B12>(1), 1 << 76);
    }
}
