//! `urn:ietf:` (RFC 2648, with `params` from RFC 3553).

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "ietf",
    title: "IETF",
    reference: "RFC 2648, RFC 3553",
    syntax: "`rfc:N`, `id:name`, …, `params:…`",
    rules: &[RULE],
    nss_pattern: concat!(
        "([Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+",
        "|([Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+",
        "|[Pp][Aa][Rr][Aa][Mm][Ss]:[A-Za-z0-9._~!$&'()*+,;=@/-]+(:[A-Za-z0-9._~!$&'()*+,;=@/-]+)*",
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &[
        "urn:ietf:rfc:8141",
        "urn:ietf:params:scim:schemas:core:2.0:User",
    ],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The equivalence rule, the same in [`KeyRules::V1`](crate::KeyRules::V1) and
/// [`KeyRules::V2`](crate::KeyRules::V2): RFC 2648 forms are case-insensitive as a whole
/// (RFC 2648, "Rules for Lexical Equivalence"); `params:` names keep their case, in V2 too:
/// RFC 3553 section 3 compares them "by exact string match according to the rules for URN
/// syntax found in RFC 2141", and no registry under `params:` (`xml`, RFC 3688; `oauth`,
/// RFC 6755; `scim`, RFC 7643; …) defines another equivalence for its URNs. (RFC 7644
/// section 3.10 has a SCIM service match attribute names, URN part included, in any case:
/// that is how SCIM reads requests, not when two URNs name one thing; kept case-sensitive.)
const RULE: Rule = Rule {
    since: KeyRules::V1,
    summary: "RFC 2648 names in lower case; `params:` names as written (RFC 3553 §3)",
    key,
    data: KeyRule::Lower {
        when: concat!(
            "(?:(?:[Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+",
            "|(?:[Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+)$",
        ),
    },
};

/// Which RFC 2648 form an NSS has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `rfc`, `fyi`, `std`, `bcp`, `id` or `mtg`: RFC 2648 makes the whole URN case-insensitive.
    Rfc2648,
    /// `params:...`: published in exact case by the protocols that register them (SCIM...).
    Params,
}

