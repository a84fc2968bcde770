//! `repair`: each kind of fix on an example, the fixes rebuild the URN from the input, and a
//! URN is left as it is.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use urn_core::{ErrorKind, Fix, FixKind, Repair, repair};

/// The input with the fixes applied, as their spans and texts say.
fn apply(input: &str, fixes: &[Fix]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for fix in fixes {
        assert!(fix.start >= at && fix.end >= fix.start, "{fixes:?}");
        assert_eq!(&input[fix.start..fix.end], fix.before);
        out.push_str(&input[at..fix.start]);
        out.push_str(&fix.after);
        at = fix.end;
    }
    out.push_str(&input[at..]);
    out
}

/// The URN `input` repairs to, checking that its fixes rebuild it.
fn repaired(input: &str) -> (String, Vec<(FixKind, &'static str)>) {
    let r: Repair = repair(input);
    let urn = r
        .urn()
        .unwrap_or_else(|| panic!("{input:?}: {:?}", r.error()));
    assert_eq!(apply(input, r.fixes()), urn.as_str(), "{input:?}");
    let kinds = r.fixes().iter().map(|f| (f.kind, f.kind.name())).collect();
    (urn.to_string(), kinds)
}

fn kinds(input: &str) -> Vec<FixKind> {
    repaired(input).1.into_iter().map(|(k, _)| k).collect()
}

#[test]
fn each_kind_of_fix() {
    use FixKind::*;
    let cases: &[(&str, &str, &[FixKind])] = &[
        ("\u{feff}urn:example:a", "urn:example:a", &[ByteOrderMark]),
        (
            " \turn:example:a\r\n",
            "urn:example:a",
            &[LeadingWhitespace, TrailingWhitespace],
        ),
        (
            "\u{0}urn:example:a\u{7f}",
            "urn:example:a",
            &[Control, Control],
        ),
        ("urn:exa\u{200b}mple:a", "urn:example:a", &[Control]),
        ("ｕｒｎ：ｅｘａｍｐｌｅ：ａ", "urn:example:a", &[FullWidth]),
        (
            "urn:isbn:0\u{2013}395\u{2013}36341\u{2013}1",
            "urn:isbn:0-395-36341-1",
            &[Dash, Dash, Dash],
        ),
        (
            "urn:isbn:0 395 36341 1",
            "urn:isbn:0-395-36341-1",
            &[Space, Space, Space],
        ),
        (
            "urn:isbn:0 - 395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[Space, Space],
        ),
        (
            "URN : ISBN : 0-395-36341-1",
            "URN:ISBN:0-395-36341-1",
            &[Spacing, Spacing, Spacing, Spacing],
        ),
        (
            "isbn:0-395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[MissingPrefix],
        ),
        (
            "urn:urn:isbn:0-395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[DoubledPrefix],
        ),
        (
            "URN:urn : isbn:0-395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[DoubledPrefix, Spacing, Spacing],
        ),
        (
            "urn:isbn:ISBN 0-395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[Label],
        ),
        (
            "urn:isbn:isbn: 0-395-36341-1",
            "urn:isbn:0-395-36341-1",
            &[Label],
        ),
        ("urn:example:a b", "urn:example:a%20b", &[PercentEncoded]),
        (
            "urn:example:café",
            "urn:example:caf%C3%A9",
            &[PercentEncoded],
        ),
        (
            "urn:example:a\u{2013}b",
            "urn:example:a%E2%80%93b",
            &[PercentEncoded],
        ),
        (
            "urn:example:<a>",
            "urn:example:%3Ca%3E",
            &[PercentEncoded, PercentEncoded],
        ),
        ("urn:example:100%", "urn:example:100%25", &[PercentEncoded]),
        (
            "urn:example:a#b c",
            "urn:example:a#b%20c",
            &[PercentEncoded],
        ),
    ];
    for &(input, urn, expected) in cases {
        let (got, named) = repaired(input);
        assert_eq!((input, got.as_str()), (input, urn));
        assert_eq!(kinds(input), expected, "{input:?}: {named:?}");
    }
}

#[test]
fn what_is_not_changed() {
    // A URN, as it is: no fixes.
    for urn in [
        "urn:example:a",
        "URN:ISBN:ISBN978",
        "urn:example:a%2c",
        "urn:urn-7:x",
    ] {
        let r = repair(urn);
        assert_eq!(
            (r.urn().map(|u| u.as_str()), r.fixes()),
            (Some(urn), &[][..])
        );
    }
    // A label is removed only where the namespace's syntax needs it gone.
    assert_eq!(
        repaired("urn:example:example a").0,
        "urn:example:example%20a"
    );
    // No `urn:` before a NID that is not registered.
    let r = repair("http://example.org/");
    assert_eq!(r.urn(), None);
    assert_eq!(
        r.error().map(|e| (e.kind(), e.offset())),
        Some((ErrorKind::Scheme, 0))
    );
    // The NID `urn` that is no doubled prefix stays.
    assert_eq!(
        repair("urn:urn:x").urn().map(|u| u.as_str()),
        Some("urn:urn:x")
    );
}

#[test]
fn what_cannot_be_repaired_keeps_the_parsers_error() {
    for (input, kind, offset) in [
        ("", ErrorKind::Empty, 0),
        ("urn:example:a?b", ErrorKind::BareQuestionMark, 13),
        (" urn:x:y", ErrorKind::LeadingWhitespace, 0),
        ("urn:example:", ErrorKind::EmptyNss, 12),
    ] {
        let r = repair(input);
        assert_eq!(r.urn(), None, "{input:?}");
        assert_eq!(r.fixes(), []);
        let e = r.error().unwrap();
        assert_eq!((e.kind(), e.offset()), (kind, offset), "{input:?}");
    }
}

#[cfg(feature = "proptest")]
mod properties {
    use proptest::prelude::*;
    use urn_core::repair;

    proptest! {
        /// A URN whose NID is not reserved is that URN, with no fixes.
        #[test]
        fn a_urn_is_left_as_it_is(urn in urn_core::strategy::urn()) {
            prop_assume!(!urn.nid().eq_ignore_ascii_case("urn"));
            let r = repair(urn.as_str());
            prop_assert_eq!(r.urn().map(|u| u.as_str()), Some(urn.as_str()));
            prop_assert!(r.fixes().is_empty());
        }

        /// Whatever the input, the fixes rebuild the URN from it, and a failure is the parser's.
        #[test]
        fn fixes_rebuild_the_urn(input in "[ \\t\u{3000}\u{2013}\u{feff}ｕｒｎ：urnURNisbn:0-9a-zé%?#<]{0,24}") {
            let r = repair(&input);
            match r.urn() {
                Some(urn) => prop_assert_eq!(super::apply(&input, r.fixes()), urn.as_str()),
                None => {
                    let e = urn_core::UrnRef::parse(&input).unwrap_err();
                    prop_assert_eq!(r.error(), Some(&e));
                }
            }
        }
    }
}

/// Near-misses as they are pasted, copied from public material (each line of
/// `testdata/fix/near_misses.jsonl` names its source): the URN repair makes (or none), and
/// the kinds of its fixes in input order.
#[test]
fn real_near_misses() {
    let path = format!(
        "{}/../testdata/fix/near_misses.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut wrong = Vec::new();
    let mut count = 0;
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let input = case["input"].as_str().unwrap();
        let repaired = repair(input);
        let got_kinds: Vec<&str> = repaired.fixes().iter().map(|f| f.kind.name()).collect();
        let want_kinds: Vec<&str> = case["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        let got = repaired.urn().map(|u| u.as_str());
        if got != case["urn"].as_str() || got_kinds != want_kinds {
            wrong.push(format!("{input:?}: {got:?} {got_kinds:?}"));
        }
        // Every fix shows the input's text where it stands.
        for fix in repaired.fixes() {
            assert_eq!(&input[fix.start..fix.end], fix.before, "{input:?}");
        }
        count += 1;
    }
    assert!(count >= 40, "{count}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Quotes come off only when they are one pair around the whole text; a link's query is the
/// link's, not the URN's.
#[test]
fn pairs_and_link_queries() {
    assert_eq!(repair("'urn:example:a','urn:example:b'").urn(), None);
    assert_eq!(repair("(urn:example:a)(b)").urn().map(|u| u.as_str()), None);
    assert_eq!(
        repair("https://urn.kb.se/resolve?urn=urn:nbn:se:liu:diva-12345&lang=en")
            .urn()
            .map(|u| u.as_str()),
        Some("urn:nbn:se:liu:diva-12345")
    );
}
