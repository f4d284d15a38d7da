//! The pattern weights of one variant and their binary file
//! (`weights-pattern-<variant>.bin`), written by `tiao train` and read by the
//! engine.
//!
//! Layout, little-endian:
//!
//! ```text
//! offset  size  field
//!      0     8  magic "TIAOPATW"
//!      8     2  format version (4; versions 1 to 3 are read too)
//!     10     1  variant (0 international, 1 brazilian, 2 russian, 3 canadian)
//!     11     1  phase: 0 by the pieces left, 1 by the men's advancement
//!                   (version 2; reserved, read as 0, in version 1)
//!     12     2  regions R (must match the layout compiled in for the variant)
//!     14     2  squares per region (8)
//!     16     2  dense terms D (10; 6 in version 1)
//!     18     2  scale: table units per centi-man (8)
//!     20     4  K: the logistic scale fitted in training (f32; information)
//!     24     4  note length N
//!     28     2  T: bands of tall windows (version 4; 0: no tall windows,
//!               else the layout's bands: 6 on 10x10, 4 on 8x8); a
//!               version 3 or older file has no such field, and H = 28,
//!               else H = 30
//!      H     N  note (UTF-8: how the weights were trained)
//!    H+N  R*6561*4   tables: per region, per configuration, mg and eg (i16 each)
//!      .   D*8  dense weights: per term, mg and eg (i32 each)
//!      .   Q*8  king squares (version 3): per square of the board, in the
//!               standard numbering (Q = 50 on 10x10, 32 on 8x8), what a
//!               white king there is worth, mg and eg (i32 each)
//!      .  T*59049*4  tall tables (version 4): per band (top row), per
//!               configuration of the 10 squares, mg and eg (i16 each)
//!      .     8  checksum: FNV-1a 64 of every byte before it
//! ```
//!
//! Reading checks everything a damaged or foreign file could get wrong and
//! says which check failed; the engine keeps its current evaluation then.
//!
//! Version 1 files have only the first six dense terms, version 1 and 2
//! files no king squares, version 1 to 3 files no tall windows. They are
//! read with zero weights (and no tall windows) for what they lack, which
//! evaluates exactly as they did.

use super::features::Feature;
use super::pattern_dense;
use super::pattern_layout::{CONFIGS, Layout, REGION_SQUARES, SWAP, TALL_CONFIGS, tall_swap};
use super::weights::Weights;
use std::fmt;
use std::path::Path;
use tiao_draughts::board::Variant;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TIAOPATW";
/// The format version this build writes (it also reads versions 1 to 3).
pub const VERSION: u16 = 4;
/// Dense terms (see `pattern_dense.rs`).
pub const DENSE: usize = pattern_dense::DENSE;
/// Table units per centi-man: patterns are stored finer than a centi-man,
/// since many small contributions add up.
pub const SCALE: i32 = 8;
/// Bytes before the note (version 3 and older: 28).
const FIXED_HEADER: usize = 30;
/// Largest dense weight a file may give, in table units: a won game
/// (10,000 centi-men) per unit of the term. The evaluation multiplies a
/// weight by its term (a few hundred at most) and adds the region tables in
/// `i32`; a larger weight would overflow there, and means nothing anyway.
pub const MAX_DENSE: i32 = 10_000 * SCALE;

/// What blends the middle-game and endgame weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// The pieces left on the board (as evaluation v1).
    #[default]
    Pieces,
    /// How far the men still have to go to crown (Scan's "pip" count):
    /// an exchange of far-advanced men moves the game less towards the
    /// endgame than one of men at home; kings count as no distance.
    Advancement,
}

impl Phase {
    fn code(self) -> u8 {
        match self {
            Phase::Pieces => 0,
            Phase::Advancement => 1,
        }
    }
    fn of_code(c: u8) -> Option<Phase> {
        match c {
            0 => Some(Phase::Pieces),
            1 => Some(Phase::Advancement),
            _ => None,
        }
    }
}

/// Middle-game and endgame weight of one table entry, in 1/SCALE centi-men.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub mg: i16,
    pub eg: i16,
}

