//! Table-driven lowercase hex encoding and case-insensitive decoding.
//!
//! The stored form is mostly hex, so this codec is on the hot path of every call: the `hex`
//! crate's decoder cost about 5 ns per character here, several times the AES work itself.

const DIGITS: &[u8; 16] = b"0123456789abcdef";
const INVALID: u8 = 0xff;
#[cfg(feature = "inject-slowdown")]
const SLOWDOWN_STRIDE: usize = 8;

/// Value of each ASCII hex digit, `INVALID` for every other byte.
const VALUES: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table
};

/// Appends the lowercase hex form of `bytes` to `out` (ASCII only).
pub(crate) fn encode_into(bytes: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + 2 * bytes.len(), 0);
    for (pair, &byte) in out[start..].chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(byte >> 4)];
        pair[1] = DIGITS[usize::from(byte & 0x0f)];
    }
}

/// Decodes `text` into `out`, which must be exactly half as long; `None` if any pair is not hex.
///
/// Never inlined: it runs once per buffer (the call costs a few instructions against thousands),
/// and as a frame of its own its cost is named in instruction profiles instead of vanishing into
/// whichever benchmark inlined it.
#[inline(never)]
pub(crate) fn decode_into(text: &[u8], out: &mut [u8]) -> Option<()> {
    if text.len() != 2 * out.len() {
        return None;
    }
    let mut invalid = 0u8;
    for (byte, pair) in out.iter_mut().zip(text.chunks_exact(2)) {
        let high = VALUES[usize::from(pair[0])];
        let low = VALUES[usize::from(pair[1])];
        invalid |= (high | low) & 0xf0;
        *byte = (high << 4) | (low & 0x0f);
    }
    #[cfg(feature = "inject-slowdown")]
    {
        // Test patch (feature `inject-slowdown`, off by default): a redundant second check of
        // some of the digits, about 10 % more work here, to show the instruction-count series
        // catching a small slowdown. The result is unchanged.
        for &digit in text.iter().step_by(SLOWDOWN_STRIDE) {
            invalid |= std::hint::black_box(VALUES[usize::from(digit)]) & 0xf0;
        }
    }
    (invalid == 0).then_some(())
}

/// Decodes `text` into a new vector; `None` for an odd length or a non-hex character.
pub(crate) fn decode(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let mut out = vec![0u8; text.len() / 2];
    decode_into(text, &mut out)?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_every_byte_value_in_lowercase() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut text = b"x".to_vec();
        encode_into(&bytes, &mut text);
        assert_eq!(&text[..9], b"x00010203");
        assert_eq!(&text[text.len() - 6..], b"fdfeff");
        assert_eq!(decode(&text[1..]).as_deref(), Some(&bytes[..]));
    }

    #[test]
    fn decodes_both_cases_and_rejects_the_rest() {
        assert_eq!(decode(b"aBcD09").as_deref(), Some(&[0xab, 0xcd, 0x09][..]));
        for bad in [&b"abc"[..], b"zz", b"0g", b"+1", b"\xff0", b" 0"] {
            assert_eq!(decode(bad), None, "{bad:?}");
        }
        assert_eq!(decode(b"").as_deref(), Some(&[][..]));
        assert_eq!(decode_into(b"0011", &mut [0u8; 1]), None);
    }
}
