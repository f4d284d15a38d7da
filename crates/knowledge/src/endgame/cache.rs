//! The prober's block cache: unpacked blocks kept in a bounded
//! least-recently-used cache, split into shards with a lock each so that
//! search threads probing at once rarely wait for each other. A miss reads
//! and inflates the block outside the lock.

use super::error::EgdbError;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// A block: (table number, block number).
pub(crate) type Key = (u32, u32);

const SHARDS: usize = 16;
const NIL: usize = usize::MAX;

struct Node {
    key: Key,
    data: Arc<Vec<u8>>,
    prev: usize,
    next: usize,
}

/// One shard: a hash map into a doubly linked list of nodes, most recent first.
struct Shard {
    map: HashMap<Key, usize>,
    nodes: Vec<Node>,
    free: Vec<usize>,
    head: usize,
    tail: usize,
    bytes: usize,
    budget: usize,
}

impl Shard {
    fn new(budget: usize) -> Self {
        Shard {
            map: HashMap::new(),
            nodes: Vec::new(),
            free: Vec::new(),
            head: NIL,
            tail: NIL,
            bytes: 0,
            budget,
        }
    }

    fn unlink(&mut self, i: usize) {
        let (p, n) = (self.nodes[i].prev, self.nodes[i].next);
        if p != NIL {
            self.nodes[p].next = n;
        } else {
            self.head = n;
        }
        if n != NIL {
            self.nodes[n].prev = p;
        } else {
            self.tail = p;
        }
    }

    fn push_front(&mut self, i: usize) {
        self.nodes[i].prev = NIL;
        self.nodes[i].next = self.head;
        if self.head != NIL {
            self.nodes[self.head].prev = i;
        }
        self.head = i;
        if self.tail == NIL {
            self.tail = i;
        }
    }

    fn get(&mut self, key: Key) -> Option<Arc<Vec<u8>>> {
        let i = *self.map.get(&key)?;
        self.unlink(i);
        self.push_front(i);
        Some(self.nodes[i].data.clone())
    }

    fn insert(&mut self, key: Key, data: Arc<Vec<u8>>) {
        if self.map.contains_key(&key) {
            return; // another thread loaded it meanwhile
        }
        self.bytes += data.len();
        let node = Node {
            key,
            data,
            prev: NIL,
            next: NIL,
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.nodes[i] = node;
                i
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        };
        self.map.insert(key, i);
        self.push_front(i);
        // Evict from the cold end, but always keep the block just loaded.
        while self.bytes > self.budget && self.tail != i && self.tail != NIL {
            let t = self.tail;
            self.unlink(t);
            self.map.remove(&self.nodes[t].key);
            self.bytes -= self.nodes[t].data.len();
            self.nodes[t].data = Arc::new(Vec::new());
            self.free.push(t);
        }
    }
}

/// A bounded, thread-safe LRU cache of unpacked blocks.
pub(crate) struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl BlockCache {
    /// A cache holding about `budget` bytes of unpacked blocks.
    pub fn new(budget: usize) -> Self {
        BlockCache {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(Shard::new(budget / SHARDS)))
                .collect(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    fn shard(&self, key: Key) -> &Mutex<Shard> {
        let h = (u64::from(key.0) << 32 | u64::from(key.1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(h >> 60) as usize % SHARDS]
    }

    /// The block `key`, from the cache or from `load`.
    pub fn get_or_load(
        &self,
        key: Key,
        load: impl FnOnce() -> Result<Vec<u8>, EgdbError>,
    ) -> Result<Arc<Vec<u8>>, EgdbError> {
        let shard = self.shard(key);
        // A poisoned lock only means another thread panicked mid-update of
        // plain bookkeeping; the cached blocks themselves are immutable.
        if let Some(d) = shard.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            self.hits.fetch_add(1, Relaxed);
            return Ok(d);
        }
        self.misses.fetch_add(1, Relaxed);
        let data = Arc::new(load()?);
        shard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, data.clone());
        Ok(data)
    }

    /// Cache hits and misses so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits.load(Relaxed), self.misses.load(Relaxed))
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).bytes)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_within_budget_and_evicts_least_recent() {
        let c = BlockCache::new(16 * 100);
        for b in 0..1000u32 {
            c.get_or_load((0, b), || Ok(vec![0u8; 10])).unwrap();
        }
        assert!(c.bytes() <= 16 * 100 + 16 * 10);
        // A block used again is a hit.
        c.get_or_load((0, 999), || {
            Err(EgdbError::Internal("must be cached".into()))
        })
        .unwrap();
        let (hits, misses) = c.stats();
        assert_eq!((hits, misses), (1, 1000));
    }
}
