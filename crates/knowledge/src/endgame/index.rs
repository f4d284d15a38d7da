//! The index of a slice: a bijection between the positions of a slice and
//! the numbers `0..size`, with no holes, built from combinatorial ranks of
//! each group of pieces.
//!
//! A position is `men_rank * kings_count + kings_rank`:
//!
//! - **Men.** White men stand anywhere but on row 0 (where they would be
//!   kings), Black men anywhere but on the last row; the rows in between are
//!   shared. The white men are split by how many (`j`) stand on the last row
//!   (Black's crowning row, where no black man can be), so that the black men
//!   always have exactly `N - H - (wm - j)` squares to choose from. For each
//!   `j` the men placements form a block of
//!   `C(H, j) * C(T, wm - j) * C(N - H - wm + j, bm)` numbers (`N` squares,
//!   `H` per row, `T = N - 2H` shared), and the blocks follow each other.
//! - **Kings.** Kings stand on the `F = N - wm - bm` squares the men leave
//!   free: white kings ranked among them, then black kings among the rest.
//!
//! A set of `k` squares with "compressed" indices `c1 < ... < ck` (index
//! among the squares still available) has rank `C(c1,1) + ... + C(ck,k)`
//! (the combinatorial number system). Kings are the minor part of the
//! index, so all positions with the same men are consecutive: the solver
//! works on such runs, and moving a king changes the index only a little,
//! which keeps neighbouring values alike for the compressor.

use super::error::EgdbError;
use super::material::{MAX_COUNT, Material};
use std::marker::PhantomData;
use tiao_core::bits::BitWord;
use tiao_draughts::board::Geometry;

/// Largest number of squares of a board (12x12).
const MAX_SQUARES: usize = 72;
const MAX_K: usize = MAX_COUNT + 1;

