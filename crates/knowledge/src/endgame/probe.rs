//! [`Egdb`]: the engine's interface to the tables of one rule set, typed
//! by it (`Egdb<International>` probes only international positions; the
//! compiler checks it). [`VariantEgdb`] holds the tables of a variant known
//! only at run time, for a holder such as the match runner, and hands the
//! typed set back ([`EgdbRules::tables`]).
//!
//! Opening checks every file's header and block table; values are read
//! block by block on demand through a bounded LRU cache ([`BlockCache`]),
//! so memory stays bounded whatever the size of the tables. Probing is
//! thread-safe (`&self`). A position where the side to move must capture
//! is answered by playing the captures (see `resolve`), so any position
//! with few enough pieces can be probed, quiet or not.
//!
//! A damaged block is reported (`try_probe`, or a warning and `None` from
//! `probe`), never turned into a value.

use super::cache::BlockCache;
use super::codec::unpack;
use super::error::EgdbError;
use super::format::{TableFile, table_path};
use super::index::SliceIndex;
use super::material::{MAX_COUNT, Material};
use super::resolve::{self, Lookup};
use super::symmetry::{Sides, canonical};
use super::value::{Code, Distance, Wdl, code_distance, code_wdl};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use tiao_draughts::board::{
    Brazilian, Canadian, Geometry, International, Move, Position, Rules, Russian, Variant, Word,
};
use tiao_draughts::movegen::{MoveList, generate};

/// Default size of the block cache.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// A set just opened, with the tables that are missing and the errors of
/// the damaged ones (left out when opening leniently).
type Opened<R> = (Egdb<R>, Vec<Material>, Vec<EgdbError>);

/// One open table.
struct Table {
    id: u32,
    file: TableFile,
}

/// The endgame databases of rule set `R`, opened from a directory. Only
/// positions of `R` can be probed:
///
/// ```compile_fail
/// use tiao_draughts::board::{International, Position, Russian};
/// use tiao_knowledge::endgame::Egdb;
/// fn probe(db: &Egdb<International>, pos: &Position<Russian>) {
///     db.probe(pos);
/// }
/// ```
pub struct Egdb<R: Rules> {
    dir: PathBuf,
    /// Every table up to this many pieces is present.
    pieces: u32,
    /// Tables up to this many pieces were looked for.
    max_pieces: u32,
    /// Tables by `Material::key`.
    tables: Vec<Option<Table>>,
    /// Slice indexes by `Material::key`.
    indexes: Vec<Option<SliceIndex<R::Geometry>>>,
    cache: BlockCache,
    warned: AtomicBool,
    rules: PhantomData<R>,
}

impl<R: Rules> std::fmt::Debug for Egdb<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Egdb")
            .field("dir", &self.dir)
            .field("variant", &R::VARIANT)
            .field("pieces", &self.pieces)
            .finish()
    }
}

/// A set opened by [`Egdb::open_checked`]: the sound tables (or why they
/// are not a usable set), and the errors of the damaged files left out.
#[derive(Debug)]
pub struct Checked<R: Rules> {
    pub egdb: Result<Egdb<R>, EgdbError>,
    pub damaged: Vec<EgdbError>,
}

/// The value of one legal move, for the player who makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<R: Rules> {
    pub mv: Move<Word<R>>,
    pub wdl: Wdl,
    /// The distance, when the tables it leads to store distances.
    pub distance: Option<Distance>,
}

fn geometry_indexes<G: Geometry>(pieces: u32) -> Result<Vec<Option<SliceIndex<G>>>, EgdbError> {
    let mut v: Vec<Option<SliceIndex<G>>> = (0..MAX_COUNT.pow(4)).map(|_| None).collect();
    for m in Material::all(pieces) {
        if let Some(k) = m.key() {
            v[k] = Some(SliceIndex::<G>::new(m)?);
        }
    }
    Ok(v)
}

impl<R: Rules> Egdb<R> {
    /// Open every table of rule set `R` with up to `max_pieces` pieces from
    /// `dir` (the tables are in `dir/<variant name>/`). Fails if any is missing
    /// or damaged; see [`Egdb::open_available`] to use what there is.
    pub fn open(dir: impl AsRef<Path>, max_pieces: u32) -> Result<Egdb<R>, EgdbError> {
        let variant = R::VARIANT;
        let (egdb, missing, _) = Self::open_inner(dir.as_ref(), max_pieces, false)?;
        if !missing.is_empty() {
            return Err(EgdbError::Missing {
                dir: dir.as_ref().to_path_buf(),
                variant,
                pieces: max_pieces,
                missing,
            });
        }
        Ok(egdb)
    }

