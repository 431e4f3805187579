//! Bench profiles shared by the Criterion targets.
//!
//! `RELAY_BENCH_PROFILE` picks the profile (`quick`, `standard` — the default — or `full`);
//! Criterion's own command-line options (`--sample-size`, `--measurement-time`, …) still
//! override it because the group macro applies `configure_from_args` afterwards.

use std::time::Duration;

use criterion::Criterion;

/// How long and how often each benchmark is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// 10 samples, 0.3 s warm-up, 0.7 s measurement: the whole run fits CI's two minutes.
    Quick,
    /// Criterion's defaults (100 samples, 3 s warm-up, 5 s measurement).
    Standard,
    /// Criterion's defaults; the runner repeats the whole run five times.
    Full,
}

/// The profile named by `RELAY_BENCH_PROFILE`.
pub fn profile() -> Profile {
    match std::env::var("RELAY_BENCH_PROFILE").as_deref() {
        Ok("quick") => Profile::Quick,
        Ok("full") => Profile::Full,
        _ => Profile::Standard,
    }
}

/// The Criterion configuration of the current profile.
pub fn criterion() -> Criterion {
    let base = Criterion::default();
    match profile() {
        Profile::Quick => base
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(700)),
        Profile::Standard | Profile::Full => base,
    }
}
