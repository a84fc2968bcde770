//! Round trips through JSON, TOML and postcard; zero-copy borrowing; typed namespaces; every
//! error message; maps; the `with`-modules.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use urn_serde::{
    IsbnUrn, NamespaceError, NsUrn, Urn, UrnKey, UrnRef, namespace, urn, urn_core::KnownNamespace,
};

namespace!(pub Acme, "acme-sku", |nss: &str| match nss.bytes().position(|b| !b.is_ascii_digit()) {
    Some(at) => Err(NamespaceError::new(at, "a SKU is digits only")),
    None => Ok(()),
});

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Item {
    id: Urn,
    key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
    sku: NsUrn<Acme>,
    see_also: Vec<Urn>,
}

fn item() -> Item {
    let id = Urn::from(urn!("URN:EXAMPLE:item-1%2c?=lang=en#top"));
    Item {
        key: id.key().into_owned(),
        id,
        isbn: Some("urn:ISBN:0-395-36341-1".parse().unwrap()),
        sku: "urn:acme-sku:42".parse().unwrap(),
        see_also: vec![
            urn!("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").into(),
            urn!("urn:ietf:rfc:2141").into(),
        ],
    }
}

fn assert_same_text(a: &Item, b: &Item) {
    assert!(a.id.eq_text(&b.id));
    assert_eq!(a.key.as_str(), b.key.as_str());
    assert!(a.isbn.as_ref().unwrap().eq_text(b.isbn.as_ref().unwrap()));
    assert_eq!(a.see_also.len(), b.see_also.len());
    for (x, y) in a.see_also.iter().zip(&b.see_also) {
        assert!(x.eq_text(y));
    }
}

#[test]
fn json_round_trip_is_verbatim() {
    let json = serde_json::to_string(&item()).unwrap();
    assert_eq!(
        json,
        r#"{"id":"URN:EXAMPLE:item-1%2c?=lang=en#top","key":"urn:example:item-1%2C","isbn":"urn:ISBN:0-395-36341-1","sku":"urn:acme-sku:42","see_also":["urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6","urn:ietf:rfc:2141"]}"#
    );
    let back: Item = serde_json::from_str(&json).unwrap();
    assert_eq!(back, item());
    assert_same_text(&back, &item());
}

#[test]
fn toml_round_trip() {
    let text = toml::to_string(&item()).unwrap();
    assert!(
        text.contains(r#"id = "URN:EXAMPLE:item-1%2c?=lang=en#top""#),
        "{text}"
    );
    let back: Item = toml::from_str(&text).unwrap();
    assert_same_text(&back, &item());
    let err =
        toml::from_str::<Item>(&text.replace("urn:acme-sku:42", "urn:acme-sku:4x")).unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid acme-sku URN: a SKU is digits only (byte 14)"),
        "{err}"
    );
}

#[test]
fn postcard_round_trip() {
    let bytes = postcard::to_allocvec(&item()).unwrap();
    let back: Item = postcard::from_bytes(&bytes).unwrap();
    assert_same_text(&back, &item());
    // A corrupted URN inside the binary payload is an error, not a bad value.
    let mut bad = bytes.clone();
    let at = bad.windows(3).position(|w| w == b"URN").unwrap();
    bad[at] = b' ';
    assert!(
        postcard::from_bytes::<Item>(&bad)
            .unwrap_err()
            .to_string()
            .contains("Found an Option discriminant")
            || postcard::from_bytes::<Item>(&bad).is_err()
    );
}

