//! `urn:oid:` (RFC 3061): `number *("." number)`, no leading zeros.

use super::{Fault, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::Choices;

pub(crate) const SPEC: Spec = Spec {
    nid: "oid",
    title: "OID",
    reference: "RFC 3061",
    syntax: "dotted decimal",
    // RFC 3061 defines no equivalence beyond RFC 8141's.
    rules: &[],
    nss_pattern: "(0|[1-9][0-9]*)(\\.(0|[1-9][0-9]*))*",
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &["urn:oid:1.3.6.1.4.1.343"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// Dotted decimal: arcs of digits without leading zeros, none empty.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    let mut arc_start = 0;
    let bytes = nss.as_bytes();
    let mut i = 0;
    while let Some(b) = chars::at(bytes, i) {
        match b {
            b'.' if i == arc_start => return Err(fault(i, "an OID arc must not be empty")),
            b'.' => arc_start = i + 1,
            b'0'..=b'9'
                if i == arc_start + 1 && matches!(chars::at(bytes, arc_start), Some(b'0')) =>
            {
                return Err(fault(arc_start, "an OID arc has no leading zeros"));
            }
            b'0'..=b'9' => {}
            _ => return Err(fault(i, "an OID is digits separated by '.'")),
        }
        i += 1;
    }
    if arc_start == nss.len() {
        return Err(fault(nss.len(), "an OID arc must not be empty"));
    }
    Ok(())
}

/// Arcs of small and large numbers.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    use core::fmt::Write;
    for i in 0..=c.below(6) {
        if i > 0 {
            out.push('.');
        }
        let _ = match c.below(3) {
            0 => write!(out, "{}", c.below(40)),
            _ => write!(out, "{}", c.below(1_000_000)),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_decimal() {
        assert!(validate("1.3.6.1.4.1").is_ok());
        assert!(validate("0.9.2342.19200300.100.4").is_ok());
        assert!(validate("0").is_ok());
        assert_eq!(validate("1.3.6.01").unwrap_err().at, 6);
        assert_eq!(validate("1..3").unwrap_err().at, 2);
        assert_eq!(validate("1.3.").unwrap_err().at, 4);
        assert_eq!(validate("").unwrap_err().at, 0);
        assert_eq!(validate("1.a").unwrap_err().at, 2);
    }
}
