//! The table file: one file per slice, `<dir>/<variant>/<material>.tdb`.
//!
//! ```text
//! offset  size  field (little-endian)
//!      0     8  magic "TIAOEGDB"
//!      8     2  format version (1)
//!     10     2  index version (1: the scheme of `index`)
//!     12     1  variant (0 international, 1 brazilian, 2 russian, 3 canadian)
//!     13     4  white men, white kings, black men, black kings
//!     17     1  encoding (0 win/loss/draw in 2 bits, 1 distance in 1 byte, 2 in 2 bytes)
//!     18     1  flags (bit 0: positions with a capture are not stored)
//!     19     1  reserved (0)
//!     20     8  positions in the slice
//!     28     4  positions per block
//!     32     4  number of blocks
//!     36    24  wins, losses, draws (statistics over all positions)
//!     60     2  largest distance stored (plies), 0 without distances
//!     62     2  reserved (0)
//!     64     4  CRC-32 of bytes 0..64
//!     68  20*B  block table: offset u64, stored length u32,
//!               CRC-32 of the unpacked block u32, method u8 (0 stored,
//!               1 deflate), 3 reserved bytes
//!      .     4  CRC-32 of the block table
//!      .     .  the blocks, back to back; the file ends with the last one
//! ```
//!
//! Opening a file checks the header, the block table and the file's length;
//! reading a block checks its length and checksum after inflating, so a
//! damaged or truncated file gives an error, never a wrong value. Files are
//! written under a temporary name and renamed, so a file that exists is whole.

use super::codec::{Encoding, Method, compress, decompress, pack};
use super::crc::crc32;
use super::error::EgdbError;
use super::material::Material;
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use tiao_draughts::board::Variant;

const MAGIC: &[u8; 8] = b"TIAOEGDB";
pub(crate) const FORMAT_VERSION: u16 = 1;
pub(crate) const INDEX_VERSION: u16 = 1;
const HEADER_LEN: usize = 68;
const ENTRY_LEN: usize = 20;
/// Flag: slots of positions where the side to move must capture are "don't care".
pub(crate) const FLAG_CAPTURES_NOT_STORED: u8 = 1;
/// Largest block accepted when reading, so a damaged header cannot ask for huge buffers.
const MAX_BLOCK_POSITIONS: u32 = 1 << 22;

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::International => 0,
        Variant::Brazilian => 1,
        Variant::Russian => 2,
        Variant::Canadian => 3,
    }
}

fn variant_of(code: u8) -> Option<Variant> {
    Variant::ALL.into_iter().find(|&v| variant_code(v) == code)
}

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header {
    pub variant: Variant,
    pub material: Material,
    pub encoding: Encoding,
    pub flags: u8,
    pub positions: u64,
    pub block_positions: u32,
    pub blocks: u32,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_depth: u16,
}

impl Header {
    fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(MAGIC);
        b[8..10].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        b[10..12].copy_from_slice(&INDEX_VERSION.to_le_bytes());
        b[12] = variant_code(self.variant);
        b[13] = self.material.white_men;
        b[14] = self.material.white_kings;
        b[15] = self.material.black_men;
        b[16] = self.material.black_kings;
        b[17] = self.encoding as u8;
        b[18] = self.flags;
        b[20..28].copy_from_slice(&self.positions.to_le_bytes());
        b[28..32].copy_from_slice(&self.block_positions.to_le_bytes());
        b[32..36].copy_from_slice(&self.blocks.to_le_bytes());
        b[36..44].copy_from_slice(&self.wins.to_le_bytes());
        b[44..52].copy_from_slice(&self.losses.to_le_bytes());
        b[52..60].copy_from_slice(&self.draws.to_le_bytes());
        b[60..62].copy_from_slice(&self.max_depth.to_le_bytes());
        let crc = crc32(&b[0..64]);
        b[64..68].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}
fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}
fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(x)
}

/// Where a block lies in the file and how to check it.
#[derive(Clone, Copy, Debug)]
struct BlockEntry {
    offset: u64,
    len: u32,
    crc: u32,
    method: Method,
}

/// Read exactly `buf.len()` bytes at `offset`, without moving a shared cursor
/// (so that threads can read one file at once without a lock).
#[cfg(unix)]
fn read_at(file: &File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut offset: u64, mut buf: &mut [u8]) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// An open table file: header and block table checked, blocks read on demand.
#[derive(Debug)]
pub(crate) struct TableFile {
    path: PathBuf,
    file: File,
    header: Header,
    entries: Vec<BlockEntry>,
}

