//! Bitboard words.
//!
//! Every board size stores one bit per playable square (plus ghost squares,
//! see `tiao_draughts::board::geometry`). 8x8 and 10x10 fit in a `u64`; 12x12 needs a `u128`. The word
//! is an associated type of the board geometry, so each size is compiled with
//! its own word and the small boards never pay for 128-bit arithmetic.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned machine word used as a set of squares.
pub trait BitWord:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    const ONE: Self;
    /// Number of bits in the word.
    const WIDTH: u32;

    fn count(self) -> u32;
    /// Index of the lowest set bit; undefined (returns `WIDTH`) for zero.
    fn lsb(self) -> u32;
    /// Widen to `u128` (used by code that is not speed-critical: notation, hashing of tables).
    fn to_u128(self) -> u128;
    /// Narrow from `u128`; bits above `WIDTH` are dropped.
    fn from_u128(v: u128) -> Self;

    #[inline(always)]
    fn bit(i: u32) -> Self {
        Self::ONE << i
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        (self >> i) & Self::ONE != Self::ZERO
    }
    /// The word without its lowest set bit.
    fn clear_lsb(self) -> Self;
    /// Iterator over the indices of the set bits, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

macro_rules! impl_bitword {
    ($t:ty) => {
        impl BitWord for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const WIDTH: u32 = <$t>::BITS;
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

impl_bitword!(u64);
impl_bitword!(u128);

/// Iterates over set-bit indices of a word, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<W>(W);

impl<W: BitWord> Iterator for BitIter<W> {
    type Item = u32;
    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            None
        } else {
            let i = self.0.lsb();
            self.0 = self.0.clear_lsb();
            Some(i)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<W: BitWord> ExactSizeIterator for BitIter<W> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_set_bits_in_order() {
        let w: u128 = (1 << 3) | (1 << 70) | (1 << 100);
        assert_eq!(w.iter().collect::<Vec<_>>(), vec![3, 70, 100]);
        let v: u64 = 0b1011;
        assert_eq!(v.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
        assert_eq!(v.iter().len(), 3);
    }

    #[test]
    fn clear_lsb_removes_only_lowest_bit() {
        assert_eq!(0b1100u64.clear_lsb(), 0b1000);
        assert_eq!((1u128 << 90 | 1 << 80).clear_lsb(), 1 << 90);
    }
}
