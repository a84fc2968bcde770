//! Typed namespace URNs and `validate_namespace` never panic and agree: `NsUrn<N>` accepts a
//! text exactly when it is a valid URN of N's NID whose NSS N's rules accept, and the typed
//! field's pattern accepts every such URN.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use regex::Regex;
use urn_core::{KnownNamespace, Namespace, NsUrn, Urn, ns, patterns};

fn check<N: Namespace>(text: &str, urn: Option<&Urn>, pattern: &Regex) {
    let typed = text.parse::<NsUrn<N>>();
    let expected = urn
        .is_some_and(|u| u.nid().eq_ignore_ascii_case(N::NID) && N::validate_nss(u.nss()).is_ok());
    assert_eq!(typed.is_ok(), expected, "{} {text:?}: {typed:?}", N::NID);
    if let Some(u) = urn.filter(|u| u.nid().eq_ignore_ascii_case(N::NID)) {
        let known = KnownNamespace::from_nid(N::NID).expect("built in");
        assert_eq!(u.namespace(), Some(known));
        assert_eq!(u.validate_namespace().is_ok(), typed.is_ok(), "{text:?}");
    }
    if typed.is_ok() && text.len() <= urn_core::DEFAULT_MAX_LEN {
        assert!(pattern.is_match(text), "{} pattern misses {text:?}", N::NID);
    }
}

macro_rules! pattern {
    ($name:ident, $ns:ty) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(&patterns::namespace_urn(<$ns>::NID, <$ns>::NSS_PATTERN)).expect("regex")
        });
    };
}
pattern!(UUID, ns::Uuid);
pattern!(ISBN, ns::Isbn);
pattern!(ISSN, ns::Issn);
pattern!(OID, ns::Oid);
pattern!(IETF, ns::Ietf);
pattern!(EXAMPLE, ns::Example);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let urn = Urn::parse(text).ok();
    check::<ns::Uuid>(text, urn.as_ref(), &UUID);
    check::<ns::Isbn>(text, urn.as_ref(), &ISBN);
    check::<ns::Issn>(text, urn.as_ref(), &ISSN);
    check::<ns::Oid>(text, urn.as_ref(), &OID);
    check::<ns::Ietf>(text, urn.as_ref(), &IETF);
    check::<ns::Example>(text, urn.as_ref(), &EXAMPLE);
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
