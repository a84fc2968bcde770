#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde_json::Value;
use urn_core::patterns;

// urn-core whole, and its prelude at the root: the same names in every sibling crate (the
// column, serde and schema impls of these types live in urn-core, behind the features this
// crate turns on).
pub use urn_core;
pub use urn_core::prelude::*;

#[cfg(feature = "validate")]
mod validate;
#[cfg(feature = "validate")]
pub use validate::{Problem, SchemaError, Validator};

/// The JSON Schema dialect of every document this crate emits.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A standalone draft 2020-12 document for type `T`, with `pattern` on the root itself (not
/// behind a `$ref`).
///
/// ```
/// let doc = urn_schema::document_for::<urn_schema::IsbnUrn>();
/// assert_eq!(doc["$schema"], urn_schema::DRAFT_2020_12);
/// assert_eq!(doc["format"], "urn");
/// assert!(doc["pattern"].as_str().unwrap().starts_with("^[Uu][Rr][Nn]:[Ii][Ss][Bb][Nn]:"));
/// ```
pub fn document_for<T: JsonSchema>() -> Value {
    let generator = SchemaGenerator::new(SchemaSettings::draft2020_12());
    generator.into_root_schema_for::<T>().to_value()
}

/// The document for any RFC 8141 URN (`schemas/urn.schema.json`).
pub fn urn_document() -> Value {
    document_for::<Urn>()
}

/// The document for a canonical key (`schemas/urn-key.schema.json`).
pub fn key_document() -> Value {
    document_for::<UrnKey<'static>>()
}

/// The document for URNs of one namespace: a known namespace ([`KnownNamespace`]) gets its
/// NSS pattern, title and examples (the same document as `document_for::<IsbnUrn>()`); any
/// other valid NID gets the generic NSS. `None` when `nid` is not a valid NID.
///
/// ```
/// let doc = urn_schema::namespace_document("ACME-sku").unwrap();
/// assert!(doc["pattern"].as_str().unwrap().starts_with("^[Uu][Rr][Nn]:[Aa][Cc][Mm][Ee]-[Ss][Kk][Uu]:("));
/// assert_eq!(doc["title"], "acme-sku URN");
/// assert_eq!(urn_schema::namespace_document("ISBN").unwrap()["title"], "ISBN URN");
/// assert!(urn_schema::namespace_document("x").is_none());
/// ```
pub fn namespace_document(nid: &str) -> Option<Value> {
    let lower = nid.to_ascii_lowercase();
    // Check the NID the way the parser does.
    Urn::parse(&format!("urn:{lower}:x")).ok()?;
    let known = KnownNamespace::from_nid(&lower);
    let (title, nss, examples) = match known {
        Some(ns) => (
            format!("{} URN", ns.title()),
            ns.nss_pattern(),
            ns.examples(),
        ),
        None => (format!("{lower} URN"), patterns::NSS, &[][..]),
    };
    let mut doc = document_for::<Urn>();
    let object = doc.as_object_mut()?;
    object.insert("title".into(), Value::from(title));
    object.insert(
        "pattern".into(),
        Value::from(patterns::namespace_urn(&lower, nss)),
    );
    object.insert(
        "description".into(),
        Value::from(format!(
            "A URN in the \"{lower}\" namespace (NID matched in any case), kept as written."
        )),
    );
    if examples.is_empty() {
        object.remove("examples");
    } else {
        object.insert("examples".into(), Value::from(examples.to_vec()));
    }
    Some(doc)
}

/// Every document of the `schemas/` folder, as `(file name, document)`: the URN, the key, and
/// one per known namespace.
pub fn schema_files() -> Vec<(String, Value)> {
    let mut out = vec![
        ("urn.schema.json".to_owned(), urn_document()),
        ("urn-key.schema.json".to_owned(), key_document()),
    ];
    for ns in KnownNamespace::ALL {
        if let Some(doc) = namespace_document(ns.nid()) {
            out.push((format!("urn-{}.schema.json", ns.nid()), doc));
        }
    }
    out
}

/// A document as the `schemas/` files hold it: keys sorted (the same output whether or not
/// serde_json's `preserve_order` is on somewhere in the build), pretty-printed, a final newline.
pub fn to_file_text(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(&sorted(doc)).unwrap_or_default();
    text.push('\n');
    text
}

/// `value` with every object's keys in sorted order.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
