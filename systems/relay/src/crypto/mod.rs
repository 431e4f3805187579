//! AES-256-CBC encryption of stored secrets.
//!
//! Stored form: `<IV as 32 lowercase hex chars>:<ciphertext as lowercase hex>`, PKCS#7 padded,
//! with a fresh random IV per encryption. The key is derived from the configured key string
//! with scrypt once per distinct string ([`KeyCache`]).
//!
//! CBC carries no integrity check: a changed ciphertext is detected only when its padding or
//! its UTF-8 breaks, and a changed IV alters the first block silently. This is the format
//! the relay has to read; it is not a MAC.

mod cache;
mod error;
mod hexcodec;
mod kdf;

use std::sync::Arc;

use aes::cipher::block_padding::Pkcs7;
use aes::cipher::{BlockDecryptMut, BlockEncryptMut, InnerIvInit};
use aes::Aes256;
use rand::RngCore;
use sha2::{Digest, Sha256};

pub use cache::{
    CacheConfig, CacheStats, Clock, DecryptCache, ManualClock, SystemClock, DEFAULT_CAPACITY,
    DEFAULT_TTL,
};
pub use error::CryptoError;
pub use kdf::{
    derive_key, DerivedKey, KeyCache, KEY_LEN, SCRYPT_LOG_N, SCRYPT_P, SCRYPT_R, SCRYPT_SALT,
};

type Encryptor = cbc::Encryptor<Aes256>;
type Decryptor = cbc::Decryptor<Aes256>;

/// Largest plaintext accepted by [`CryptoService::encrypt`]: 10 MiB.
pub const MAX_PLAINTEXT_BYTES: usize = 10 * 1024 * 1024;
/// Largest stored value accepted by decryption: the encoded form of a maximal plaintext.
pub const MAX_STORED_BYTES: usize = IV_HEX_LEN + 1 + 2 * (MAX_PLAINTEXT_BYTES + BLOCK_LEN);

const BLOCK_LEN: usize = 16;
const IV_HEX_LEN: usize = 2 * BLOCK_LEN;

/// Encrypts and decrypts stored secrets with one configured key.
#[derive(Debug)]
pub struct CryptoService {
    key: Arc<DerivedKey>,
    cache: DecryptCache,
}

impl CryptoService {
    /// A service for `key_string` with the default decrypt cache (500 entries, 300 s).
    ///
    /// The scrypt derivation runs only the first time the process sees `key_string`.
    pub fn new(key_string: &str) -> Result<Self, CryptoError> {
        Self::with_cache(key_string, CacheConfig::default(), Arc::new(SystemClock))
    }

    /// A service with its own cache size, lifetime and clock.
    pub fn with_cache(
        key_string: &str,
        config: CacheConfig,
        clock: Arc<dyn Clock>,
    ) -> Result<Self, CryptoError> {
        let key = KeyCache::global().get_or_derive(key_string)?;
        Ok(Self { key, cache: DecryptCache::new(config, clock) })
    }

    /// Encrypts `plaintext` into its stored form; the empty string stays empty.
    pub fn encrypt(&self, plaintext: &str) -> Result<String, CryptoError> {
        if plaintext.is_empty() {
            return Ok(String::new());
        }
        if plaintext.len() > MAX_PLAINTEXT_BYTES {
            return Err(CryptoError::InputTooLarge {
                len: plaintext.len(),
                limit: MAX_PLAINTEXT_BYTES,
            });
        }
        let mut iv = [0u8; BLOCK_LEN];
        rand::thread_rng().fill_bytes(&mut iv);
        let ciphertext = Encryptor::inner_iv_init(self.key.cipher().clone(), &iv.into())
            .encrypt_padded_vec_mut::<Pkcs7>(plaintext.as_bytes());

        let mut stored = Vec::with_capacity(IV_HEX_LEN + 1 + 2 * ciphertext.len());
        hexcodec::encode_into(&iv, &mut stored);
        stored.push(b':');
        hexcodec::encode_into(&ciphertext, &mut stored);
        Ok(String::from_utf8(stored).expect("hex digits and ':' are ASCII"))
    }

    /// Decrypts a stored value, answering repeated values from the decrypt cache.
    pub fn decrypt(&self, stored: &str) -> Result<String, CryptoError> {
        if stored.is_empty() {
            return Ok(String::new());
        }
        check_stored_len(stored)?;
        let digest: [u8; 32] = Sha256::digest(stored.as_bytes()).into();
        if let Some(plaintext) = self.cache.get(&digest) {
            return Ok(plaintext);
        }
        let plaintext = self.decrypt_uncached(stored)?;
        self.cache.insert(digest, plaintext.clone());
        Ok(plaintext)
    }

    /// Decrypts a stored value without consulting or filling the cache.
    pub fn decrypt_uncached(&self, stored: &str) -> Result<String, CryptoError> {
        if stored.is_empty() {
            return Ok(String::new());
        }
        check_stored_len(stored)?;
        let (iv_hex, ciphertext_hex) = stored.split_once(':').ok_or(CryptoError::LegacyFormat)?;

        let mut iv = [0u8; BLOCK_LEN];
        hexcodec::decode_into(iv_hex.as_bytes(), &mut iv).ok_or(CryptoError::InvalidIv)?;
        let mut buffer =
            hexcodec::decode(ciphertext_hex.as_bytes()).ok_or(CryptoError::InvalidHex)?;
        if buffer.is_empty() || !buffer.len().is_multiple_of(BLOCK_LEN) {
            return Err(CryptoError::InvalidLength(buffer.len()));
        }
        // Decrypt in place, then cut the padding off: no second buffer.
        let plaintext_len = Decryptor::inner_iv_init(self.key.cipher().clone(), &iv.into())
            .decrypt_padded_mut::<Pkcs7>(&mut buffer)
            .map_err(|_| CryptoError::Decrypt)?
            .len();
        buffer.truncate(plaintext_len);
        String::from_utf8(buffer).map_err(|_| CryptoError::InvalidUtf8)
    }

    /// Size and hit/miss counters of this service's decrypt cache.
    pub fn cache_stats(&self) -> CacheStats {
        self.cache.stats()
    }

    /// Empties this service's decrypt cache and resets its counters.
    pub fn clear_cache(&self) {
        self.cache.clear();
    }
}

fn check_stored_len(stored: &str) -> Result<(), CryptoError> {
    if stored.len() > MAX_STORED_BYTES {
        return Err(CryptoError::InputTooLarge { len: stored.len(), limit: MAX_STORED_BYTES });
    }
    Ok(())
}
