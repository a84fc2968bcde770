//! `urn:ogc:` (RFC 5165): `urn:ogc:<OGCresource>:<ResourceSpecificString>`, the names the Open
//! Geospatial Consortium gives its definitions (coordinate reference systems, units:
//! `urn:ogc:def:crs:EPSG::4326`), specifications, schemas and service types. The resource type
//! (`def`, `specification`, `serviceType`, `tc`, …) has no `:`; both parts are case-sensitive,
//! so the namespace has no equivalence rule beyond RFC 8141's.
//!
//! This module is the worked example of adding a namespace (see the recipe in
//! `namespaces/mod.rs`): one file, one row in the table, no key change.

use super::{Fault, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};

pub(crate) const SPEC: Spec = Spec {
    nid: "ogc",
    title: "OGC",
    reference: "RFC 5165",
    syntax: "`resource:string`",
    rules: &[],
    nss_pattern: concat!(
        "[A-Za-z0-9]+:",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})+",
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &[
        "urn:ogc:def:crs:EPSG::4326",
        "urn:ogc:specification:gml:doc-is(02-023r4):3.0.0",
    ],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A resource type (letters and digits), `:`, and a non-empty resource-specific string.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    let end = super::name_end(bytes, b"");
    if end == 0 {
        return Err(fault(
            0,
            "an ogc name starts with its resource type (def, specification, ...)",
        ));
    }
    if !matches!(chars::at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the resource type"));
    }
    if end + 1 == bytes.len() {
        return Err(fault(
            end + 1,
            "expected a resource-specific string after the resource type",
        ));
    }
    Ok(())
}

/// A resource type and a resource-specific string, such as a CRS definition.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    let resource = choices::pick(
        c,
        &["def", "specification", "serviceType", "tc", "dp"],
        "def",
    );
    out.push_str(resource);
    out.push(':');
    if c.one_in(2) {
        out.push_str("crs:EPSG::");
        out.push_str(&alloc::format!("{}", c.below(100_000)));
    } else {
        choices::push_pchars(out, c, 24, b":@", true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_type_then_string() {
        assert!(validate("def:crs:EPSG::4326").is_ok());
        assert!(validate("def:crs:OGC:1.3:CRS84").is_ok());
        assert!(validate("serviceType:CatalogueService:2.0.2:HTTP").is_ok());
        assert!(validate("specification:gml:doc-is(02-023r4):3.0.0").is_ok());
        assert_eq!(validate(":crs").unwrap_err().at, 0);
        assert_eq!(validate("def").unwrap_err().at, 3);
        assert_eq!(validate("def:").unwrap_err().at, 4);
        assert_eq!(validate("de-f:x").unwrap_err().at, 2);
    }
}
