//! schemars 1.x: JSON Schema for `Urn`, `UrnRef`, `UrnKey` and `NsUrn<N>` (feature `schemars`).
//!
//! Each is a string schema with `format: "urn"` (an annotation most validators ignore unless
//! told otherwise) plus a `pattern` from [`patterns`](crate::patterns) that accepts exactly
//! what the parser accepts (for `UrnKey`, the RFC 8141 key form
//! [`patterns::URN_KEY`](crate::patterns::URN_KEY); for `NsUrn<N>`, `N::NSS_PATTERN` as the
//! NSS, which may accept more), and `maxLength`. The schemas are inlined, so every field of a
//! derived struct carries its own `pattern` instead of a `$ref`.

use alloc::borrow::Cow;
use alloc::format;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use super::schema_text::{
    KEY_DESCRIPTION, KEY_EXAMPLES, URN_DESCRIPTION, URN_EXAMPLES, human_title, ns_description,
    ns_examples, ns_pattern, ns_schema_name,
};
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

impl<N: Namespace> JsonSchema for NsUrn<N> {
    fn inline_schema() -> bool {
        true
    }
    /// `IsbnUrn`, `AcmeSkuUrn` (a name for `$defs`).
    fn schema_name() -> Cow<'static, str> {
        ns_schema_name(N::NID).into()
    }
    fn schema_id() -> Cow<'static, str> {
        format!("urn_core::NsUrn<{}>", N::NID).into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut schema = string_schema(
            &ns_pattern::<N>(),
            &ns_description(N::NID),
            ns_examples(N::NID),
        );
        schema.insert("title".into(), Value::from(human_title(N::NID)));
        schema
    }
}
