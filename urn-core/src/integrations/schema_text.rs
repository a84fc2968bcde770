//! What the JSON Schema (schemars) and OpenAPI (utoipa) descriptions of the URN types say, in
//! one place so the two documents cannot drift apart.

use alloc::format;
use alloc::string::String;

use crate::{KnownNamespace, Namespace, patterns};

pub(crate) use super::type_name::ns_schema_name;

pub(crate) const URN_DESCRIPTION: &str = "A URN (RFC 8141), kept as written. Equivalent \
    spellings (case of 'urn' and the NID, case of %XX hex, r-/q-/f-components) name the same resource.";
pub(crate) const URN_EXAMPLES: &[&str] = &[
    "urn:isbn:0-395-36341-1",
    "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "urn:example:a%2Cb/c?=lang=en#part",
];

pub(crate) const KEY_DESCRIPTION: &str = "The canonical key of a URN (RFC 8141 section 3 \
    normalization plus namespace rules): lower-case 'urn' and NID, upper-case %XX hex, no \
    r-, q- or f-component.";
pub(crate) const KEY_EXAMPLES: &[&str] = &[
    "urn:isbn:0395363411",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
    "urn:example:a%2Cb/c",
];

/// The pattern for URNs of namespace `N`.
pub(crate) fn ns_pattern<N: Namespace>() -> String {
    patterns::namespace_urn(N::NID, N::NSS_PATTERN)
}

/// Example values for URNs of namespace `nid`: the known namespace's own; none for other
/// NIDs (nothing is known of their NSS).
pub(crate) fn ns_examples(nid: &str) -> &'static [&'static str] {
    KnownNamespace::from_nid(nid).map_or(&[], KnownNamespace::examples)
}

/// The description of URNs of namespace `nid`.
pub(crate) fn ns_description(nid: &str) -> String {
    format!("A URN in the \"{nid}\" namespace (NID matched in any case), kept as written.")
}

/// A title people read: `ISBN URN` for a known namespace (its own title), `acme-sku URN`.
pub(crate) fn human_title(nid: &str) -> String {
    match KnownNamespace::from_nid(nid) {
        Some(ns) => format!("{} URN", ns.title()),
        None => format!("{nid} URN"),
    }
}
