//! scrypt key derivation and the per-key-string cache of derived keys.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use aes::cipher::KeyInit;
use aes::Aes256;
use sha2::{Digest, Sha256};

use super::CryptoError;

/// log2 of the scrypt cost N (N = 32768).
pub const SCRYPT_LOG_N: u8 = 15;
/// scrypt block size r.
pub const SCRYPT_R: u32 = 8;
/// scrypt parallelism p.
pub const SCRYPT_P: u32 = 1;
/// Fixed scrypt salt. It is the one the original relay used, so values it stored still decrypt.
pub const SCRYPT_SALT: &[u8] = b"salt";
/// Length of the derived AES-256 key in bytes.
pub const KEY_LEN: usize = 32;

/// An AES-256 key derived from a key string, with its expanded key schedule.
#[derive(Clone)]
pub struct DerivedKey {
    cipher: Aes256,
}

impl DerivedKey {
    /// The AES-256 block cipher keyed with this key.
    pub fn cipher(&self) -> &Aes256 {
        &self.cipher
    }
}

impl fmt::Debug for DerivedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DerivedKey(..)")
    }
}

/// Runs scrypt(key string, fixed salt, N = 32768, r = 8, p = 1) into a 32-byte key. Uncached.
pub fn derive_key(key_string: &str) -> Result<DerivedKey, CryptoError> {
    if key_string.is_empty() {
        return Err(CryptoError::EmptyKey);
    }
    let params = scrypt::Params::new(SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P, KEY_LEN)
        .map_err(|e| CryptoError::KeyDerivation(e.to_string()))?;
    let mut raw = [0u8; KEY_LEN];
    scrypt::scrypt(key_string.as_bytes(), SCRYPT_SALT, &params, &mut raw)
        .map_err(|e| CryptoError::KeyDerivation(e.to_string()))?;
    let cipher = Aes256::new(&raw.into());
    raw.fill(0);
    Ok(DerivedKey { cipher })
}

/// Derived keys, one per distinct key string.
///
/// The map is keyed by the SHA-256 of the key string, so the cache never holds the key string
/// itself, and two services configured with different strings never share a key.
#[derive(Debug, Default)]
pub struct KeyCache {
    keys: Mutex<HashMap<[u8; 32], Arc<DerivedKey>>>,
}

impl KeyCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The process-wide cache that [`super::CryptoService::new`] uses.
    pub fn global() -> &'static KeyCache {
        static GLOBAL: OnceLock<KeyCache> = OnceLock::new();
        GLOBAL.get_or_init(KeyCache::new)
    }

    /// Returns the key for `key_string`, deriving it with scrypt on first use only.
    pub fn get_or_derive(&self, key_string: &str) -> Result<Arc<DerivedKey>, CryptoError> {
        let id: [u8; 32] = Sha256::digest(key_string.as_bytes()).into();
        if let Some(key) = self.lock().get(&id) {
            return Ok(Arc::clone(key));
        }
        // Derive outside the lock: scrypt takes tens of milliseconds and other key strings
        // must not wait for it. Two racing first uses both derive; the first insert wins.
        let derived = Arc::new(derive_key(key_string)?);
        Ok(Arc::clone(self.lock().entry(id).or_insert(derived)))
    }

    /// Number of distinct key strings derived so far.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no key has been derived yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Arc<DerivedKey>>> {
        self.keys.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
