//! `urn:ietf:` (RFC 2648, with `params` from RFC 3553).

use super::{Fault, Spec, fault};
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "ietf",
    title: "IETF",
    reference: "RFC 2648, RFC 3553",
    validate: |nss| validate(nss).map(drop),
    v1_key: Some(key),
    // RFC 2648 forms are case-insensitive as a whole; `params:` names keep their case.
    v1_rule: Some(KeyRule::Lower {
        when: concat!(
            "(?:(?:[Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+",
            "|(?:[Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+)$",
        ),
    }),
    nss_pattern: concat!(
        "([Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+",
        "|([Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+",
        "|[Pp][Aa][Rr][Aa][Mm][Ss]:[A-Za-z0-9._~!$&'()*+,;=@/-]+(:[A-Za-z0-9._~!$&'()*+,;=@/-]+)*",
    ),
    pattern_is_exact: true,
    examples: &[
        "urn:ietf:rfc:8141",
        "urn:ietf:params:scim:schemas:core:2.0:User",
    ],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// Which RFC 2648 form an NSS has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `rfc`, `fyi`, `std`, `bcp`, `id` or `mtg`: RFC 2648 makes the whole URN case-insensitive.
    Rfc2648,
    /// `params:...`: published in exact case by the protocols that register them (SCIM...).
    Params,
}

fn validate(nss: &str) -> Result<Form, Fault> {
    let Some((sub, rest)) = nss.split_once(':') else {
        return Err(match nss.bytes().position(|b| b == b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(nss.len(), "expected ':' after the ietf sub-namespace"),
        });
    };
    let start = sub.len() + 1;
    let is = |name: &str| sub.eq_ignore_ascii_case(name);
    match sub.len() {
        3 if is("rfc") || is("fyi") || is("std") || is("bcp") => body(
            rest,
            start,
            |b| b.is_ascii_digit(),
            "expected a document number",
        ),
        2 | 3 if is("id") || is("mtg") => body(
            rest,
            start,
            |b| b.is_ascii_alphanumeric() || b == b'-',
            "expected letters, digits and '-'",
        ),
        6 if is("params") => params(rest, start),
        _ => Err(match sub.bytes().position(|b| b == b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(
                0,
                "unknown ietf sub-namespace (rfc, fyi, std, bcp, id, mtg or params)",
            ),
        }),
    }
}

/// Checks the part after `rfc:`, `id:`... (starting at byte `start` of the NSS): every byte
/// `ok`, at least one.
#[inline]
fn body(
    rest: &str,
    start: usize,
    ok: impl Fn(u8) -> bool,
    what: &'static str,
) -> Result<Form, Fault> {
    match rest.bytes().position(|b| !ok(b)) {
        _ if rest.is_empty() => Err(fault(start, what)),
        Some(at) if rest.as_bytes().get(at) == Some(&b'%') => Err(fault(start + at, NO_PERCENT)),
        Some(at) => Err(fault(start + at, what)),
        None => Ok(Form::Rfc2648),
    }
}

/// Checks the part after `params:` (starting at byte `start` of the NSS): RFC 3553 section 3
/// names a registered parameter class, then the class's own names, each `:`-separated part a
/// name, so no part is empty (`params:dns:` and `params:dns::soa` are not names). One pass;
/// the first problem in the text is the one reported.
fn params(rest: &str, start: usize) -> Result<Form, Fault> {
    let empty = |at: usize, first: bool| {
        Err(fault(
            start + at,
            if first {
                "expected a registry name after 'params:'"
            } else {
                "expected a name after ':' (RFC 3553)"
            },
        ))
    };
    let mut part = 0;
    for (i, &b) in rest.as_bytes().iter().enumerate() {
        match b {
            b'%' => return Err(fault(start + i, NO_PERCENT)),
            b':' if i == part => return empty(i, part == 0),
            b':' => part = i + 1,
            _ => {}
        }
    }
    if part == rest.len() {
        return empty(part, part == 0);
    }
    Ok(Form::Params)
}

const NO_PERCENT: &str = "percent-encoding is not allowed in ietf URNs (RFC 2648)";

/// RFC 2648 names are case-insensitive as a whole: the key is lower case. `params:` names
/// keep their case (the generic rule): the registries under them publish exact case.
#[inline]
fn key(nss: &str) -> Option<NssKey> {
    match validate(nss) {
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
        assert_eq!(validate("rfc:2141"), Ok(Form::Rfc2648));
        assert_eq!(validate("RFC:2141"), Ok(Form::Rfc2648));
        assert_eq!(validate("id:ietf-urn-ietf-06"), Ok(Form::Rfc2648));
        assert_eq!(validate("mtg:41-urn"), Ok(Form::Rfc2648));
        assert_eq!(
            validate("params:scim:schemas:core:2.0:User"),
            Ok(Form::Params)
        );
        assert_eq!(validate("rfc:21a1").unwrap_err().at, 6);
        assert_eq!(validate("rfc:").unwrap_err().at, 4);
        assert_eq!(validate("rfc").unwrap_err().at, 3);
        assert_eq!(validate("foo:1").unwrap_err().at, 0);
        assert_eq!(validate("id:a%20b").unwrap_err().at, 4);
    }

    /// RFC 3553 section 3: a name on both sides of every `:` after `params:`.
    #[test]
    fn params_names_are_never_empty() {
        assert_eq!(validate("params:dns"), Ok(Form::Params));
        assert_eq!(validate("params:xml:ns:yang:1"), Ok(Form::Params));
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
        assert_eq!(validate("params:a%3Ab").unwrap_err().reason, NO_PERCENT);
    }
}
