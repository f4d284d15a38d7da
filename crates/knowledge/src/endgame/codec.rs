//! Block encoding: how the values of a run of positions become the bytes of
//! one block of a table file, and back.
//!
//! Values are packed (two bits per position for win/loss/draw, one or two
//! bytes for distances) and the packed block is deflated. Positions where
//! the side to move must capture are never read from a table (the prober
//! plays the captures and looks up the results, see `resolve`), so their
//! slots are "don't care": the encoder gives them the value of the position
//! before, which lengthens runs and makes the blocks compress much better.

use super::value::{Code, DRAW, wdl_only};

/// Flag on a code handed to the encoder: the position must capture, its value is not stored.
pub(crate) const DONT_CARE: Code = 0x8000;

/// How values are packed in a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Win/loss/draw, two bits a position (0 draw, 1 win, 2 loss), four a byte.
    Wdl2 = 0,
    /// Distance codes (see `value`) up to 255, one byte a position.
    Dtw8 = 1,
    /// Distance codes, two bytes a position (little-endian).
    Dtw16 = 2,
}

impl Encoding {
    pub fn from_u8(b: u8) -> Option<Encoding> {
        match b {
            0 => Some(Encoding::Wdl2),
            1 => Some(Encoding::Dtw8),
            2 => Some(Encoding::Dtw16),
            _ => None,
        }
    }

    pub fn has_distance(self) -> bool {
        self != Encoding::Wdl2
    }

    /// Bytes holding `n` positions.
    pub fn bytes_for(self, n: u64) -> u64 {
        match self {
            Encoding::Wdl2 => n.div_ceil(4),
            Encoding::Dtw8 => n,
            Encoding::Dtw16 => 2 * n,
        }
    }

    /// Positions per block: 16 KiB of packed values, small enough to inflate
    /// in a few microseconds on a cache miss, large enough to compress well.
    pub fn block_positions(self) -> u32 {
        match self {
            Encoding::Wdl2 => 65536,
            Encoding::Dtw8 => 16384,
            Encoding::Dtw16 => 8192,
        }
    }
}

/// How a block's bytes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Stored = 0,
    Deflate = 1,
}

impl Method {
    pub fn from_u8(b: u8) -> Option<Method> {
        match b {
            0 => Some(Method::Stored),
            1 => Some(Method::Deflate),
            _ => None,
        }
    }
}

/// Pack the codes of one block (codes may carry `DONT_CARE`).
pub(crate) fn pack(codes: &[Code], enc: Encoding) -> Vec<u8> {
    // Leading don't-cares take the first real value, later ones the previous value.
    let mut prev = codes
        .iter()
        .find(|&&c| c & DONT_CARE == 0)
        .copied()
        .unwrap_or(DRAW);
    let value = |c: Code, prev: &mut Code| -> Code {
        if c & DONT_CARE == 0 {
            *prev = c;
        }
        *prev
    };
    match enc {
        Encoding::Wdl2 => {
            let mut out = vec![0u8; codes.len().div_ceil(4)];
            for (i, &c) in codes.iter().enumerate() {
                let v = wdl_only(value(c, &mut prev)) as u8;
                out[i / 4] |= v << (2 * (i % 4));
            }
            out
        }
        Encoding::Dtw8 => codes.iter().map(|&c| value(c, &mut prev) as u8).collect(),
        Encoding::Dtw16 => codes
            .iter()
            .flat_map(|&c| value(c, &mut prev).to_le_bytes())
            .collect(),
    }
}

/// The code of position `i` of a packed block; `None` for a value no
/// encoder writes (two-bit value 3, or a position past the end).
#[inline]
pub(crate) fn unpack(raw: &[u8], enc: Encoding, i: usize) -> Option<Code> {
    match enc {
        Encoding::Wdl2 => {
            let v = (raw.get(i / 4)? >> (2 * (i % 4))) & 3;
            (v != 3).then_some(Code::from(v))
        }
        Encoding::Dtw8 => raw.get(i).map(|&b| Code::from(b)),
        Encoding::Dtw16 => {
            let lo = *raw.get(2 * i)?;
            let hi = *raw.get(2 * i + 1)?;
            let c = u16::from_le_bytes([lo, hi]);
            (c <= super::value::MAX_CODE as u16).then_some(c)
        }
    }
}

/// Compress a packed block; stored as is when deflate does not help.
pub(crate) fn compress(raw: &[u8]) -> (Method, Vec<u8>) {
    let z = miniz_oxide::deflate::compress_to_vec(raw, 8);
    if z.len() < raw.len() {
        (Method::Deflate, z)
    } else {
        (Method::Stored, raw.to_vec())
    }
}

/// Undo `compress`; the result must be exactly `raw_len` bytes.
pub(crate) fn decompress(method: Method, data: &[u8], raw_len: usize) -> Result<Vec<u8>, String> {
    let raw = match method {
        Method::Stored => data.to_vec(),
        Method::Deflate => miniz_oxide::inflate::decompress_to_vec_with_limit(data, raw_len)
            .map_err(|e| format!("deflate stream is damaged ({:?})", e.status))?,
    };
    if raw.len() != raw_len {
        return Err(format!(
            "block holds {} bytes instead of {raw_len}",
            raw.len()
        ));
    }
    Ok(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_unpack_round_trip_with_dont_cares() {
        let codes: Vec<Code> = vec![DONT_CARE | 7, 1, 2, DONT_CARE, 0, 2, DONT_CARE | 1, 1, 2];
        let expect = [1, 1, 2, 2, 0, 2, 2, 1, 2];
        for enc in [Encoding::Wdl2, Encoding::Dtw8, Encoding::Dtw16] {
            let raw = pack(&codes, enc);
            assert_eq!(raw.len() as u64, enc.bytes_for(codes.len() as u64));
            for (i, &e) in expect.iter().enumerate() {
                assert_eq!(unpack(&raw, enc, i), Some(e));
            }
            let (m, z) = compress(&raw);
            assert_eq!(decompress(m, &z, raw.len()).unwrap(), raw);
        }
        assert_eq!(unpack(&[0xFF], Encoding::Wdl2, 0), None);
    }
}