#[test]
fn urn_ref_borrows_from_the_input() {
    let input = String::from(r#"["urn:example:a", "URN:ISBN:0395363411"]"#);
    let urns: Vec<UrnRef<'_>> = serde_json::from_str(&input).unwrap();
    let range = input.as_bytes().as_ptr_range();
    for urn in &urns {
        assert!(range.contains(&urn.as_str().as_ptr()), "{urn} was copied");
    }
    assert_eq!(urns[1].nid(), "ISBN");
    let key: UrnKey<'_> = serde_json::from_str(r#""urn:example:a""#).unwrap();
    assert_eq!(key.as_str(), "urn:example:a");
    // A string with escapes cannot be lent out.
    let err = serde_json::from_str::<UrnRef<'_>>(r#""urn:example:\u0061""#).unwrap_err();
    assert!(err.to_string().starts_with("invalid type: string"), "{err}");
    assert!(
        err.to_string().contains("expected a borrowed URN string"),
        "{err}"
    );
}

/// Which typed aliases, one per row of the namespace table, accept the JSON string `json`.
macro_rules! accepted_by {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        |json: &str| -> Vec<KnownNamespace> {
            let mut out = Vec::new();
            $(if serde_json::from_str::<urn_serde::$alias>(json).is_ok() {
                out.push(KnownNamespace::$variant);
            })*
            out
        }
    };
}

#[test]
fn typed_namespaces_accept_their_own_and_reject_others() {
    let accepted_by = urn_serde::urn_core::known_namespaces!(accepted_by);
    for &ns in KnownNamespace::ALL {
        for example in ns.examples() {
            let nss = &example[ns.nid().len() + 5..];
            for text in [
                example.to_string(),
                format!("URN:{}:{nss}", ns.nid().to_uppercase()),
            ] {
                assert_eq!(accepted_by(&format!("{text:?}")), [ns], "{text}");
            }
        }
    }
    let err = serde_json::from_str::<IsbnUrn>(r#""urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6""#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"expected a URN in namespace "isbn", found "uuid" at line 1 column 47"#
    );
    let err = serde_json::from_str::<IsbnUrn>(r#""urn:isbn:0-395-36341-2""#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid isbn URN: the check digit does not match (byte 21) at line 1 column 24"
    );
    let err = serde_json::from_str::<NsUrn<Acme>>(r#""urn:acme-sku:12a""#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid acme-sku URN: a SKU is digits only (byte 15) at line 1 column 18"
    );
    let typed: IsbnUrn = serde_json::from_str(r#""urn:isbn:0395363411""#).unwrap();
    let plain: Urn = typed.clone().into();
    assert_eq!(IsbnUrn::try_from(plain).unwrap(), typed);
}

#[test]
fn error_messages_name_the_rule_byte_and_position() {
    let err = serde_json::from_str::<Item>("{\n  \"id\": 42\n}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `42`, expected a URN string at line 2 column 10"
    );
    let err = serde_json::from_str::<Urn>("\n\n   \"urn:x:a b\"").unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid URN "urn:x:a b": NID of 1 character at byte 4: it must have 2 to 32 at line 3 column 14"#
    );
    let err = serde_json::from_str::<Urn>(r#""urn:example:a b""#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid URN "urn:example:a b": ' ' at byte 13 is not allowed in the NSS at line 1 column 17"#
    );
    let err = serde_json::from_str::<Urn>(r#""urn:example:\n""#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(r#"invalid URN "urn:example:\n": '\n' at byte 12"#),
        "{err}"
    );
    let err = serde_json::from_str::<UrnKey<'_>>(r#""URN:example:a""#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid URN key "URN:example:a": not a canonical URN key: byte 0 differs from the key at line 1 column 15"#
    );
    let err = serde_json::from_str::<UrnKey<'static>>(r#""urn:example:a#f""#).unwrap_err();
    assert!(
        err.to_string()
            .contains("a URN key has no r-, q- or f-component, but one starts at byte 13")
    );
}

