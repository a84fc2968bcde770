//! Namespace-specific rules: NSS syntax of the well-known namespaces and the equivalence
//! rules their registrations define (see [`KeyRules::V1`](crate::KeyRules::V1)).
//!
//! Each namespace module offers `validate(nss)` and, where the registration defines extra
//! equivalence, `key(nss, parts)`, which appends the NSS part of the key and applies only to
//! an NSS that `validate` accepts (otherwise the generic RFC 8141 key stands).

use core::fmt;

use crate::key_parts::{KeyParts, generic_key, nss_eq_generic};
use crate::key_text::{KeyBuf, KeyText};

mod ietf;
mod isbn;
mod issn;
mod lex;
mod mpeg;
mod nbn;
mod oid;
mod uuid;

/// Where an NSS breaks its namespace's syntax: a byte offset into the NSS and a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) at: usize,
    pub(crate) reason: &'static str,
}

pub(crate) const fn fault(at: usize, reason: &'static str) -> Fault {
    Fault { at, reason }
}

/// A namespace whose NSS syntax this crate knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum KnownNamespace {
    /// `urn:uuid:` (RFC 9562): 8-4-4-4-12 hex digits, case-insensitive.
    Uuid,
    /// `urn:isbn:` (RFC 3187 and the ISBN Agency template): ISBN-10 or ISBN-13 with a valid
    /// check digit, hyphens optional and not significant.
    Isbn,
    /// `urn:issn:` (RFC 3044 and the ISSN Centre template): `NNNN-NNNC` with a valid check
    /// character, the hyphen optional.
    Issn,
    /// `urn:ietf:` (RFC 2648): `rfc:N`, `fyi:N`, `std:N`, `bcp:N`, `id:name`, `mtg:name`,
    /// and `params:...` (RFC 3553); no percent-encoding.
    Ietf,
    /// `urn:oid:` (RFC 3061): dotted decimal without leading zeros.
    Oid,
    /// `urn:nbn:` (RFC 8458): `cc[:sub]*-string`.
    Nbn,
    /// `urn:lex:` (RFC 9676): `jurisdiction:...`, case-insensitive.
    Lex,
    /// `urn:mpeg:` (RFC 3614): `standard:...`, the standard name case-insensitive.
    Mpeg,
    /// `urn:example:` (RFC 6963): any NSS; for documentation and tests only.
    Example,
}

impl KnownNamespace {
    /// Every known namespace.
    pub const ALL: [KnownNamespace; 9] = [
        KnownNamespace::Uuid,
        KnownNamespace::Isbn,
        KnownNamespace::Issn,
        KnownNamespace::Ietf,
        KnownNamespace::Oid,
        KnownNamespace::Nbn,
        KnownNamespace::Lex,
        KnownNamespace::Mpeg,
        KnownNamespace::Example,
    ];

    /// The namespace of a NID (compared case-insensitively).
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert_eq!(KnownNamespace::from_nid("ISBN"), Some(KnownNamespace::Isbn));
    /// assert_eq!(KnownNamespace::from_nid("ngsi-ld"), None);
    /// ```
    pub fn from_nid(nid: &str) -> Option<Self> {
        KnownNamespace::ALL
            .into_iter()
            .find(|ns| ns.nid().eq_ignore_ascii_case(nid))
    }

    /// The lower-case NID.
    pub const fn nid(self) -> &'static str {
        match self {
            KnownNamespace::Uuid => "uuid",
            KnownNamespace::Isbn => "isbn",
            KnownNamespace::Issn => "issn",
            KnownNamespace::Ietf => "ietf",
            KnownNamespace::Oid => "oid",
            KnownNamespace::Nbn => "nbn",
            KnownNamespace::Lex => "lex",
            KnownNamespace::Mpeg => "mpeg",
            KnownNamespace::Example => "example",
        }
    }

    /// Checks an NSS against this namespace's syntax. Offsets in the error count from the
    /// start of the NSS.
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert!(KnownNamespace::Issn.validate_nss("0317-8471").is_ok());
    /// let err = KnownNamespace::Issn.validate_nss("0317-8472").unwrap_err();
    /// assert_eq!(err.offset(), 8);
    /// assert_eq!(err.to_string(), "invalid issn URN: the check character does not match (byte 8)");
    /// ```
    pub fn validate_nss(self, nss: &str) -> Result<(), NamespaceError> {
        let result = match self {
            KnownNamespace::Uuid => uuid::validate(nss),
            KnownNamespace::Isbn => isbn::validate(nss).map(|_| ()),
            KnownNamespace::Issn => issn::validate(nss),
            KnownNamespace::Ietf => ietf::validate(nss).map(|_| ()),
            KnownNamespace::Oid => oid::validate(nss),
            KnownNamespace::Nbn => nbn::validate(nss).map(|_| ()),
            KnownNamespace::Lex => lex::validate(nss),
            KnownNamespace::Mpeg => mpeg::validate(nss).map(|_| ()),
            KnownNamespace::Example => Ok(()),
        };
        result.map_err(|f| NamespaceError {
            namespace: self,
            offset: f.at,
            reason: f.reason,
        })
    }
}