    /// Open whatever tables of rule set `R` with up to `max_pieces` pieces
    /// are present and sound (damaged files are logged and left out).
    /// [`Egdb::pieces`] tells up to how many pieces the set is complete;
    /// a probe that needs a missing table answers `None`. Fails only if not
    /// even the 2-piece tables are complete.
    pub fn open_available(dir: impl AsRef<Path>, max_pieces: u32) -> Result<Egdb<R>, EgdbError> {
        let (egdb, missing, damaged) = Self::open_inner(dir.as_ref(), max_pieces, true)?;
        for e in &damaged {
            log::warn!("{e}");
        }
        egdb.complete(missing)
    }

    /// What an engine opens: [`Egdb::open_available`], but every block of
    /// every table is read and checked first, so that damage anywhere in a
    /// file is found now rather than in the middle of a game. The sound
    /// tables are kept; the damaged ones are returned with the set, for the
    /// engine to report.
    pub fn open_checked(dir: impl AsRef<Path>, max_pieces: u32) -> Result<Checked<R>, EgdbError> {
        use rayon::prelude::*;
        let (mut egdb, mut missing, mut damaged) =
            Self::open_inner(dir.as_ref(), max_pieces, true)?;
        let failures: Vec<(usize, EgdbError)> = egdb
            .tables
            .par_iter()
            .enumerate()
            .filter_map(|(k, t)| {
                let t = t.as_ref()?;
                t.file.verify().err().map(|e| (k, e))
            })
            .collect();
        for (k, e) in failures {
            if let Some(t) = egdb.tables[k].take() {
                missing.push(t.file.header().material);
            }
            damaged.push(e);
        }
        Ok(Checked {
            egdb: egdb.complete(missing),
            damaged,
        })
    }

    /// Set [`Egdb::pieces`] from the tables that are missing.
    fn complete(mut self, missing: Vec<Material>) -> Result<Egdb<R>, EgdbError> {
        let max_pieces = self.max_pieces;
        let complete = (1..=max_pieces)
            .take_while(|&p| missing.iter().all(|m| m.pieces() > p))
            .last()
            .unwrap_or(1);
        if complete < 2 {
            return Err(EgdbError::Missing {
                dir: self.dir.clone(),
                variant: R::VARIANT,
                pieces: 2,
                missing: missing.into_iter().filter(|m| m.pieces() <= 2).collect(),
            });
        }
        if complete < max_pieces {
            log::warn!(
                "{} endgame tables in {}: complete up to {complete} pieces only ({} of the tables up to {max_pieces} are missing or damaged)",
                R::VARIANT,
                self.dir.display(),
                missing.len()
            );
        }
        self.pieces = complete;
        Ok(self)
    }

    fn open_inner(dir: &Path, max_pieces: u32, lenient: bool) -> Result<Opened<R>, EgdbError> {
        let variant = R::VARIANT;
        if !(2..MAX_COUNT as u32).contains(&max_pieces) {
            return Err(EgdbError::Unsupported(format!(
                "endgame tables have 2 to {} pieces, not {max_pieces}",
                MAX_COUNT - 1
            )));
        }
        let indexes = geometry_indexes::<R::Geometry>(max_pieces)?;
        let size_of = |m: Material| -> Option<u64> {
            let k = m.key()?;
            indexes[k].as_ref().map(|i| i.size())
        };
        let mut tables: Vec<Option<Table>> = (0..MAX_COUNT.pow(4)).map(|_| None).collect();
        let mut missing = Vec::new();
        let mut damaged = Vec::new();
        for (id, m) in Material::all(max_pieces).into_iter().enumerate() {
            let path = table_path(dir, variant, m);
            let (Some(k), Some(size)) = (m.key(), size_of(m)) else {
                missing.push(m);
                continue;
            };
            if !path.exists() {
                missing.push(m);
                continue;
            }
            match TableFile::open(&path, variant, m, size) {
                Ok(file) => {
                    tables[k] = Some(Table {
                        id: id as u32,
                        file,
                    })
                }
                Err(e) if lenient => {
                    damaged.push(e);
                    missing.push(m);
                }
                Err(e) => return Err(e),
            }
        }
        let egdb = Egdb {
            dir: dir.to_path_buf(),
            pieces: max_pieces,
            max_pieces,
            tables,
            indexes,
            cache: BlockCache::new(DEFAULT_CACHE_BYTES),
            warned: AtomicBool::new(false),
            rules: PhantomData,
        };
        Ok((egdb, missing, damaged))
    }