impl TableFile {
    /// Open and check a table file, which must be of `variant` and `material`
    /// and hold `positions` positions (the size of the slice's index).
    pub fn open(
        path: &Path,
        variant: Variant,
        material: Material,
        positions: u64,
    ) -> Result<TableFile, EgdbError> {
        let corrupt = |r: String| EgdbError::corrupt(path, r);
        let mismatch = |r: String| EgdbError::Mismatch {
            path: path.to_path_buf(),
            reason: r,
        };
        tiao_core::files::regular(path).map_err(|e| EgdbError::io(path, e))?;
        let mut file = File::open(path).map_err(|e| EgdbError::io(path, e))?;
        let file_len = file.metadata().map_err(|e| EgdbError::io(path, e))?.len();
        let mut hb = [0u8; HEADER_LEN];
        if file_len < HEADER_LEN as u64 {
            return Err(corrupt(format!("file is only {file_len} bytes long")));
        }
        file.read_exact(&mut hb)
            .map_err(|e| EgdbError::io(path, e))?;
        if &hb[0..8] != MAGIC {
            return Err(corrupt("not a Tiao endgame table (bad magic)".into()));
        }
        if u32_at(&hb, 64) != crc32(&hb[0..64]) {
            return Err(corrupt("header checksum mismatch".into()));
        }
        let version = u16_at(&hb, 8);
        if version != FORMAT_VERSION {
            return Err(mismatch(format!(
                "format version {version}, this Tiao reads version {FORMAT_VERSION}"
            )));
        }
        let index_version = u16_at(&hb, 10);
        if index_version != INDEX_VERSION {
            return Err(mismatch(format!(
                "index version {index_version}, this Tiao uses version {INDEX_VERSION}"
            )));
        }
        let file_variant = variant_of(hb[12])
            .ok_or_else(|| corrupt(format!("unknown variant code {}", hb[12])))?;
        if file_variant != variant {
            return Err(mismatch(format!(
                "a {file_variant} table, expected {variant}"
            )));
        }
        let file_material = Material::new(hb[13], hb[14], hb[15], hb[16]);
        if file_material != material {
            return Err(mismatch(format!(
                "slice {file_material}, expected {material}"
            )));
        }
        let encoding = Encoding::from_u8(hb[17])
            .ok_or_else(|| corrupt(format!("unknown encoding {}", hb[17])))?;
        let header = Header {
            variant,
            material,
            encoding,
            flags: hb[18],
            positions: u64_at(&hb, 20),
            block_positions: u32_at(&hb, 28),
            blocks: u32_at(&hb, 32),
            wins: u64_at(&hb, 36),
            losses: u64_at(&hb, 44),
            draws: u64_at(&hb, 52),
            max_depth: u16_at(&hb, 60),
        };
        if header.flags & !FLAG_CAPTURES_NOT_STORED != 0 {
            return Err(corrupt(format!("unknown flags {:#x}", header.flags)));
        }
        if header.positions != positions {
            return Err(mismatch(format!(
                "{} positions, the index has {positions}",
                header.positions
            )));
        }
        let bp = header.block_positions;
        if bp == 0 || bp > MAX_BLOCK_POSITIONS {
            return Err(corrupt(format!("bad block size {bp}")));
        }
        if u64::from(header.blocks) != positions.div_ceil(u64::from(bp)) {
            return Err(corrupt(format!(
                "{} blocks for {positions} positions of {bp} a block",
                header.blocks
            )));
        }
        let table_len = header.blocks as usize * ENTRY_LEN + 4;
        if file_len < (HEADER_LEN + table_len) as u64 {
            return Err(corrupt("file ends inside the block table".into()));
        }
        let mut tb = vec![0u8; table_len];
        file.read_exact(&mut tb)
            .map_err(|e| EgdbError::io(path, e))?;
        let (entries_bytes, crc_bytes) = tb.split_at(table_len - 4);
        if u32_at(crc_bytes, 0) != crc32(entries_bytes) {
            return Err(corrupt("block table checksum mismatch".into()));
        }
        let mut entries = Vec::with_capacity(header.blocks as usize);
        let mut expect = (HEADER_LEN + table_len) as u64;
        for (i, e) in entries_bytes.chunks_exact(ENTRY_LEN).enumerate() {
            let entry = BlockEntry {
                offset: u64_at(e, 0),
                len: u32_at(e, 8),
                crc: u32_at(e, 12),
                method: Method::from_u8(e[16])
                    .ok_or_else(|| corrupt(format!("block {i}: unknown method {}", e[16])))?,
            };
            if entry.offset != expect {
                return Err(corrupt(format!("block {i} is not where the table says")));
            }
            expect += u64::from(entry.len);
            entries.push(entry);
        }
        if expect != file_len {
            return Err(corrupt(format!(
                "file is {file_len} bytes, the block table says {expect} (truncated or extended)"
            )));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            file,
            header,
            entries,
        })
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Positions in block `b`.
    pub fn block_len(&self, b: u32) -> u64 {
        let bp = u64::from(self.header.block_positions);
        bp.min(self.header.positions - u64::from(b) * bp)
    }

