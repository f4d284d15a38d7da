//! The transposition table: a fixed-size, lock-free hash table shared by all
//! search threads.
//!
//! Each entry is two atomic words, `data` and `key ^ data` (the "lockless
//! hashing" of Hyatt and Mann). Threads read and write entries without locks;
//! a read that sees halves of two different writes fails the key check and is
//! treated as a miss, so a torn entry can never be mistaken for a hit.
//! Entries come in buckets of four, one cache line, and a new result replaces
//! the least valuable entry of its bucket (shallow or from an old search).
//!
//! On Linux the table asks for transparent huge pages: a probe is a cache
//! miss at almost every node, and with 4 KiB pages it is a TLB miss too,
//! whose page walk is another trip to memory (`docs/benchmarks.md`).

use super::score::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (all moves failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Move key (`Game::move_key`) of the best move, 0 if none.
    pub mv: u32,
    /// Score, relative to the stored node (see `score::to_tt`).
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Entry; 4]);

/// Bytes per bucket (one cache line).
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();
const _: () = assert!(BUCKET_BYTES == 64);

// data layout: move 32 | score 16 | depth 8 | bound 2 | age 6
fn pack(mv: u32, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16;
    let depth = depth.clamp(0, 255) as u8;
    u64::from(mv)
        | u64::from(score) << 32
        | u64::from(depth) << 48
        | (bound as u64) << 56
        | u64::from(age & 63) << 58
}

fn unpack(d: u64) -> Option<(Hit, u8)> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let hit = Hit {
        mv: d as u32,
        score: Score::from((d >> 32) as u16 as i16),
        depth: i32::from((d >> 48) as u8),
        bound,
    };
    Some((hit, (d >> 58) as u8))
}

/// A table that could not be made: the memory is not there. The engine
/// keeps the table it had and says what would fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// Bytes asked for.
    pub requested: usize,
    /// Bytes the machine (or the process's memory cap) had free, if known.
    pub available: Option<usize>,
}

impl std::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate a transposition table of {} MiB",
            self.requested >> 20
        )?;
        match self.available {
            Some(a) => write!(f, " (about {} MiB of memory is free)", a >> 20),
            None => write!(f, " (not enough memory)"),
        }
    }
}

