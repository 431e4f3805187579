//! Errors of the crypto service.

use thiserror::Error;

/// Why an encryption, a decryption or a key derivation failed.
///
/// Every malformed or tampered input maps to one of these; no input makes the service panic.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CryptoError {
    /// The configured key string is empty.
    #[error("the encryption key must not be empty")]
    EmptyKey,

    /// scrypt refused its parameters (cannot happen with the built-in ones).
    #[error("key derivation failed: {0}")]
    KeyDerivation(String),

    /// The input is larger than the service accepts.
    #[error("input of {len} bytes exceeds the limit of {limit} bytes")]
    InputTooLarge {
        /// Length of the rejected input in bytes.
        len: usize,
        /// The limit that applied to this operation, in bytes.
        limit: usize,
    },

    /// The stored value has no `<iv>:<ciphertext>` separator: it was written in the legacy
    /// format, which cannot be decrypted and must be encrypted again.
    #[error("value is in the legacy format without an IV (no ':'); re-encrypt it with the current service")]
    LegacyFormat,

    /// The IV part is not 32 hexadecimal characters.
    #[error("the IV must be 32 hex characters (16 bytes)")]
    InvalidIv,

    /// The ciphertext part is not valid hexadecimal.
    #[error("the ciphertext is not valid hex (odd length or a non-hex character)")]
    InvalidHex,

    /// The ciphertext is empty or not a whole number of 16-byte blocks.
    #[error("the ciphertext length {0} is not a positive multiple of 16 bytes")]
    InvalidLength(usize),

    /// The padding check failed: wrong key or altered ciphertext.
    #[error("decryption failed (wrong key or corrupted ciphertext)")]
    Decrypt,

    /// The decrypted bytes are not UTF-8: wrong key or altered ciphertext.
    #[error("decrypted data is not valid UTF-8 (wrong key or corrupted ciphertext)")]
    InvalidUtf8,
}
