//! async-graphql 7 scalars (feature `async-graphql`): `Urn` (scalar `Urn`), `UrnKey` (scalar
//! `UrnKey`) and `NsUrn<N>` (one scalar per namespace, named like the typed alias: `IsbnUrn`,
//! `AcmeSkuUrn`). Input coercion runs the parser, so an invalid value is a GraphQL error whose
//! message is the parser's (rule and byte); output is the URN as written (the key for
//! `UrnKey`). Each scalar's `specifiedByURL` is RFC 8141.
//!
//! The impls go through async-graphql's own `#[Scalar]` macro, so they follow whatever
//! features the application turns on for async-graphql (`boxed-trait` changes the traits).

use alloc::borrow::Cow;
use alloc::string::{String, ToString};

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, TypeName, Value};

use super::type_name::ns_schema_name;
use crate::{Namespace, NsUrn, Urn, UrnKey};

// `ScalarType::is_valid` keeps its default (accept): async-graphql's validation would answer
// an invalid literal with "Invalid value for argument" alone, where `parse` gives the
// parser's rule and byte.

/// The text of a GraphQL input value, or the "expected a string" error.
fn input_text<T: async_graphql::InputType>(value: Value) -> Result<String, InputValueError<T>> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(InputValueError::expected_type(other)),
    }
}

/// A URN (RFC 8141), kept as written. Equivalent spellings (case of `urn` and the NID, case of
/// %XX hex, r-/q-/f-components) name the same resource. An invalid value is refused with the
/// rule it breaks and the byte where it breaks it.
#[Scalar(
    name = "Urn",
    specified_by_url = "https://www.rfc-editor.org/rfc/rfc8141"
)]
impl ScalarType for Urn {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = input_text(value)?;
        Urn::from_string(text).map_err(InputValueError::custom)
    }

    fn to_value(&self) -> Value {
        Value::String(self.as_str().to_string())
    }
}

/// The canonical key of a URN (RFC 8141 section 3 normalization plus the namespace's own
/// rules): lower-case `urn` and NID, upper-case %XX hex, no r-, q- or f-component. Input must
/// already be a key.
#[Scalar(
    name = "UrnKey",
    specified_by_url = "https://www.rfc-editor.org/rfc/rfc8141"
)]
impl ScalarType for UrnKey<'_> {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = input_text(value)?;
        UrnKey::from_string(text).map_err(InputValueError::custom)
    }

    fn to_value(&self) -> Value {
        Value::String(self.as_str().to_string())
    }
}

/// The schema name (`IsbnUrn`), with a leading `_` when the NID begins with a digit
/// (`_3gppUrn`): GraphQL names cannot.
impl<N: Namespace + Send + Sync> TypeName for NsUrn<N> {
    fn type_name() -> Cow<'static, str> {
        let name = ns_schema_name(N::NID);
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            Cow::Owned(alloc::format!("_{name}"))
        } else {
            Cow::Owned(name)
        }
    }
}

/// A URN of one namespace, kept as written: the scalar's name says which (`IsbnUrn` for
/// `urn:isbn:`). A URN of another namespace, or one whose NSS breaks the namespace's rules
/// (an ISBN check digit), is refused with the reason and the byte.
#[Scalar(name_type, specified_by_url = "https://www.rfc-editor.org/rfc/rfc8141")]
impl<N: Namespace + Send + Sync> ScalarType for NsUrn<N> {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = input_text(value)?;
        NsUrn::parse(&text).map_err(InputValueError::custom)
    }

    fn to_value(&self) -> Value {
        Value::String(self.as_urn().as_str().to_string())
    }
}
