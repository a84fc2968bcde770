//! Keys are idempotent and valid: `parse(key).key() == key` for `key()` and `rfc8141_key()`, a
//! key is a canonical `UrnKey`, and the key of the RFC 8141 key is the key; under every
//! version of the key rules, the key is idempotent and canonical for that version, and the
//! current key of an older version's key is the current key (a version only joins keys).
#![no_main]

use libfuzzer_sys::fuzz_target;
use urn_core::{KeyRules, Urn, UrnKey};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(urn) = Urn::parse(text) else {
        return;
    };
    let key = urn.key();
    let generic = urn.rfc8141_key();
    assert_eq!(key, urn.key_with(KeyRules::CURRENT));
    assert_eq!(generic, urn.key_with(KeyRules::Rfc8141));

    let reparsed = Urn::parse(key.as_str()).expect("a key is a valid URN");
    assert_eq!(reparsed.key(), key, "{text:?}");
    assert!(reparsed.eq_text(&Urn::from(key.clone())));
    let checked = UrnKey::parse(key.as_str()).expect("a key is canonical");
    assert_eq!(checked, key);

    let generic_urn = Urn::parse(generic.as_str()).expect("an RFC 8141 key is a valid URN");
    assert_eq!(generic_urn.rfc8141_key(), generic, "{text:?}");
    assert_eq!(generic_urn.key(), key, "{text:?}");
    assert_eq!(key.nid(), urn.nid().to_ascii_lowercase());

    for &rules in KeyRules::VERSIONS {
        let versioned = urn.key_with(rules);
        let reparsed = Urn::parse(versioned.as_str()).expect("a key is a valid URN");
        assert_eq!(reparsed.key_with(rules), versioned, "{rules:?} {text:?}");
        assert_eq!(reparsed.key(), key, "{rules:?} {text:?}");
        UrnKey::parse_with(versioned.as_str(), rules).expect("a key is canonical");
    }
});