    /// Use a block cache of about `bytes` bytes instead of the default 64 MiB.
    pub fn with_cache_bytes(mut self, bytes: usize) -> Self {
        self.cache = BlockCache::new(bytes);
        self
    }

    pub fn variant(&self) -> Variant {
        R::VARIANT
    }

    /// Largest number of pieces for which every table is present.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Largest number of pieces tables were opened for (some may be missing
    /// above [`Egdb::pieces`] when opened with [`Egdb::open_available`]).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Block cache hits and misses so far.
    pub fn cache_stats(&self) -> (u64, u64) {
        self.cache.stats()
    }

    /// Bytes of unpacked blocks the cache holds now.
    pub fn cache_bytes(&self) -> usize {
        self.cache.bytes()
    }

    /// The value of a position for the side to move, or `None` if it is not
    /// covered (too many pieces) or a table is damaged (which
    /// is logged once).
    pub fn probe(&self, pos: &Position<R>) -> Option<Wdl> {
        match self.try_probe_code(pos) {
            Ok(v) => v.map(|(c, _)| code_wdl(c)),
            Err(e) => {
                self.warn(&e);
                None
            }
        }
    }

    /// The value with its distance to win (see `value`), or `None` if not
    /// covered, if a table involved stores no distances, or on damage.
    pub fn probe_dtw(&self, pos: &Position<R>) -> Option<Distance> {
        match self.try_probe_dtw(pos) {
            Ok(v) => v,
            Err(e) => {
                self.warn(&e);
                None
            }
        }
    }

    /// Like [`Egdb::probe`], with errors reported instead of logged.
    pub fn try_probe(&self, pos: &Position<R>) -> Result<Option<Wdl>, EgdbError> {
        Ok(self.try_probe_code(pos)?.map(|(c, _)| code_wdl(c)))
    }

    /// Like [`Egdb::probe_dtw`], with errors reported instead of logged.
    pub fn try_probe_dtw(&self, pos: &Position<R>) -> Result<Option<Distance>, EgdbError> {
        Ok(self
            .try_probe_code(pos)?
            .and_then(|(c, exact)| exact.then(|| code_distance(c))))
    }

    /// Every legal move with its value for the mover (empty when the
    /// position is not covered or has no moves; an error when a move leads
    /// to a slice whose table is missing).
    pub fn move_values(&self, pos: &Position<R>) -> Result<Vec<MoveValue<R>>, EgdbError> {
        let mut list = MoveList::<R>::new();
        generate(pos, &mut list);
        let mut out = Vec::with_capacity(list.len());
        for mv in &list {
            let succ = pos.play(mv);
            let Some((c, exact)) = self.try_probe_code(&succ)? else {
                if pos.piece_count() > self.max_pieces {
                    return Ok(Vec::new());
                }
                return Err(EgdbError::Unsupported(
                    "a move leads to a slice whose table is missing".into(),
                ));
            };
            out.push(MoveValue {
                mv: *mv,
                wdl: code_wdl(c).negate(),
                distance: exact.then(|| code_distance(c).for_mover()),
            });
        }
        Ok(out)
    }

    /// The move that keeps the best value: the fastest win, the slowest
    /// loss, any draw; by distance when distances are stored. `None` when
    /// the position is not covered or has no legal move.
    pub fn best_move(&self, pos: &Position<R>) -> Option<Move<Word<R>>> {
        let moves = match self.move_values(pos) {
            Ok(m) => m,
            Err(e) => {
                self.warn(&e);
                return None;
            }
        };
        // Rank: higher is better for the mover.
        let rank = |m: &MoveValue<R>| -> (i32, i64) {
            match (m.wdl, m.distance) {
                (Wdl::Win, Some(Distance::Win(d))) => (2, -i64::from(d)),
                (Wdl::Win, _) => (2, i64::MIN),
                (Wdl::Draw, _) => (1, 0),
                (Wdl::Loss, Some(Distance::Loss(d))) => (0, i64::from(d)),
                (Wdl::Loss, _) => (0, i64::MIN),
            }
        };
        moves.iter().max_by_key(|m| rank(m)).map(|m| m.mv)
    }

    fn warn(&self, e: &EgdbError) {
        if !self.warned.swap(true, Relaxed) {
            log::warn!("endgame tables not used for a probe: {e}");
        }
    }

