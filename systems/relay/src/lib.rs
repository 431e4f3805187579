//! Crypto and JSON/SSE core of an API relay service.
//!
//! - [`crypto`]: AES-256-CBC encryption of stored secrets with an scrypt-derived key, and a
//!   bounded LRU cache of decrypted values.
//! - [`message`]: the serde wire types of the messages the relay forwards.
//! - [`sse`]: parsing of server-sent-event chunks into typed stream events.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod crypto;
pub mod message;
pub mod sse;

pub use crypto::{CacheConfig, CacheStats, CryptoError, CryptoService};
pub use message::{ComplexMessage, ContentBlock, Role, SimpleMessage, Usage};
pub use sse::{SseError, SseEvent};
