//! Real documents validated with the `jsonschema` crate against the generated schemas; a
//! schemars-derived struct embeds the right sub-schemas; the `schemas/` folder matches the code.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use schemars::JsonSchema;
use serde_json::{Value, json};
use urn_schema::urn_core::patterns;
use urn_schema::{IsbnUrn, Urn, UrnKey, UuidUrn};

#[derive(JsonSchema, serde::Deserialize)]
#[allow(dead_code)]
struct Record {
    id: Urn,
    key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
    owner: UuidUrn,
    see_also: Vec<Urn>,
    shelves: Vec<Vec<Urn>>,
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options().build(schema).unwrap()
}

fn record() -> Value {
    json!({
        "id": "URN:Example:a%2cb?+r?=q#f",
        "key": "urn:example:a%2Cb",
        "isbn": "urn:isbn:0-395-36341-1",
        "owner": "urn:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        "see_also": ["urn:ietf:rfc:8141"],
        "shelves": [["urn:nbn:de:1111-2004033116"], []]
    })
}

#[test]
fn derived_struct_schema_embeds_the_patterns() {
    let schema = serde_json::to_value(schemars::schema_for!(Record)).unwrap();
    let props = &schema["properties"];
    assert_eq!(props["id"]["pattern"], patterns::URN);
    assert_eq!(props["id"]["format"], "urn");
    assert_eq!(props["key"]["pattern"], patterns::URN_KEY);
    assert_eq!(
        props["owner"]["pattern"],
        patterns::namespace_urn(
            "uuid",
            urn_schema::urn_core::KnownNamespace::Uuid.nss_pattern()
        )
    );
    assert_eq!(props["see_also"]["items"]["pattern"], patterns::URN);
    assert_eq!(props["shelves"]["items"]["items"]["pattern"], patterns::URN);
    assert!(
        serde_json::to_string(&props["isbn"]).unwrap().contains(
            &serde_json::to_string(&patterns::namespace_urn(
                "isbn",
                urn_schema::urn_core::KnownNamespace::Isbn.nss_pattern()
            ))
            .unwrap()
        )
    );
}

#[test]
fn documents_validate_like_the_parser() {
    let schema = serde_json::to_value(schemars::schema_for!(Record)).unwrap();
    let v = validator(&schema);
    let good = record();
    assert!(
        v.is_valid(&good),
        "{:?}",
        v.iter_errors(&good)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    // The document also deserialises: schema and serde agree.
    serde_json::from_value::<Record>(good.clone()).unwrap();
    let bad_cases = [
        ("/id", json!("urn:x:a")),
        ("/id", json!("urn:example:a b")),
        ("/key", json!("URN:example:a")),
        ("/key", json!("urn:example:a%2c")),
        (
            "/isbn",
            json!("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"),
        ),
        ("/owner", json!("urn:uuid:f81d4fae")),
        ("/see_also/0", json!("urn:example:a?+r?=")),
        ("/shelves/0/0", json!("urn:ex:%zz")),
        ("/id", json!(42)),
    ];
    for (pointer, value) in bad_cases {
        let mut doc = good.clone();
        *doc.pointer_mut(pointer).unwrap() = value.clone();
        let errors: Vec<String> = v
            .iter_errors(&doc)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(!errors.is_empty(), "{pointer} = {value} was accepted");
        assert!(
            errors.iter().all(|e| e.ends_with(pointer)),
            "{pointer}: {errors:?}"
        );
        assert!(
            serde_json::from_value::<Record>(doc).is_err(),
            "serde accepted {pointer} = {value}"
        );
    }
}

#[test]
fn standalone_documents_and_the_urn_format() {
    let doc = urn_schema::urn_document();
    assert_eq!(doc["$schema"], urn_schema::DRAFT_2020_12);
    assert_eq!(doc["pattern"], patterns::URN);
    assert_eq!(doc["maxLength"], 65536);
    let v = validator(&doc);
    assert!(v.is_valid(&json!("urn:example:ok")));
    assert!(!v.is_valid(&json!("urn:example:")));
    assert!(!v.is_valid(&json!(format!("urn:example:{}", "a".repeat(65536)))));
    // The format can be backed by the parser itself.
    let strict = jsonschema::options()
        .should_validate_formats(true)
        .with_format("urn", |s: &str| Urn::parse(s).is_ok())
        .build(&doc)
        .unwrap();
    assert!(strict.is_valid(&json!("urn:ietf:rfc:2141")));
    let isbn = urn_schema::namespace_document("isbn").unwrap();
    let v = validator(&isbn);
    assert!(v.is_valid(&json!("URN:ISBN:978-0-395-36341-6")));
    assert!(!v.is_valid(&json!("urn:issn:1046-8188")));
    let key = validator(&urn_schema::key_document());
    assert!(key.is_valid(&json!("urn:isbn:0395363411")));
    assert!(!key.is_valid(&json!("urn:isbn:0395363411#f")));
}

#[test]
fn schemas_folder_matches_the_code() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let update = std::env::var("UPDATE_SCHEMAS").is_ok_and(|v| v == "1");
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let files = urn_schema::schema_files();
    assert_eq!(
        files.len(),
        2 + urn_schema::urn_core::KnownNamespace::ALL.len()
    );
    for (name, doc) in files {
        let path = dir.join(&name);
        let text = urn_schema::to_file_text(&doc);
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run bash .ci/bless)", path.display()));
        assert_eq!(on_disk, text, "{name} is stale: run bash .ci/bless");
        assert!(
            doc.get("pattern").is_some(),
            "{name}: the root carries the pattern"
        );
    }
}

/// A typed field's schema (the `JsonSchema` impl in urn-core) and the standalone document of
/// its namespace are the same document.
#[test]
fn typed_schemas_equal_namespace_documents() {
    use urn_schema::*;
    // Each row of urn-core's namespace table, through its typed alias.
    macro_rules! typed {
        ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
            [$((KnownNamespace::$variant.nid(), document_for::<$alias>())),*]
        };
    }
    let typed = urn_core::known_namespaces!(typed);
    let nids: Vec<&str> = typed.iter().map(|(nid, _)| *nid).collect();
    let table: Vec<&str> = KnownNamespace::ALL.iter().map(|ns| ns.nid()).collect();
    assert_eq!(nids, table, "one typed alias per known namespace");
    for (nid, doc) in typed {
        assert_eq!(namespace_document(nid).unwrap(), doc, "{nid}");
    }
}
