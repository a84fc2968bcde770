//! `urn:example:` (RFC 6963): reserved for documentation and tests; any NSS.

use super::{Fault, Spec};
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices;

pub(crate) const SPEC: Spec = Spec {
    nid: "example",
    title: "Example",
    reference: "RFC 6963",
    syntax: "any NSS",
    rules: &[],
    nss_pattern: crate::patterns::NSS,
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &["urn:example:a%2Cb/c?=lang=en#part"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate: choices::generic_nss,
};

/// Every NSS is an example NSS.
pub(crate) const fn validate(_: &str) -> Result<(), Fault> {
    Ok(())
}
