//! utoipa (OpenAPI 3.1) `PartialSchema`/`ToSchema` for `Urn`, `UrnRef`, `UrnKey` and
//! `NsUrn<N>` (feature `utoipa`): the same string schema as the JSON Schema documents — format
//! `urn`, the `pattern` that accepts exactly what the parser accepts (the RFC 8141 key form for
//! `UrnKey`; the namespace's pattern, which may accept more, for typed fields), `maxLength`, a
//! description and examples.

use alloc::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::{PartialSchema, ToSchema};

use super::schema_text::{
    KEY_DESCRIPTION, KEY_EXAMPLES, URN_DESCRIPTION, URN_EXAMPLES, human_title, ns_description,
    ns_examples, ns_pattern, ns_schema_name,
};
use crate::{DEFAULT_MAX_LEN, Namespace, NsUrn, Urn, UrnKey, UrnRef, patterns};

/// A `string` schema with the URN format, pattern, length cap, description and examples.
fn string_schema(
    pattern: &str,
    description: &str,
    examples: &[&str],
    title: Option<alloc::string::String>,
) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::Custom("urn".into())))
        .pattern(Some(pattern))
        .max_length(Some(DEFAULT_MAX_LEN))
        .title(title)
        .description(Some(description))
        .examples(examples.to_vec())
        .into()
}

impl PartialSchema for Urn {
    fn schema() -> RefOr<Schema> {
        string_schema(patterns::URN, URN_DESCRIPTION, URN_EXAMPLES, None)
    }
}

impl ToSchema for Urn {
    fn name() -> Cow<'static, str> {
        "Urn".into()
    }
}

impl PartialSchema for UrnRef<'_> {
    fn schema() -> RefOr<Schema> {
        Urn::schema()
    }
}

impl ToSchema for UrnRef<'_> {
    fn name() -> Cow<'static, str> {
        Urn::name()
    }
}

impl PartialSchema for UrnKey<'_> {
    fn schema() -> RefOr<Schema> {
        string_schema(patterns::URN_KEY, KEY_DESCRIPTION, KEY_EXAMPLES, None)
    }
}

impl ToSchema for UrnKey<'_> {
    fn name() -> Cow<'static, str> {
        "UrnKey".into()
    }
}

impl<N: Namespace> PartialSchema for NsUrn<N> {
    fn schema() -> RefOr<Schema> {
        string_schema(
            &ns_pattern::<N>(),
            &ns_description(N::NID),
            ns_examples(N::NID),
            Some(human_title(N::NID)),
        )
    }
}

/// Named `IsbnUrn`, `AcmeSkuUrn`... in `components/schemas`.
impl<N: Namespace> ToSchema for NsUrn<N> {
    fn name() -> Cow<'static, str> {
        ns_schema_name(N::NID).into()
    }
}
