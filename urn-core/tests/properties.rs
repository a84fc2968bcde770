//! Property tests: round trips, key idempotence, equality ⇔ key equality, hash consistency,
//! builder round trips, and no panics on arbitrary input.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use proptest::prelude::*;
use urn_core::{IsbnUrn, Syntax, Urn, UrnKey, UrnRef, decode_nss, encode_nss, urn};

fn hash_of<T: Hash>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// `shown` formats as `text` does under every width, fill, alignment and precision (and `#`,
/// and the `0` flag, which `str` ignores).
fn formats_as_str(shown: &dyn std::fmt::Display, text: &str) -> Result<(), TestCaseError> {
    prop_assert_eq!(format!("{shown}"), text);
    prop_assert_eq!(format!("{shown:#}"), text);
    for width in [
        0,
        1,
        text.len().saturating_sub(1),
        text.len(),
        text.len() + 1,
        80,
    ] {
        prop_assert_eq!(format!("{shown:width$}"), format!("{text:width$}"));
        prop_assert_eq!(format!("{shown:<width$}"), format!("{text:<width$}"));
        prop_assert_eq!(format!("{shown:^width$}"), format!("{text:^width$}"));
        prop_assert_eq!(format!("{shown:>width$}"), format!("{text:>width$}"));
        prop_assert_eq!(format!("{shown:*^width$}"), format!("{text:*^width$}"));
        prop_assert_eq!(format!("{shown:é>width$}"), format!("{text:é>width$}"));
        prop_assert_eq!(format!("{shown:0width$}"), format!("{text:0width$}"));
        prop_assert_eq!(format!("{shown:#<width$}"), format!("{text:#<width$}"));
        for precision in [0, 1, 12, text.len(), 500] {
            prop_assert_eq!(
                format!("{shown:.precision$}"),
                format!("{text:.precision$}")
            );
            prop_assert_eq!(
                format!("{shown:-^width$.precision$}"),
                format!("{text:-^width$.precision$}")
            );
        }
    }
    Ok(())
}

#[test]
fn every_urn_type_formats_as_its_text() {
    let typed: IsbnUrn = "URN:ISBN:0-395-36341-1?=x#p".parse().unwrap();
    let view = urn!("urn:example:a%2cb?+r?=q#f");
    let owned = Urn::from(view);
    formats_as_str(&typed, typed.as_str()).unwrap();
    formats_as_str(&typed.key(), typed.key().as_str()).unwrap();
    formats_as_str(&view, view.as_str()).unwrap();
    formats_as_str(&owned, owned.as_str()).unwrap();
    formats_as_str(&owned.key(), "urn:example:a%2Cb").unwrap();
    assert_eq!(
        format!("[{view:>30.16}]"),
        "[              urn:example:a%2c]"
    );
}

/// A PLAIN character, a `%XX` triplet (mixed-case hex), or (where allowed) `/` or `?`.
fn pchar() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => "[A-Za-z0-9!$&'()*+,;=:@._~-]",
        2 => "%[0-9A-Fa-f][0-9A-Fa-f]",
    ]
}

fn chunk(extra: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![5 => pchar(), 1 => Just(extra.to_owned())]
}

fn nss() -> impl Strategy<Value = String> {
    (pchar(), prop::collection::vec(chunk("/"), 0..40))
        .prop_map(|(first, rest)| first + &rest.concat())
}

/// r- and q-components: a pchar first, then pchars, `/` and `?` (but never `?=` inside r,
/// and never a trailing `?` that would swallow the next marker).
fn rq() -> impl Strategy<Value = String> {
    (pchar(), prop::collection::vec(chunk("/"), 0..12))
        .prop_map(|(first, rest)| first + &rest.concat())
}

fn nid() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]",
        Just("uuid".to_owned()),
        Just("ISBN".to_owned()),
        Just("issn".to_owned()),
        Just("ietf".to_owned()),
        Just("Lex".to_owned()),
        Just("nbn".to_owned()),
        Just("mpeg".to_owned()),
    ]
}

fn namespace_nss() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
        Just("0-395-36341-1".to_owned()),
        Just("080442957x".to_owned()),
        Just("2434561x".to_owned()),
        Just("RFC:2141".to_owned()),
        "[a-zA-Z]{2}(:[a-zA-Z0-9]{1,4})?-[a-zA-Z0-9%]{1,10}",
        "[A-Za-z]{2}:[A-Za-z:;.]{1,20}(%[0-9a-f]{2})?",
        "[A-Za-z0-9]{1,6}:[A-Za-z0-9:]{0,12}",
    ]
}

prop_compose! {
    fn parts()(
        nid in nid(),
        nss in prop_oneof![3 => nss(), 1 => namespace_nss()],
        r in proptest::option::of(rq()),
        q in proptest::option::of(rq()),
        f in proptest::option::of(prop::collection::vec(chunk("?"), 0..8).prop_map(|v| v.concat())),
    ) -> (String, String, Option<String>, Option<String>, Option<String>) {
        (nid, nss, r, q, f)
    }
}