    /// The code of a position, and whether its distance is exact.
    fn try_probe_code(&self, pos: &Position<R>) -> Result<Option<(Code, bool)>, EgdbError> {
        if pos.piece_count() > self.max_pieces {
            return Ok(None);
        }
        let src = Source { egdb: self };
        match resolve::value::<R, _>(&src, &canonical(pos)) {
            Ok(v) => Ok(Some(v)),
            // A table this position needs is absent: not covered.
            Err(EgdbError::Missing { .. }) if self.pieces < self.max_pieces => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// The tables of a variant known only at run time (say, a match runner's
/// `--variant`): one typed set. A holder hands it to code generic over the
/// rule set, which takes its own typed set back with [`EgdbRules::tables`].
#[derive(Clone, Debug)]
pub enum VariantEgdb {
    International(Arc<Egdb<International>>),
    Brazilian(Arc<Egdb<Brazilian>>),
    Russian(Arc<Egdb<Russian>>),
    Canadian(Arc<Egdb<Canadian>>),
}

impl VariantEgdb {
    /// [`Egdb::open_available`] for `variant`.
    pub fn open_available(
        dir: impl AsRef<Path>,
        variant: Variant,
        max_pieces: u32,
    ) -> Result<VariantEgdb, EgdbError> {
        tiao_draughts::with_rules!(variant, R => Egdb::<R>::open_available(dir, max_pieces)
            .map(|db| R::wrap(Arc::new(db))))
    }

    pub fn variant(&self) -> Variant {
        match self {
            VariantEgdb::International(_) => Variant::International,
            VariantEgdb::Brazilian(_) => Variant::Brazilian,
            VariantEgdb::Russian(_) => Variant::Russian,
            VariantEgdb::Canadian(_) => Variant::Canadian,
        }
    }

    /// Largest number of pieces for which every table is present.
    pub fn pieces(&self) -> u32 {
        match self {
            VariantEgdb::International(db) => db.pieces(),
            VariantEgdb::Brazilian(db) => db.pieces(),
            VariantEgdb::Russian(db) => db.pieces(),
            VariantEgdb::Canadian(db) => db.pieces(),
        }
    }
}

/// The rule sets that have endgame tables (all four): the link between a
/// typed set and [`VariantEgdb`].
pub trait EgdbRules: Rules {
    /// The set as a [`VariantEgdb`].
    fn wrap(db: Arc<Egdb<Self>>) -> VariantEgdb;
    /// This rule set's tables, if `db` holds them.
    fn tables(db: &VariantEgdb) -> Option<&Arc<Egdb<Self>>>;
}

macro_rules! egdb_rules {
    ($($rules:ident),*) => {$(
        impl EgdbRules for $rules {
            fn wrap(db: Arc<Egdb<Self>>) -> VariantEgdb {
                VariantEgdb::$rules(db)
            }
            fn tables(db: &VariantEgdb) -> Option<&Arc<Egdb<Self>>> {
                match db {
                    VariantEgdb::$rules(db) => Some(db),
                    _ => None,
                }
            }
        }
    )*};
}

egdb_rules!(International, Brazilian, Russian, Canadian);

/// `Lookup` over the files, through the block cache.
struct Source<'a, R: Rules> {
    egdb: &'a Egdb<R>,
}

impl<R: Rules> Lookup<R> for Source<'_, R> {
    fn stored(&self, s: &Sides) -> Result<(Code, bool), EgdbError> {
        let m = s.material();
        let missing = || EgdbError::Missing {
            dir: self.egdb.dir.clone(),
            variant: R::VARIANT,
            pieces: self.egdb.pieces,
            missing: vec![m],
        };
        let k = m.key().ok_or_else(missing)?;
        let (Some(table), Some(index)) = (
            self.egdb.tables.get(k).and_then(Option::as_ref),
            self.egdb.indexes.get(k).and_then(Option::as_ref),
        ) else {
            return Err(missing());
        };
        let h = table.file.header();
        let i = index.index(s.wm, s.wk, s.bm, s.bk);
        let bp = u64::from(h.block_positions);
        let block = (i / bp) as u32;
        let raw = self
            .egdb
            .cache
            .get_or_load((table.id, block), || table.file.read_block(block))?;
        let c = unpack(&raw, h.encoding, (i % bp) as usize).ok_or_else(|| {
            EgdbError::corrupt(table.file.path(), format!("invalid value in block {block}"))
        })?;
        Ok((c, h.encoding.has_distance()))
    }
}
