//! The known namespaces' NSS checks as `const fn`s, for the typed literal
//! `urn!(isbn: "…")`.
//!
//! Each is a copy of its namespace's `validate` (in `namespaces/<nid>.rs`, the source), written
//! with the loops a `const fn` allows; it must accept the same NSSs and refuse the others at
//! the same byte with the same reason. The tests hold every copy to
//! [`KnownNamespace::validate_nss`] on the namespaces' examples, the shared vectors and
//! generated NSSs. A namespace added to the table does not compile here until it has its copy.

use super::grammar::{at, eq_ignore_case, skip_hex};
use crate::namespaces::{Fault, KnownNamespace, fault};

/// Checks `nss` against `ns`'s syntax (offsets into the NSS).
pub(super) const fn validate(ns: KnownNamespace, nss: &[u8]) -> Result<(), Fault> {
    match ns {
        KnownNamespace::Uuid => uuid(nss),
        KnownNamespace::Isbn => isbn(nss),
        KnownNamespace::Issn => issn(nss),
        KnownNamespace::Ietf => ietf(nss),
        KnownNamespace::Oid => oid(nss),
        KnownNamespace::Nbn => nbn(nss),
        KnownNamespace::Lex => lex(nss),
        KnownNamespace::Mpeg => mpeg(nss),
        KnownNamespace::Ogc => ogc(nss),
        KnownNamespace::Example => Ok(()),
    }
}

const UUID_LENGTH: &str = "a UUID has 36 characters (8-4-4-4-12 hex digits)";

/// `uuid.rs`: `8HEX-4HEX-4HEX-4HEX-12HEX`, any case.
const fn uuid(bytes: &[u8]) -> Result<(), Fault> {
    let ends = [8, 13, 18, 23, 36];
    let mut start = 0;
    let mut k = 0;
    while k < ends.len() {
        // `k < ends.len()`.
        #[allow(clippy::indexing_slicing)]
        let end = ends[k];
        let stop = {
            let stop = skip_hex(bytes, start);
            if stop < end { stop } else { end }
        };
        if stop < end {
            return Err(if stop == bytes.len() {
                fault(stop, UUID_LENGTH)
            } else {
                fault(stop, "expected a hex digit in the 8-4-4-4-12 UUID form")
            });
        }
        match at(bytes, end) {
            Some(b'-') if end < 36 => start = end + 1,
            None if end == 36 => return Ok(()),
            _ if end == 36 => return Err(fault(36, UUID_LENGTH)),
            _ => return Err(fault(end, "expected '-' in the 8-4-4-4-12 UUID form")),
        }
        k += 1;
    }
    Ok(())
}

/// `isbn.rs`: ISBN-10 or ISBN-13 with its check digit, in at most five hyphen-separated
/// groups.
const fn isbn(bytes: &[u8]) -> Result<(), Fault> {
    let mut digits = [0u32; 13];
    let (mut n, mut hyphens, mut prev_hyphen) = (0usize, 0, true);
    let mut i = 0;
    while let Some(b) = at(bytes, i) {
        let value = if b.is_ascii_digit() {
            (b - b'0') as u32
        } else if b == b'-' && !prev_hyphen && hyphens < 4 {
            hyphens += 1;
            prev_hyphen = true;
            i += 1;
            continue;
        } else if (b == b'X' || b == b'x') && n == 9 && i + 1 == bytes.len() {
            10
        } else {
            return Err(match b {
                b'-' if prev_hyphen => fault(i, "hyphens must stand between digits"),
                b'-' => fault(i, "an ISBN has at most five hyphen-separated groups"),
                b'X' | b'x' if n <= 13 => {
                    fault(i, "'X' may only be the check character of an ISBN-10")
                }
                _ => fault(i, "an ISBN holds only digits, hyphens and 'X'"),
            });
        };
        if n >= digits.len() {
            return Err(fault(i, "an ISBN has 10 or 13 digits"));
        }
        // Just checked.
        #[allow(clippy::indexing_slicing)]
        {
            digits[n] = value;
        }
        n += 1;
        prev_hyphen = false;
        i += 1;
    }
    if prev_hyphen && !bytes.is_empty() {
        return Err(fault(bytes.len(), "hyphens must stand between digits"));
    }
    let ok = match digits {
        [a, b, c, d, e, f, g, h, i, j, 0, 0, 0] if n == 10 => {
            (10 * a + 9 * b + 8 * c + 7 * d + 6 * e + 5 * f + 4 * g + 3 * h + 2 * i + j) % 11 == 0
        }
        [9, 7, c @ (8 | 9), d, e, f, g, h, i, j, k, l, m] if n == 13 => {
            (9 + 21 + c + 3 * d + e + 3 * f + g + 3 * h + i + 3 * j + k + 3 * l + m) % 10 == 0
        }
        _ if n == 13 => return Err(fault(0, "an ISBN-13 starts with 978 or 979")),
        _ => return Err(fault(bytes.len(), "an ISBN has 10 or 13 digits")),
    };
    if ok {
        Ok(())
    } else {
        Err(fault(
            bytes.len().saturating_sub(1),
            "the check digit does not match",
        ))
    }
}

