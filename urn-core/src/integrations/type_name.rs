//! The name a typed-namespace URN type goes by in schemas (JSON Schema, OpenAPI, GraphQL), so
//! every document calls `NsUrn<Isbn>` the same thing.

use alloc::string::String;

/// A schema name for URNs of namespace `nid`: its `-`-separated parts capitalized, then `Urn`
/// (`IsbnUrn`, `AcmeSkuUrn`).
pub(crate) fn ns_schema_name(nid: &str) -> String {
    let mut name = String::new();
    for part in nid.split('-') {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.push_str(chars.as_str());
        }
    }
    name.push_str("Urn");
    name
}