/// An RFC 2648 form or a `params:` name.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match form(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// The first index of `b` in `bytes` at or after `from`, if any.
const fn find(bytes: &[u8], from: usize, b: u8) -> Option<usize> {
    let mut i = from;
    while let Some(c) = chars::at(bytes, i) {
        if c == b {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Which form `nss` has, or where and why it has none.
const fn form(nss: &str) -> Result<Form, Fault> {
    let bytes = nss.as_bytes();
    let Some(colon) = find(bytes, 0, b':') else {
        return Err(match find(bytes, 0, b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(nss.len(), "expected ':' after the ietf sub-namespace"),
        });
    };
    let sub = chars::slice(bytes, 0, colon);
    let start = colon + 1;
    let rest = chars::slice(bytes, start, bytes.len());
    if sub.eq_ignore_ascii_case(b"rfc")
        || sub.eq_ignore_ascii_case(b"fyi")
        || sub.eq_ignore_ascii_case(b"std")
        || sub.eq_ignore_ascii_case(b"bcp")
    {
        body(rest, start, false, "expected a document number")
    } else if sub.eq_ignore_ascii_case(b"id") || sub.eq_ignore_ascii_case(b"mtg") {
        body(rest, start, true, "expected letters, digits and '-'")
    } else if sub.eq_ignore_ascii_case(b"params") {
        params(rest, start)
    } else {
        Err(match find(sub, 0, b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(
                0,
                "unknown ietf sub-namespace (rfc, fyi, std, bcp, id, mtg or params)",
            ),
        })
    }
}

/// Checks the part after `rfc:`, `id:`... (starting at byte `start` of the NSS): every byte a
/// digit, or with `names` a letter, digit or `-`; at least one.
#[inline]
const fn body(rest: &[u8], start: usize, names: bool, what: &'static str) -> Result<Form, Fault> {
    if rest.is_empty() {
        return Err(fault(start, what));
    }
    let mut at = 0;
    while let Some(b) = chars::at(rest, at) {
        let ok = if names {
            b.is_ascii_alphanumeric() || b == b'-'
        } else {
            b.is_ascii_digit()
        };
        if !ok {
            return Err(fault(start + at, if b == b'%' { NO_PERCENT } else { what }));
        }
        at += 1;
    }
    Ok(Form::Rfc2648)
}

/// Checks the part after `params:` (starting at byte `start` of the NSS): RFC 3553 section 3
/// names a registered parameter class, then the class's own names, each `:`-separated part a
/// name, so no part is empty (`params:dns:` and `params:dns::soa` are not names). One pass;
/// the first problem in the text is the one reported.
const fn params(rest: &[u8], start: usize) -> Result<Form, Fault> {
    const fn empty(at: usize, first: bool) -> Fault {
        fault(
            at,
            if first {
                "expected a registry name after 'params:'"
            } else {
                "expected a name after ':' (RFC 3553)"
            },
        )
    }
    let mut part = 0;
    let mut i = 0;
    while let Some(b) = chars::at(rest, i) {
        match b {
            b'%' => return Err(fault(start + i, NO_PERCENT)),
            b':' if i == part => return Err(empty(start + i, part == 0)),
            b':' => part = i + 1,
            _ => {}
        }
        i += 1;
    }
    if part == rest.len() {
        return Err(empty(start + part, part == 0));
    }
    Ok(Form::Params)
}

const NO_PERCENT: &str = "percent-encoding is not allowed in ietf URNs (RFC 2648)";

/// RFC 2648 names are case-insensitive as a whole: the key is lower case. `params:` names
/// keep their case (the generic rule): the registries under them publish exact case.
#[inline]
fn key(nss: &str) -> Option<NssKey> {
    match form(nss) {
        Ok(Form::Rfc2648) => Some(NssKey::whole(Fold::Lower)),
        Ok(Form::Params) | Err(_) => None,
    }
}

/// Each form: a numbered document, a draft or meeting name, or a `params:` registry path.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    use core::fmt::Write;
    match c.below(3) {
        0 => {
            let sub = choices::pick(c, &["rfc", "fyi", "std", "bcp"], "rfc");
            choices::push_any_case(out, c, sub);
            let _ = write!(out, ":{}", 1 + c.below(9999));
        }
        1 => {
            let sub = choices::pick(c, &["id", "mtg"], "id");
            choices::push_any_case(out, c, sub);
            out.push(':');
            for _ in 0..=c.below(20) {
                if c.one_in(8) {
                    out.push('-');
                } else {
                    choices::push_from(out, c, choices::ALNUM);
                }
            }
        }
        _ => {
            choices::push_any_case(out, c, "params");
            for _ in 0..=c.below(4) {
                out.push(':');
                for _ in 0..=c.below(12) {
                    choices::push_from(out, c, choices::PLAIN);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(form("rfc:2141"), Ok(Form::Rfc2648));
        assert_eq!(form("RFC:2141"), Ok(Form::Rfc2648));
        assert_eq!(form("id:ietf-urn-ietf-06"), Ok(Form::Rfc2648));
        assert_eq!(form("mtg:41-urn"), Ok(Form::Rfc2648));
        assert_eq!(form("params:scim:schemas:core:2.0:User"), Ok(Form::Params));
        assert_eq!(form("rfc:21a1").unwrap_err().at, 6);
        assert_eq!(form("rfc:").unwrap_err().at, 4);
        assert_eq!(form("rfc").unwrap_err().at, 3);
        assert_eq!(form("foo:1").unwrap_err().at, 0);
        assert_eq!(form("id:a%20b").unwrap_err().at, 4);
    }

    /// RFC 3553 section 3: a name on both sides of every `:` after `params:`.
    #[test]
    fn params_names_are_never_empty() {
        assert_eq!(form("params:dns"), Ok(Form::Params));
        assert_eq!(form("params:xml:ns:yang:1"), Ok(Form::Params));
        for (nss, at) in [
            ("params:", 7),
            ("params::soa", 7),
            ("params:dns:", 11),
            ("params:dns::soa", 11),
            ("params:a:b:", 11),
        ] {
            assert_eq!(validate(nss).unwrap_err().at, at, "{nss}");
        }
        assert_eq!(
            validate("params:dns:").unwrap_err().reason,
            "expected a name after ':' (RFC 3553)"
        );
        assert_eq!(form("params:a%3Ab").unwrap_err().reason, NO_PERCENT);
    }
}
