//! Criterion benches of JSON (de)serialization and SSE parsing.

mod fixtures;
mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fixtures::{
    complex_message, simple_message, SSE_CONTENT_BLOCK_DELTA, SSE_MESSAGE_DELTA, SSE_MESSAGE_START,
};
use relay::message::{ComplexMessage, Role, SimpleMessage};
use relay::sse;

fn simple(c: &mut Criterion) {
    let message = simple_message();
    let json = serde_json::to_string(&message).expect("serializes");
    c.bench_function("simple_serialize", |b| {
        b.iter(|| serde_json::to_string(black_box(&message)).expect("serializes"))
    });
    c.bench_function("simple_deserialize", |b| {
        b.iter(|| serde_json::from_str::<SimpleMessage>(black_box(&json)).expect("parses"))
    });
}

fn complex(c: &mut Criterion) {
    let message = complex_message();
    let json = serde_json::to_string(&message).expect("serializes");
    c.bench_function("complex_serialize", |b| {
        b.iter(|| serde_json::to_string(black_box(&message)).expect("serializes"))
    });
    c.bench_function("complex_deserialize", |b| {
        b.iter(|| serde_json::from_str::<ComplexMessage>(black_box(&json)).expect("parses"))
    });
}

fn sse_parsing(c: &mut Criterion) {
    let mut group = c.benchmark_group("sse_parsing");
    for (name, chunk) in [
        ("message_start", SSE_MESSAGE_START),
        ("content_block_delta", SSE_CONTENT_BLOCK_DELTA),
        ("message_delta", SSE_MESSAGE_DELTA),
    ] {
        group.bench_with_input(BenchmarkId::from_parameter(name), chunk, |b, chunk| {
            b.iter(|| sse::parse_event(black_box(chunk)).expect("parses"))
        });
    }
    group.finish();
}

fn large_array(c: &mut Criterion) {
    let mut group = c.benchmark_group("large_array");
    for count in [10usize, 100, 1000] {
        let messages: Vec<SimpleMessage> = (0..count)
            .map(|i| SimpleMessage {
                id: format!("msg_{i:06}"),
                role: Role::User,
                content: format!("Request number {i}"),
            })
            .collect();
        group.throughput(Throughput::Elements(count as u64));
        group.bench_with_input(BenchmarkId::from_parameter(count), &messages, |b, messages| {
            b.iter(|| serde_json::to_string(black_box(messages)).expect("serializes"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = support::criterion();
    targets = simple, complex, sse_parsing, large_array
}
criterion_main!(benches);
