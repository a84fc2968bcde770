//! `urn:mpeg:` (RFC 3614): `standard ":" ...`, the standard name case-insensitive.

use super::{Fault, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "mpeg",
    title: "MPEG",
    reference: "RFC 3614",
    v1_key: Some(key),
    // The standard's name before the first ':' is case-insensitive.
    v1_rule: Some(KeyRule::LowerBefore {
        sep: ':',
        when: "[A-Za-z0-9.-]+:",
    }),
    nss_pattern: concat!(
        "[A-Za-z0-9.-]+:",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*",
    ),
    pattern_is_exact: true,
    examples: &["urn:mpeg:mpeg7:schema:2001"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A standard's name (letters, digits, `-`, `.`) followed by `:`.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match standard(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// A standard name (letters, digits, `-`, `.`) followed by `:`. Returns the name's length.
const fn standard(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let end = super::name_end(bytes, b"-.");
    if end == 0 {
        return Err(fault(0, "an mpeg name starts with the standard's name"));
    }
    if !matches!(chars::at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the standard's name"));
    }
    Ok(end)
}

/// `urn:mpeg:<standard>:` is case-insensitive, the rest is not.
fn key(nss: &str) -> Option<NssKey> {
    let end = standard(nss).ok()?;
    Some(NssKey::split(end, Fold::Lower, Fold::Keep))
}

/// A standard's name, `:` and (mostly) more.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    for _ in 0..=c.below(8) {
        choices::push_from(
            out,
            c,
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-",
        );
    }
    out.push(':');
    if !c.one_in(4) {
        choices::push_pchars(out, c, 16, b":@", true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_name() {
        assert_eq!(standard("mpeg7:schema:2001"), Ok(5));
        assert_eq!(standard("MPEG7:cs:VideoDomainCS:2001"), Ok(5));
        assert_eq!(standard("mpeg7").unwrap_err().at, 5);
        assert_eq!(standard(":x").unwrap_err().at, 0);
    }
}
