//! Typed namespace URNs and `validate_namespace` never panic and agree: `NsUrn<N>` accepts a
//! text exactly when it is a valid URN of N's NID whose NSS N's rules accept, and each known
//! namespace's pattern accepts every such URN (and only those, where the pattern is exact).
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use regex::Regex;
use urn_core::{KnownNamespace, Namespace, NsUrn, Urn, ns, patterns};

fn check<N: Namespace>(text: &str, urn: Option<&Urn>) {
    let typed = text.parse::<NsUrn<N>>();
    let expected = urn
        .is_some_and(|u| u.nid().eq_ignore_ascii_case(N::NID) && N::validate_nss(u.nss()).is_ok());
    assert_eq!(typed.is_ok(), expected, "{} {text:?}: {typed:?}", N::NID);
    if let Some(u) = urn.filter(|u| u.nid().eq_ignore_ascii_case(N::NID)) {
        let known = KnownNamespace::from_nid(N::NID).expect("built in");
        assert_eq!(u.namespace(), Some(known));
        assert_eq!(u.validate_namespace().is_ok(), typed.is_ok(), "{text:?}");
    }
}

/// Each known namespace's whole-URN pattern, from the table.
static PATTERNS: LazyLock<Vec<(KnownNamespace, Regex)>> = LazyLock::new(|| {
    KnownNamespace::ALL
        .iter()
        .map(|&ns| {
            let pattern = patterns::namespace_urn(ns.nid(), ns.nss_pattern());
            (ns, Regex::new(&pattern).expect("regex"))
        })
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let urn = Urn::parse(text).ok();
    // Two typed fields through `NsUrn` (the others share its code), every namespace through
    // its table entry.
    check::<ns::Isbn>(text, urn.as_ref());
    check::<ns::Ogc>(text, urn.as_ref());
    for (known, pattern) in PATTERNS.iter() {
        let valid = urn
            .as_ref()
            .is_some_and(|u| u.namespace() == Some(*known) && u.validate_namespace().is_ok());
        // The patterns leave the length cap to `maxLength`.
        if text.len() > urn_core::DEFAULT_MAX_LEN {
            continue;
        }
        if valid {
            assert!(pattern.is_match(text), "{known} pattern misses {text:?}");
        }
        if pattern.is_match(text) && known.pattern_is_exact() {
            assert!(
                valid,
                "{known} pattern matches {text:?}, which is not valid"
            );
        }
    }
    // Every known namespace's validator, on any NSS-shaped text.
    for known in KnownNamespace::ALL {
        if let Err(e) = known.validate_nss(text) {
            assert!(e.offset() <= text.len(), "{known} {text:?}: {}", e.offset());
        }
    }
    if let Some(Err(e)) = urn.as_ref().map(Urn::validate_namespace) {
        // Into the URN, inside the NSS.
        let nid_len = urn.as_ref().map_or(0, |u| u.nid().len());
        assert!(e.offset() <= text.len() && e.offset() > nid_len + 4);
    }
});
