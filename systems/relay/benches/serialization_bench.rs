//! Criterion benches of JSON (de)serialization and SSE parsing.

mod support;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use relay::message::{ComplexMessage, ContentBlock, Role, SimpleMessage, Usage};
use relay::sse;

const SSE_MESSAGE_START: &str = concat!(
    "event: message_start\n",
    r#"data: {"type":"message_start","message":{"id":"msg_bench_0042","type":"message","role":"assistant","content":[],"model":"claude-3-5-sonnet-20241022","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":27,"output_tokens":1}}}"#,
    "\n\n"
);
const SSE_CONTENT_BLOCK_DELTA: &str = concat!(
    "event: content_block_delta\n",
    r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Sure"}}"#,
    "\n\n"
);
const SSE_MESSAGE_DELTA: &str = concat!(
    "event: message_delta\n",
    r#"data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":73}}"#,
    "\n\n"
);

fn simple_message() -> SimpleMessage {
    SimpleMessage {
        id: "msg_bench_0001".into(),
        role: Role::Assistant,
        content: "Of course. What should we look at?".into(),
    }
}

fn complex_message() -> ComplexMessage {
    ComplexMessage {
        id: "msg_bench_0002".into(),
        kind: "message".into(),
        role: Role::Assistant,
        content: vec![ContentBlock {
            kind: "text".into(),
            text: "The relay forwards each request and counts tokens. ".repeat(10),
        }],
        model: "claude-3-5-sonnet-20241022".into(),
        stop_reason: Some("end_turn".into()),
        usage: Usage {
            input_tokens: 120,
            output_tokens: 480,
            cache_creation_input_tokens: 64,
            cache_read_input_tokens: 32,
        },
    }
}

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
