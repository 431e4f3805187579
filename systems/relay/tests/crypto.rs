//! Behaviour of the crypto service: round trips, stored form, limits and bad input.

use std::sync::OnceLock;

use relay::crypto::{KeyCache, MAX_PLAINTEXT_BYTES};
use relay::{CryptoError, CryptoService};

const KEY: &str = "integration-test-key-alpha";
const OTHER_KEY: &str = "integration-test-key-bravo";

// scrypt with N = 32768 is the slow part; every test shares one service per key.
fn service() -> &'static CryptoService {
    static SERVICE: OnceLock<CryptoService> = OnceLock::new();
    SERVICE.get_or_init(|| CryptoService::new(KEY).expect("key derives"))
}

fn other_service() -> &'static CryptoService {
    static SERVICE: OnceLock<CryptoService> = OnceLock::new();
    SERVICE.get_or_init(|| CryptoService::new(OTHER_KEY).expect("key derives"))
}

fn text(len: usize) -> String {
    (0..len).map(|i| char::from(b' ' + (i * 7 % 95) as u8)).collect()
}

#[test]
fn round_trips_every_size_from_0_to_10_kb() {
    let sizes = (0..=64).chain([100, 255, 256, 1000, 1024, 4096, 10_000, 10_240]);
    for size in sizes {
        let plaintext = text(size);
        let stored = service().encrypt(&plaintext).expect("encrypts");
        assert_eq!(service().decrypt(&stored).expect("decrypts"), plaintext, "size {size}");
        assert_eq!(service().decrypt_uncached(&stored).expect("decrypts"), plaintext);
    }
}

#[test]
fn round_trips_multibyte_utf8() {
    let plaintext = "clé ключ 鍵 🔑 — done";
    let stored = service().encrypt(plaintext).expect("encrypts");
    assert_eq!(service().decrypt_uncached(&stored).expect("decrypts"), plaintext);
}

#[test]
fn empty_stays_empty() {
    assert_eq!(service().encrypt("").expect("encrypts"), "");
    assert_eq!(service().decrypt("").expect("decrypts"), "");
}

#[test]
fn stored_form_is_iv_hex_colon_ciphertext_hex() {
    let stored = service().encrypt("seventeen bytes!!").expect("encrypts");
    let (iv, ciphertext) = stored.split_once(':').expect("has a separator");
    assert_eq!(iv.len(), 32);
    assert_eq!(ciphertext.len(), 64, "17 bytes pad to two blocks");
    let lower_hex = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    assert!(lower_hex(iv) && lower_hex(ciphertext));
}

#[test]
fn every_encryption_uses_a_fresh_iv() {
    let first = service().encrypt("same input").expect("encrypts");
    let second = service().encrypt("same input").expect("encrypts");
    assert_ne!(first[..32], second[..32]);
    assert_ne!(first, second);
}

#[test]
fn value_without_separator_asks_for_re_encryption() {
    let err = service().decrypt("00112233445566778899aabbccddeeff").unwrap_err();
    assert_eq!(err, CryptoError::LegacyFormat);
    assert!(err.to_string().contains("re-encrypt"));
}

#[test]
fn rejects_inputs_over_10_mib() {
    let too_big = "a".repeat(MAX_PLAINTEXT_BYTES + 1);
    assert!(matches!(
        service().encrypt(&too_big),
        Err(CryptoError::InputTooLarge { limit: MAX_PLAINTEXT_BYTES, .. })
    ));
    let huge_stored = format!("{}:{}", "0".repeat(32), "0".repeat(2 * MAX_PLAINTEXT_BYTES + 64));
    assert!(matches!(service().decrypt(&huge_stored), Err(CryptoError::InputTooLarge { .. })));
}

#[test]
fn malformed_stored_values_are_typed_errors() {
    let good = service().encrypt("a value worth keeping").expect("encrypts");
    let (iv, ciphertext) = good.split_once(':').expect("separator");
    let cases = [
        (format!("{}:{ciphertext}", &iv[..30]), CryptoError::InvalidIv),
        (format!("zz{}:{ciphertext}", &iv[2..]), CryptoError::InvalidIv),
        (format!("{iv}:{}", &ciphertext[..ciphertext.len() - 2]), CryptoError::InvalidLength(31)),
        (format!("{iv}:"), CryptoError::InvalidLength(0)),
    ];
    for (stored, expected) in cases {
        assert_eq!(service().decrypt(&stored).unwrap_err(), expected, "{stored}");
    }
    let odd_hex = format!("{iv}:{}", &ciphertext[..ciphertext.len() - 1]);
    assert!(matches!(service().decrypt(&odd_hex), Err(CryptoError::InvalidHex)));
    let not_hex = format!("{iv}:{}xy", &ciphertext[..ciphertext.len() - 2]);
    assert!(matches!(service().decrypt(&not_hex), Err(CryptoError::InvalidHex)));
}

#[test]
fn tampered_ciphertext_never_decrypts_to_the_original_or_panics() {
    let plaintext = "a token that must not be silently altered, 48 b.";
    let stored = service().encrypt(plaintext).expect("encrypts");
    for position in 0..stored.len() {
        if position == 32 {
            continue; // the separator
        }
        let mut bytes = stored.clone().into_bytes();
        bytes[position] = if bytes[position] == b'0' { b'1' } else { b'0' };
        let tampered = String::from_utf8(bytes).expect("ascii");
        match service().decrypt_uncached(&tampered) {
            Err(_) => {}
            // CBC has no MAC: a changed IV or a changed non-final block can still unpad.
            Ok(decrypted) => assert_ne!(decrypted, plaintext, "position {position}"),
        }
    }
}

#[test]
fn altered_final_block_is_an_error() {
    let stored = service().encrypt(&text(40)).expect("encrypts");
    let (head, last_block) = stored.split_at(stored.len() - 32);
    let flipped: String = last_block
        .chars()
        .map(|c| char::from_digit(c.to_digit(16).expect("hex") ^ 0xf, 16).expect("hex digit"))
        .collect();
    // A garbled final block unpads and is UTF-8 with probability about 1e-7.
    let err = service().decrypt_uncached(&format!("{head}{flipped}")).unwrap_err();
    assert!(matches!(err, CryptoError::Decrypt | CryptoError::InvalidUtf8), "{err:?}");
}

#[test]
fn wrong_key_is_an_error() {
    let stored = service().encrypt(&text(100)).expect("encrypts");
    let err = other_service().decrypt(&stored).unwrap_err();
    assert!(matches!(err, CryptoError::Decrypt | CryptoError::InvalidUtf8), "{err:?}");
}

#[test]
fn services_with_different_keys_do_not_share_a_key() {
    // The upstream cache kept the first derived key for every later key string.
    let stored = other_service().encrypt("bravo's secret").expect("encrypts");
    assert!(service().decrypt(&stored).is_err());
    assert_eq!(other_service().decrypt(&stored).expect("decrypts"), "bravo's secret");
}

#[test]
fn key_cache_derives_once_per_key_string() {
    let keys = KeyCache::new();
    let first = keys.get_or_derive(KEY).expect("derives");
    let again = keys.get_or_derive(KEY).expect("derives");
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    assert_eq!(keys.len(), 1);
    keys.get_or_derive(OTHER_KEY).expect("derives");
    assert_eq!(keys.len(), 2);
}

#[test]
fn empty_key_is_rejected() {
    assert_eq!(CryptoService::new("").unwrap_err(), CryptoError::EmptyKey);
}
