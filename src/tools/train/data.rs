//! The training data format: positions with their game result and search
//! score, in self-checking chunks.
//!
//! A data file is a sequence of chunks; each chunk is a 64-byte header and
//! fixed-size 32-byte records. Because every chunk carries its own header,
//! concatenating files (`cat a.bin b.bin > all.bin`) gives a valid file,
//! and an interrupted generator leaves at worst one partial chunk at the
//! end, which a resume cuts off. All numbers are little-endian.
//!
//! ```text
//! chunk header (64 bytes)
//!   0  8  magic "TIAODATA"
//!   8  2  format version (1)
//!  10  1  variant (0 international, 1 brazilian, 2 russian, 3 canadian)
//!  11  1  record size (32)
//!  12  4  records in the chunk
//!  16  4  shard index I      } the chunk comes from shard I of N; it holds
//!  20  4  shard count N      } the shard's game slots first..first+games
//!  24  8  first game slot (0-based, counted within the shard)
//!  32  4  game slots
//!  36  4  reserved (0)
//!  40  8  settings hash (a resume must use the same settings)
//!  48  8  FNV-1a 64 of the chunk's records
//!  56  8  FNV-1a 64 of header bytes 0..56
//! record (32 bytes)
//!   0  8  white pieces    } bit s = square s+1 (square numbering of the
//!   8  8  black pieces    } variant, not the engine's internal bit layout)
//!  16  8  kings (both colours)
//!  24  2  search score, centi-men, White's view (i16)
//!  26  2  ply of the game
//!  28  1  result, White's view: 1 win, 0 draw, -1 loss (i8)
//!  29  1  flags: 1 Black to move, 2 the opponent threatens a capture,
//!             4 the score is a game end found by the search
//!  30  2  game slot within the chunk
//! ```

use crate::bits::BitWord;
use crate::board::{Colour, Geometry, Position, Rules, Variant, Word};
use crate::eval::pattern_file::{fnv1a64, variant_code, variant_of_code};
use std::io::{Read, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"TIAODATA";
pub const VERSION: u16 = 1;
pub const HEADER_BYTES: usize = 64;
pub const RECORD_BYTES: usize = 32;

/// Record flag: Black is to move.
pub const BLACK_TO_MOVE: u8 = 1;
/// Record flag: the opponent would have a capture if it were to move.
pub const THREATENED: u8 = 2;
/// Record flag: the score is a win or loss found by the search, not an evaluation.
pub const DECISIVE: u8 = 4;

/// One position of the data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Pieces by square index (bit s: square s + 1).
    pub white: u64,
    pub black: u64,
    pub kings: u64,
    /// Search score, centi-men, White's view.
    pub score: i16,
    pub ply: u16,
    /// The game's result, White's view: 1, 0, -1.
    pub result: i8,
    pub flags: u8,
    /// The game's slot within its chunk.
    pub game: u16,
}

/// A chunk's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    pub variant: Variant,
    pub count: u32,
    pub shard: u32,
    pub shards: u32,
    pub first_game: u64,
    pub games: u32,
    pub settings: u64,
    pub checksum: u64,
}

/// Square-indexed set of a board word.
fn to_squares<R: Rules>(w: Word<R>) -> u64 {
    let mut out = 0u64;
    for b in w.iter() {
        out |= 1u64 << R::Geometry::square_of(b);
    }
    out
}

/// Board word of a square-indexed set.
fn from_squares<R: Rules>(s: u64) -> Word<R> {
    let mut out = Word::<R>::ZERO;
    let mut s = s;
    while s != 0 {
        let sq = s.trailing_zeros();
        s &= s - 1;
        if sq < R::Geometry::SQUARES {
            out |= Word::<R>::bit(R::Geometry::bit_of(sq));
        }
    }
    out
}

impl Record {
    /// A record of `pos` (boards up to 64 squares).
    pub fn new<R: Rules>(pos: &Position<R>, score_white: i32, result_white: i8, ply: u32) -> Self {
        let mut flags = 0;
        if pos.side() == Colour::Black {
            flags |= BLACK_TO_MOVE;
        }
        Record {
            white: to_squares::<R>(pos.pieces(Colour::White)),
            black: to_squares::<R>(pos.pieces(Colour::Black)),
            kings: to_squares::<R>(pos.all_kings()),
            score: score_white.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            ply: ply.min(u32::from(u16::MAX)) as u16,
            result: result_white,
            flags,
            game: 0,
        }
    }

