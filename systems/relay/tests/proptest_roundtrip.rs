//! Property tests: round trips for any text, and no panic on any input.

use std::sync::OnceLock;

use proptest::prelude::*;
use relay::{sse, CryptoService};

fn service() -> &'static CryptoService {
    static SERVICE: OnceLock<CryptoService> = OnceLock::new();
    SERVICE.get_or_init(|| CryptoService::new("proptest-key").expect("key derives"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_unicode_text_round_trips(text in proptest::collection::vec(any::<char>(), 0..512)) {
        let text: String = text.into_iter().collect();
        let stored = service().encrypt(&text).unwrap();
        prop_assert_eq!(service().decrypt(&stored).unwrap(), text.clone());
        prop_assert_eq!(service().decrypt_uncached(&stored).unwrap(), text);
    }

    #[test]
    fn any_ascii_up_to_10_kb_round_trips(bytes in proptest::collection::vec(0x20u8..0x7f, 0..10_240)) {
        let text = String::from_utf8(bytes).unwrap();
        let stored = service().encrypt(&text).unwrap();
        prop_assert_eq!(service().decrypt_uncached(&stored).unwrap(), text);
    }

    #[test]
    fn any_mutation_of_a_stored_value_is_handled(
        position in any::<prop::sample::Index>(),
        replacement in any::<char>(),
    ) {
        let stored = service().encrypt("steady value").unwrap();
        let mut chars: Vec<char> = stored.chars().collect();
        let at = position.index(chars.len());
        chars[at] = replacement;
        let mutated: String = chars.into_iter().collect();
        if let Ok(plain) = service().decrypt_uncached(&mutated) {
            // Hex is case-insensitive, so only a case change may decode to the same value.
            prop_assert!(mutated.eq_ignore_ascii_case(&stored) || plain != "steady value");
        }
    }

    #[test]
    fn arbitrary_strings_never_panic_the_decrypter(input in ".{0,200}") {
        let _ = service().decrypt(&input);
    }

    #[test]
    fn arbitrary_chunks_never_panic_the_sse_parser(input in "(event|data|id|:|\\{|\\}|\"|\n|\r| |[a-z_]){0,200}") {
        let _ = sse::parse_events(&input);
        let _ = sse::parse_data_value(&input);
    }
}