/// The pattern weights of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    pub variant: Variant,
    pub layout: Layout,
    /// `tables[r * CONFIGS + i]`: region `r` in configuration `i`, White's
    /// view. Colour symmetry holds exactly: the rotated region in the
    /// swapped configuration has the negated entry.
    pub tables: Vec<Entry>,
    /// Middle-game and endgame weight of each dense term, in 1/SCALE centi-men.
    pub dense: [(i32, i32); DENSE],
    /// `king_squares[s]`: middle-game and endgame value of a white king on
    /// square `s` (0-based standard numbering), in 1/SCALE centi-men. A
    /// black king on `s` counts minus the entry of the square half a turn
    /// away, so colour symmetry holds by construction. One per square.
    pub king_squares: Vec<(i32, i32)>,
    /// `tall[b * TALL_CONFIGS + i]`: a tall window of band (top row) `b` in
    /// configuration `i`, White's view; empty when the weights have none
    /// (and then `layout` has no tall windows). Symmetric as `tables`: the
    /// mirrored band in the swapped configuration has the negated entry.
    pub tall: Vec<Entry>,
    /// What blends the middle-game and endgame weights.
    pub phase: Phase,
    /// The logistic scale of training (centi-men); information only.
    pub k: f32,
    /// How the weights were made.
    pub note: String,
}

/// Why a weights file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternFileError {
    /// The file could not be read or written.
    Io(String),
    /// Shorter than its header or than the sizes its header gives.
    Truncated {
        needed: usize,
        found: usize,
    },
    /// Not a pattern weights file.
    BadMagic,
    UnsupportedVersion(u16),
    UnknownVariant(u8),
    UnknownPhase(u8),
    /// A file for another variant than the one asked for.
    WrongVariant {
        expected: Variant,
        found: Variant,
    },
    /// The pattern evaluation does not support this variant's board.
    UnsupportedBoard(Variant),
    /// The header's shape does not match the layout compiled in.
    Shape(String),
    /// Bytes after the checksum.
    TrailingBytes(usize),
    ChecksumMismatch {
        stored: u64,
        computed: u64,
    },
    /// The tables break colour symmetry: the file was not made by `tiao train`.
    NotSymmetric {
        region: usize,
        index: usize,
    },
    /// A tall table breaks colour symmetry.
    TallNotSymmetric {
        band: usize,
        index: usize,
    },
    BadNote,
    /// A dense weight beyond [`MAX_DENSE`].
    DenseOutOfRange {
        term: usize,
        value: i32,
    },
    /// A king-square weight beyond [`MAX_DENSE`] (square: 0-based).
    KingSquareOutOfRange {
        square: usize,
        value: i32,
    },
}

impl fmt::Display for PatternFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternFileError::Io(e) => write!(f, "{e}"),
            PatternFileError::Truncated { needed, found } => write!(
                f,
                "truncated pattern weights file: {found} bytes, at least {needed} needed"
            ),
            PatternFileError::BadMagic => {
                write!(f, "not a pattern weights file (no TIAOPATW header)")
            }
            PatternFileError::UnsupportedVersion(v) => write!(
                f,
                "pattern weights format version {v}; this build reads versions 1 to {VERSION}"
            ),
            PatternFileError::UnknownVariant(v) => write!(f, "unknown variant code {v}"),
            PatternFileError::UnknownPhase(v) => write!(
                f,
                "unknown phase code {v} (0: pieces, 1: advancement): a newer or damaged file"
            ),
            PatternFileError::WrongVariant { expected, found } => {
                write!(f, "weights for {found}, but {expected} was asked for")
            }
            PatternFileError::UnsupportedBoard(v) => {
                write!(f, "the pattern evaluation does not support {v}")
            }
            PatternFileError::Shape(s) => write!(f, "layout mismatch: {s}"),
            PatternFileError::TrailingBytes(n) => {
                write!(f, "{n} unexpected bytes after the checksum")
            }
            PatternFileError::ChecksumMismatch { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
            ),
            PatternFileError::NotSymmetric { region, index } => write!(
                f,
                "region {region} configuration {index} breaks colour symmetry: the file is corrupt"
            ),
            PatternFileError::TallNotSymmetric { band, index } => write!(
                f,
                "tall band {band} configuration {index} breaks colour symmetry: the file is corrupt"
            ),
            PatternFileError::BadNote => write!(f, "the note is not UTF-8: the file is corrupt"),
            PatternFileError::DenseOutOfRange { term, value } => write!(
                f,
                "the {} weight {value} is beyond ±{MAX_DENSE} (a won game per unit): the file is corrupt",
                pattern_dense::NAMES.get(*term).copied().unwrap_or("dense")
            ),
            PatternFileError::KingSquareOutOfRange { square, value } => write!(
                f,
                "the weight {value} of a king on square {} is beyond ±{MAX_DENSE}: the file is corrupt",
                square + 1
            ),
        }
    }
}

