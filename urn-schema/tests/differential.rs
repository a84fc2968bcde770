//! The patterns against the parser: every shared test vector, the combinatorial corpus, and
//! 100,000 generated strings, in Rust `regex` and in the ECMA-262 engine `regress` (with and
//! without the `u` flag).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    unreachable_pub,
    dead_code
)]

#[path = "../../urn-sql/tests/support/corpus.rs"]
mod corpus;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use urn_schema::urn_core::{KnownNamespace, patterns};
use urn_schema::{Namespace, NsUrn, Urn, UrnKey, ns};

/// Every corpus input no longer than the length cap (the patterns leave the cap to maxLength).
fn inputs() -> Vec<String> {
    let mut all = corpus::vector_inputs();
    all.extend(corpus::generated_inputs());
    all.retain(|s| s.len() <= urn_schema::urn_core::DEFAULT_MAX_LEN);
    all
}

/// Three engines for one pattern: Rust regex, ECMA-262 without flags, ECMA-262 with `u`.
struct Engines {
    rust: regex::Regex,
    ecma: regress::Regex,
    ecma_u: regress::Regex,
}

impl Engines {
    fn new(pattern: &str) -> Self {
        Engines {
            rust: regex::Regex::new(pattern).unwrap(),
            ecma: regress::Regex::with_flags(pattern, "").unwrap(),
            ecma_u: regress::Regex::with_flags(pattern, "u").unwrap(),
        }
    }

    /// The verdict of each engine; they must agree with each other.
    fn is_match(&self, s: &str) -> bool {
        let rust = self.rust.is_match(s);
        let ecma = self.ecma.find(s).is_some();
        let ecma_u = self.ecma_u.find(s).is_some();
        assert!(
            rust == ecma && ecma == ecma_u,
            "engines disagree on {s:?}: regex {rust}, regress {ecma}, regress/u {ecma_u}"
        );
        rust
    }
}

#[test]
fn urn_pattern_equals_the_parser_on_every_corpus_input() {
    let engines = Engines::new(patterns::URN);
    let mut disagreements = Vec::new();
    let inputs = inputs();
    let mut valid = 0;
    for s in &inputs {
        let parsed = Urn::parse(s).is_ok();
        valid += usize::from(parsed);
        if engines.is_match(s) != parsed {
            disagreements.push(format!("{s:?}: parser {parsed}"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(valid > 3000 && inputs.len() - valid > 3000);
}

#[test]
fn key_pattern_matches_every_key_and_only_canonical_text() {
    let engines = Engines::new(patterns::URN_KEY);
    for s in inputs() {
        // UrnKey also takes keys of URNs parsed by the legacy RFC 2141 grammar (one-letter NIDs,
        // for instance); the pattern is for the RFC 8141 language.
        let is_key = UrnKey::parse(&s).is_ok() && Urn::parse(&s).is_ok();
        let matches = engines.is_match(&s);
        // Every key matches ...
        assert!(!is_key || matches, "{s:?} is a key but does not match");
        // ... and what matches is an RFC 8141 canonical form; the only extra strings are those
        // a namespace rule would still change.
        if matches {
            let urn = Urn::parse(&s).unwrap();
            assert_eq!(urn.rfc8141_key().as_str(), s, "{s:?}");
            assert_eq!(is_key, urn.key().as_str() == s, "{s:?}");
        }
        if let Ok(urn) = Urn::parse(&s) {
            assert!(engines.is_match(urn.key().as_str()), "key of {s:?}");
        }
    }
}

/// Every known namespace's pattern accepts each URN valid for the namespace and nothing
/// outside the URN language or the namespace; exactly the valid ones where the table says the
/// pattern is exact (check digits are not regular: ISBN and ISSN patterns check the shape).
#[test]
fn namespace_patterns_accept_every_valid_urn_of_their_namespace() {
    let inputs = inputs();
    for &ns in KnownNamespace::ALL {
        let engines = Engines::new(&patterns::namespace_urn(ns.nid(), ns.nss_pattern()));
        let mut valid = 0;
        for s in &inputs {
            let urn = Urn::parse(s).ok();
            let typed = urn
                .as_ref()
                .is_some_and(|u| u.namespace() == Some(ns) && u.validate_namespace().is_ok());
            valid += usize::from(typed);
            let matches = engines.is_match(s);
            assert!(!typed || matches, "{ns}: {s:?} is valid but not matched");
            if matches {
                // Never more than the URN language, and always the right namespace.
                let urn = urn.unwrap_or_else(|| panic!("{ns}: {s:?} matches but is no URN"));
                assert_eq!(urn.namespace(), Some(ns), "{s:?}");
                if ns.pattern_is_exact() {
                    assert!(typed, "{ns}: {s:?} matches but is rejected");
                }
            }
        }
        assert!(valid >= 10, "{ns}: only {valid} valid inputs in the corpus");
    }
}

/// The typed aliases' patterns are the table's.
#[test]
fn typed_namespaces_use_the_table_patterns() {
    fn pattern<N: Namespace>() -> (&'static str, &'static str) {
        (N::NID, N::NSS_PATTERN)
    }
    // Each row of urn-core's namespace table, through its marker.
    macro_rules! typed {
        ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
            [$(pattern::<ns::$variant>()),*]
        };
    }
    let typed = urn_core::known_namespaces!(typed);
    let table: Vec<_> = KnownNamespace::ALL
        .iter()
        .map(|ns| (ns.nid(), ns.nss_pattern()))
        .collect();
    assert_eq!(typed.to_vec(), table);
    let _ = NsUrn::<ns::Ogc>::parse("urn:ogc:def:crs:EPSG::4326").unwrap();
}

/// Strings over the URN alphabet, the delimiters, and characters that are never allowed.
fn near_urn() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[a-zA-Z0-9]{1,6}",
        2 => "[-._~!$&'()*+,;=:@/?#%]",
        2 => "%[0-9a-fA-FgG]{0,2}",
        1 => "[ \"<>\\[\\]\\\\^`{|}\u{0}\n\u{e9}\u{1F600}]",
        1 => Just("?+".to_owned()),
        1 => Just("?=".to_owned()),
    ];
    (
        prop_oneof![4 => Just("urn:".to_owned()), 1 => Just("URN:".to_owned()), 1 => "[a-zA-Z:]{0,5}"],
        prop_oneof![3 => "[a-zA-Z0-9][a-zA-Z0-9-]{0,6}[a-zA-Z0-9]", 1 => "[a-zA-Z0-9-]{0,34}"],
        prop_oneof![4 => Just(":".to_owned()), 1 => Just("".to_owned())],
        proptest::collection::vec(piece, 0..12),
    )
        .prop_map(|(scheme, nid, colon, pieces)| format!("{scheme}{nid}{colon}{}", pieces.concat()))
}

#[test]
fn urn_pattern_equals_the_parser_on_100k_generated_strings() {
    let engines = Engines::new(patterns::URN);
    let mut runner = TestRunner::new(Config {
        cases: 100_000,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = std::cell::Cell::new(0u32);
    runner
        .run(&near_urn(), |s| {
            let parsed = Urn::parse(&s).is_ok();
            valid.set(valid.get() + u32::from(parsed));
            prop_assert_eq!(engines.is_match(&s), parsed, "{:?}", s);
            Ok(())
        })
        .unwrap();
    // The generator must reach both sides, or the test would prove little.
    assert!(
        valid.get() > 5_000 && valid.get() < 95_000,
        "{} valid",
        valid.get()
    );
}
