#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde_json::Value;

/// urn-core's types (with their `JsonSchema` impls) and patterns, so `urn_schema::Urn` is the
/// one `Urn` type.
pub use urn_core::*;

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

/// The document for URNs of one namespace: a built-in typed namespace (`uuid`, `isbn`,
/// `issn`, `oid`, `ietf`, `example`) gets its NSS pattern; any other valid NID gets the generic
/// NSS. `None` when `nid` is not a valid NID.
///
/// ```
/// let doc = urn_schema::namespace_document("ACME-sku").unwrap();
/// assert!(doc["pattern"].as_str().unwrap().starts_with("^[Uu][Rr][Nn]:[Aa][Cc][Mm][Ee]-[Ss][Kk][Uu]:("));
/// assert!(urn_schema::namespace_document("x").is_none());
/// ```
pub fn namespace_document(nid: &str) -> Option<Value> {
    let lower = nid.to_ascii_lowercase();
    match lower.as_str() {
        "uuid" => Some(document_for::<NsUrn<ns::Uuid>>()),
        "isbn" => Some(document_for::<NsUrn<ns::Isbn>>()),
        "issn" => Some(document_for::<NsUrn<ns::Issn>>()),
        "oid" => Some(document_for::<NsUrn<ns::Oid>>()),
        "ietf" => Some(document_for::<NsUrn<ns::Ietf>>()),
        "example" => Some(document_for::<NsUrn<ns::Example>>()),
        _ => {
            // Any other NID: check it the way the parser does, then use the generic NSS.
            Urn::parse(&format!("urn:{lower}:x")).ok()?;
            let mut doc = document_for::<Urn>();
            let object = doc.as_object_mut()?;
            object.insert("title".into(), Value::from(format!("{lower} URN")));
            object.insert(
                "pattern".into(),
                Value::from(patterns::namespace_urn(&lower, patterns::NSS)),
            );
            object.insert(
                "description".into(),
                Value::from(format!(
                    "A URN in the \"{lower}\" namespace (NID matched in any case), kept as written."
                )),
            );
            object.remove("examples");
            Some(doc)
        }
    }
}

/// The namespaces with a document in `schemas/`.
pub const BUILTIN_NAMESPACES: &[&str] = &["uuid", "isbn", "issn", "oid", "ietf", "example"];

/// Every document of the `schemas/` folder, as `(file name, document)`.
pub fn schema_files() -> Vec<(String, Value)> {
    let mut out = vec![
        ("urn.schema.json".to_owned(), urn_document()),
        ("urn-key.schema.json".to_owned(), key_document()),
    ];
    for nid in BUILTIN_NAMESPACES {
        if let Some(doc) = namespace_document(nid) {
            out.push((format!("urn-{nid}.schema.json"), doc));
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
