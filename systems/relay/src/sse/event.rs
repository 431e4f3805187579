//! Data payloads of the typed stream events.

use serde::{Deserialize, Serialize};

use crate::message::ComplexMessage;

/// Data of `message_start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageStart {
    /// The message shell: id, model, empty content and the input token count.
    pub message: ComplexMessage,
}

/// Data of `content_block_delta`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentBlockDelta {
    /// Index of the content block this piece belongs to.
    pub index: u32,
    /// The piece itself.
    pub delta: Delta,
}

/// A piece of a content block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Delta {
    /// More text of a text block.
    TextDelta {
        /// The text to append.
        text: String,
    },
    /// More JSON of a tool-use block's input.
    InputJsonDelta {
        /// The JSON fragment to append.
        partial_json: String,
    },
    /// A delta kind this relay does not interpret; passed on untouched by the caller.
    #[serde(other)]
    Unknown,
}

/// Data of `message_delta`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDelta {
    /// The top-level fields that changed.
    pub delta: StopInfo,
    /// Final output token count.
    pub usage: DeltaUsage,
}

/// Stop fields carried by `message_delta`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopInfo {
    /// Why generation stopped.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// The stop sequence that matched, if any.
    #[serde(default)]
    pub stop_sequence: Option<String>,
}

/// Usage carried by `message_delta`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeltaUsage {
    /// Output tokens generated so far.
    pub output_tokens: u64,
}