fn assemble(
    p: &(
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
    ),
) -> String {
    let mut s = format!("urn:{}:{}", p.0, p.1);
    if let Some(r) = &p.2 {
        s += &format!("?+{r}");
    }
    if let Some(q) = &p.3 {
        s += &format!("?={q}");
    }
    if let Some(f) = &p.4 {
        s += &format!("#{f}");
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn builder_output_parses_back_to_the_same_parts(p in parts()) {
        let built = Urn::builder(&p.0, &p.1)
            .r_component(p.2.as_deref())
            .q_component(p.3.as_deref())
            .f_component(p.4.as_deref())
            .build();
        // A generated r- or q-component may end in '?' followed by a marker ("?" + "=..."),
        // which the builder must reject rather than mis-split.
        match built {
            Ok(urn) => {
                prop_assert_eq!(urn.nid(), p.0.as_str());
                prop_assert_eq!(urn.nss(), p.1.as_str());
                prop_assert_eq!(urn.r_component(), p.2.as_deref());
                prop_assert_eq!(urn.q_component(), p.3.as_deref());
                prop_assert_eq!(urn.f_component(), p.4.as_deref());
                prop_assert_eq!(urn.as_str(), assemble(&p));
            }
            Err(e) => prop_assert!(Urn::parse(&assemble(&p)).map(|u| u.r_component().map(str::to_owned) != p.2 || u.q_component().map(str::to_owned) != p.3).unwrap_or(true), "{e}"),
        }
    }

    #[test]
    fn parse_display_roundtrip(p in parts()) {
        let text = assemble(&p);
        if let Ok(urn) = Urn::parse(&text) {
            let again: Urn = urn.to_string().parse().unwrap();
            prop_assert_eq!(&again, &urn);
            prop_assert!(again.eq_text(&urn));
            prop_assert_eq!(again.as_str(), text.as_str());
        }
    }

    #[test]
    fn display_pads_and_truncates_as_str_does(p in parts()) {
        if let Ok(urn) = Urn::parse(&assemble(&p)) {
            formats_as_str(&urn, urn.as_str())?;
            formats_as_str(&urn.as_urn_ref(), urn.as_str())?;
            formats_as_str(&urn.key(), urn.key().as_str())?;
        }
    }

    #[test]
    fn key_is_idempotent_and_canonical(p in parts()) {
        let text = assemble(&p);
        if let Ok(urn) = Urn::parse(&text) {
            let key = urn.key();
            let rekeyed = Urn::from(key.clone());
            prop_assert_eq!(rekeyed.key().into_string(), key.as_str());
            prop_assert_eq!(&rekeyed, &urn);
            prop_assert!(UrnKey::parse(key.as_str()).is_ok());
            let generic = urn.rfc8141_key();
            prop_assert_eq!(Urn::parse(generic.as_str()).unwrap().rfc8141_key().into_string(), generic.as_str());
        }
    }

    #[test]
    fn equality_is_key_equality_and_hashes_agree(a in parts(), b in parts(), case_flip in any::<u64>()) {
        // Pair an input with a re-spelling of itself (case flipped in scheme, NID and hex)
        // and with an unrelated one.
        let ta = assemble(&a);
        let respelled: String = ta.char_indices().map(|(i, c)| {
            if case_flip >> (i % 64) & 1 == 1 { c.to_ascii_uppercase() } else { c }
        }).collect();
        let tb = assemble(&b);
        for (x, y) in [(&ta, &respelled), (&ta, &tb)] {
            if let (Ok(x), Ok(y)) = (UrnRef::parse(x), UrnRef::parse(y)) {
                prop_assert_eq!(x == y, x.key() == y.key());
                prop_assert_eq!(x.cmp(&y), x.key().as_str().cmp(y.key().as_str()));
                if x == y {
                    prop_assert_eq!(hash_of(&x), hash_of(&y));
                    prop_assert_eq!(hash_of(&x.to_owned()), hash_of(&y));
                }
                // Namespace rules only merge: generic equality implies equality.
                if x.rfc8141_key() == y.rfc8141_key() {
                    prop_assert!(x == y);
                }
            }
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,80}", syntax in prop_oneof![Just(Syntax::Rfc8141), Just(Syntax::Rfc2141)]) {
        match UrnRef::parse_with(&s, syntax) {
            Ok(urn) => {
                let _ = (urn.key(), urn.nss_decoded(), urn.validate_namespace(), urn.nid_status());
            }
            Err(e) => {
                prop_assert!(e.offset() <= s.len());
                let _ = e.to_string();
            }
        }
        let _ = UrnKey::parse(&s);
    }

    #[test]
    fn arbitrary_urn_alphabet_strings_never_panic(s in "(?i:urn:)[a-z0-9:%/?#+=.-]{0,40}") {
        for syntax in [Syntax::Rfc8141, Syntax::Rfc2141] {
            match UrnRef::parse_with(&s, syntax) {
                Ok(urn) => { let _ = (urn.key(), urn.nss_decoded(), urn.validate_namespace()); }
                Err(e) => prop_assert!(e.offset() <= s.len()),
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let s = String::from_utf8_lossy(&bytes);
        let _ = Urn::parse(&s);
        let _ = decode_nss(&s);
    }

    #[test]
    fn encode_decode_roundtrip(native in "\\PC{1,30}") {
        let nss = encode_nss(&native);
        prop_assert_eq!(decode_nss(&nss).unwrap(), native.as_str());
        let urn = Urn::builder("example", &nss).build().unwrap();
        prop_assert_eq!(urn.nss_decoded().unwrap(), native.as_str());
    }
}
