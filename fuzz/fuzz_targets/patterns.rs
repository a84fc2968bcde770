//! `urn_core::patterns::URN` (the regex in the JSON Schemas) accepts exactly what
//! `Urn::parse` accepts, and `URN_KEY` exactly the canonical-key shape of valid URNs.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use regex::Regex;
use urn_core::{Urn, patterns};

static URN: LazyLock<Regex> = LazyLock::new(|| Regex::new(patterns::URN).expect("valid regex"));
static KEY: LazyLock<Regex> = LazyLock::new(|| Regex::new(patterns::URN_KEY).expect("valid regex"));

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The length cap is the schema's maxLength, not the pattern's.
    if text.len() > urn_core::DEFAULT_MAX_LEN {
        return;
    }
    let parsed = Urn::parse(text);
    assert_eq!(
        URN.is_match(text),
        parsed.is_ok(),
        "{text:?}: {:?}",
        parsed.as_ref().err()
    );
    if let Ok(urn) = parsed {
        assert!(KEY.is_match(urn.key().as_str()), "{text:?}");
        assert!(KEY.is_match(urn.rfc8141_key().as_str()), "{text:?}");
    }
});
