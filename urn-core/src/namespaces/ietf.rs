//! `urn:ietf:` (RFC 2648, with `params` from RFC 3553).

use super::{Fault, fault};
use crate::key::{Fold, KeyParts, Piece};

/// Which RFC 2648 form an NSS has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `rfc`, `fyi`, `std`, `bcp`, `id` or `mtg`: RFC 2648 makes the whole URN case-insensitive.
    Rfc2648,
    /// `params:...`: published in exact case by the protocols that register them (SCIM...).
    Params,
}

pub(crate) fn validate(nss: &str) -> Result<Form, Fault> {
    if let Some(at) = nss.bytes().position(|b| b == b'%') {
        return Err(fault(
            at,
            "percent-encoding is not allowed in ietf URNs (RFC 2648)",
        ));
    }
    let Some((sub, rest)) = nss.split_once(':') else {
        return Err(fault(
            nss.len(),
            "expected ':' after the ietf sub-namespace",
        ));
    };
    let start = sub.len() + 1;
    let body_ok = |ok: fn(u8) -> bool, what: &'static str| match rest.bytes().position(|b| !ok(b)) {
        _ if rest.is_empty() => Err(fault(start, what)),
        Some(at) => Err(fault(start + at, what)),
        None => Ok(Form::Rfc2648),
    };
    if ["rfc", "fyi", "std", "bcp"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(sub))
    {
        body_ok(|b| b.is_ascii_digit(), "expected a document number")
    } else if sub.eq_ignore_ascii_case("id") || sub.eq_ignore_ascii_case("mtg") {
        body_ok(
            |b| b.is_ascii_alphanumeric() || b == b'-',
            "expected letters, digits and '-'",
        )
    } else if sub.eq_ignore_ascii_case("params") {
        if rest.is_empty() {
            Err(fault(start, "expected a registry name after 'params:'"))
        } else {
            Ok(Form::Params)
        }
    } else {
        Err(fault(
            0,
            "unknown ietf sub-namespace (rfc, fyi, std, bcp, id, mtg or params)",
        ))
    }
}

/// RFC 2648 names are case-insensitive as a whole: the key is lower case.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    match validate(nss) {
        Ok(Form::Rfc2648) => parts.push(Piece::new(nss, Fold::Lower)).then_some(()),
        _ => None,
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
}