/// `issn.rs`: `NNNN-NNNC` or `NNNNNNNC`, `C` a digit or `X`, the weighted sum checking.
const fn issn(bytes: &[u8]) -> Result<(), Fault> {
    let hyphen = matches!(at(bytes, 4), Some(b'-'));
    let len = if hyphen { 9 } else { 8 };
    let (mut sum, mut weight) = (0u32, 8u32);
    let mut i = 0;
    while let Some(b) = at(bytes, i) {
        if i >= len {
            return Err(fault(i, "an ISSN has 8 characters (NNNN-NNNC)"));
        }
        if !(hyphen && i == 4) {
            let last = i + 1 == len;
            let value = match b {
                b'0'..=b'9' => (b - b'0') as u32,
                b'X' | b'x' if last => 10,
                _ => return Err(fault(i, "an ISSN is 7 digits and a check digit or 'X'")),
            };
            sum += value * weight;
            weight = weight.saturating_sub(1);
        }
        i += 1;
    }
    if bytes.len() < len {
        return Err(fault(bytes.len(), "an ISSN has 8 characters (NNNN-NNNC)"));
    }
    if sum % 11 != 0 {
        return Err(fault(len - 1, "the check character does not match"));
    }
    Ok(())
}

const NO_PERCENT: &str = "percent-encoding is not allowed in ietf URNs (RFC 2648)";

