//! Bounded, time-limited LRU cache of decrypted values.

use std::fmt;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use lru::LruCache;

/// Default number of cached plaintexts.
pub const DEFAULT_CAPACITY: usize = 500;
/// Default time a cached plaintext stays valid.
pub const DEFAULT_TTL: Duration = Duration::from_secs(300);

/// A source of the current time, injectable so that expiry can be tested without sleeping.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current instant.
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that only moves when told to (for tests).
#[derive(Debug)]
pub struct ManualClock {
    start: Instant,
    offset: Mutex<Duration>,
}

impl ManualClock {
    /// A clock standing at the moment of its creation.
    pub fn new() -> Self {
        Self { start: Instant::now(), offset: Mutex::new(Duration::ZERO) }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        *self.offset.lock().unwrap_or_else(PoisonError::into_inner) += by;
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.start + *self.offset.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Size and lifetime of a decrypt cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheConfig {
    /// Maximum number of entries; the least recently used one is evicted beyond it.
    pub capacity: NonZeroUsize,
    /// How long an entry stays valid after it was inserted.
    pub ttl: Duration,
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self { capacity: NonZeroUsize::MIN.saturating_add(DEFAULT_CAPACITY - 1), ttl: DEFAULT_TTL }
    }
}

/// A snapshot of a cache's size and counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheStats {
    /// Entries currently held (expired ones are dropped lazily, on lookup or eviction).
    pub entries: usize,
    /// Maximum number of entries.
    pub capacity: usize,
    /// Lookups that found a live entry.
    pub hits: u64,
    /// Lookups that found nothing or an expired entry.
    pub misses: u64,
}

impl CacheStats {
    /// Hits as a percentage of all lookups (0 when there were none).
    pub fn hit_rate_percent(&self) -> f64 {
        let total = self.hits + self.misses;
        if total == 0 {
            0.0
        } else {
            self.hits as f64 * 100.0 / total as f64
        }
    }
}

struct Entry {
    plaintext: String,
    inserted_at: Instant,
}

/// Plaintexts keyed by the SHA-256 of their stored (encrypted) form.
pub struct DecryptCache {
    entries: Mutex<LruCache<[u8; 32], Entry>>,
    ttl: Duration,
    clock: Arc<dyn Clock>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl fmt::Debug for DecryptCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecryptCache")
            .field("stats", &self.stats())
            .field("ttl", &self.ttl)
            .finish()
    }
}

impl DecryptCache {
    /// An empty cache with the given size and lifetime, reading time from `clock`.
    pub fn new(config: CacheConfig, clock: Arc<dyn Clock>) -> Self {
        Self {
            entries: Mutex::new(LruCache::new(config.capacity)),
            ttl: config.ttl,
            clock,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The live plaintext for `digest`, counting a hit or a miss; expired entries are removed.
    pub fn get(&self, digest: &[u8; 32]) -> Option<String> {
        let now = self.clock.now();
        let mut entries = self.lock();
        let found = match entries.get(digest) {
            Some(entry) if now.saturating_duration_since(entry.inserted_at) < self.ttl => {
                Some(entry.plaintext.clone())
            }
            Some(_) => {
                entries.pop(digest);
                None
            }
            None => None,
        };
        drop(entries);
        let counter = if found.is_some() { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Stores `plaintext` for `digest`, evicting the least recently used entry when full.
    pub fn insert(&self, digest: [u8; 32], plaintext: String) {
        let inserted_at = self.clock.now();
        self.lock().put(digest, Entry { plaintext, inserted_at });
    }

    /// Drops every entry and resets the counters.
    pub fn clear(&self) {
        self.lock().clear();
        self.hits.store(0, Ordering::Relaxed);
        self.misses.store(0, Ordering::Relaxed);
    }

    /// Current size and counters.
    pub fn stats(&self) -> CacheStats {
        let entries = self.lock();
        CacheStats {
            entries: entries.len(),
            capacity: entries.cap().get(),
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    fn lock(&self) -> MutexGuard<'_, LruCache<[u8; 32], Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