#[test]
fn maps_keyed_by_urn_round_trip() {
    let mut hash: HashMap<Urn, u32> = HashMap::new();
    hash.insert(urn!("urn:example:a").into(), 1);
    hash.insert(urn!("urn:isbn:0395363411").into(), 2);
    let json = serde_json::to_string(&hash).unwrap();
    let back: HashMap<Urn, u32> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, hash);
    // Lookups by any equivalent spelling.
    assert_eq!(
        back.get(&Urn::from(urn!("URN:ISBN:0-395-36341-1"))),
        Some(&2)
    );

    let mut tree: BTreeMap<Urn, Vec<Urn>> = BTreeMap::new();
    tree.insert(
        urn!("urn:example:b").into(),
        vec![urn!("urn:example:c").into()],
    );
    tree.insert(urn!("urn:example:a").into(), vec![]);
    let json = serde_json::to_string(&tree).unwrap();
    assert_eq!(
        json,
        r#"{"urn:example:a":[],"urn:example:b":["urn:example:c"]}"#
    );
    let back: BTreeMap<Urn, Vec<Urn>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, tree);
    let err = serde_json::from_str::<BTreeMap<Urn, u8>>(r#"{"nope": 1}"#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with(r#"invalid URN "nope": expected 'urn:' at byte 0"#)
    );
}

/// Two equivalent spellings as keys of one JSON object make one map entry: the *first*
/// spelling stays as the key and the *last* value wins (std's `insert` keeps the key it has
/// and replaces the value), in a `HashMap` and in a `BTreeMap`.
#[test]
fn equivalent_map_keys_keep_the_first_spelling_and_the_last_value() {
    let json = r#"{"URN:ISBN:0-395-36341-1": 1, "urn:example:other": 2, "urn:isbn:0395363411": 3}"#;

    let hash: HashMap<Urn, u32> = serde_json::from_str(json).unwrap();
    assert_eq!(hash.len(), 2);
    let (key, value) = hash
        .get_key_value(&Urn::from(urn!("urn:isbn:0395363411")))
        .unwrap();
    assert_eq!((key.as_str(), *value), ("URN:ISBN:0-395-36341-1", 3));

    let tree: BTreeMap<Urn, u32> = serde_json::from_str(json).unwrap();
    assert_eq!(tree.len(), 2);
    let (key, value) = tree
        .get_key_value(&Urn::from(urn!("urn:isbn:0395363411")))
        .unwrap();
    assert_eq!((key.as_str(), *value), ("URN:ISBN:0-395-36341-1", 3));

    // Serialized again, the map writes the spelling it kept.
    assert_eq!(
        serde_json::to_string(&tree).unwrap(),
        r#"{"urn:example:other":2,"URN:ISBN:0-395-36341-1":3}"#
    );
}

#[derive(Debug, Serialize, Deserialize)]
struct Adapted {
    #[serde(with = "urn_serde::canonical")]
    canonical: Urn,
    #[serde(with = "urn_serde::canonical::option")]
    maybe: Option<Urn>,
    #[serde(with = "urn_serde::rfc2141::vec")]
    legacy: Vec<Urn>,
    #[serde(with = "urn_serde::parts")]
    parts: Urn,
    #[serde(with = "urn_serde::parts::option", default)]
    parts_none: Option<Urn>,
    #[serde(with = "urn_serde::parts::vec")]
    parts_list: Vec<Urn>,
}