impl std::error::Error for PatternFileError {}

/// FNV-1a, 64 bits: a checksum against damage (not against tampering).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The byte code of a variant in the files of this module and `train`.
pub fn variant_code(v: Variant) -> u8 {
    Variant::ALL.iter().position(|&x| x == v).unwrap_or(0) as u8
}

/// The variant of a byte code.
pub fn variant_of_code(c: u8) -> Option<Variant> {
    Variant::ALL.get(c as usize).copied()
}

/// A little-endian reader over a byte slice that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], PatternFileError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.at..end];
                self.at = end;
                Ok(s)
            }
            None => Err(PatternFileError::Truncated {
                needed: self.at.saturating_add(n),
                found: self.bytes.len(),
            }),
        }
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], PatternFileError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, PatternFileError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, PatternFileError> {
        Ok(u16::from_le_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, PatternFileError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn i32(&mut self) -> Result<i32, PatternFileError> {
        Ok(i32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, PatternFileError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    /// A middle-game and an endgame weight within ±[`MAX_DENSE`]; `beyond`
    /// names the error of a value outside.
    fn weight_pair(
        &mut self,
        beyond: impl Fn(i32) -> PatternFileError,
    ) -> Result<(i32, i32), PatternFileError> {
        let pair = (self.i32()?, self.i32()?);
        match [pair.0, pair.1]
            .into_iter()
            .find(|v| !(-MAX_DENSE..=MAX_DENSE).contains(v))
        {
            Some(value) => Err(beyond(value)),
            None => Ok(pair),
        }
    }
}

impl PatternWeights {
    /// Empty tables and the v1 weights of the dense terms that v1 also
    /// has (material, tempo, runaways, king mobility): the starting point
    /// of the first training.
    pub fn from_v1(variant: Variant, v1: &Weights) -> Result<PatternWeights, PatternFileError> {
        let layout =
            Layout::for_variant(variant).ok_or(PatternFileError::UnsupportedBoard(variant))?;
        let mut dense = [(0, 0); DENSE];
        let set = v1.for_variant(variant);
        for (i, f) in [
            (pattern_dense::MAN, Feature::Man),
            (pattern_dense::KING, Feature::King),
            (pattern_dense::TEMPO, Feature::Tempo),
            (pattern_dense::RUNAWAY, Feature::Runaway),
            (pattern_dense::KING_MOBILITY, Feature::KingMobility),
        ] {
            let w = set.0[f as usize];
            dense[i] = (w.mg * SCALE, w.eg * SCALE);
        }
        Ok(PatternWeights {
            variant,
            tables: vec![Entry::default(); layout.len() * CONFIGS],
            king_squares: vec![(0, 0); variant.squares() as usize],
            tall: Vec::new(),
            layout: layout.without_tall(),
            dense,
            phase: Phase::Pieces,
            k: 0.0,
            note: "v1 weights of the dense terms, no patterns".into(),
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let entries = self.tables.len() + self.tall.len();
        let mut out = Vec::with_capacity(FIXED_HEADER + entries * 4 + 256);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(variant_code(self.variant));
        out.push(self.phase.code());
        out.extend_from_slice(&(self.layout.len() as u16).to_le_bytes());
        out.extend_from_slice(&(REGION_SQUARES as u16).to_le_bytes());
        out.extend_from_slice(&(DENSE as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u16).to_le_bytes());
        out.extend_from_slice(&self.k.to_le_bytes());
        out.extend_from_slice(&(self.note.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.layout.tall_bands() as u16).to_le_bytes());
        out.extend_from_slice(self.note.as_bytes());
        let entry = |out: &mut Vec<u8>, e: &Entry| {
            out.extend_from_slice(&e.mg.to_le_bytes());
            out.extend_from_slice(&e.eg.to_le_bytes());
        };
        for e in &self.tables {
            entry(&mut out, e);
        }
        for &(mg, eg) in self.dense.iter().chain(&self.king_squares) {
            out.extend_from_slice(&mg.to_le_bytes());
            out.extend_from_slice(&eg.to_le_bytes());
        }
        for e in &self.tall {
            entry(&mut out, e);
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read weights from a file's bytes. With `expected`, a file for another
    /// variant is an error.
    pub fn from_bytes(
        bytes: &[u8],
        expected: Option<Variant>,
    ) -> Result<PatternWeights, PatternFileError> {
        let mut r = Reader { bytes, at: 0 };
        if r.array::<8>()? != *MAGIC {
            return Err(PatternFileError::BadMagic);
        }
        let version = r.u16()?;
        let dense_expected = match version {
            1 => pattern_dense::DENSE_V1,
            2..=VERSION => DENSE,
            _ => return Err(PatternFileError::UnsupportedVersion(version)),
        };
        let code = r.u8()?;
        let variant = variant_of_code(code).ok_or(PatternFileError::UnknownVariant(code))?;
        if let Some(e) = expected
            && e != variant
        {
            return Err(PatternFileError::WrongVariant {
                expected: e,
                found: variant,
            });
        }
        let phase_code = r.u8()?;
        let phase = match version {
            1 => Phase::Pieces,
            _ => Phase::of_code(phase_code).ok_or(PatternFileError::UnknownPhase(phase_code))?,
        };
        let full =
            Layout::for_variant(variant).ok_or(PatternFileError::UnsupportedBoard(variant))?;
        let king_n = if version >= 3 {
            variant.squares() as usize
        } else {
            0
        };
        let (regions, squares, dense_n, scale) = (r.u16()?, r.u16()?, r.u16()?, r.u16()?);
        if regions as usize != full.len()
            || squares as usize != REGION_SQUARES
            || dense_n as usize != dense_expected
            || i32::from(scale) != SCALE
        {
            return Err(PatternFileError::Shape(format!(
                "file has {regions} regions of {squares} squares, {dense_n} dense terms, scale {scale}; \
                 format version {version} has {} regions of {REGION_SQUARES} squares, \
                 {dense_expected} dense terms, scale {SCALE}",
                full.len()
            )));
        }
        let k = f32::from_le_bytes(r.array()?);
        let note_len = r.u32()? as usize;
        let (header, bands) = match version {
            4.. => (FIXED_HEADER, usize::from(r.u16()?)),
            _ => (FIXED_HEADER - 2, 0),
        };
        let layout = match bands {
            0 => full.without_tall(),
            b if b == full.tall_bands() => full,
            b => {
                return Err(PatternFileError::Shape(format!(
                    "file has {b} bands of tall windows; this board has {}",
                    full.tall_bands()
                )));
            }
        };
        // Check the whole length before reading the body, so a truncated
        // file reports its size rather than a field deep inside.
        let body =
            (layout.len() * CONFIGS + bands * TALL_CONFIGS) * 4 + (dense_expected + king_n) * 8 + 8;
        let needed = header.saturating_add(note_len).saturating_add(body);
        if bytes.len() < needed {
            return Err(PatternFileError::Truncated {
                needed,
                found: bytes.len(),
            });
        }
        if bytes.len() > needed {
            return Err(PatternFileError::TrailingBytes(bytes.len() - needed));
        }
        let computed = fnv1a64(&bytes[..needed - 8]);
        let stored = u64::from_le_bytes(bytes[needed - 8..].try_into().map_err(|_| {
            PatternFileError::Truncated {
                needed,
                found: bytes.len(),
            }
        })?);
        if stored != computed {
            return Err(PatternFileError::ChecksumMismatch { stored, computed });
        }
        let note = std::str::from_utf8(r.take(note_len)?)
            .map_err(|_| PatternFileError::BadNote)?
            .to_string();
        let entries = |raw: &[u8]| -> Vec<Entry> {
            raw.chunks_exact(4)
                .map(|c| Entry {
                    mg: i16::from_le_bytes([c[0], c[1]]),
                    eg: i16::from_le_bytes([c[2], c[3]]),
                })
                .collect()
        };
        let tables = entries(r.take(layout.len() * CONFIGS * 4)?);
        let mut dense = [(0, 0); DENSE];
        for (term, d) in dense.iter_mut().enumerate().take(dense_expected) {
            *d = r.weight_pair(|value| PatternFileError::DenseOutOfRange { term, value })?;
        }
        let mut king_squares = vec![(0, 0); variant.squares() as usize];
        for (square, d) in king_squares.iter_mut().enumerate().take(king_n) {
            *d = r.weight_pair(|value| PatternFileError::KingSquareOutOfRange { square, value })?;
        }
        let tall = entries(r.take(bands * TALL_CONFIGS * 4)?);
        let _checksum = r.u64()?;
        let w = PatternWeights {
            variant,
            layout,
            tables,
            tall,
            dense,
            king_squares,
            phase,
            k,
            note,
        };
        w.check_symmetry()?;
        Ok(w)
    }

    /// Whether the tables are exactly colour-symmetric: entry `i` of region
    /// `r` is the negation of entry `SWAP[i]` of the rotated region.
    pub fn check_symmetry(&self) -> Result<(), PatternFileError> {
        for (r, &rot) in self.layout.rotated.iter().enumerate() {
            for (i, &j) in SWAP.iter().enumerate() {
                let a = self.tables[r * CONFIGS + i];
                let b = self.tables[rot * CONFIGS + j as usize];
                if i32::from(a.mg) != -i32::from(b.mg) || i32::from(a.eg) != -i32::from(b.eg) {
                    return Err(PatternFileError::NotSymmetric {
                        region: r,
                        index: i,
                    });
                }
            }
        }
        let bands = self.layout.tall_bands();
        if self.tall.len() != bands * TALL_CONFIGS {
            return Err(PatternFileError::Shape(format!(
                "{} tall entries for {bands} bands",
                self.tall.len()
            )));
        }
        let swap = tall_swap();
        for band in 0..bands {
            let (own, mirror) = (band * TALL_CONFIGS, (bands - 1 - band) * TALL_CONFIGS);
            for (i, &j) in swap.iter().enumerate() {
                let a = self.tall[own + i];
                let b = self.tall[mirror + j as usize];
                if i32::from(a.mg) != -i32::from(b.mg) || i32::from(a.eg) != -i32::from(b.eg) {
                    return Err(PatternFileError::TallNotSymmetric { band, index: i });
                }
            }
        }
        Ok(())
    }

    /// These weights with tall tables (all zero) if they have none: the
    /// starting point of a training that adds them.
    pub fn with_tall(mut self) -> PatternWeights {
        if self.tall.is_empty()
            && let Some(full) = Layout::for_variant(self.variant)
        {
            self.tall = vec![Entry::default(); full.tall_bands() * TALL_CONFIGS];
            self.layout = full;
        }
        self
    }

    /// Read a weights file. Errors name the file.
    pub fn load(path: &Path, expected: Option<Variant>) -> Result<PatternWeights, String> {
        let bytes = tiao_core::files::read(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        PatternWeights::from_bytes(&bytes, expected).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Write a weights file (through a temporary file, so a crash never
    /// leaves a half-written file under the final name).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("bin.tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern_layout::MAX_TALL;

    const INTERNATIONAL: &[u8] = include_bytes!("weights-pattern-international.bin");

    /// King-square entries of the international file.
    const KING_SQUARES: usize = 50;

    /// The file with weight `k` after the tables set to `value`, its
    /// checksum made right: 0..20 are the mg and eg of each dense term,
    /// then come those of each king square.
    fn with_dense(k: usize, value: i32) -> Vec<u8> {
        let tall = PatternWeights::from_bytes(INTERNATIONAL, None)
            .expect("shipped weights")
            .tall
            .len();
        let mut b = current(INTERNATIONAL);
        let at = b.len() - 8 - 4 * tall - (DENSE + KING_SQUARES) * 8 + 4 * k;
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        resealed(b)
    }

    /// `b` with its checksum made right again.
    fn resealed(mut b: Vec<u8>) -> Vec<u8> {
        let n = b.len() - 8;
        let sum = fnv1a64(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
        b
    }

    /// A weights file in the format this build writes.
    fn current(bytes: &[u8]) -> Vec<u8> {
        PatternWeights::from_bytes(bytes, None)
            .expect("shipped weights")
            .to_bytes()
    }

    /// `w` (without tall windows) written in format version 3: no tall
    /// bands field.
    fn version_3(w: &PatternWeights) -> Vec<u8> {
        assert!(w.tall.is_empty());
        let mut b = w.to_bytes();
        b[8..10].copy_from_slice(&3u16.to_le_bytes());
        b.drain(28..30);
        resealed(b)
    }

    /// `w` (without tall windows) written in format version 2: no king squares.
    fn version_2(w: &PatternWeights) -> Vec<u8> {
        let mut b = version_3(w);
        b[8..10].copy_from_slice(&2u16.to_le_bytes());
        let end = b.len() - 8;
        b.drain(end - KING_SQUARES * 8..end);
        resealed(b)
    }

    /// `w` written in format version 1: six dense terms, no king squares.
    fn version_1(w: &PatternWeights) -> Vec<u8> {
        let mut b = version_2(w);
        b[8..10].copy_from_slice(&1u16.to_le_bytes());
        b[16..18].copy_from_slice(&(pattern_dense::DENSE_V1 as u16).to_le_bytes());
        let end = b.len() - 8;
        b.drain(end - (DENSE - pattern_dense::DENSE_V1) * 8..end);
        resealed(b)
    }

    /// The shipped international weights without tall windows.
    fn without_tall() -> PatternWeights {
        let mut w = PatternWeights::from_bytes(INTERNATIONAL, None).expect("shipped weights");
        w.tall.clear();
        w.layout = w.layout.without_tall();
        w
    }

    /// `w` with tall tables holding a few symmetric pairs of entries.
    fn with_some_tall(w: PatternWeights) -> PatternWeights {
        let mut w = w.with_tall();
        let bands = w.layout.tall_bands();
        let swap = tall_swap();
        for (band, i, mg, eg) in [
            (0, 5, 300, -7),
            (1, 777, -12, 40),
            (3, TALL_CONFIGS - 441, 9, 9),
        ] {
            let mirror = (bands - 1 - band) * TALL_CONFIGS + swap[i] as usize;
            w.tall[band * TALL_CONFIGS + i] = Entry { mg, eg };
            w.tall[mirror] = Entry { mg: -mg, eg: -eg };
        }
        w
    }

    #[test]
    fn tall_tables_round_trip_and_older_files_have_none() {
        let w = with_some_tall(without_tall());
        assert_eq!(w.layout.tall.len(), MAX_TALL);
        let b = w.to_bytes();
        assert_eq!(b[28..30], (w.layout.tall_bands() as u16).to_le_bytes());
        assert!(PatternWeights::from_bytes(&b, None) == Ok(w));
        // A version 3 file: the same blocks, no tall windows.
        let old = without_tall();
        let read = PatternWeights::from_bytes(&version_3(&old), None).expect("version 3");
        assert!(read.tall.is_empty() && read.layout.tall.is_empty());
        assert!(read == old);
    }

    #[test]
    fn tall_tables_of_another_shape_or_broken_symmetry_are_refused() {
        let w = with_some_tall(without_tall());
        let b = w.to_bytes();
        let e = PatternWeights::from_bytes(&with_byte(&b, 28, 4), None).expect_err("4 bands");
        assert_ne!(w.layout.tall_bands(), 4);
        assert!(matches!(e, PatternFileError::Shape(_)), "{e}");
        let mut broken = w.clone();
        broken.tall[777].mg += 1;
        let e = PatternWeights::from_bytes(&broken.to_bytes(), None).expect_err("asymmetric");
        assert_eq!(
            e,
            PatternFileError::TallNotSymmetric {
                band: 0,
                index: 777
            }
        );
    }

    #[test]
    fn version_2_files_read_with_an_empty_king_square_table() {
        let mut w = without_tall();
        w.king_squares.fill((0, 0));
        let old = version_2(&w);
        assert!(PatternWeights::from_bytes(&old, None) == Ok(w.clone()));
        // A version 2 header over a version 3 body has bytes left over.
        let mut b = version_3(&w);
        b[8..10].copy_from_slice(&2u16.to_le_bytes());
        let e = PatternWeights::from_bytes(&resealed(b), None).expect_err("mixed formats");
        assert_eq!(e, PatternFileError::TrailingBytes(KING_SQUARES * 8));
    }

    #[test]
    fn the_king_square_table_round_trips() {
        let mut w = PatternWeights::from_bytes(INTERNATIONAL, None).expect("shipped weights");
        assert_eq!(w.king_squares.len(), KING_SQUARES);
        for (q, e) in w.king_squares.iter_mut().enumerate() {
            *e = (q as i32 * 3 - 70, 41 - q as i32);
        }
        assert!(PatternWeights::from_bytes(&w.to_bytes(), None) == Ok(w));
    }

    #[test]
    fn version_1_files_read_with_zero_weights_for_the_later_terms() {
        let mut w = without_tall();
        w.dense[pattern_dense::DENSE_V1..].fill((0, 0));
        w.dense[pattern_dense::MAN] = (800, 900);
        w.king_squares.fill((0, 0));
        // Version 1 blends by pieces.
        w.phase = Phase::Pieces;
        let old = version_1(&w);
        // (assert!, not assert_eq!: a failure would print 2.6 MB of tables)
        assert!(PatternWeights::from_bytes(&old, None) == Ok(w.clone()));
        // Written again, it is a current file with the same weights.
        let new = PatternWeights::from_bytes(&old, None)
            .expect("read")
            .to_bytes();
        assert_eq!(new[8..10], VERSION.to_le_bytes());
        assert!(PatternWeights::from_bytes(&new, None) == Ok(w));
    }

    /// `bytes` with byte `at` set to `value`, its checksum made right.
    fn with_byte(bytes: &[u8], at: usize, value: u8) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[at] = value;
        resealed(b)
    }

    #[test]
    fn the_phase_kind_round_trips_and_an_unknown_one_is_refused() {
        let mut w = without_tall();
        w.phase = Phase::Advancement;
        let b = w.to_bytes();
        assert_eq!(b[11], 1);
        assert!(PatternWeights::from_bytes(&b, None) == Ok(w.clone()));
        let e = PatternWeights::from_bytes(&with_byte(&b, 11, 7), None).expect_err("phase 7");
        assert_eq!(e, PatternFileError::UnknownPhase(7));
        // Version 1 had a reserved byte there: whatever it holds, the
        // phase is by pieces.
        let v1 = with_byte(&version_1(&w), 11, 7);
        let old = PatternWeights::from_bytes(&v1, None).expect("version 1");
        assert_eq!(old.phase, Phase::Pieces);
    }

    #[test]
    fn a_version_1_header_with_the_new_terms_count_is_a_shape_error() {
        let mut b = current(INTERNATIONAL);
        b[8..10].copy_from_slice(&1u16.to_le_bytes());
        let e = PatternWeights::from_bytes(&b, None).expect_err("mixed formats");
        assert!(matches!(e, PatternFileError::Shape(_)), "{e}");
        assert!(e.to_string().contains("format version 1 has"), "{e}");
    }

    #[test]
    fn dense_weights_beyond_a_won_game_are_rejected() {
        for (k, value) in [
            (0, i32::MAX),
            (5, i32::MIN),
            (9, MAX_DENSE + 1),
            (11, -MAX_DENSE - 1),
        ] {
            let e = PatternWeights::from_bytes(&with_dense(k, value), None).expect_err("too large");
            assert_eq!(e, PatternFileError::DenseOutOfRange { term: k / 2, value });
            assert!(e.to_string().contains(pattern_dense::NAMES[k / 2]), "{e}");
        }
        for (k, value) in [(2 * DENSE, MAX_DENSE + 1), (2 * DENSE + 99, i32::MIN)] {
            let e = PatternWeights::from_bytes(&with_dense(k, value), None).expect_err("too large");
            let square = (k - 2 * DENSE) / 2;
            assert_eq!(e, PatternFileError::KingSquareOutOfRange { square, value });
            assert!(
                e.to_string().contains(&format!("square {}", square + 1)),
                "{e}"
            );
        }
        for (k, value) in [(0, MAX_DENSE), (3, -MAX_DENSE), (2 * DENSE + 7, MAX_DENSE)] {
            PatternWeights::from_bytes(&with_dense(k, value), None).expect("within bounds");
        }
    }

    #[test]
    fn the_largest_weights_evaluate_any_position_without_overflow() {
        use crate::eval::pattern::PatternEval;
        use tiao_draughts::board::{Brazilian, International, Rules, Russian};
        fn check<R: Rules>(sign: i32) {
            let v = R::VARIANT;
            let mut w = PatternWeights::from_v1(v, &Weights::builtin()).expect("a supported board");
            let t = if sign > 0 { i16::MAX } else { i16::MIN };
            w.tables
                .iter_mut()
                .for_each(|e| *e = Entry { mg: t, eg: t });
            w.dense = [(sign * MAX_DENSE, sign * MAX_DENSE); DENSE];
            w.king_squares.fill((sign * MAX_DENSE, sign * MAX_DENSE));
            let mut w = w.with_tall();
            w.tall.iter_mut().for_each(|e| *e = Entry { mg: t, eg: t });
            let e = PatternEval::builtin().with(w);
            for p in crate::eval::extreme_positions::<R>() {
                e.white_score(&p);
            }
        }
        for sign in [1, -1] {
            check::<International>(sign);
            check::<Brazilian>(sign);
            check::<Russian>(sign);
        }
    }
}
