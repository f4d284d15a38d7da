//! The positions other search threads are searching right now, so that a
//! thread can leave them for later (Tom Kerrigan's "simplified ABDADA").
//!
//! Lazy SMP threads share only the transposition table: two threads that
//! reach the same node search the same first moves in the same order, and
//! one mostly waits for the other's results to appear in the table. Here a
//! thread marks each child it enters (at depths where the bookkeeping is
//! cheap beside the subtree), and a thread that meets a marked child
//! among a node's later moves searches the others first: by the time it
//! comes back, the table usually holds the other thread's answer.
//!
//! A hint, not a lock: marks are read and written without ordering, a
//! lost mark only costs a duplicated search, and a stale one only a
//! deferral.

use std::sync::atomic::{AtomicU64, Ordering};

/// Sets of ways, indexed by the low bits of a hash.
const SETS: usize = 1 << 15;
/// Marks per set: two threads at the same node mark a child each, and a
/// few nodes share a set.
const WAYS: usize = 4;
/// Remaining depth from which a node's children are marked and deferred:
/// below it the marks cost more than they save (the two threads write the
/// same cache lines). Measured with `tiao bench --depth 14 --threads 2`:
/// from depth 3, 4, 5, 6 and 8, 5 and 6 were best (`benchmarks.md`).
pub(super) const MIN_DEPTH: i32 = 5;

/// The children being searched, by hash (0: free).
pub(super) struct Busy {
    marks: Vec<AtomicU64>,
    /// Tests: every position reads as busy.
    #[cfg(test)]
    pub everything: bool,
}

impl Busy {
    pub fn new() -> Self {
        Busy {
            marks: (0..SETS * WAYS).map(|_| AtomicU64::new(0)).collect(),
            #[cfg(test)]
            everything: false,
        }
    }

    fn set(&self, key: u64) -> &[AtomicU64] {
        let start = (key as usize & (SETS - 1)) * WAYS;
        &self.marks[start..start + WAYS]
    }

    /// Whether some thread is searching the position with hash `key`.
    pub fn contains(&self, key: u64) -> bool {
        #[cfg(test)]
        if self.everything {
            return true;
        }
        key != 0
            && self
                .set(key)
                .iter()
                .any(|m| m.load(Ordering::Relaxed) == key)
    }

    /// Mark `key` as being searched: a free way, or the first one when the
    /// set is full (an older mark is only a hint).
    pub fn enter(&self, key: u64) {
        if key == 0 {
            return;
        }
        let set = self.set(key);
        let free = set.iter().find(|m| {
            m.compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        });
        if free.is_none() {
            set[0].store(key, Ordering::Relaxed);
        }
    }

    /// Clear the mark of `key`, if it is still there.
    pub fn leave(&self, key: u64) {
        for m in self.set(key) {
            let _ = m.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_busy_from_enter_to_leave() {
        let busy = Busy::new();
        let key = 0x1234_5678_9abc_def1;
        assert!(!busy.contains(key));
        busy.enter(key);
        assert!(busy.contains(key));
        busy.leave(key);
        assert!(!busy.contains(key));
    }

    #[test]
    fn positions_sharing_a_set_keep_their_own_marks() {
        let busy = Busy::new();
        let keys: Vec<u64> = (1..=WAYS as u64).map(|i| (i << 40) | 7).collect();
        for &k in &keys {
            busy.enter(k);
        }
        assert!(keys.iter().all(|&k| busy.contains(k)));
        busy.leave(keys[1]);
        assert!(!busy.contains(keys[1]));
        assert!(busy.contains(keys[0]) && busy.contains(keys[2]));
    }

    #[test]
    fn a_full_set_gives_up_its_first_mark() {
        let busy = Busy::new();
        let keys: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| (i << 40) | 9).collect();
        for &k in &keys {
            busy.enter(k);
        }
        assert!(!busy.contains(keys[0]));
        assert!(keys[1..].iter().all(|&k| busy.contains(k)));
    }
}
