//! schemars 1.x: JSON Schema for `Urn`, `UrnRef`, `UrnKey` and `NsUrn<N>` (feature `schemars`).
//!
//! Each is a string schema with `format: "urn"` (an annotation most validators ignore unless
//! told otherwise) plus a `pattern` from [`patterns`](crate::patterns) that accepts exactly
//! what the parser accepts, and `maxLength`. The schemas are inlined, so every field of a
//! derived struct carries its own `pattern` instead of a `$ref`.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::{DEFAULT_MAX_LEN, Namespace, NsUrn, Urn, UrnKey, UrnRef, patterns};

/// A `type: string` schema with the URN format, `pattern`, length cap, description, examples.
pub(crate) fn string_schema(pattern: &str, description: &str, examples: &[&str]) -> Schema {
    let mut map = Map::new();
    map.insert("type".into(), json!("string"));
    map.insert("format".into(), json!("urn"));
    map.insert("pattern".into(), json!(pattern));
    map.insert("maxLength".into(), json!(DEFAULT_MAX_LEN));
    map.insert("description".into(), json!(description));
    if !examples.is_empty() {
        map.insert("examples".into(), Value::from(examples.to_vec()));
    }
    Schema::from(map)
}

pub(crate) const URN_DESCRIPTION: &str = "A URN (RFC 8141), kept as written. Equivalent \
    spellings (case of 'urn' and the NID, case of %XX hex, r-/q-/f-components) name the same resource.";
const URN_EXAMPLES: &[&str] = &[
    "urn:isbn:0-395-36341-1",
    "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "urn:example:a%2Cb/c?=lang=en#part",
];

pub(crate) const KEY_DESCRIPTION: &str = "The canonical key of a URN (RFC 8141 section 3 \
    normalization plus namespace rules): lower-case 'urn' and NID, upper-case %XX hex, no \
    r-, q- or f-component.";
const KEY_EXAMPLES: &[&str] = &[
    "urn:isbn:0395363411",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "urn:example:a%2Cb/c",
];

impl JsonSchema for Urn {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Urn".into()
    }
    fn schema_id() -> Cow<'static, str> {
        "urn_core::Urn".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string_schema(patterns::URN, URN_DESCRIPTION, URN_EXAMPLES)
    }
}

impl JsonSchema for UrnRef<'_> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        Urn::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        Urn::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        Urn::json_schema(generator)
    }
}

impl JsonSchema for UrnKey<'_> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "UrnKey".into()
    }
    fn schema_id() -> Cow<'static, str> {
        "urn_core::UrnKey".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        string_schema(patterns::URN_KEY, KEY_DESCRIPTION, KEY_EXAMPLES)
    }
}

/// The pattern for URNs of namespace `N`.
pub(crate) fn ns_pattern<N: Namespace>() -> String {
    patterns::namespace_urn(N::NID, N::NSS_PATTERN)
}

impl<N: Namespace> JsonSchema for NsUrn<N> {
    fn inline_schema() -> bool {
        true
    }
    /// `IsbnUrn`, `AcmeSkuUrn`: the NID's parts capitalized (a name for `$defs`).
    fn schema_name() -> Cow<'static, str> {
        let mut name = String::new();
        for part in N::NID.split('-') {
            let mut chars = part.chars();
            if let Some(first) = chars.next() {
                name.push(first.to_ascii_uppercase());
                name.push_str(chars.as_str());
            }
        }
        name.push_str("Urn");
        name.into()
    }
    fn schema_id() -> Cow<'static, str> {
        format!("urn_core::NsUrn<{}>", N::NID).into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let description = format!(
            "A URN in the \"{}\" namespace (NID matched in any case), kept as written.",
            N::NID
        );
        let mut schema = string_schema(&ns_pattern::<N>(), &description, &[]);
        schema.insert("title".into(), Value::from(human_title(N::NID)));
        schema
    }
}

/// A title people read: `ISBN URN`, `acme-sku URN`.
fn human_title(nid: &str) -> String {
    let name = match nid.to_ascii_lowercase().as_str() {
        "uuid" | "isbn" | "issn" | "oid" | "ietf" | "nbn" | "mpeg" => nid.to_ascii_uppercase(),
        "example" => String::from("Example"),
        _ => String::from(nid),
    };
    format!("{name} URN")
}