    /// The position, validated (a damaged record gives an error, not a panic).
    pub fn position<R: Rules>(&self) -> Result<Position<R>, String> {
        let side = if self.flags & BLACK_TO_MOVE != 0 {
            Colour::Black
        } else {
            Colour::White
        };
        let (w, b, k) = (
            from_squares::<R>(self.white),
            from_squares::<R>(self.black),
            from_squares::<R>(self.kings),
        );
        if (self.kings & !(self.white | self.black)) != 0 {
            return Err("a king on an empty square".into());
        }
        Position::from_bitboards(w & !k, w & k, b & !k, b & k, side).map_err(|e| e.to_string())
    }

    pub fn side(&self) -> Colour {
        if self.flags & BLACK_TO_MOVE != 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.white.to_le_bytes());
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.kings.to_le_bytes());
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.push(self.result as u8);
        out.push(self.flags);
        out.extend_from_slice(&self.game.to_le_bytes());
    }

    fn read(b: &[u8; RECORD_BYTES]) -> Record {
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        Record {
            white: u64_at(0),
            black: u64_at(8),
            kings: u64_at(16),
            score: i16::from_le_bytes([b[24], b[25]]),
            ply: u16::from_le_bytes([b[26], b[27]]),
            result: b[28] as i8,
            flags: b[29],
            game: u16::from_le_bytes([b[30], b[31]]),
        }
    }
}

/// The bytes of a chunk: header and records.
pub fn chunk_bytes(header: &ChunkHeader, records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(records.len() * RECORD_BYTES);
    for r in records {
        r.write(&mut body);
    }
    let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
    out.extend_from_slice(&header_prefix(header.variant));
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&header.shard.to_le_bytes());
    out.extend_from_slice(&header.shards.to_le_bytes());
    out.extend_from_slice(&header.first_game.to_le_bytes());
    out.extend_from_slice(&header.games.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&header.settings.to_le_bytes());
    out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    let hsum = fnv1a64(&out);
    out.extend_from_slice(&hsum.to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Write one chunk.
pub fn write_chunk(
    w: &mut dyn Write,
    header: &ChunkHeader,
    records: &[Record],
) -> std::io::Result<()> {
    w.write_all(&chunk_bytes(header, records))
}

/// Parse a chunk header; `at` (the byte offset) is for messages.
fn parse_header(h: &[u8; HEADER_BYTES], at: u64) -> Result<ChunkHeader, String> {
    if &h[0..8] != MAGIC {
        return Err(format!(
            "byte {at}: not a Tiao data chunk (no TIAODATA header)"
        ));
    }
    let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let u64_at = |i: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&h[i..i + 8]);
        u64::from_le_bytes(a)
    };
    if u64_at(56) != fnv1a64(&h[..56]) {
        return Err(format!(
            "byte {at}: chunk header checksum mismatch: the file is corrupt"
        ));
    }
    let version = u16::from_le_bytes([h[8], h[9]]);
    if version != VERSION {
        return Err(format!(
            "byte {at}: data format version {version}; this build reads version {VERSION}"
        ));
    }
    let variant = variant_of_code(h[10])
        .ok_or_else(|| format!("byte {at}: unknown variant code {}", h[10]))?;
    if h[11] as usize != RECORD_BYTES {
        return Err(format!(
            "byte {at}: record size {}, expected {RECORD_BYTES}",
            h[11]
        ));
    }
    Ok(ChunkHeader {
        variant,
        count: u32_at(12),
        shard: u32_at(16),
        shards: u32_at(20),
        first_game: u64_at(24),
        games: u32_at(32),
        settings: u64_at(40),
        checksum: u64_at(48),
    })
}

/// Everything a file holds.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub chunks: Vec<ChunkHeader>,
    /// The records; chunk `i` holds the next `chunks[i].count` of them.
    pub records: Vec<Record>,
}

impl Dataset {
    pub fn variant(&self) -> Option<Variant> {
        self.chunks.first().map(|c| c.variant)
    }

