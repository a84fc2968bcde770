//! What `KeyRules::V2` adds, on the sources' own examples: the pairs it makes one key, the
//! pairs it keeps apart, and that V1 keeps each of them as it was. And, on generated URNs of
//! every namespace and their respellings: two URNs with one V1 key have one V2 key.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use urn_core::{KeyRules, Urn};

fn key(text: &str, rules: KeyRules) -> String {
    Urn::parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .key_with(rules)
        .as_str()
        .to_owned()
}

/// Pairs V2 makes one key (and V1 did not), with the source of each.
const ONE_KEY_IN_V2: &[(&str, &str, &str)] = &[
    // RFC 9676 section 2.1's example and section 3.3 (names are case-insensitive).
    (
        "urn:lex:ch;glarus:regiere:erlass:2007-10-15;963",
        "urn:lex:CH;Glarus:Regiere:Erlass:2007-10-15;963",
        "RFC 9676",
    ),
    (
        "urn:lex:br;sao.paulo;campinas:governo:decreto",
        "urn:lex:BR;Sao.Paulo;Campinas:Governo:Decreto",
        "RFC 9676",
    ),
    // RFC 3614 section 4: the standard name is case-insensitive (`_` in it, section 2).
    (
        "urn:mpeg:mpeg_7:schema:2001",
        "urn:mpeg:MPEG_7:schema:2001",
        "RFC 3614",
    ),
    // DOI Handbook section 2.4: "10.123/ABC is identical to 10.123/AbC".
    (
        "urn:doi:10.123/ABC",
        "urn:doi:10.123/AbC",
        "DOI Handbook 2.4",
    ),
    // DOI Handbook section 2.6.3: 10.123/456 as a URN, and 10.123/456ABC/zyz.
    (
        "urn:doi:10.123:456",
        "urn:doi:10.123/456",
        "DOI Handbook 2.6.3",
    ),
    (
        "urn:doi:10.123:456ABC%2Fzyz",
        "urn:doi:10.123/456ABC/zyz",
        "DOI Handbook 2.6.3",
    ),
    // GLEIF: the LEI URN is "not case sensitive".
    (
        "urn:LEI:7LTWFZYICNSX8D621K86",
        "urn:lei:7ltwfzyicnsx8d621k86",
        "GLEIF",
    ),
];

/// Pairs V2 keeps apart, with the source of each.
const TWO_KEYS_IN_V2: &[(&str, &str, &str)] = &[
    // RFC 3614 section 4: after the standard name, case counts.
    (
        "urn:mpeg:mpeg_7:Schema",
        "urn:mpeg:mpeg_7:schema",
        "RFC 3614",
    ),
    // RFC 3553 section 3: params names compare by exact string match.
    (
        "urn:ietf:params:xml:ns:Foo",
        "urn:ietf:params:xml:ns:foo",
        "RFC 3553",
    ),
    (
        "urn:ietf:params:scim:schemas:core:2.0:User",
        "urn:ietf:params:scim:schemas:core:2.0:user",
        "RFC 3553, RFC 7643",
    ),
    (
        "urn:ietf:PARAMS:xml:ns:foo",
        "urn:ietf:params:xml:ns:foo",
        "RFC 3553",
    ),
    // DOI Handbook 2025 section 3.3.4: case folding is ASCII only (percent-encoded Á and á).
    (
        "urn:doi:10.26321/%C3%81.x",
        "urn:doi:10.26321/%C3%A1.x",
        "DOI Handbook 2025 3.3.4",
    ),
    // A DOI's `%2F` is its `/`, but no other escape is decoded (RFC 8141 section 3.2).
    ("urn:doi:10.123/a%2Cb", "urn:doi:10.123/a,b", "RFC 8141"),
    // Different prefixes and suffixes.
    ("urn:doi:10.123/456", "urn:doi:10.1234/56", "DOI Handbook"),
    // An LEI whose check digits fail is not an LEI: the generic key, case kept.
    (
        "urn:lei:213800KUD8LXJWSQ9D15",
        "urn:lei:213800kud8lxjwsq9d15",
        "ISO 17442",
    ),
    // A lex unit may not hold `-` (RFC 9676 section 8): not a lex name, case kept.
    ("urn:lex:ch;a-b:X", "urn:lex:ch;a-b:x", "RFC 9676"),
];

#[test]
fn v2_makes_one_key_of_what_the_sources_call_one_name() {
    for (a, b, source) in ONE_KEY_IN_V2 {
        assert_eq!(
            key(a, KeyRules::V2),
            key(b, KeyRules::V2),
            "{a} ~ {b} ({source})"
        );
        assert_ne!(
            key(a, KeyRules::V1),
            key(b, KeyRules::V1),
            "{a} ~ {b}: V1 kept them apart"
        );
        assert_eq!(Urn::parse(a).unwrap(), Urn::parse(b).unwrap());
    }
}

#[test]
fn v2_keeps_apart_what_the_sources_keep_apart() {
    for (a, b, source) in TWO_KEYS_IN_V2 {
        assert_ne!(
            key(a, KeyRules::V2),
            key(b, KeyRules::V2),
            "{a} / {b} ({source})"
        );
        assert_ne!(Urn::parse(a).unwrap(), Urn::parse(b).unwrap());
    }
}

#[test]
fn v2_keys_read_as_the_sources_write() {
    for (text, v2) in [
        ("urn:doi:10.123:456ABC%2Fzyz", "urn:doi:10.123/456abc/zyz"),
        (
            "URN:DOI:10.1093:NAR%2fGKAA1100",
            "urn:doi:10.1093/nar/gkaa1100",
        ),
        ("urn:doi:10.1000/A%c3%81", "urn:doi:10.1000/a%C3%81"),
        (
            "urn:lei:7ltwfzyicnsx8d621k86",
            "urn:lei:7LTWFZYICNSX8D621K86",
        ),
        ("urn:mpeg:MPEG_21:DII", "urn:mpeg:mpeg_21:DII"),
        ("urn:lex:CH;Glarus:X?=q", "urn:lex:ch;glarus:x"),
        ("urn:isbn:0-395-36341-1", "urn:isbn:0395363411"),
    ] {
        assert_eq!(key(text, KeyRules::V2), v2, "{text}");
        assert!(
            urn_core::UrnKey::parse_with(v2, KeyRules::V2).is_ok(),
            "{v2}"
        );
    }
}

#[cfg(feature = "proptest")]
mod generated {
    use proptest::prelude::*;
    use urn_core::{KeyRules, KnownNamespace, strategy};

    fn namespace_urn() -> impl Strategy<Value = urn_core::Urn> {
        prop::sample::select(KnownNamespace::ALL.to_vec()).prop_flat_map(strategy::urn_in)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// V2 only joins keys: a respelling with the URN's V1 key has its V2 key too.
        #[test]
        fn one_v1_key_is_one_v2_key(
            (urn, other) in namespace_urn().prop_flat_map(|u| {
                let lower = urn_core::Urn::parse(&u.as_str().to_ascii_lowercase());
                let upper = urn_core::Urn::parse(&u.as_str().to_ascii_uppercase());
                let spellings = strategy::equivalent_spellings(&u);
                let cased: Vec<urn_core::Urn> = lower.into_iter().chain(upper).collect();
                (Just(u), prop_oneof![spellings, prop::sample::select(cased)])
            })
        ) {
            if urn.key_with(KeyRules::V1) == other.key_with(KeyRules::V1) {
                prop_assert_eq!(urn.key_with(KeyRules::V2), other.key_with(KeyRules::V2));
            }
        }
    }
}
