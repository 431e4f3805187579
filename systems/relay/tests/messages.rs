//! JSON shape of the message types.

use relay::{ComplexMessage, ContentBlock, Role, SimpleMessage, Usage};
use serde_json::json;

#[test]
fn simple_message_round_trips_with_lowercase_role() {
    let message = SimpleMessage { id: "msg_a".into(), role: Role::User, content: "hi".into() };
    let value = serde_json::to_value(&message).expect("serializes");
    assert_eq!(value, json!({"id": "msg_a", "role": "user", "content": "hi"}));
    assert_eq!(serde_json::from_value::<SimpleMessage>(value).expect("parses"), message);
}

#[test]
fn complex_message_uses_type_keys_and_null_stop_reason() {
    let message = ComplexMessage {
        id: "msg_b".into(),
        kind: "message".into(),
        role: Role::Assistant,
        content: vec![ContentBlock { kind: "text".into(), text: "ok".into() }],
        model: "some-model".into(),
        stop_reason: None,
        usage: Usage { input_tokens: 3, output_tokens: 4, ..Usage::default() },
    };
    let value = serde_json::to_value(&message).expect("serializes");
    assert_eq!(value["type"], "message");
    assert_eq!(value["content"][0], json!({"type": "text", "text": "ok"}));
    assert_eq!(value["stop_reason"], serde_json::Value::Null);
    assert_eq!(value["usage"]["cache_creation_input_tokens"], 0);
    assert_eq!(serde_json::from_value::<ComplexMessage>(value).expect("parses"), message);
}

#[test]
fn complex_message_accepts_missing_optional_fields() {
    let parsed: ComplexMessage = serde_json::from_value(json!({
        "id": "msg_c", "type": "message", "role": "assistant", "content": [],
        "model": "m", "usage": {"input_tokens": 1, "output_tokens": 2}
    }))
    .expect("parses");
    assert_eq!(parsed.stop_reason, None);
    assert_eq!(parsed.usage.cache_read_input_tokens, 0);
}

#[test]
fn unknown_role_is_rejected() {
    let err =
        serde_json::from_value::<SimpleMessage>(json!({"id": "x", "role": "robot", "content": ""}));
    assert!(err.is_err());
}
