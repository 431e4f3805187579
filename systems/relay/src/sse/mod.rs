//! Server-sent-event parsing of a streamed model response.
//!
//! A chunk holds one or more events, each a run of `field: value` lines ended by a blank line
//! (or by the end of the chunk). Following the SSE specification, `:` lines are comments,
//! `id` and `retry` are accepted and unused, lines with an unknown field name (including lines
//! without any colon) are ignored, several `data` lines are joined with `\n`, and one space
//! after the colon is dropped. The `data` payload is JSON.

mod event;

use std::borrow::Cow;

use serde_json::Value;
use thiserror::Error;

pub use event::{ContentBlockDelta, Delta, DeltaUsage, MessageDelta, MessageStart, StopInfo};

/// Why a chunk could not be turned into events.
#[derive(Debug, Error)]
pub enum SseError {
    /// The chunk holds no event (only blank, comment or ignored lines).
    #[error("the chunk holds no event")]
    Empty,
    /// An event has an `event` line but no `data` line.
    #[error("event `{event}` has no data line")]
    MissingData {
        /// The event's name.
        event: String,
    },
    /// An event without an `event` line whose JSON has no string `type` to name it.
    #[error("event has neither an `event` line nor a JSON `type` field")]
    Unnamed,
    /// The data is not JSON, or not the JSON shape of its event.
    #[error("invalid data for event `{event}`: {source}")]
    Json {
        /// The event's name (`?` when unknown).
        event: String,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
}

/// One event as written on the wire: its name and its (joined) data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawEvent<'a> {
    /// Value of the `event` line, if any.
    pub event: Option<&'a str>,
    /// The `data` lines joined by `\n`, if any.
    pub data: Option<Cow<'a, str>>,
}

/// A typed stream event.
#[derive(Debug, Clone, PartialEq)]
pub enum SseEvent {
    /// `message_start`: the message shell with its initial usage.
    MessageStart(MessageStart),
    /// `content_block_delta`: a piece of a content block.
    ContentBlockDelta(ContentBlockDelta),
    /// `message_delta`: stop reason and final output token count.
    MessageDelta(MessageDelta),
    /// Any other event, kept as generic JSON (`ping`, `content_block_start`, `error`, …).
    Other {
        /// The event's name.
        event: String,
        /// Its data.
        data: Value,
    },
}

impl SseEvent {
    /// The event's wire name.
    pub fn name(&self) -> &str {
        match self {
            SseEvent::MessageStart(_) => "message_start",
            SseEvent::ContentBlockDelta(_) => "content_block_delta",
            SseEvent::MessageDelta(_) => "message_delta",
            SseEvent::Other { event, .. } => event,
        }
    }

    /// Types a raw event by its name (or, lacking an `event` line, by the JSON `type` field).
    pub fn from_raw(raw: &RawEvent<'_>) -> Result<SseEvent, SseError> {
        let Some(name) = raw.event else {
            let data = raw.data.as_deref().ok_or(SseError::Empty)?;
            let value: Value = json(data, "?")?;
            let name = value.get("type").and_then(Value::as_str).ok_or(SseError::Unnamed)?;
            return typed_from_value(name.to_owned(), value);
        };
        let data =
            raw.data.as_deref().ok_or_else(|| SseError::MissingData { event: name.to_owned() })?;
        Ok(match name {
            "message_start" => SseEvent::MessageStart(json(data, name)?),
            "content_block_delta" => SseEvent::ContentBlockDelta(json(data, name)?),
            "message_delta" => SseEvent::MessageDelta(json(data, name)?),
            _ => SseEvent::Other { event: name.to_owned(), data: json(data, name)? },
        })
    }
}

/// Iterates over the raw events of a chunk.
pub fn raw_events(chunk: &str) -> RawEvents<'_> {
    RawEvents { lines: chunk.split('\n') }
}

/// Parses the first event of `chunk` into a typed event.
pub fn parse_event(chunk: &str) -> Result<SseEvent, SseError> {
    let raw = raw_events(chunk).next().ok_or(SseError::Empty)?;
    SseEvent::from_raw(&raw)
}

/// Parses every event of `chunk`, failing on the first bad one.
pub fn parse_events(chunk: &str) -> Result<Vec<SseEvent>, SseError> {
    raw_events(chunk).map(|raw| SseEvent::from_raw(&raw)).collect()
}

/// The generic path: the first event's data as an untyped JSON value.
pub fn parse_data_value(chunk: &str) -> Result<Value, SseError> {
    let raw = raw_events(chunk).next().ok_or(SseError::Empty)?;
    let name = raw.event.unwrap_or("?");
    let data = raw.data.ok_or_else(|| SseError::MissingData { event: name.to_owned() })?;
    json(&data, name)
}

/// Iterator over the raw events of a chunk (see [`raw_events`]).
#[derive(Debug, Clone)]
pub struct RawEvents<'a> {
    lines: std::str::Split<'a, char>,
}

impl<'a> Iterator for RawEvents<'a> {
    type Item = RawEvent<'a>;

    fn next(&mut self) -> Option<RawEvent<'a>> {
        let mut current = RawEvent::default();
        let mut started = false;
        for line in self.lines.by_ref() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() {
                if started {
                    return Some(current);
                }
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                None => (line, ""),
            };
            match field {
                "" => {} // comment line
                "event" => {
                    current.event = Some(value);
                    started = true;
                }
                "data" => {
                    current.data = Some(match current.data.take() {
                        None => Cow::Borrowed(value),
                        Some(previous) => Cow::Owned(format!("{previous}\n{value}")),
                    });
                    started = true;
                }
                _ => {} // id, retry and unknown fields carry nothing we use
            }
        }
        started.then_some(current)
    }
}

fn json<T: serde::de::DeserializeOwned>(data: &str, event: &str) -> Result<T, SseError> {
    serde_json::from_str(data).map_err(|source| SseError::Json { event: event.to_owned(), source })
}

fn typed_from_value(name: String, value: Value) -> Result<SseEvent, SseError> {
    let result = match name.as_str() {
        "message_start" => serde_json::from_value(value).map(SseEvent::MessageStart),
        "content_block_delta" => serde_json::from_value(value).map(SseEvent::ContentBlockDelta),
        "message_delta" => serde_json::from_value(value).map(SseEvent::MessageDelta),
        _ => return Ok(SseEvent::Other { event: name, data: value }),
    };
    result.map_err(|source| SseError::Json { event: name, source })
}
