//! Criterion benches of the crypto service.
//!
//! Every id says what it times: `decryption/*` is the public `decrypt` on a value that is not
//! cached (cache lookup + AES + insert), `decryption_uncached/*` is AES alone, and only
//! `decryption_with_cache/second_decrypt_cache_hit` measures a cache hit.

mod fixtures;
mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use relay::crypto::{derive_key, KeyCache, DEFAULT_CAPACITY};
use relay::CryptoService;

const KEY: &str = "criterion-bench-key-not-a-secret-0001";
const SIZES: [usize; 4] = [10, 100, 1000, 10000];
const CACHE_PROBE_SIZE: usize = 1000;

fn service() -> CryptoService {
    CryptoService::new(KEY).expect("bench key derives")
}

/// One more distinct value than the cache holds: cycling through them in order makes every
/// lookup of a true LRU a miss, without any untimed setup per iteration.
fn miss_pool(service: &CryptoService, len: usize) -> Vec<String> {
    (0..=DEFAULT_CAPACITY)
        .map(|_| service.encrypt(&fixtures::text_of_len(len)).expect("encrypts"))
        .collect()
}

fn encryption(c: &mut Criterion) {
    let service = service();
    let mut group = c.benchmark_group("encryption");
    for size in SIZES {
        let plaintext = fixtures::text_of_len(size);
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &plaintext, |b, text| {
            b.iter(|| service.encrypt(black_box(text)).expect("encrypts"))
        });
    }
    group.finish();
}

fn decryption(c: &mut Criterion) {
    let service = service();
    let mut group = c.benchmark_group("decryption");
    for size in SIZES {
        let pool = miss_pool(&service, size);
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &pool, |b, pool| {
            let mut next = 0;
            b.iter(|| {
                next = (next + 1) % pool.len();
                service.decrypt(black_box(&pool[next])).expect("decrypts")
            })
        });
    }
    group.finish();
}

fn decryption_with_cache(c: &mut Criterion) {
    let service = service();
    let mut group = c.benchmark_group("decryption_with_cache");
    let pool = miss_pool(&service, CACHE_PROBE_SIZE);
    group.bench_function("first_decrypt_cache_miss", |b| {
        let mut next = 0;
        b.iter(|| {
            next = (next + 1) % pool.len();
            service.decrypt(black_box(&pool[next])).expect("decrypts")
        })
    });
    let stored = &pool[0];
    service.decrypt(stored).expect("decrypts");
    group.bench_function("second_decrypt_cache_hit", |b| {
        b.iter(|| service.decrypt(black_box(stored)).expect("decrypts"))
    });
    group.finish();
}

fn key_derivation(c: &mut Criterion) {
    let mut group = c.benchmark_group("key_derivation");
    let keys = KeyCache::new();
    keys.get_or_derive(KEY).expect("derives");
    group.bench_function("cached_key", |b| {
        b.iter(|| keys.get_or_derive(black_box(KEY)).expect("derives"))
    });
    // The real scrypt (N = 32768, r = 8, p = 1) takes tens of milliseconds: ten single runs.
    let seconds = if support::profile() == support::Profile::Quick { 2 } else { 5 };
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .measurement_time(Duration::from_secs(seconds));
    group.bench_function("scrypt_derive_key", |b| {
        b.iter(|| derive_key(black_box(KEY)).expect("derives"))
    });
    group.finish();
}

fn decryption_uncached(c: &mut Criterion) {
    let service = service();
    let mut group = c.benchmark_group("decryption_uncached");
    for size in SIZES {
        let stored = service.encrypt(&fixtures::text_of_len(size)).expect("encrypts");
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &stored, |b, stored| {
            b.iter(|| service.decrypt_uncached(black_box(stored)).expect("decrypts"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = encryption, decryption, decryption_with_cache, key_derivation, decryption_uncached
}
criterion_main!(benches);