impl std::error::Error for TableTooLarge {}

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Search generation, to prefer replacing entries of earlier searches.
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket), or an error if the memory is not
    /// there (instead of the allocator aborting the process).
    pub fn try_with_mib(mib: usize) -> Result<Self, TableTooLarge> {
        Self::try_with_buckets(buckets_for_mib(mib))
    }

    /// A table of `2^log2_entries` entries (Scan's `tt-size`), or an error
    /// if the memory is not there.
    pub fn try_with_log2_entries(log2_entries: u32) -> Result<Self, TableTooLarge> {
        Self::try_with_buckets((1usize << log2_entries.min(40)) / 4)
    }

    #[cfg(test)]
    fn with_buckets(n: usize) -> Self {
        let n = n.max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    fn try_with_buckets(n: usize) -> Result<Self, TableTooLarge> {
        let n = n.max(1);
        let requested = n.saturating_mul(BUCKET_BYTES);
        let available = available_memory();
        // An allocation the kernel grants on credit (overcommit) but cannot
        // back would kill the process when the table is written; refuse it
        // while it can still be refused.
        let too_large = TableTooLarge {
            requested,
            available,
        };
        if available.is_some_and(|a| requested > a) {
            return Err(too_large);
        }
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| too_large)?;
        // Before the first write: the pages are chosen when first touched.
        advise_huge_pages(&mut buckets);
        buckets.resize_with(n, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.buckets.len() * 4
    }

    /// Forget everything (new game). The entries are atomic, so a table
    /// still shared with a finished search is cleared in place, without
    /// allocating a new one.
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.0 {
                e.data.store(0, Ordering::Relaxed);
                e.check.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Start a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Start bringing a position's bucket into the cache, to be probed
    /// later: the probe is a memory miss in most of the search's nodes, and
    /// a prefetch issued a whole sibling subtree ahead hides it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let bucket: *const Bucket = self.bucket(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint that reads nothing architecturally
        // and cannot fault, whatever the address; this one is moreover the
        // address of a live bucket, borrowed from `self` for the call.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Look up a position.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(hit, _)| hit);
            }
        }
        None
    }

    /// Store a search result.
    #[inline]
    pub fn store(&self, key: u64, mv: u32, score: Score, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = &self.bucket(key).0;
        let mut victim = &bucket[0];
        let mut victim_value = i32::MAX;
        for e in bucket {
            let data = e.data.load(Ordering::Relaxed);
            let stored_key = e.check.load(Ordering::Relaxed) ^ data;
            let old = unpack(data);
            if stored_key == key {
                // Same position: keep a deeper result of this search unless the new one is exact.
                if let Some((hit, old_age)) = old {
                    if old_age == age && hit.depth > depth + 2 && bound != Bound::Exact {
                        return;
                    }
                    // Keep the known best move if the new result has none.
                    let mv = if mv == 0 { hit.mv } else { mv };
                    let d = pack(mv, score, depth, bound, age);
                    e.data.store(d, Ordering::Relaxed);
                    e.check.store(key ^ d, Ordering::Relaxed);
                    return;
                }
                victim = e;
                break;
            }
            // Value of keeping an entry: its depth, minus a penalty for each search it is old.
            let value = match old {
                None => i32::MIN,
                Some((hit, old_age)) => hit.depth - 8 * i32::from(age.wrapping_sub(old_age) & 63),
            };
            if value < victim_value {
                victim_value = value;
                victim = e;
            }
        }
        let d = pack(mv, score, depth, bound, age);
        victim.data.store(d, Ordering::Relaxed);
        victim.check.store(key ^ d, Ordering::Relaxed);
    }

    /// Permille of sampled entries used by the current search (Hub/UCI "hashfull").
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.0 {
                if let Some((_, a)) = unpack(e.data.load(Ordering::Relaxed)) {
                    used += u32::from(a == age);
                }
            }
        }
        if sample == 0 {
            0
        } else {
            used * 1000 / (sample as u32 * 4)
        }
    }
}

