//! Parsing never panics on any bytes, under both grammars; a URN it accepts keeps its text
//! verbatim, and its components re-assemble the input exactly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urn_core::{ParseOptions, Syntax, Urn, UrnKey, UrnRef};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for syntax in [Syntax::Rfc8141, Syntax::Rfc2141] {
        let options = ParseOptions::new().with_syntax(syntax);
        let borrowed = UrnRef::parse_with(text, options);
        let owned = Urn::parse_with(text, options);
        assert_eq!(borrowed.is_ok(), owned.is_ok(), "{text:?}");
        match borrowed {
            Ok(urn) => check_components(text, &urn),
            Err(e) => {
                assert!(e.offset() <= text.len(), "{text:?}: offset {}", e.offset());
                let _ = e.to_string();
            }
        }
    }
    // The other entry points never panic either.
    let _ = UrnKey::parse(text);
    let _ = text.parse::<Urn>();
    let _ = UrnRef::parse_with(text, ParseOptions::unlimited());
});

fn check_components(text: &str, urn: &UrnRef<'_>) {
    assert_eq!(urn.as_str(), text);
    let mut again = String::with_capacity(text.len());
    again.push_str(text.get(..4).expect("a URN starts with 'urn:'"));
    again.push_str(urn.nid());
    again.push(':');
    again.push_str(urn.nss());
    if let Some(r) = urn.r_component() {
        again.push_str("?+");
        again.push_str(r);
    }
    if let Some(q) = urn.q_component() {
        again.push_str("?=");
        again.push_str(q);
    }
    if let Some(f) = urn.f_component() {
        again.push('#');
        again.push_str(f);
    }
    assert_eq!(again, text);
    assert!(urn.assigned_name().len() <= text.len());
}
