//! Slices of material: how many men and kings each side has, with White to
//! move. Black-to-move positions are stored as their colour-swapped mirror
//! (see `symmetry`), so a slice is always "White to move".
//!
//! Generation works on *units*: a slice and its colour swap, solved
//! together, because a quiet move of one leads into the other. Units are
//! ordered so that everything a unit's captures and promotions lead to is
//! done before it: fewer pieces first, then fewer men (a promotion turns a
//! man into a king without changing the number of pieces).

use std::fmt;

/// Material of a slice, White to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

/// Largest count of one kind of piece a table may have (bounds dense arrays).
pub(crate) const MAX_COUNT: usize = 8;

impl Material {
    pub const fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Self {
        Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    pub fn pieces(self) -> u32 {
        self.white() + self.black()
    }
    pub fn men(self) -> u32 {
        u32::from(self.white_men) + u32::from(self.black_men)
    }
    pub fn white(self) -> u32 {
        u32::from(self.white_men) + u32::from(self.white_kings)
    }
    pub fn black(self) -> u32 {
        u32::from(self.black_men) + u32::from(self.black_kings)
    }

    /// The colours swapped: the material of the mirrored position.
    pub fn swapped(self) -> Material {
        Material::new(
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
        )
    }

    /// File name of the slice's table.
    pub fn file_name(self) -> String {
        format!("{self}.tdb")
    }

    /// Dense key for per-slice arrays (every count below `MAX_COUNT`).
    pub(crate) fn key(self) -> Option<usize> {
        let c = [
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
        ];
        if c.iter().any(|&x| usize::from(x) >= MAX_COUNT) {
            return None;
        }
        Some(c.iter().fold(0, |k, &x| k * MAX_COUNT + usize::from(x)))
    }

    /// Every slice with at least one piece a side and at most `max_pieces`
    /// pieces, in generation order (a slice right before or after its swap).
    pub fn all(max_pieces: u32) -> Vec<Material> {
        units(max_pieces).into_iter().flatten().collect()
    }
}

impl fmt::Display for Material {
    /// `m1k2-m0k1`: white men and kings, then black men and kings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "m{}k{}-m{}k{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

/// Units (a slice and its swap, or one self-symmetric slice) up to
/// `max_pieces`, in an order where every unit comes after the units its
/// captures and promotions lead to.
pub(crate) fn units(max_pieces: u32) -> Vec<Vec<Material>> {
    let n = max_pieces.min(MAX_COUNT as u32 - 1) as u8;
    let mut out: Vec<Vec<Material>> = Vec::new();
    for total in 2..=n {
        let mut group = Vec::new();
        for wm in 0..=total {
            for wk in 0..=total - wm {
                for bm in 0..=total - wm - wk {
                    let bk = total - wm - wk - bm;
                    let m = Material::new(wm, wk, bm, bk);
                    if m.white() == 0 || m.black() == 0 {
                        continue;
                    }
                    let s = m.swapped();
                    // One representative per unit: the larger of the two.
                    if m >= s {
                        group.push(m);
                    }
                }
            }
        }
        group.sort_by_key(|m| (m.men(), std::cmp::Reverse(*m)));
        for m in group {
            let s = m.swapped();
            out.push(if s == m { vec![m] } else { vec![m, s] });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_every_slice_once_in_dependency_order() {
        let all = Material::all(5);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
        // 2..5 pieces, both sides non-empty: compositions counted directly.
        let mut count = 0;
        for wm in 0..=5u8 {
            for wk in 0..=5u8 {
                for bm in 0..=5u8 {
                    for bk in 0..=5u8 {
                        let m = Material::new(wm, wk, bm, bk);
                        if m.white() > 0 && m.black() > 0 && m.pieces() <= 5 {
                            count += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(all.len(), count);
        let us = units(5);
        let pos = |m: Material| us.iter().position(|u| u.contains(&m)).unwrap();
        for u in &us {
            for &m in u {
                // A promotion (one man fewer, one king more) comes earlier.
                if m.white_men > 0 {
                    let p = Material::new(
                        m.white_men - 1,
                        m.white_kings + 1,
                        m.black_men,
                        m.black_kings,
                    );
                    assert!(pos(p.swapped()) < pos(m));
                }
            }
        }
        assert_eq!(Material::new(1, 2, 0, 1).to_string(), "m1k2-m0k1");
    }
}