/// Ask the kernel to back the spare capacity of `v` with transparent huge
/// pages (2 MiB), where it allows them (`/sys/kernel/mm/transparent_hugepage`
/// set to `madvise` or `always`); a refusal changes nothing but speed, so
/// it is ignored. Only the whole 2 MiB pages inside the allocation are
/// named: the advice applies to whole pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &mut Vec<T>) {
    const HUGE_PAGE: usize = 2 << 20;
    let spare = v.spare_capacity_mut();
    let start = spare.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(spare);
    let first = start.next_multiple_of(HUGE_PAGE);
    let last = end - end % HUGE_PAGE;
    if last > first {
        // SAFETY: `first..last` lies inside `v`'s allocation, which this
        // function borrows mutably, so no other reference into it exists.
        // MADV_HUGEPAGE neither reads nor writes the memory nor changes its
        // contents or validity: it only tells the kernel which page size to
        // use when the pages are first touched (or merged later). Failure
        // is reported through the return value, which leaves the memory
        // as it was.
        unsafe {
            libc::madvise(
                first as *mut libc::c_void,
                last - first,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &mut Vec<T>) {}

fn buckets_for_mib(mib: usize) -> usize {
    mib.max(1).saturating_mul(1 << 20) / BUCKET_BYTES
}

/// Bytes of memory free for a new table: the kernel's estimate of what can
/// be allocated without swapping, and the room left under the process's
/// cgroup limit (a container's memory cap), whichever is smaller. `None`
/// where neither can be read (other systems): then only the allocator
/// decides.
fn available_memory() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
            .map(|kib| kib.saturating_mul(1024))
    });
    let read = |name: &str| {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
    };
    // cgroup v2: memory.max is "max" (no limit) or a number of bytes.
    let cgroup =
        read("memory.max").map(|max| max.saturating_sub(read("memory.current").unwrap_or(0)));
    match (meminfo, cgroup) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_are_found_with_their_contents() {
        let tt = TranspositionTable::try_with_mib(1).expect("fits");
        tt.store(0xDEAD_BEEF, 1234, -250, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).expect("hit");
        assert_eq!(
            hit,
            Hit {
                mv: 1234,
                score: -250,
                depth: 7,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn a_shallower_result_does_not_replace_a_deep_one_in_the_same_search() {
        let tt = TranspositionTable::try_with_mib(1).expect("fits");
        tt.store(42, 1, 10, 12, Bound::Lower);
        tt.store(42, 2, 20, 3, Bound::Upper);
        assert_eq!(tt.probe(42).map(|h| h.depth), Some(12));
        tt.store(42, 3, 30, 3, Bound::Exact);
        assert_eq!(
            tt.probe(42).map(|h| (h.mv, h.bound)),
            Some((3, Bound::Exact))
        );
    }

    #[test]
    fn a_result_without_a_move_keeps_the_move_already_stored() {
        // The search stores no move where every move failed low (their
        // best is noise): the move found earlier stays for ordering.
        let tt = TranspositionTable::try_with_mib(1).expect("fits");
        tt.store(42, 7, 10, 4, Bound::Lower);
        tt.store(42, 0, -30, 5, Bound::Upper);
        let hit = tt.probe(42).expect("hit");
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (7, -30, 5, Bound::Upper)
        );
        tt.store(42, 9, 40, 6, Bound::Lower);
        assert_eq!(
            tt.probe(42).map(|h| h.mv),
            Some(9),
            "a new move replaces it"
        );
    }

    #[test]
    fn a_full_bucket_replaces_its_least_valuable_entry() {
        let tt = TranspositionTable::with_buckets(1);
        for k in 1..=4u64 {
            tt.store(k, 0, 0, k as i32 * 2, Bound::Exact);
        }
        tt.store(99, 0, 0, 5, Bound::Exact);
        assert!(tt.probe(1).is_none(), "the shallowest entry is replaced");
        assert!(tt.probe(99).is_some());
        assert!(tt.probe(4).is_some());
    }

    #[test]
    fn a_table_larger_than_memory_is_an_error_not_an_abort() {
        // 2^40 entries: 16 TiB, more than any machine this runs on.
        let e = TranspositionTable::try_with_log2_entries(40)
            .err()
            .expect("refused");
        assert_eq!(e.requested, 1 << 44);
        assert!(e.to_string().contains("16777216 MiB"), "{e}");
        let e = TranspositionTable::try_with_mib(1 << 30)
            .err()
            .expect("refused");
        assert!(e.to_string().starts_with("cannot allocate"), "{e}");
    }

    #[test]
    fn a_table_that_fits_is_made() {
        let tt = TranspositionTable::try_with_mib(2).expect("2 MiB fit");
        assert_eq!(tt.bytes(), 2 << 20);
    }

    #[test]
    fn clearing_forgets_everything() {
        let tt = TranspositionTable::try_with_log2_entries(10).expect("fits");
        assert_eq!(tt.entries(), 1024);
        tt.store(7, 1, 1, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(7).is_none());
    }

    #[test]
    fn concurrent_writers_never_produce_a_false_hit() {
        let tt = std::sync::Arc::new(TranspositionTable::with_buckets(4));
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i % 64) * 1_000_003 + t;
                        // The move encodes the key, so a hit can be verified.
                        tt.store(key, key as u32, 1, 1, Bound::Exact);
                        if let Some(hit) = tt.probe(key) {
                            assert_eq!(hit.mv, key as u32);
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("thread");
        }
    }
}
