//! The decrypt cache: hits, misses, expiry, LRU eviction and stats.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use relay::crypto::{CacheConfig, DecryptCache, ManualClock, DEFAULT_CAPACITY, DEFAULT_TTL};
use relay::CryptoService;

fn cache(capacity: usize, ttl_secs: u64) -> (DecryptCache, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    let config = CacheConfig {
        capacity: NonZeroUsize::new(capacity).expect("non-zero"),
        ttl: Duration::from_secs(ttl_secs),
    };
    (DecryptCache::new(config, clock.clone()), clock)
}

fn digest(n: u8) -> [u8; 32] {
    [n; 32]
}

#[test]
fn defaults_are_500_entries_for_300_seconds() {
    let config = CacheConfig::default();
    assert_eq!(config.capacity.get(), DEFAULT_CAPACITY);
    assert_eq!(DEFAULT_CAPACITY, 500);
    assert_eq!(config.ttl, DEFAULT_TTL);
    assert_eq!(DEFAULT_TTL, Duration::from_secs(300));
}

#[test]
fn counts_hits_and_misses() {
    let (cache, _) = cache(4, 300);
    assert_eq!(cache.get(&digest(1)), None);
    cache.insert(digest(1), "one".into());
    assert_eq!(cache.get(&digest(1)).as_deref(), Some("one"));
    assert_eq!(cache.get(&digest(1)).as_deref(), Some("one"));
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.capacity, stats.hits, stats.misses), (1, 4, 2, 1));
    assert!((stats.hit_rate_percent() - 200.0 / 3.0).abs() < 1e-9);
}

#[test]
fn entries_expire_after_the_ttl() {
    let (cache, clock) = cache(4, 300);
    cache.insert(digest(1), "one".into());
    clock.advance(Duration::from_secs(299));
    assert!(cache.get(&digest(1)).is_some());
    clock.advance(Duration::from_secs(1));
    assert_eq!(cache.get(&digest(1)), None, "expired at exactly the TTL");
    assert_eq!(cache.stats().entries, 0, "the expired entry is dropped");
    assert_eq!(cache.stats().misses, 1);
}

#[test]
fn evicts_the_least_recently_used_entry() {
    let (cache, _) = cache(2, 300);
    cache.insert(digest(1), "one".into());
    cache.insert(digest(2), "two".into());
    assert!(cache.get(&digest(1)).is_some()); // 2 is now the least recently used
    cache.insert(digest(3), "three".into());
    assert!(cache.get(&digest(2)).is_none());
    assert!(cache.get(&digest(1)).is_some());
    assert!(cache.get(&digest(3)).is_some());
    assert_eq!(cache.stats().entries, 2);
}

#[test]
fn clear_drops_entries_and_counters() {
    let (cache, _) = cache(2, 300);
    cache.insert(digest(1), "one".into());
    cache.get(&digest(1));
    cache.clear();
    let stats = cache.stats();
    assert_eq!((stats.entries, stats.hits, stats.misses), (0, 0, 0));
    assert_eq!(stats.hit_rate_percent(), 0.0);
}

#[test]
fn service_answers_repeats_from_its_cache_until_expiry() {
    let clock = Arc::new(ManualClock::new());
    let config =
        CacheConfig { capacity: NonZeroUsize::new(2).expect("non-zero"), ttl: DEFAULT_TTL };
    let service =
        CryptoService::with_cache("cache-test-key", config, clock.clone()).expect("derives");
    let stored = service.encrypt("cached secret").expect("encrypts");

    assert_eq!(service.decrypt(&stored).expect("decrypts"), "cached secret");
    assert_eq!(service.decrypt(&stored).expect("decrypts"), "cached secret");
    assert_eq!((service.cache_stats().hits, service.cache_stats().misses), (1, 1));

    clock.advance(DEFAULT_TTL);
    assert_eq!(service.decrypt(&stored).expect("decrypts"), "cached secret");
    assert_eq!((service.cache_stats().hits, service.cache_stats().misses), (1, 2));

    // Failed decryptions are not cached.
    assert!(service.decrypt("ffff").is_err());
    assert_eq!(service.cache_stats().entries, 1);

    service.clear_cache();
    assert_eq!(service.cache_stats().entries, 0);
}

#[test]
fn cycling_one_more_value_than_capacity_always_misses() {
    // The access pattern the `decryption/*` benches rely on.
    let (cache, _) = cache(3, 300);
    for round in 0..3 {
        for n in 0..4u8 {
            if cache.get(&digest(n)).is_none() {
                cache.insert(digest(n), format!("{n}"));
            } else {
                panic!("hit on round {round} value {n}");
            }
        }
    }
    assert_eq!(cache.stats().hits, 0);
}