/// The index of the first `needle` in `bytes`, if any.
const fn find(bytes: &[u8], needle: u8) -> Option<usize> {
    let mut i = 0;
    while let Some(b) = at(bytes, i) {
        if b == needle {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// `ietf.rs`: `rfc:N`, `fyi:N`, `std:N`, `bcp:N`, `id:name`, `mtg:name` (RFC 2648) and
/// `params:name(:name)*` (RFC 3553), no percent-encoding.
const fn ietf(bytes: &[u8]) -> Result<(), Fault> {
    let Some(colon) = find(bytes, b':') else {
        return Err(match find(bytes, b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(bytes.len(), "expected ':' after the ietf sub-namespace"),
        });
    };
    let Some((sub, rest)) = bytes.split_at_checked(colon) else {
        return Err(fault(colon, NO_PERCENT));
    };
    let rest = match rest.split_first() {
        Some((_, rest)) => rest,
        None => rest,
    };
    let start = sub.len() + 1;
    if eq_ignore_case(sub, b"rfc")
        || eq_ignore_case(sub, b"fyi")
        || eq_ignore_case(sub, b"std")
        || eq_ignore_case(sub, b"bcp")
    {
        ietf_body(rest, start, false, "expected a document number")
    } else if eq_ignore_case(sub, b"id") || eq_ignore_case(sub, b"mtg") {
        ietf_body(rest, start, true, "expected letters, digits and '-'")
    } else if eq_ignore_case(sub, b"params") {
        ietf_params(rest, start)
    } else {
        Err(match find(sub, b'%') {
            Some(at) => fault(at, NO_PERCENT),
            None => fault(
                0,
                "unknown ietf sub-namespace (rfc, fyi, std, bcp, id, mtg or params)",
            ),
        })
    }
}

/// The name after an RFC 2648 sub-namespace: digits, or (`names`) letters, digits and `-`.
const fn ietf_body(
    rest: &[u8],
    start: usize,
    names: bool,
    what: &'static str,
) -> Result<(), Fault> {
    if rest.is_empty() {
        return Err(fault(start, what));
    }
    let mut i = 0;
    while let Some(b) = at(rest, i) {
        let ok = if names {
            b.is_ascii_alphanumeric() || b == b'-'
        } else {
            b.is_ascii_digit()
        };
        if !ok {
            return Err(fault(start + i, if b == b'%' { NO_PERCENT } else { what }));
        }
        i += 1;
    }
    Ok(())
}

/// The names after `params:`: a name on both sides of every `:`.
const fn ietf_params(rest: &[u8], start: usize) -> Result<(), Fault> {
    const FIRST: &str = "expected a registry name after 'params:'";
    const LATER: &str = "expected a name after ':' (RFC 3553)";
    let mut part = 0;
    let mut i = 0;
    while let Some(b) = at(rest, i) {
        match b {
            b'%' => return Err(fault(start + i, NO_PERCENT)),
            b':' if i == part => {
                return Err(fault(start + i, if part == 0 { FIRST } else { LATER }));
            }
            b':' => part = i + 1,
            _ => {}
        }
        i += 1;
    }
    if part == rest.len() {
        return Err(fault(start + part, if part == 0 { FIRST } else { LATER }));
    }
    Ok(())
}

/// `oid.rs`: dotted decimal without leading zeros.
const fn oid(bytes: &[u8]) -> Result<(), Fault> {
    let mut arc_start = 0;
    let mut i = 0;
    while let Some(b) = at(bytes, i) {
        match b {
            b'.' if i == arc_start => return Err(fault(i, "an OID arc must not be empty")),
            b'.' => arc_start = i + 1,
            b'0'..=b'9' if i == arc_start + 1 && matches!(at(bytes, arc_start), Some(b'0')) => {
                return Err(fault(arc_start, "an OID arc has no leading zeros"));
            }
            b'0'..=b'9' => {}
            _ => return Err(fault(i, "an OID is digits separated by '.'")),
        }
        i += 1;
    }
    if arc_start == bytes.len() {
        return Err(fault(bytes.len(), "an OID arc must not be empty"));
    }
    Ok(())
}

/// `nbn.rs`: `cc[:sub]*-string`.
const fn nbn(bytes: &[u8]) -> Result<(), Fault> {
    let mut i = 0;
    while i < 2 {
        if !matches!(at(bytes, i), Some(b) if b.is_ascii_alphabetic()) {
            return Err(fault(i, "an NBN starts with a two-letter country code"));
        }
        i += 1;
    }
    loop {
        match at(bytes, i) {
            Some(b'-') => break,
            Some(b':') => {
                let start = i + 1;
                i = start;
                while matches!(at(bytes, i), Some(b) if b.is_ascii_alphanumeric()) {
                    i += 1;
                }
                if i == start {
                    return Err(fault(i, "an NBN sub-namespace is letters and digits"));
                }
            }
            _ => return Err(fault(i, "expected '-' or ':' in the NBN prefix")),
        }
    }
    match at(bytes, i + 1) {
        None => Err(fault(i + 1, "the NBN string after '-' is empty")),
        Some(b'/') => Err(fault(i + 1, "the NBN string cannot start with '/'")),
        Some(_) => Ok(()),
    }
}

/// The end of the leading run of letters, digits, `-` and `.` (lex's jurisdiction, mpeg's
/// standard name).
const fn name_end(bytes: &[u8]) -> usize {
    let mut i = 0;
    while let Some(b) = at(bytes, i) {
        if !(b.is_ascii_alphanumeric() || b == b'-' || b == b'.') {
            break;
        }
        i += 1;
    }
    i
}

/// `lex.rs`: `jurisdiction:local-name`.
const fn lex(bytes: &[u8]) -> Result<(), Fault> {
    if !matches!(at(bytes, 0), Some(b) if b.is_ascii_alphabetic()) {
        return Err(fault(0, "a lex name starts with a jurisdiction code"));
    }
    let end = name_end(bytes);
    if !matches!(at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the jurisdiction code"));
    }
    if end + 1 == bytes.len() {
        return Err(fault(
            end + 1,
            "expected a local name after the jurisdiction",
        ));
    }
    Ok(())
}

/// `mpeg.rs`: `standard:…`.
const fn mpeg(bytes: &[u8]) -> Result<(), Fault> {
    let end = name_end(bytes);
    if end == 0 {
        return Err(fault(0, "an mpeg name starts with the standard's name"));
    }
    if !matches!(at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the standard's name"));
    }
    Ok(())
}

/// `ogc.rs`: `resource:string`.
const fn ogc(bytes: &[u8]) -> Result<(), Fault> {
    let mut end = 0;
    while matches!(at(bytes, end), Some(b) if b.is_ascii_alphanumeric()) {
        end += 1;
    }
    if end == 0 {
        return Err(fault(
            0,
            "an ogc name starts with its resource type (def, specification, ...)",
        ));
    }
    if !matches!(at(bytes, end), Some(b':')) {
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
