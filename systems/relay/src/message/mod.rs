//! Wire types of the messages the relay forwards (serde).

use serde::{Deserialize, Serialize};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The client's side of the conversation.
    User,
    /// The model's side of the conversation.
    Assistant,
}

/// A message whose content is one plain string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimpleMessage {
    /// Message identifier, e.g. `msg_01`.
    pub id: String,
    /// Author of the message.
    pub role: Role,
    /// The text of the message.
    pub content: String,
}

/// One block of a structured message's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentBlock {
    /// Block kind, `text` for plain text.
    #[serde(rename = "type")]
    pub kind: String,
    /// The block's text; empty for kinds that carry none.
    #[serde(default)]
    pub text: String,
}

/// Token counts of one model response.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens read from the request.
    pub input_tokens: u64,
    /// Tokens generated.
    pub output_tokens: u64,
    /// Tokens written to the prompt cache (0 when the upstream omits the field).
    #[serde(default)]
    pub cache_creation_input_tokens: u64,
    /// Tokens served from the prompt cache (0 when the upstream omits the field).
    #[serde(default)]
    pub cache_read_input_tokens: u64,
}

/// A full model response: typed content blocks, model name, stop reason and usage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComplexMessage {
    /// Message identifier.
    pub id: String,
    /// Object kind, always `message` for responses.
    #[serde(rename = "type")]
    pub kind: String,
    /// Author of the message.
    pub role: Role,
    /// The content blocks, in order.
    pub content: Vec<ContentBlock>,
    /// Model that produced the message.
    pub model: String,
    /// Why generation stopped; `null` while the message is still streaming.
    #[serde(default)]
    pub stop_reason: Option<String>,
    /// Token counts.
    pub usage: Usage,
}