impl fmt::Display for KnownNamespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.nid())
    }
}

/// An NSS that breaks its namespace's syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamespaceError {
    namespace: KnownNamespace,
    offset: usize,
    reason: &'static str,
}

impl NamespaceError {
    /// The namespace whose rule was broken.
    pub const fn namespace(&self) -> KnownNamespace {
        self.namespace
    }

    /// The byte offset at which the rule was broken (into the URN when the error comes from
    /// [`Urn::validate_namespace`](crate::Urn::validate_namespace), into the NSS when from
    /// [`KnownNamespace::validate_nss`]).
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, e.g. `"the check digit does not match"`.
    pub const fn reason(&self) -> &'static str {
        self.reason
    }

    pub(crate) const fn shifted(mut self, by: usize) -> Self {
        self.offset += by;
        self
    }
}

impl fmt::Display for NamespaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} URN: {} (byte {})",
            self.namespace, self.reason, self.offset
        )
    }
}

impl core::error::Error for NamespaceError {}

/// Whether `nid` (any case) names a namespace with a [`KeyRules::V1`](crate::KeyRules::V1)
/// equivalence rule: `nbn`, `lex`, `uuid`, `isbn`, `issn`, `ietf`, `mpeg`.
///
/// Called on every parse, so it compares whole words: a NID holds only letters, digits and
/// `-`, for which setting bit `0x20` lower-cases letters and changes nothing else.
#[inline]
pub(crate) fn has_v1_rule(nid: &[u8]) -> bool {
    const fn word(name: &[u8; 4]) -> u32 {
        u32::from_le_bytes(*name)
    }
    let folded = |bytes: [u8; 4]| u32::from_le_bytes(bytes) | 0x2020_2020;
    match *nid {
        [a, b, c] => {
            let w = folded([a, b, c, b' ']);
            w == word(b"nbn ") || w == word(b"lex ")
        }
        [a, b, c, d] => {
            let w = folded([a, b, c, d]);
            w == word(b"uuid")
                || w == word(b"isbn")
                || w == word(b"issn")
                || w == word(b"ietf")
                || w == word(b"mpeg")
        }
        _ => false,
    }
}

/// Appends the [`KeyRules::V1`](crate::KeyRules::V1) NSS pieces for `nss` when a namespace
/// rule applies; returns whether one did.
pub(crate) fn v1_key_pieces<'a>(nid: &str, nss: &'a str, parts: &mut KeyParts<'a>) -> bool {
    let is = |name: &str| nid.eq_ignore_ascii_case(name);
    let applied = match nid.len() {
        3 if is("nbn") => nbn::key(nss, parts),
        3 if is("lex") => lex::key(nss, parts),
        4 if is("uuid") => uuid::key(nss, parts),
        4 if is("isbn") => isbn::key(nss, parts),
        4 if is("issn") => issn::key(nss, parts),
        4 if is("ietf") => ietf::key(nss, parts),
        4 if is("mpeg") => mpeg::key(nss, parts),
        _ => None,
    };
    applied.is_some()
}