const fn binomial_table() -> [[u64; MAX_K]; MAX_SQUARES + 1] {
    let mut t = [[0u64; MAX_K]; MAX_SQUARES + 1];
    let mut n = 0;
    while n <= MAX_SQUARES {
        t[n][0] = 1;
        let mut k = 1;
        while k < MAX_K {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOM: [[u64; MAX_K]; MAX_SQUARES + 1] = binomial_table();

/// `C(n, k)`, zero when `k > n`. `n <= 72`, `k <= 8`.
#[inline(always)]
pub fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// Bits below bit `b`.
#[inline(always)]
fn below(b: u32) -> u128 {
    (1u128 << b) - 1
}

/// The `c`-th set bit (from 0) of `set`; `None` if there are not that many.
#[inline]
fn select(mut set: u128, c: u32) -> Option<u32> {
    for _ in 0..c {
        set &= set.wrapping_sub(1);
    }
    (set != 0).then(|| set.trailing_zeros())
}

/// Unrank a `k`-subset of `0..n` in the combinatorial number system, into
/// `out[..k]` ascending. `None` if `r >= C(n, k)`.
#[inline]
fn unrank_subset(mut r: u64, k: u32, n: u32, out: &mut [u32; MAX_K]) -> Option<()> {
    if r >= binom(n, k) {
        return None;
    }
    let mut limit = n;
    for i in (2..=k).rev() {
        // Largest c < limit with C(c, i) <= r (C(i-1, i) = 0, so one exists):
        // binary search, since r < C(limit, i).
        let (mut lo, mut hi) = (i - 1, limit.checked_sub(1)?);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if binom(mid, i) <= r {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        out[(i - 1) as usize] = lo;
        r -= binom(lo, i);
        limit = lo;
    }
    if k >= 1 {
        // C(c, 1) = c.
        if r >= u64::from(limit) {
            return None;
        }
        out[0] = r as u32;
    }
    Some(())
}

/// The squares free of men for one placement of the men, for fast ranking
/// and unranking of the kings (the solver does millions per placement).
#[derive(Clone, Debug)]
pub struct KingsLayout {
    /// Bit index of the `c`-th free square.
    free: [u8; 128],
    /// Compressed index (rank among the free squares) of each free bit.
    comp: [u8; 128],
}

/// The index of one slice on board geometry `G`. Bitboards are given in the
/// board's bit layout (with ghost bits, see `board::geometry`), widened to `u128`.
#[derive(Clone, Debug)]
pub struct SliceIndex<G> {
    material: Material,
    wm: u32,
    wk: u32,
    bm: u32,
    bk: u32,
    /// `offsets[j]`: first men rank with `j` white men on the last row.
    offsets: [u64; MAX_K + 1],
    men_count: u64,
    free: u32,
    /// `C(F - wk, bk)`: black-king placements per white-king placement.
    bk_span: u64,
    kings_count: u64,
    size: u64,
    geometry: PhantomData<G>,
}

impl<G: Geometry> SliceIndex<G> {
    const N: u32 = G::SQUARES;
    const H: u32 = G::HALF;
    const T: u32 = G::SQUARES - 2 * G::HALF;

    pub fn new(material: Material) -> Result<Self, EgdbError> {
        let (wm, wk, bm, bk) = (
            u32::from(material.white_men),
            u32::from(material.white_kings),
            u32::from(material.black_men),
            u32::from(material.black_kings),
        );
        let (n, h, t) = (Self::N, Self::H, Self::T);
        let too_big = || EgdbError::Unsupported(format!("slice {material} is too large to index"));
        if material.key().is_none() || wm + bm > n - h || material.pieces() > n {
            return Err(too_big());
        }
        let mut offsets = [0u64; MAX_K + 1];
        let mut total = 0u64;
        for j in 0..=wm.min(h) {
            offsets[j as usize] = total;
            let shared = wm - j;
            let block = binom(h, j)
                .checked_mul(binom(t, shared))
                .and_then(|x| x.checked_mul(binom(n - h - shared, bm)))
                .ok_or_else(too_big)?;
            total = total.checked_add(block).ok_or_else(too_big)?;
        }
        for j in wm.min(h) + 1..=MAX_K as u32 {
            offsets[j as usize] = total;
        }
        let free = n - wm - bm;
        let bk_span = binom(free - wk, bk);
        let kings_count = binom(free, wk).checked_mul(bk_span).ok_or_else(too_big)?;
        let size = total.checked_mul(kings_count).ok_or_else(too_big)?;
        Ok(SliceIndex {
            material,
            wm,
            wk,
            bm,
            bk,
            offsets,
            men_count: total,
            free,
            bk_span,
            kings_count,
            size,
            geometry: PhantomData,
        })
    }

    pub fn material(&self) -> Material {
        self.material
    }
    /// Number of positions of the slice.
    pub fn size(&self) -> u64 {
        self.size
    }
    /// Number of placements of the men.
    pub fn men_count(&self) -> u64 {
        self.men_count
    }
    /// Number of placements of the kings for any one placement of the men.
    pub fn kings_count(&self) -> u64 {
        self.kings_count
    }

    /// Whether the bitboards have this slice's piece counts.
    pub fn matches(&self, wm: u128, wk: u128, bm: u128, bk: u128) -> bool {
        wm.count_ones() == self.wm
            && wk.count_ones() == self.wk
            && bm.count_ones() == self.bm
            && bk.count_ones() == self.bk
    }

    /// Rank of a placement of the men (a valid one of this slice).
    #[inline]
    pub fn men_rank(&self, wm: u128, bm: u128) -> u64 {
        let (n, h) = (Self::N, Self::H);
        let (mut r_last, mut r_shared, mut i_last, mut i_shared) = (0u64, 0u64, 0u32, 0u32);
        let mut w = wm;
        while w != 0 {
            let b = w.trailing_zeros();
            w &= w - 1;
            let s = G::square_of(b);
            if s >= n - h {
                i_last += 1;
                r_last += binom(s - (n - h), i_last);
            } else {
                i_shared += 1;
                r_shared += binom(s - h, i_shared);
            }
        }
        let mut r_b = 0u64;
        let mut i = 0u32;
        let mut x = bm;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            // White men below a black man are all on shared rows.
            let c = G::square_of(b) - (wm & below(b)).count_ones();
            i += 1;
            r_b += binom(c, i);
        }
        let shared = i_shared;
        self.offsets[i_last as usize]
            + (r_last * binom(Self::T, shared) + r_shared) * binom(n - h - shared, self.bm)
            + r_b
    }

    /// The men of a men rank: (white men, black men). `None` if out of range.
    pub fn men_unrank(&self, r: u64) -> Option<(u128, u128)> {
        if r >= self.men_count {
            return None;
        }
        let (n, h, t) = (Self::N, Self::H, Self::T);
        let mut j = 0;
        while j < self.wm.min(h) && self.offsets[(j + 1) as usize] <= r {
            j += 1;
        }
        let shared = self.wm - j;
        let r = r - self.offsets[j as usize];
        let b_span = binom(n - h - shared, self.bm);
        let t_span = binom(t, shared);
        let r_b = r % b_span;
        let r2 = r / b_span;
        let (r_shared, r_last) = (r2 % t_span, r2 / t_span);
        let mut c = [0u32; MAX_K];
        let mut wm = 0u128;
        unrank_subset(r_last, j, h, &mut c)?;
        for &ci in &c[..j as usize] {
            wm |= 1u128 << G::bit_of(n - h + ci);
        }
        unrank_subset(r_shared, shared, t, &mut c)?;
        for &ci in &c[..shared as usize] {
            wm |= 1u128 << G::bit_of(h + ci);
        }
        unrank_subset(r_b, self.bm, n - h - shared, &mut c)?;
        // Black men may stand on squares 0..N-H not taken by white men.
        let allowed = (0..n - h).fold(0u128, |a, s| a | 1u128 << G::bit_of(s)) & !wm;
        let mut bm = 0u128;
        for &ci in &c[..self.bm as usize] {
            bm |= 1u128 << select(allowed, ci)?;
        }
        Some((wm, bm))
    }

    /// Rank of a placement of the kings, given all men (`men`).
    #[inline]
    pub fn kings_rank(&self, men: u128, wk: u128, bk: u128) -> u64 {
        let mut rw = 0u64;
        let mut i = 0u32;
        let mut x = wk;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            i += 1;
            rw += binom(G::square_of(b) - (men & below(b)).count_ones(), i);
        }
        let occ = men | wk;
        let mut rb = 0u64;
        i = 0;
        x = bk;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            i += 1;
            rb += binom(G::square_of(b) - (occ & below(b)).count_ones(), i);
        }
        rw * self.bk_span + rb
    }

    /// The kings of a kings rank, given all men: (white kings, black kings).
    pub fn kings_unrank(&self, men: u128, r: u64) -> Option<(u128, u128)> {
        if r >= self.kings_count {
            return None;
        }
        let all = G::ALL.to_u128();
        let free = all & !men;
        let mut c = [0u32; MAX_K];
        unrank_subset(r / self.bk_span, self.wk, self.free, &mut c)?;
        let mut wk = 0u128;
        for &ci in &c[..self.wk as usize] {
            wk |= 1u128 << select(free, ci)?;
        }
        unrank_subset(r % self.bk_span, self.bk, self.free - self.wk, &mut c)?;
        let mut bk = 0u128;
        for &ci in &c[..self.bk as usize] {
            bk |= 1u128 << select(free & !wk, ci)?;
        }
        Some((wk, bk))
    }

    /// The layout of the free squares for the men `men`.
    pub fn kings_layout(&self, men: u128) -> KingsLayout {
        let mut lay = KingsLayout {
            free: [0; 128],
            comp: [0; 128],
        };
        let mut free = G::ALL.to_u128() & !men;
        let mut c = 0;
        while free != 0 {
            let b = free.trailing_zeros();
            free &= free - 1;
            lay.free[c] = b as u8;
            lay.comp[b as usize] = c as u8;
            c += 1;
        }
        lay
    }

    /// `kings_rank` through a layout (same result, faster).
    #[inline(always)]
    pub fn kings_rank_in(&self, lay: &KingsLayout, wk: u128, bk: u128) -> u64 {
        let mut rw = 0u64;
        let mut i = 0u32;
        let mut x = wk;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            i += 1;
            rw += binom(u32::from(lay.comp[b as usize]), i);
        }
        let mut rb = 0u64;
        i = 0;
        x = bk;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            i += 1;
            let c = u32::from(lay.comp[b as usize]) - (wk & below(b)).count_ones();
            rb += binom(c, i);
        }
        rw * self.bk_span + rb
    }

    /// `kings_unrank` through a layout (same result, faster).
    #[inline]
    pub fn kings_unrank_in(&self, lay: &KingsLayout, r: u64) -> Option<(u128, u128)> {
        if r >= self.kings_count {
            return None;
        }
        let mut cw = [0u32; MAX_K];
        unrank_subset(r / self.bk_span, self.wk, self.free, &mut cw)?;
        let mut wk = 0u128;
        for &ci in &cw[..self.wk as usize] {
            wk |= 1u128 << lay.free[ci as usize];
        }
        let mut cb = [0u32; MAX_K];
        unrank_subset(r % self.bk_span, self.bk, self.free - self.wk, &mut cb)?;
        let mut bk = 0u128;
        for &ci in &cb[..self.bk as usize] {
            // Skip the free squares the white kings took (both lists ascend).
            let mut idx = ci;
            for &w in &cw[..self.wk as usize] {
                if w <= idx {
                    idx += 1;
                } else {
                    break;
                }
            }
            bk |= 1u128 << lay.free[idx as usize];
        }
        Some((wk, bk))
    }

    /// Index of a position of this slice, White to move:
    /// white men, white kings, black men, black kings.
    #[inline]
    pub fn index(&self, wm: u128, wk: u128, bm: u128, bk: u128) -> u64 {
        self.men_rank(wm, bm) * self.kings_count + self.kings_rank(wm | bm, wk, bk)
    }

    /// The position of an index: `[white men, white kings, black men, black kings]`.
    pub fn position(&self, index: u64) -> Option<[u128; 4]> {
        if index >= self.size {
            return None;
        }
        let (wm, bm) = self.men_unrank(index / self.kings_count)?;
        let (wk, bk) = self.kings_unrank(wm | bm, index % self.kings_count)?;
        Some([wm, wk, bm, bk])
    }

    /// How far the men have advanced, summed: each quiet man move adds one.
    pub fn advancement(wm: u128, bm: u128) -> u32 {
        let row = |b: u32| G::square_of(b) / G::HALF;
        let mut a = 0;
        let mut x = wm;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            a += G::SIZE - 1 - row(b);
        }
        x = bm;
        while x != 0 {
            let b = x.trailing_zeros();
            x &= x - 1;
            a += row(b);
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiao_draughts::board::{B8, B10, B12};

    fn bijection<G: Geometry>(m: Material, step: u64) {
        let ix = SliceIndex::<G>::new(m).unwrap();
        let mut i = 0;
        while i < ix.size() {
            let [wm, wk, bm, bk] = ix.position(i).unwrap();
            assert!(ix.matches(wm, wk, bm, bk));
            let all = G::ALL.to_u128();
            assert_eq!((wm | wk | bm | bk) & !all, 0);
            assert_eq!((wm | wk | bm | bk).count_ones(), m.pieces());
            assert_eq!(wm & G::TOP_ROW.to_u128(), 0);
            assert_eq!(bm & G::BOTTOM_ROW.to_u128(), 0);
            assert_eq!(ix.index(wm, wk, bm, bk), i, "{m} index {i}");
            let lay = ix.kings_layout(wm | bm);
            let kr = i % ix.kings_count();
            assert_eq!(ix.kings_unrank_in(&lay, kr), Some((wk, bk)));
            assert_eq!(ix.kings_rank_in(&lay, wk, bk), kr);
            i += step;
        }
        assert!(ix.position(ix.size()).is_none());
    }

    #[test]
    fn binomials() {
        assert_eq!(binom(50, 3), 19600);
        assert_eq!(binom(72, 8), 11_969_016_345);
        assert_eq!(binom(3, 5), 0);
    }

    #[test]
    fn index_is_a_bijection_on_small_slices() {
        bijection::<B10>(Material::new(1, 0, 1, 0), 1);
        bijection::<B10>(Material::new(2, 0, 1, 0), 1);
        bijection::<B10>(Material::new(0, 2, 1, 0), 1);
        bijection::<B8>(Material::new(2, 1, 1, 1), 7);
        bijection::<B12>(Material::new(1, 1, 1, 0), 3);
    }

    #[test]
    fn slice_sizes() {
        // One king each: 50 * 49.
        assert_eq!(
            SliceIndex::<B10>::new(Material::new(0, 1, 0, 1))
                .unwrap()
                .size(),
            2450
        );
        // One man each: 45 * 45 minus the 40 shared squares counted twice.
        assert_eq!(
            SliceIndex::<B10>::new(Material::new(1, 0, 1, 0))
                .unwrap()
                .size(),
            45 * 45 - 40
        );
    }
}