#[test]
fn with_modules_cover_option_and_vec() {
    let v = Adapted {
        canonical: urn!("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6#x").into(),
        maybe: None,
        legacy: vec![Urn::parse_with("urn:a-:b", urn_core::Syntax::Rfc2141).unwrap()],
        parts: urn!("urn:example:a?+r?=q#").into(),
        parts_none: None,
        parts_list: vec![urn!("urn:example:z").into()],
    };
    let json = serde_json::to_string(&v).unwrap();
    assert_eq!(
        json,
        concat!(
            r#"{"canonical":"urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6","maybe":null,"legacy":["urn:a-:b"],"#,
            r#""parts":{"nid":"example","nss":"a","r_component":"r","q_component":"q","f_component":""},"#,
            r#""parts_none":null,"parts_list":[{"nid":"example","nss":"z","r_component":null,"q_component":null,"f_component":null}]}"#
        )
    );
    let back: Adapted = serde_json::from_str(&json).unwrap();
    assert_eq!(back.canonical, v.canonical);
    assert!(back.parts.eq_text(&v.parts));
    assert_eq!(back.legacy[0].nid(), "a-");
    assert!(back.parts_none.is_none());

    let with_some = json.replace(r#""maybe":null"#, r#""maybe":"URN:Example:x""#);
    let back: Adapted = serde_json::from_str(&with_some).unwrap();
    assert_eq!(back.maybe.unwrap().as_str(), "URN:Example:x");

    // Error paths of the adapters.
    let bad_legacy = json.replace("urn:a-:b", "urn:example:a/b");
    let err = serde_json::from_str::<Adapted>(&bad_legacy).unwrap_err();
    assert!(
        err.to_string().starts_with(
            r#"invalid RFC 2141 URN "urn:example:a/b": '/' at byte 13 is not allowed in the NSS"#
        ),
        "{err}"
    );
    let bad_parts = json.replace(r#""r_component":"r""#, r#""r_component":"r?=x""#);
    let err = serde_json::from_str::<Adapted>(&bad_parts).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "invalid URN parts: byte 16 would end the r-component early: percent-encode the delimiter"
        ),
        "{err}"
    );
    let unknown = json.replace(
        r#""nid":"example","nss":"a""#,
        r#""nid":"example","nss":"a","extra":1"#,
    );
    let err = serde_json::from_str::<Adapted>(&unknown).unwrap_err();
    assert!(
        err.to_string().starts_with("unknown field `extra`"),
        "{err}"
    );
}

fn urn_text() -> impl Strategy<Value = String> {
    (
        "(?i:urn)",
        "[a-zA-Z0-9][a-zA-Z0-9-]{0,8}[a-zA-Z0-9]",
        "([a-zA-Z0-9._~!$&'()*+,;=:@-]|%[0-9a-fA-F]{2})([a-zA-Z0-9._~!$&'()*+,;=:@/-]|%[0-9a-fA-F]{2}){0,20}",
        proptest::option::of("[a-z0-9=&]{1,8}"),
        proptest::option::of("[a-z0-9?/]{0,8}"),
    )
        .prop_map(|(scheme, nid, nss, q, f)| {
            let mut s = format!("{scheme}:{nid}:{nss}");
            if let Some(q) = q {
                s += &format!("?={q}");
            }
            if let Some(f) = f {
                s += &format!("#{f}");
            }
            s
        })
}

proptest! {
    #[test]
    fn generated_urns_round_trip_through_json(text in urn_text()) {
        let urn: Urn = text.parse().unwrap();
        let json = serde_json::to_string(&urn).unwrap();
        let back: Urn = serde_json::from_str(&json).unwrap();
        prop_assert!(back.eq_text(&urn));
        let key_json = serde_json::to_string(&urn.key()).unwrap();
        let key: UrnKey<'static> = serde_json::from_str(&key_json).unwrap();
        prop_assert_eq!(key, urn.key());
        let parts = serde_json::to_value(Wrapper(urn.clone())).unwrap();
        let back: Wrapper = serde_json::from_value(parts).unwrap();
        // The struct form has no scheme field: it is written back as `urn`, every other byte
        // is kept.
        prop_assert_eq!(&back.0, &urn);
        prop_assert_eq!(&back.0.as_str()[3..], &urn.as_str()[3..]);
        prop_assert_eq!(&back.0.as_str()[..3], "urn");
    }
}

#[derive(Serialize, Deserialize)]
struct Wrapper(#[serde(with = "urn_serde::parts")] Urn);

/// Every known namespace's typed alias is re-exported here: the list below names each alias
/// through this crate, and must cover urn-core's table.
#[test]
fn every_typed_alias_is_reexported() {
    fn nid<N: urn_serde::Namespace>(_: Option<NsUrn<N>>) -> &'static str {
        N::NID
    }
    // Each row of urn-core's namespace table names its alias under urn_serde.
    macro_rules! here {
        ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
            [$(nid(None::<urn_serde::$alias>)),*]
        };
    }
    let here = urn_core::known_namespaces!(here);
    let table: Vec<&str> = urn_core::KnownNamespace::ALL
        .iter()
        .map(|ns| ns.nid())
        .collect();
    assert_eq!(here.to_vec(), table);
}
