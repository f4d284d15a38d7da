//! The transposition table: a fixed-size, lock-free hash table shared by all
//! search threads.
//!
//! Each entry is two atomic words, `data` and `key ^ data` (the "lockless
//! hashing" of Hyatt and Mann). Threads read and write entries without locks;
//! a read that sees halves of two different writes fails the key check and is
//! treated as a miss, so a torn entry can never be mistaken for a hit.
//! Entries come in buckets of four, one cache line, and a new result replaces
//! the least valuable entry of its bucket (shallow or from an old search).

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

/// The shared transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Search generation, to prefer replacing entries of earlier searches.
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket).
    pub fn with_mib(mib: usize) -> Self {
        Self::with_buckets((mib.max(1) << 20) / BUCKET_BYTES)
    }

    /// A table of `2^log2_entries` entries (Scan's `tt-size`).
    pub fn with_log2_entries(log2_entries: u32) -> Self {
        Self::with_buckets((1usize << log2_entries.min(40)) / 4)
    }

    /// An empty table of the same size as `other`.
    pub fn with_buckets_like(other: &TranspositionTable) -> Self {
        Self::with_buckets(other.buckets.len())
    }

    fn with_buckets(n: usize) -> Self {
        let n = n.max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.buckets.len() * 4
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        *self.age.get_mut() = 0;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_are_found_with_their_contents() {
        let tt = TranspositionTable::with_mib(1);
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
        let tt = TranspositionTable::with_mib(1);
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
    fn clearing_forgets_everything() {
        let mut tt = TranspositionTable::with_log2_entries(10);
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
