//! `urn:mpeg:` (RFC 3614): `standard ":" ...`, the standard name case-insensitive (section 4,
//! "Rules for Lexical Equivalence": `urn:mpeg:{standard name}:` is case-insensitive, the rest
//! case-sensitive). Section 2 makes the standard name any US-ASCII string of the URN syntax;
//! this crate takes letters, digits, `.`, `-` and `_` (`urn:mpeg:mpeg7:…`, `urn:mpeg:MPEG_7:…`).

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "mpeg",
    title: "MPEG",
    reference: "RFC 3614",
    syntax: "`standard:…`",
    rules: &[
        Rule {
            since: KeyRules::V1,
            summary: "the standard's name in lower case, names without `_` only",
            key: key_v1,
            // V1 keys the standard names of letters, digits, `.` and `-`.
            data: KeyRule::LowerBefore {
                sep: ':',
                when: "[A-Za-z0-9.-]+:",
            },
        },
        Rule {
            since: KeyRules::V2,
            summary: "the standard's name in lower case",
            key: key_v2,
            // V2 also those holding `_`.
            data: KeyRule::LowerBefore {
                sep: ':',
                when: "[A-Za-z0-9._-]+:",
            },
        },
    ],
    nss_pattern: concat!(
        "[A-Za-z0-9._-]+:",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*",
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &["urn:mpeg:mpeg7:schema:2001"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A standard's name (letters, digits, `-`, `.`, `_`) followed by `:`.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match standard(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// A standard name (letters, digits, `-`, `.`, `_`) followed by `:`. Returns the name's
/// length.
const fn standard(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let end = super::name_end(bytes, b"-._");
    if end == 0 {
        return Err(fault(0, "an mpeg name starts with the standard's name"));
    }
    if !matches!(chars::at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the standard's name"));
    }
    Ok(end)
}

/// [`KeyRules::V1`](crate::KeyRules::V1): `urn:mpeg:<standard>:` is case-insensitive, the
/// rest is not, for a standard name without `_`.
fn key_v1(nss: &str) -> Option<NssKey> {
    let end = standard(nss).ok()?;
    if nss.as_bytes().get(..end)?.contains(&b'_') {
        return None;
    }
    Some(NssKey::split(end, Fold::Lower, Fold::Keep))
}

/// [`KeyRules::V2`](crate::KeyRules::V2): the same for every standard name.
fn key_v2(nss: &str) -> Option<NssKey> {
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
            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_",
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
        assert_eq!(standard("MPEG_7:x"), Ok(6));
        assert_eq!(key_v1("MPEG_7:x"), None);
        assert_eq!(
            key_v2("MPEG_7:x"),
            Some(NssKey::split(6, Fold::Lower, Fold::Keep))
        );
    }
}
