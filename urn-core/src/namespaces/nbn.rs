//! `urn:nbn:` (RFC 8458 section 4): `prefix "-" nbn-string`,
//! `prefix = iso-cc *(":" subspc)`, the prefix case-insensitive.

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "nbn",
    title: "NBN",
    reference: "RFC 8458",
    syntax: "`cc[:sub]*-string`",
    rules: &[RULE],
    nss_pattern: concat!(
        "[A-Za-z]{2}(:[A-Za-z0-9]+)*-",
        "([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*",
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &["urn:nbn:fi-fe201003181510", "urn:nbn:se:uu:diva-3475"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The equivalence rule (the same in [`KeyRules::V1`](crate::KeyRules::V1) and
/// [`KeyRules::V2`](crate::KeyRules::V2)).
const RULE: Rule = Rule {
    since: KeyRules::V1,
    summary: "the prefix in lower case",
    key,
    // The country code and sub-namespaces before the first '-' are case-insensitive.
    data: KeyRule::LowerBefore {
        sep: '-',
        when: "[A-Za-z][A-Za-z](?::[A-Za-z0-9]+)*-[^/]",
    },
};

/// A country code, sub-namespaces, `-` and a non-empty NBN string.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match prefix(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks an NBN; returns the length of the prefix including its `-`.
const fn prefix(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let mut i = 0;
    while i < 2 {
        match chars::at(bytes, i) {
            Some(b) if b.is_ascii_alphabetic() => i += 1,
            _ => return Err(fault(i, "an NBN starts with a two-letter country code")),
        }
    }
    loop {
        match chars::at(bytes, i) {
            Some(b'-') => break,
            Some(b':') => {
                let start = i + 1;
                i = start;
                while let Some(b) = chars::at(bytes, i) {
                    if !b.is_ascii_alphanumeric() {
                        break;
                    }
                    i += 1;
                }
                if i == start {
                    return Err(fault(i, "an NBN sub-namespace is letters and digits"));
                }
            }
            _ => return Err(fault(i, "expected '-' or ':' in the NBN prefix")),
        }
    }
    match chars::at(bytes, i + 1) {
        None => Err(fault(i + 1, "the NBN string after '-' is empty")),
        Some(b'/') => Err(fault(i + 1, "the NBN string cannot start with '/'")),
        Some(_) => Ok(i + 1),
    }
}

/// The prefix is case-insensitive, the NBN string is not.
fn key(nss: &str) -> Option<NssKey> {
    let split = prefix(nss).ok()?;
    Some(NssKey::split(split, Fold::Lower, Fold::Keep))
}

/// A country code, sub-namespaces, `-` and an NBN string.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    choices::push_from(out, c, choices::LETTERS);
    choices::push_from(out, c, choices::LETTERS);
    for _ in 0..c.below(3) {
        out.push(':');
        for _ in 0..=c.below(6) {
            choices::push_from(out, c, choices::ALNUM);
        }
    }
    out.push('-');
    choices::push_pchars(out, c, 16, b":@-", true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn country_code_and_sub_namespaces() {
        assert_eq!(prefix("fi-fe201003181510"), Ok(3));
        assert_eq!(prefix("se:uu:diva-3475"), Ok(11));
        assert_eq!(prefix("ch:bel-9039"), Ok(7));
        assert_eq!(prefix("f-1").unwrap_err().at, 1);
        assert_eq!(prefix("fi").unwrap_err().at, 2);
        assert_eq!(prefix("fi-").unwrap_err().at, 3);
        assert_eq!(prefix("fi:-x").unwrap_err().at, 3);
        assert_eq!(prefix("fi-/x").unwrap_err().at, 3);
    }
}
