//! SSE parsing against fixture streams, including malformed lines.

use relay::sse::{self, Delta, SseError, SseEvent};
use relay::Role;

const FULL: &str = include_str!("fixtures/stream_full.sse");
const MALFORMED: &str = include_str!("fixtures/malformed_lines.sse");
const BAD: &str = include_str!("fixtures/bad_events.sse");

#[test]
fn parses_a_whole_stream_in_order() {
    let events = sse::parse_events(FULL).expect("parses");
    let names: Vec<&str> = events.iter().map(SseEvent::name).collect();
    assert_eq!(
        names,
        [
            "message_start",
            "content_block_start",
            "ping",
            "content_block_delta",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop"
        ]
    );
    let SseEvent::MessageStart(start) = &events[0] else { panic!("{:?}", events[0]) };
    assert_eq!(start.message.id, "msg_fixture_01");
    assert_eq!(start.message.role, Role::Assistant);
    assert!(start.message.content.is_empty());
    assert_eq!(start.message.stop_reason, None);
    assert_eq!(start.message.usage.input_tokens, 19);
    assert_eq!(start.message.usage.cache_read_input_tokens, 0, "absent field defaults to 0");

    let text: String = events
        .iter()
        .filter_map(|e| match e {
            SseEvent::ContentBlockDelta(d) => match &d.delta {
                Delta::TextDelta { text } => Some(text.as_str()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(text, "Tea is ready.");

    let SseEvent::MessageDelta(delta) = &events[6] else { panic!("{:?}", events[6]) };
    assert_eq!(delta.delta.stop_reason.as_deref(), Some("end_turn"));
    assert_eq!(delta.usage.output_tokens, 6);

    let SseEvent::Other { data, .. } = &events[1] else { panic!("{:?}", events[1]) };
    assert_eq!(data["content_block"]["type"], "text");
}

#[test]
fn skips_comments_ids_and_unknown_lines_and_joins_data_lines() {
    let events = sse::parse_events(MALFORMED).expect("parses");
    assert_eq!(events.len(), 2, "{events:?}");
    let SseEvent::ContentBlockDelta(delta) = &events[0] else { panic!("{:?}", events[0]) };
    assert_eq!(delta.index, 2);
    assert_eq!(delta.delta, Delta::InputJsonDelta { partial_json: r#"{"city": "Oslo"#.into() });
    // The last event has no `event` line and no trailing blank line: named by its JSON type.
    let SseEvent::MessageDelta(last) = &events[1] else { panic!("{:?}", events[1]) };
    assert_eq!(last.delta.stop_reason.as_deref(), Some("max_tokens"));
    assert_eq!(last.usage.output_tokens, 4096);
}

#[test]
fn raw_events_borrow_single_data_lines() {
    let raw: Vec<_> = sse::raw_events(FULL).collect();
    assert_eq!(raw.len(), 8);
    assert!(matches!(raw[0].data, Some(std::borrow::Cow::Borrowed(_))));
    assert_eq!(raw[2].event, Some("ping"));
}

#[test]
fn bad_events_are_errors_not_panics() {
    let raw: Vec<_> = sse::raw_events(BAD).collect();
    assert_eq!(raw.len(), 4);
    let errors: Vec<SseError> =
        raw.iter().map(|r| SseEvent::from_raw(r).expect_err("each one is bad")).collect();
    assert!(matches!(&errors[0], SseError::Json { event, .. } if event == "message_delta"));
    assert!(matches!(&errors[1], SseError::Json { event, .. } if event == "content_block_delta"));
    assert!(matches!(&errors[2], SseError::MissingData { event } if event == "message_start"));
    assert!(matches!(errors[3], SseError::Unnamed));
    assert!(sse::parse_events(BAD).is_err());
}

#[test]
fn empty_and_comment_only_chunks_hold_no_event() {
    for chunk in ["", "\n\n", ": just a comment\n\n", "retry: 10\n"] {
        assert!(matches!(sse::parse_event(chunk), Err(SseError::Empty)), "{chunk:?}");
        assert!(sse::parse_events(chunk).expect("no events").is_empty());
    }
}

#[test]
fn unknown_delta_kinds_are_kept_as_unknown() {
    let chunk = "event: content_block_delta\ndata: {\"index\":1,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hm\"}}\n\n";
    let SseEvent::ContentBlockDelta(delta) = sse::parse_event(chunk).expect("parses") else {
        panic!("wrong kind")
    };
    assert_eq!(delta.delta, Delta::Unknown);
}

#[test]
fn generic_path_returns_the_json_value() {
    let value = sse::parse_data_value(FULL).expect("parses");
    assert_eq!(value["message"]["model"], "claude-3-5-haiku-20241022");
    assert!(matches!(
        sse::parse_data_value("event: x\ndata: {oops\n\n"),
        Err(SseError::Json { .. })
    ));
    assert!(matches!(sse::parse_data_value("event: x\n\n"), Err(SseError::MissingData { .. })));
}
