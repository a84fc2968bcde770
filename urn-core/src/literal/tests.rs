//! The compile-time messages against the run-time ones: both are written from the same message
//! parts, by two writers (`Display`, and the `const` buffer of [`message`]), which must say
//! the same words. (`ns_urn.rs` holds the typed literal to `NsUrn`, and `urn_ref.rs` checks
//! what `from_static` does at run time.)

use alloc::format;
use alloc::string::{String, ToString};

use proptest::prelude::*;

use super::message;
use crate::namespaces::KnownNamespace;
use crate::parse::{self as runtime, ParseOptions};

/// The message the const code writes for `error`: its `Display`, except that a non-ASCII
/// character that `char::escape_debug` escapes is shown as itself (as `urn!`'s documentation
/// says).
pub(crate) fn const_message(
    error: impl core::fmt::Display + core::fmt::Debug,
    found: Option<char>,
) -> String {
    let shown = error.to_string();
    match found {
        Some(c) if !c.is_ascii() && c.escape_debug().len() > 1 => {
            shown.replacen(&c.escape_debug().to_string(), &c.to_string(), 1)
        }
        _ => shown,
    }
}

/// The character a parse error quotes, if any.
pub(crate) fn found(error: &crate::ParseError) -> Option<char> {
    use crate::ErrorKind;
    match error.kind() {
        ErrorKind::InvalidChar { found, .. } | ErrorKind::InvalidFirstChar { found, .. } => {
            Some(found)
        }
        _ => None,
    }
}

/// A literal of `text` is refused with the message a run-time parse gives.
pub(crate) fn agree(text: &str) -> Result<(), TestCaseError> {
    let want = runtime::parse(text, ParseOptions::new()).map(|p| p.offsets);
    let want_message = want.err().map(|e| const_message(e, found(&e)));
    prop_assert_eq!(message(text), want_message, "{:?}", text);
    Ok(())
}

/// Inputs at every rule's edge.
pub(crate) const EDGES: &[&str] = &[
    "",
    "u",
    "urn",
    "URN:",
    "urx:a:b",
    "urn;ab:c",
    "urn:ab",
    "urn::x",
    "urn:a:x",
    "urn:-ab:x",
    "urn:ab-:x",
    "urn:a-b:x",
    "urn:aB:x",
    "urn:ab_c:x",
    "urn:ab:",
    "urn:ab:#f",
    "urn:ab:?=q",
    "urn:ab:/x",
    "urn:ab:%2fx",
    "urn:ab:%2",
    "urn:ab:%g0",
    "urn:ab:a%",
    "urn:ab:a b",
    "urn:ab:aé",
    "urn:ab:a\u{301}",
    "urn:ab:a\tb",
    "urn:ab:a?",
    "urn:ab:a?b",
    "urn:ab:a?+",
    "urn:ab:a?+#",
    "urn:ab:a?+?=q",
    "urn:ab:a?+/r",
    "urn:ab:a?+?r",
    "urn:ab:a?+r?",
    "urn:ab:a?+r?x?=q",
    "urn:ab:a?+r%4",
    "urn:ab:a?+r b",
    "urn:ab:a?=",
    "urn:ab:a?=#",
    "urn:ab:a?=/q",
    "urn:ab:a?=?q",
    "urn:ab:a?=q?+r",
    "urn:ab:a?=q%zz",
    "urn:ab:a?=q\"",
    "urn:ab:a?+r?=q#f",
    "urn:ab:a#",
    "urn:ab:a#b#",
    "urn:ab:a#/?",
    "urn:ab:a#%41",
    "urn:ab:a#%4",
    "urn:ab:a#\\",
    "URN:ISBN:0-395-36341-1",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "urn:Nbn:fi-x",
    "urn:LEX:it:x",
    "urn:mpeg:x:y",
    "urn:ietf:rfc:1",
    "urn:issn:0317-8471",
    "urn:oid:1.2",
    "urn:example:a%2cb",
    "urn:uuidx:a",
    "urn:isb:a",
    "urn:abcdefghijabcdefghijabcdefghijab:x",
    "urn:abcdefghijabcdefghijabcdefghijabc:x",
    "urn:abcdefghijabcdefghijabcdefghijabc",
    " ",
    "\t\u{3000}",
    " urn:ab:x",
    "\u{feff}urn:ab:x",
    "urn:ab:x ",
    "urn:ab:x\r\n",
    "urn:ab:x\u{a0}",
    "urn:ab:x?+ ",
    "urn:ab:x y ",
];