/// The [`KeyRules::V1`](crate::KeyRules::V1) key of the assigned name `assigned` (NSS from
/// byte `nss_start`) when its namespace is `uuid`, `isbn` or `ietf` — the rules that map the
/// whole NSS at once, so the key is written in one pass without building pieces; an NSS the
/// rule does not apply to gets the generic key. Borrowed when the assigned name is its own
/// key. `generic_verbatim` and `lower_hex` are what the parse saw (`urn:` and the NID already
/// in lower case and no lower-case hex; lower-case hex in the NSS). `None`: another namespace.
#[inline]
pub(crate) fn simple_v1_key(
    assigned: &str,
    nss_start: usize,
    generic_verbatim: bool,
    lower_hex: bool,
) -> Option<KeyText<'_>> {
    let nid = assigned.get(4..nss_start.checked_sub(1)?)?;
    let nss = assigned.get(nss_start..)?;
    let generic = || {
        if generic_verbatim {
            KeyText::Borrowed(assigned)
        } else {
            KeyText::Built(generic_key(assigned, nss_start, lower_hex))
        }
    };
    if nid.eq_ignore_ascii_case("uuid") {
        Some(match uuid::scan(nss) {
            Some(false) if generic_verbatim => KeyText::Borrowed(assigned),
            // No `%` in a UUID: the whole key is the assigned name in lower case.
            Some(_) => {
                let mut key = KeyBuf::copy_of(assigned);
                key.lower_head(assigned.len());
                KeyText::Built(key)
            }
            None => generic(),
        })
    } else if nid.eq_ignore_ascii_case("isbn") {
        Some(match isbn::scan(nss) {
            Ok(isbn) if generic_verbatim && isbn.normal => KeyText::Borrowed(assigned),
            Ok(isbn) => {
                let mut key = KeyBuf::with_capacity(9 + isbn.digits);
                key.push_str("urn:isbn:");
                for group in nss.split('-') {
                    key.push_str(group);
                }
                // Only a final `x` can be lower case.
                if let Some(digits) = key.as_mut_str().get_mut(9..) {
                    digits.make_ascii_uppercase();
                }
                KeyText::Built(key)
            }
            Err(_) => generic(),
        })
    } else if nid.eq_ignore_ascii_case("ietf") {
        // Neither form holds a `%`. RFC 2648 names are case-insensitive as a whole; `params:`
        // names keep their case (the generic rule).
        let whole = match ietf::validate(nss) {
            Ok(ietf::Form::Rfc2648) => assigned.len(),
            Ok(ietf::Form::Params) | Err(_) => return Some(generic()),
        };
        let normal = !nss.bytes().any(|b| b.is_ascii_uppercase());
        Some(if generic_verbatim && normal {
            KeyText::Borrowed(assigned)
        } else {
            let mut key = KeyBuf::copy_of(assigned);
            key.lower_head(whole);
            KeyText::Built(key)
        })
    } else {
        None
    }
}

/// Whether NSSs `p` and `q` of the namespace `nid` (the same for both, any case) are
/// equivalent under [`KeyRules::V1`](crate::KeyRules::V1), for `uuid` and `isbn`, compared
/// in place; `None` for other namespaces. An NSS its rule does not apply to (not a UUID, not
/// an ISBN) never equals one it applies to: its generic key would have to spell a valid one.
#[inline]
pub(crate) fn simple_rule_eq(nid: &str, p: &str, q: &str) -> Option<bool> {
    if nid.eq_ignore_ascii_case("uuid") {
        Some(match (uuid::scan(p), uuid::scan(q)) {
            (Some(_), Some(_)) => p.eq_ignore_ascii_case(q),
            (None, None) => nss_eq_generic(p, q),
            _ => false,
        })
    } else if nid.eq_ignore_ascii_case("isbn") {
        Some(match (isbn::scan(p), isbn::scan(q)) {
            (Ok(_), Ok(_)) => isbn::significant(p).eq(isbn::significant(q)),
            (Err(_), Err(_)) => nss_eq_generic(p, q),
            _ => false,
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_nids_are_recognised_in_any_case_and_nothing_else_is() {
        for name in ["nbn", "lex", "uuid", "isbn", "issn", "ietf", "mpeg"] {
            // Every combination of upper and lower case.
            for mask in 0..(1u32 << name.len()) {
                let nid: alloc::vec::Vec<u8> = name
                    .bytes()
                    .enumerate()
                    .map(|(i, b)| {
                        if mask & (1 << i) != 0 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        }
                    })
                    .collect();
                assert!(has_v1_rule(&nid), "{nid:?}");
            }
        }
        for other in [
            "nb", "nbnn", "uuie", "isbm", "issm", "ietg", "mpef", "lexx", "le-", "-uid", "u1id",
            "example", "ab", "urn-7", "nbn-", "ISBN0",
        ] {
            assert!(!has_v1_rule(other.as_bytes()), "{other}");
        }
    }
}