    /// The unpacked bytes of block `b`, checked against its checksum.
    pub fn read_block(&self, b: u32) -> Result<Vec<u8>, EgdbError> {
        let e = *self
            .entries
            .get(b as usize)
            .ok_or_else(|| EgdbError::corrupt(&self.path, format!("no block {b}")))?;
        let mut data = vec![0u8; e.len as usize];
        read_at(&self.file, e.offset, &mut data).map_err(|err| EgdbError::io(&self.path, err))?;
        let raw_len = self.header.encoding.bytes_for(self.block_len(b)) as usize;
        let raw = decompress(e.method, &data, raw_len)
            .map_err(|r| EgdbError::corrupt(&self.path, format!("block {b}: {r}")))?;
        if crc32(&raw) != e.crc {
            return Err(EgdbError::corrupt(
                &self.path,
                format!("block {b}: checksum mismatch"),
            ));
        }
        Ok(raw)
    }

    /// Read and check every block (used before a generator trusts an existing file).
    pub fn verify(&self) -> Result<(), EgdbError> {
        (0..self.header.blocks)
            .into_par_iter()
            .try_for_each(|b| self.read_block(b).map(|_| ()))
    }
}

/// Write a table: `codes` has one code per position of the slice, in index
/// order, with `codec::DONT_CARE` on positions that must capture. The
/// header's `blocks` and `block_positions` are filled in here. Returns the
/// file's size in bytes.
pub(crate) fn write_table(path: &Path, header: &Header, codes: &[u16]) -> Result<u64, EgdbError> {
    let enc = header.encoding;
    let bp = enc.block_positions();
    let mut header = header.clone();
    header.block_positions = bp;
    header.positions = codes.len() as u64;
    header.blocks = u32::try_from(header.positions.div_ceil(u64::from(bp)))
        .map_err(|_| EgdbError::Unsupported("table too large for the file format".into()))?;
    let blocks: Vec<(Method, Vec<u8>, u32)> = codes
        .par_chunks(bp as usize)
        .map(|c| {
            let raw = pack(c, enc);
            let crc = crc32(&raw);
            let (m, z) = compress(&raw);
            (m, z, crc)
        })
        .collect();
    let table_len = blocks.len() * ENTRY_LEN + 4;
    let mut table = Vec::with_capacity(table_len);
    let mut offset = (HEADER_LEN + table_len) as u64;
    for (m, z, crc) in &blocks {
        let len = u32::try_from(z.len())
            .map_err(|_| EgdbError::Internal("block larger than 4 GiB".into()))?;
        table.extend_from_slice(&offset.to_le_bytes());
        table.extend_from_slice(&len.to_le_bytes());
        table.extend_from_slice(&crc.to_le_bytes());
        table.extend_from_slice(&[*m as u8, 0, 0, 0]);
        offset += u64::from(len);
    }
    let table_crc = crc32(&table);
    table.extend_from_slice(&table_crc.to_le_bytes());

    let tmp = path.with_extension("tdb.tmp");
    let io = |e| EgdbError::io(&tmp, e);
    {
        let f = File::create(&tmp).map_err(io)?;
        let mut w = BufWriter::new(f);
        w.write_all(&header.to_bytes()).map_err(io)?;
        w.write_all(&table).map_err(io)?;
        for (_, z, _) in &blocks {
            w.write_all(z).map_err(io)?;
        }
        let f = w.into_inner().map_err(|e| io(e.into_error()))?;
        f.sync_all().map_err(io)?;
    }
    std::fs::rename(&tmp, path).map_err(|e| EgdbError::io(path, e))?;
    Ok(offset)
}

/// Path of a slice's table under a database directory.
pub(crate) fn table_path(dir: &Path, variant: Variant, m: Material) -> PathBuf {
    dir.join(variant.name()).join(m.file_name())
}
