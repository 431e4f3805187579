//! Instruction counts of relay's hot functions under Valgrind's Callgrind (Gungraun).
//!
//! Each benchmark runs its function once in a fresh process under Callgrind; only the call
//! itself is counted (setup, the scrypt key derivation included, is not). The counts do not
//! depend on the machine's load, so these series detect changes of well under 1 %.
//!
//! Names mirror the Criterion ids: function `encryption` with id `input_10` is Criterion's
//! `encryption/10`, `sse_parsing` with id `message_start` is `sse_parsing/message_start`, a
//! function without an id (`simple_serialize`) is the Criterion id of the same name. The
//! runner (`runners/relay/driver.py --profile instructions`) relies on that naming.
//!
//! Needs `gungraun-runner` of the same version as the `gungraun` crate (the runner installs
//! it) and Valgrind.

mod fixtures;

use std::hint::black_box;

use gungraun::{library_benchmark, library_benchmark_group, main};
use relay::message::{ComplexMessage, SimpleMessage};
use relay::{sse, CryptoService};

const KEY: &str = "gungraun-bench-key-not-a-secret-0001";

/// A service (its key derived outside the measurement) and a plaintext of `len` bytes.
///
/// One warm-up encryption seeds the thread's random generator, so the first measured call
/// pays for the IV only.
fn plaintext_of(len: usize) -> (CryptoService, String) {
    let service = CryptoService::new(KEY).expect("bench key derives");
    service.encrypt("warm-up").expect("encrypts");
    (service, fixtures::text_of_len(len))
}

/// A service and the stored form of a plaintext of `len` bytes.
fn stored_of(len: usize) -> (CryptoService, String) {
    let (service, text) = plaintext_of(len);
    let stored = service.encrypt(&text).expect("encrypts");
    (service, stored)
}

#[library_benchmark]
#[bench::input_10(args = (10), setup = plaintext_of)]
#[bench::input_1000(args = (1000), setup = plaintext_of)]
#[bench::input_10000(args = (10000), setup = plaintext_of)]
fn encryption(input: (CryptoService, String)) -> String {
    let (service, text) = input;
    black_box(service.encrypt(black_box(&text)).expect("encrypts"))
}

#[library_benchmark]
#[bench::input_10(args = (10), setup = stored_of)]
#[bench::input_1000(args = (1000), setup = stored_of)]
#[bench::input_10000(args = (10000), setup = stored_of)]
fn decryption_uncached(input: (CryptoService, String)) -> String {
    let (service, stored) = input;
    black_box(service.decrypt_uncached(black_box(&stored)).expect("decrypts"))
}

#[library_benchmark]
#[bench::only(fixtures::simple_message())]
fn simple_serialize(message: SimpleMessage) -> String {
    black_box(serde_json::to_string(black_box(&message)).expect("serializes"))
}

#[library_benchmark]
#[bench::only(serde_json::to_string(&fixtures::complex_message()).expect("serializes"))]
fn complex_deserialize(json: String) -> ComplexMessage {
    black_box(serde_json::from_str::<ComplexMessage>(black_box(&json)).expect("parses"))
}

#[library_benchmark]
#[bench::message_start(fixtures::SSE_MESSAGE_START)]
#[bench::content_block_delta(fixtures::SSE_CONTENT_BLOCK_DELTA)]
fn sse_parsing(chunk: &str) -> sse::SseEvent {
    black_box(sse::parse_event(black_box(chunk)).expect("parses"))
}

library_benchmark_group!(name = crypto; benchmarks = encryption, decryption_uncached);
library_benchmark_group!(
    name = serialization;
    benchmarks = simple_serialize, complex_deserialize, sse_parsing
);

main!(library_benchmark_groups = crypto, serialization);
