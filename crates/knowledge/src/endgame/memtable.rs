//! Whole slices in memory, for the generator: the tables a unit's captures
//! and promotions lead to are read at random millions of times a second, so
//! they are held decoded (two bits a position, or a 16-bit code when the
//! slice has distances) rather than probed through the block cache.

use super::codec::{Encoding, unpack};
use super::error::EgdbError;
use super::format::TableFile;
use super::index::SliceIndex;
use super::material::{MAX_COUNT, Material};
use super::resolve::Lookup;
use super::symmetry::Sides;
use super::value::{Code, wdl_only};
use rayon::prelude::*;
use std::marker::PhantomData;
use std::sync::Arc;
use tiao_draughts::board::{Geometry, Rules};

/// Values of a slice.
pub(crate) enum Values {
    /// Win/loss/draw packed four to a byte (0 draw, 1 win, 2 loss).
    Wdl(Vec<u8>),
    /// Distance codes.
    Codes(Vec<Code>),
}

/// A slice held in memory.
pub(crate) struct MemTable<G: Geometry> {
    pub index: SliceIndex<G>,
    values: Values,
    /// Every position holds its true value (a table solved in this run);
    /// tables read from files have "don't care" values where a capture is due.
    exact: bool,
}

impl<G: Geometry> MemTable<G> {
    /// From one code per position (the `DONT_CARE` flag is ignored: under
    /// it the solver left the true value).
    pub fn from_codes(index: SliceIndex<G>, codes: &[Code], distances: bool) -> Self {
        let values = if distances {
            Values::Codes(codes.iter().map(|&c| c & 0x7FFF).collect())
        } else {
            let mut packed = vec![0u8; codes.len().div_ceil(4)];
            for (i, &c) in codes.iter().enumerate() {
                packed[i / 4] |= (wdl_only(c & 0x7FFF) as u8) << (2 * (i % 4));
            }
            Values::Wdl(packed)
        };
        MemTable {
            index,
            values,
            exact: true,
        }
    }

    /// Read a whole table file (every block checked).
    pub fn load(file: &TableFile, index: SliceIndex<G>) -> Result<Self, EgdbError> {
        let h = file.header();
        let blocks: Vec<Vec<u8>> = (0..h.blocks)
            .into_par_iter()
            .map(|b| file.read_block(b))
            .collect::<Result<_, _>>()?;
        let bad = || EgdbError::corrupt(file.path(), "invalid value in a block");
        let values = match h.encoding {
            Encoding::Wdl2 => {
                // Blocks hold a multiple of four positions, so they simply concatenate.
                let packed: Vec<u8> = blocks.concat();
                if packed.iter().any(|&b| b & (b >> 1) & 0x55 != 0) {
                    return Err(bad());
                }
                Values::Wdl(packed)
            }
            enc => {
                let mut codes = Vec::with_capacity(h.positions as usize);
                for (b, raw) in blocks.iter().enumerate() {
                    for i in 0..file.block_len(b as u32) as usize {
                        codes.push(unpack(raw, enc, i).ok_or_else(bad)?);
                    }
                }
                Values::Codes(codes)
            }
        };
        Ok(MemTable {
            index,
            values,
            exact: false,
        })
    }

    pub fn has_distance(&self) -> bool {
        matches!(self.values, Values::Codes(_))
    }

    /// Bytes of memory the values take.
    pub fn bytes(&self) -> usize {
        match &self.values {
            Values::Wdl(v) => v.len(),
            Values::Codes(v) => 2 * v.len(),
        }
    }

    #[inline]
    pub fn get(&self, i: u64) -> Option<Code> {
        let i = i as usize;
        match &self.values {
            Values::Wdl(v) => v.get(i / 4).map(|b| Code::from((b >> (2 * (i % 4))) & 3)),
            Values::Codes(v) => v.get(i).copied(),
        }
    }
}

/// The slices the generator holds, by material.
pub(crate) struct MemTables<R: Rules> {
    tables: Vec<Option<Arc<MemTable<R::Geometry>>>>,
    rules: PhantomData<R>,
}

impl<R: Rules> MemTables<R> {
    pub fn new() -> Self {
        MemTables {
            tables: (0..MAX_COUNT.pow(4)).map(|_| None).collect(),
            rules: PhantomData,
        }
    }

    pub fn get(&self, m: Material) -> Option<&Arc<MemTable<R::Geometry>>> {
        self.tables.get(m.key()?)?.as_ref()
    }

    pub fn insert(&mut self, m: Material, t: Arc<MemTable<R::Geometry>>) {
        if let Some(k) = m.key() {
            self.tables[k] = Some(t);
        }
    }

    /// Drop every table for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(Material) -> bool) {
        for k in 0..self.tables.len() {
            let (mut x, mut c) = (k, [0u8; 4]);
            for i in (0..4).rev() {
                c[i] = (x % MAX_COUNT) as u8;
                x /= MAX_COUNT;
            }
            if !keep(Material::new(c[0], c[1], c[2], c[3])) {
                self.tables[k] = None;
            }
        }
    }

    pub fn bytes(&self) -> usize {
        self.tables.iter().flatten().map(|t| t.bytes()).sum()
    }
}

impl<R: Rules> Lookup<R> for MemTables<R> {
    #[inline]
    fn stored(&self, s: &Sides) -> Result<(Code, bool), EgdbError> {
        let m = s.material();
        let t = self
            .get(m)
            .ok_or_else(|| EgdbError::Internal(format!("table {m} is not loaded")))?;
        let i = t.index.index(s.wm, s.wk, s.bm, s.bk);
        let c = t
            .get(i)
            .ok_or_else(|| EgdbError::Internal(format!("index {i} outside {m}")))?;
        Ok((c, t.has_distance()))
    }

    #[inline]
    fn exact(&self, s: &Sides) -> Result<Option<(Code, bool)>, EgdbError> {
        match self.get(s.material()) {
            Some(t) if t.exact => {
                let i = t.index.index(s.wm, s.wk, s.bm, s.bk);
                Ok(t.get(i).map(|c| (c, t.has_distance())))
            }
            _ => Ok(None),
        }
    }
}