    /// Add another data set's chunks (same variant).
    pub fn append(&mut self, other: Dataset, name: &str) -> Result<(), String> {
        if let (Some(a), Some(b)) = (self.variant(), other.variant())
            && a != b
        {
            return Err(format!("{name} holds {b} positions, the others {a}"));
        }
        self.chunks.extend(other.chunks);
        self.records.extend(other.records);
        Ok(())
    }
}

/// What a scan of a file found: its complete chunks and where they end.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    pub data: Dataset,
    /// Bytes of complete, valid chunks from the start.
    pub valid_bytes: u64,
    /// Why reading stopped before the end of the file, if it did.
    pub damage: Option<String>,
    /// The chunk the file ends inside, if that is the damage (what an
    /// interrupted writer leaves): the one damage a resume may cut away,
    /// once it has checked the chunk was its own. Anything else (a foreign
    /// file, a checksum that fails, another version) is left as it is.
    pub torn: Option<Torn>,
    /// Reading failed (an I/O error, a directory): the bytes past
    /// `valid_bytes` were not seen, so nothing says they are damaged.
    pub read_error: bool,
}

impl Scan {
    /// What of a damaged file can be kept, for the messages that refuse
    /// it: the whole chunks before the damage and the command that keeps
    /// them.
    pub fn whole_prefix(&self, path: &Path) -> String {
        if self.read_error {
            // An unreadable disk is not a damaged file: cutting would lose
            // whatever could not be read.
            return format!(
                "the first {} bytes were read as whole chunks; the rest could not be read",
                self.valid_bytes
            );
        }
        let keep = if self.valid_bytes == 0 {
            "no whole chunk comes before it".to_string()
        } else {
            let n = self.data.records.len();
            let valid = self.valid_bytes;
            match path.to_str() {
                Some(p) => format!(
                    "its first {valid} bytes are whole chunks ({n} positions): \
                     `truncate -s {valid} {}` keeps them",
                    shell_path(p)
                ),
                None => format!("its first {valid} bytes are whole chunks ({n} positions)"),
            }
        };
        if self.torn.is_some() {
            // What a run in progress, or one stopped, leaves: rerunning it
            // resumes and cuts its own chunk; a cut under a writer would
            // break the chunk it is finishing.
            format!(
                "it ends inside a chunk, as a datagen run still writing or stopped \
                 leaves it (the same datagen command resumes it); {keep}"
            )
        } else {
            keep
        }
    }
}

/// A path as one word of a POSIX shell command, quoted only if it needs
/// to be, so that the command a message suggests can be pasted as it is
/// (a relative path starting with `-` gets `./`, or it would read as an
/// option).
fn shell_path(path: &str) -> String {
    let path = if path.starts_with('-') {
        format!("./{path}")
    } else {
        path.to_string()
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./-+,:@%".contains(c);
    if !path.is_empty() && path.chars().all(plain) {
        path
    } else {
        format!("'{}'", path.replace('\'', r"'\''"))
    }
}

/// A chunk the file ends inside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Torn {
    /// Fewer bytes than a header: those bytes.
    Header(Vec<u8>),
    /// A whole, valid header, then fewer record bytes than it counts.
    Body(ChunkHeader),
}

/// The bytes every chunk header of `variant` begins with: magic, format
/// version, variant code and record size.
pub fn header_prefix(variant: Variant) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_code(variant));
    out.push(RECORD_BYTES as u8);
    out
}