/// What the messages of non-ASCII characters look like, as the macro's documentation says.
#[test]
fn a_character_std_would_escape_is_shown_as_itself() {
    let text = "urn:ab:a\u{301}";
    assert_eq!(
        runtime::parse(text, ParseOptions::new())
            .unwrap_err()
            .to_string(),
        "invalid URN: '\\u{301}' at byte 8 is not allowed in the NSS"
    );
    assert_eq!(
        message(text).unwrap(),
        "invalid URN: '\u{301}' at byte 8 is not allowed in the NSS"
    );
    assert_eq!(
        message("urn:ab:a\u{1b}").unwrap(),
        "invalid URN: '\\u{1b}' at byte 8 is not allowed in the NSS"
    );
}

/// Every message the const code can write (the builder's and the keys' included), against
/// `ParseError`'s `Display`.
#[test]
fn every_kind_has_the_run_time_message() {
    use crate::error::{Component, ErrorKind, ParseError};
    let components = [
        Component::Scheme,
        Component::Nid,
        Component::Nss,
        Component::RComponent,
        Component::QComponent,
        Component::FComponent,
    ];
    let mut kinds = alloc::vec![
        ErrorKind::Scheme,
        ErrorKind::TooLong { max: usize::MAX },
        ErrorKind::PercentNul,
        ErrorKind::NidLength { len: 1, min: 2 },
        ErrorKind::NidLength { len: 33, min: 1 },
        ErrorKind::NidUnterminated,
        ErrorKind::NidLeadingHyphen,
        ErrorKind::NidTrailingHyphen,
        ErrorKind::NidReserved,
        ErrorKind::EmptyNss,
        ErrorKind::BareQuestionMark,
        ErrorKind::KeyHasComponent,
        ErrorKind::KeyNotCanonical,
        ErrorKind::Empty,
        ErrorKind::ByteOrderMark,
        ErrorKind::LeadingWhitespace,
        ErrorKind::TrailingWhitespace,
    ];
    for component in components {
        kinds.extend([
            ErrorKind::InvalidChar {
                component,
                found: '"',
            },
            ErrorKind::InvalidFirstChar {
                component,
                found: '/',
            },
            ErrorKind::PercentEncoding { component },
            ErrorKind::EmptyComponent { component },
            ErrorKind::Delimiter { component },
        ]);
    }
    for kind in kinds {
        for at in [0, 7, 10, 65_536, usize::MAX] {
            let e = ParseError::new(kind, at);
            let got = super::Message::new().str("invalid URN: ").detail(&e);
            assert_eq!(got.as_str(), e.to_string());
        }
    }
}

/// A message longer than the buffer is cut at a character boundary, not a panic.
#[test]
fn a_long_message_is_cut_not_a_panic() {
    let long = super::Message::new()
        .str("a")
        .str(&"é".repeat(200))
        .str("and more");
    assert_eq!(long.as_str(), format!("a{}", "é".repeat(127)));
}

/// The typed form's namespace names are the table's NIDs, in any case.
#[test]
fn typed_literals_name_their_namespace_by_nid() {
    for &ns in KnownNamespace::ALL {
        assert_eq!(super::namespace_named(ns.nid()), Some(ns));
        assert_eq!(
            super::namespace_named(&ns.nid().to_ascii_uppercase()),
            Some(ns)
        );
    }
    assert_eq!(super::namespace_named("acme"), None);
    assert_eq!(super::namespace_named("isbn-"), None);
}

#[test]
fn literals_at_every_edge_are_refused_with_the_run_time_message() {
    for text in EDGES {
        agree(text).unwrap();
    }
    let longest = format!("urn:example:{}", "a".repeat(crate::DEFAULT_MAX_LEN - 12));
    agree(&longest).unwrap();
    agree(&format!("{longest}b")).unwrap();
}

/// URN-shaped strings: the grammar's alphabet, mixed, and every known NID.
pub(crate) fn urn_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "(?i:urn:)[a-zA-Z0-9-]{0,6}:[a-zA-Z0-9:%/?#+=.~-]{0,40}",
        proptest::string::string_regex(&alloc::format!(
            "(?i:urn:)({}):[a-fA-F0-9:%/?#+=.xX-]{{0,40}}",
            crate::KnownNamespace::ALL
                .iter()
                .map(|ns| ns.nid())
                .collect::<alloc::vec::Vec<_>>()
                .join("|")
        ))
        .expect("a valid regex"),
        "(?i:urn:)[a-z]{2,4}:[a-z0-9%]{1,6}(\\?[+=]?[a-z0-9%?/]{0,6}){0,3}(#[a-z0-9%?/#]{0,6})?",
        ".{0,60}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn literals_are_refused_with_the_run_time_message(text in urn_like()) {
        agree(&text)?;
    }
}