/// Read chunks from `r` until the end or the first damaged chunk.
pub fn scan(r: &mut dyn Read) -> Scan {
    let mut out = Scan::default();
    let mut at = 0u64;
    loop {
        let mut h = [0u8; HEADER_BYTES];
        match read_full(r, &mut h) {
            Ok(0) => break,
            Ok(n) if n < HEADER_BYTES => {
                out.damage = Some(format!(
                    "byte {at}: truncated chunk header ({n} of {HEADER_BYTES} bytes)"
                ));
                out.torn = Some(Torn::Header(h[..n].to_vec()));
                break;
            }
            Ok(_) => {}
            Err(e) => {
                out.damage = Some(format!("byte {at}: {e}"));
                out.read_error = true;
                break;
            }
        }
        let header = match parse_header(&h, at) {
            Ok(x) => x,
            Err(e) => {
                out.damage = Some(e);
                break;
            }
        };
        let len = header.count as usize * RECORD_BYTES;
        // Read what is there, up to the count: a damaged count cannot make
        // this allocate more than the file holds.
        let mut body = Vec::new();
        match (&mut *r).take(len as u64).read_to_end(&mut body) {
            Ok(n) if n == len => {}
            Ok(n) => {
                out.damage = Some(format!(
                    "byte {at}: truncated chunk ({n} of {len} record bytes)"
                ));
                out.torn = Some(Torn::Body(header));
                break;
            }
            Err(e) => {
                out.damage = Some(format!("byte {at}: {e}"));
                out.read_error = true;
                break;
            }
        }
        if fnv1a64(&body) != header.checksum {
            out.damage = Some(format!(
                "byte {at}: chunk checksum mismatch: the file is corrupt"
            ));
            break;
        }
        if let Some(v) = out.data.variant()
            && v != header.variant
        {
            out.damage = Some(format!(
                "byte {at}: a {} chunk after {v} chunks",
                header.variant
            ));
            break;
        }
        for c in body.chunks_exact(RECORD_BYTES) {
            let mut a = [0u8; RECORD_BYTES];
            a.copy_from_slice(c);
            out.data.records.push(Record::read(&a));
        }
        out.data.chunks.push(header);
        at += (HEADER_BYTES + len) as u64;
        out.valid_bytes = at;
    }
    out
}

/// Fill `buf` as far as the reader allows; returns the bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Scan a whole file.
pub fn scan_file(path: &Path) -> Result<Scan, String> {
    let f =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok(scan(&mut std::io::BufReader::new(f)))
}

/// Read a whole file; any damage is an error naming the file and byte,
/// and what of it can be kept.
pub fn read_file(path: &Path) -> Result<Dataset, String> {
    let s = scan_file(path)?;
    if let Some(d) = &s.damage {
        return Err(format!("{}: {d}; {}", path.display(), s.whole_prefix(path)));
    }
    if s.data.chunks.is_empty() {
        return Err(format!("{}: no data", path.display()));
    }
    Ok(s.data)
}

/// Read several files as one data set (all of one variant).
pub fn read_files(paths: &[std::path::PathBuf]) -> Result<Dataset, String> {
    let mut all = Dataset::default();
    for p in paths {
        let d = read_file(p)?;
        all.append(d, &p.display().to_string())?;
    }
    Ok(all)
}

/// `tiao datagen merge`: check every input and write their chunks, in
/// order, to `out` (the same as concatenating them, once checked).
pub fn merge(inputs: &[std::path::PathBuf], out: &Path) -> Result<(usize, usize), String> {
    let mut bytes = Vec::new();
    let mut variant = None;
    let (mut chunks, mut records) = (0, 0);
    for p in inputs {
        let d = read_file(p)?;
        if let (Some(a), Some(b)) = (variant, d.variant())
            && a != b
        {
            return Err(format!(
                "{} holds {b} positions, the others {a}",
                p.display()
            ));
        }
        variant = d.variant();
        let mut at = 0;
        for h in &d.chunks {
            let n = h.count as usize;
            bytes.extend(chunk_bytes(h, &d.records[at..at + n]));
            at += n;
        }
        chunks += d.chunks.len();
        records += d.records.len();
    }
    let tmp = out.with_extension("merge.tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|_| std::fs::rename(&tmp, out))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok((chunks, records))
}

#[cfg(test)]
mod tests {
    use super::shell_path;

    #[test]
    fn a_suggested_path_pastes_into_a_shell_as_one_word() {
        assert_eq!(shell_path("data/intl-s16.bin"), "data/intl-s16.bin");
        assert_eq!(shell_path("my data.bin"), "'my data.bin'");
        assert_eq!(shell_path("it's.bin"), r"'it'\''s.bin'");
        assert_eq!(shell_path("$HOME;rm"), "'$HOME;rm'");
        assert_eq!(shell_path("-x.bin"), "./-x.bin");
        assert_eq!(shell_path(""), "''");
    }
}
