//! The RFC 8141 grammar as a `const fn`: the validator behind [`urn!`](crate::urn) and
//! [`UrnRef::from_static`](crate::UrnRef::from_static).
//!
//! It is a second implementation of what [`parse`](crate::parse) does, written with the
//! loops a `const fn` allows (no iterators, no trait calls), so that the run-time parser keeps
//! its eight-bytes-a-step scans untouched. It must give the same answer for every input: the
//! same [`Offsets`] (flags and namespace rule included, since `==` and the key read them) or
//! the same [`ParseError`] (rule and byte). The tests hold it to the parser on every shared
//! vector, the benchmark corpora and generated strings; read the two side by side when
//! changing either.

use crate::chars::{self, HEX, NID, NSS, PLAIN, QF};
use crate::error::{Component, ErrorKind, ParseError};
use crate::namespaces::KnownNamespace;
use crate::parse::{DEFAULT_MAX_LEN, HAS_PERCENT, LOWER_HEX, Offsets, RFC8141_VERBATIM};

/// The byte at `i`, if any (`<[u8]>::get` is not a `const fn`).
#[inline]
pub(super) const fn at(bytes: &[u8], i: usize) -> Option<u8> {
    if i < bytes.len() {
        // Just checked: `i` is in bounds.
        #[allow(clippy::indexing_slicing)]
        Some(bytes[i])
    } else {
        None
    }
}

/// `bytes[start..end]`, or nothing when that is out of range (`<[u8]>::get` is not `const`).
pub(super) const fn slice(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    match bytes.split_at_checked(end) {
        Some((head, _)) => match head.split_at_checked(start) {
            Some((_, part)) => part,
            None => &[],
        },
        None => &[],
    }
}

/// The first index at or after `i` whose byte is not in class `mask` (or the length).
const fn skip(bytes: &[u8], mut i: usize, mask: u8) -> usize {
    while let Some(b) = at(bytes, i) {
        if chars::class_const(b) & mask == 0 {
            break;
        }
        i += 1;
    }
    i
}

/// The character starting at byte `i` of a `str`'s bytes (U+FFFD when `i` is not the start of
/// one, as the parser's `input.get(at..)` gives).
pub(super) const fn char_at(bytes: &[u8], i: usize) -> char {
    let lead = match at(bytes, i) {
        Some(b) => b,
        None => return char::REPLACEMENT_CHARACTER,
    };
    let (len, mut code) = match lead {
        0x00..=0x7F => return lead as char,
        0x80..=0xBF => return char::REPLACEMENT_CHARACTER,
        0xC0..=0xDF => (2, (lead & 0x1F) as u32),
        0xE0..=0xEF => (3, (lead & 0x0F) as u32),
        _ => (4, (lead & 0x07) as u32),
    };
    let mut k = 1;
    while k < len {
        match at(bytes, i + k) {
            Some(b) => code = (code << 6) | (b & 0x3F) as u32,
            None => return char::REPLACEMENT_CHARACTER,
        }
        k += 1;
    }
    match char::from_u32(code) {
        Some(c) => c,
        None => char::REPLACEMENT_CHARACTER,
    }
}

const fn invalid_char(bytes: &[u8], i: usize, component: Component) -> ParseError {
    let found = char_at(bytes, i);
    ParseError::new(ErrorKind::InvalidChar { component, found }, i)
}

const fn invalid_first(bytes: &[u8], i: usize, component: Component) -> ParseError {
    let found = char_at(bytes, i);
    if found == '/' || found == '?' {
        ParseError::new(ErrorKind::InvalidFirstChar { component, found }, i)
    } else {
        ParseError::new(ErrorKind::InvalidChar { component, found }, i)
    }
}

/// Checks the `%XX` at `i`; returns whether its hex digits hold a lower-case letter.
const fn percent(bytes: &[u8], i: usize, component: Component) -> Result<bool, ParseError> {
    match (at(bytes, i + 1), at(bytes, i + 2)) {
        (Some(h1), Some(h2))
            if chars::class_const(h1) & HEX != 0 && chars::class_const(h2) & HEX != 0 =>
        {
            Ok(h1 >= b'a' || h2 >= b'a')
        }
        _ => Err(ParseError::new(ErrorKind::PercentEncoding { component }, i)),
    }
}

/// `urn:` in any case; returns whether it was written in lower case.
const fn scheme(bytes: &[u8]) -> Result<bool, ParseError> {
    let expected = b"urn:";
    let mut i = 0;
    let mut lower = true;
    while i < 4 {
        let (Some(b), Some(e)) = (at(bytes, i), at(expected, i)) else {
            return Err(ParseError::new(ErrorKind::Scheme, i));
        };
        if b.to_ascii_lowercase() != e {
            return Err(ParseError::new(ErrorKind::Scheme, i));
        }
        lower &= b == e;
        i += 1;
    }
    Ok(lower)
}

/// The NID from byte 4: the index of its closing `:` and whether it has an upper-case letter.
const fn nid(bytes: &[u8]) -> Result<(usize, bool), ParseError> {
    let mut i = 4;
    let mut upper = false;
    while let Some(b) = at(bytes, i) {
        if chars::class_const(b) & NID == 0 {
            break;
        }
        upper |= b.is_ascii_uppercase();
        i += 1;
    }
    let len = i - 4;
    if len > 32 {
        return Err(ParseError::new(ErrorKind::NidLength { len, min: 2 }, 4));
    }
    match at(bytes, i) {
        Some(b':') => {}
        None => return Err(ParseError::new(ErrorKind::NidUnterminated, i)),
        Some(_) => return Err(invalid_char(bytes, i, Component::Nid)),
    }
    if matches!(at(bytes, 4), Some(b'-')) {
        return Err(ParseError::new(ErrorKind::NidLeadingHyphen, 4));
    }
    if len < 2 {
        return Err(ParseError::new(ErrorKind::NidLength { len, min: 2 }, 4));
    }
    if matches!(at(bytes, i - 1), Some(b'-')) {
        return Err(ParseError::new(ErrorKind::NidTrailingHyphen, i - 1));
    }
    Ok((i, upper))
}

/// Whether `a` equals `b` ignoring ASCII case.
pub(super) const fn eq_ignore_case(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// The namespace whose [`KeyRules::V1`](crate::KeyRules::V1) rule applies to the NID in
/// `bytes[4..nid_end]`: read from the namespace table (the parser's fast check is a
/// hand-written copy of the same answer).
const fn rule_of(bytes: &[u8], nid_end: usize) -> Option<KnownNamespace> {
    let nid = slice(bytes, 4, nid_end);
    let all = KnownNamespace::ALL;
    let mut k = 0;
    while k < all.len() {
        // `k < all.len()`.
        #[allow(clippy::indexing_slicing)]
        let ns = all[k];
        if ns.has_key_rule() && eq_ignore_case(nid, ns.nid().as_bytes()) {
            return Some(ns);
        }
        k += 1;
    }
    None
}

/// An r- or q-component whose first byte is at `start`; returns where it ends.
const fn component(bytes: &[u8], start: usize, which: Component) -> Result<usize, ParseError> {
    let is_r = matches!(which, Component::RComponent);
    match at(bytes, start) {
        Some(b) if b == b'%' || chars::class_const(b) & PLAIN != 0 => {}
        None | Some(b'#') => {
            return Err(ParseError::new(
                ErrorKind::EmptyComponent { component: which },
                start,
            ));
        }
        Some(b'?') if is_r && matches!(at(bytes, start + 1), Some(b'=')) => {
            return Err(ParseError::new(
                ErrorKind::EmptyComponent { component: which },
                start,
            ));
        }
        Some(_) => return Err(invalid_first(bytes, start, which)),
    }
    let mask = if is_r { NSS } else { QF };
    let mut i = start;
    loop {
        i = skip(bytes, i, mask);
        match at(bytes, i) {
            Some(b'%') => {
                if let Err(e) = percent(bytes, i, which) {
                    return Err(e);
                }
                i += 3;
            }
            Some(b'?') => {
                if matches!(at(bytes, i + 1), Some(b'=')) {
                    return Ok(i);
                }
                i += 1;
            }
            None | Some(b'#') => return Ok(i),
            Some(_) => return Err(invalid_char(bytes, i, which)),
        }
    }
}

/// Parses `text` as an RFC 8141 URN of at most [`DEFAULT_MAX_LEN`] bytes, as
/// `parse::parse(text, ParseOptions::new())` does.
pub(crate) const fn parse(text: &str) -> Result<Offsets, ParseError> {
    let bytes = text.as_bytes();
    if bytes.len() > DEFAULT_MAX_LEN {
        return Err(ParseError::new(
            ErrorKind::TooLong {
                max: DEFAULT_MAX_LEN,
            },
            DEFAULT_MAX_LEN,
        ));
    }
    let scheme_lower = match scheme(bytes) {
        Ok(lower) => lower,
        Err(e) => return Err(e),
    };
    let (nid_end, nid_upper) = match nid(bytes) {
        Ok(found) => found,
        Err(e) => return Err(e),
    };

    // NSS: PLAIN or %XX first, then PLAIN, %XX or '/', up to '?', '#' or the end.
    let nss_start = nid_end + 1;
    match at(bytes, nss_start) {
        None | Some(b'?') | Some(b'#') => {
            return Err(ParseError::new(ErrorKind::EmptyNss, nss_start));
        }
        Some(b) if b == b'%' || chars::class_const(b) & PLAIN != 0 => {}
        Some(_) => return Err(invalid_first(bytes, nss_start, Component::Nss)),
    }
    let mut i = nss_start;
    let (mut lower_hex, mut has_percent) = (false, false);
    loop {
        i = skip(bytes, i, NSS);
        match at(bytes, i) {
            Some(b'%') => {
                match percent(bytes, i, Component::Nss) {
                    Ok(lower) => lower_hex |= lower,
                    Err(e) => return Err(e),
                }
                has_percent = true;
                i += 3;
            }
            None | Some(b'?') | Some(b'#') => break,
            Some(_) => return Err(invalid_char(bytes, i, Component::Nss)),
        }
    }
    let nss_end = i;

    // r-component: "?+" up to "?=", '#' or the end.
    if matches!(at(bytes, i), Some(b'?')) {
        match at(bytes, i + 1) {
            Some(b'+') => match component(bytes, i + 2, Component::RComponent) {
                Ok(end) => i = end,
                Err(e) => return Err(e),
            },
            Some(b'=') => {}
            _ => return Err(ParseError::new(ErrorKind::BareQuestionMark, i)),
        }
    }
    let r_end = i;

    // q-component: "?=" up to '#' or the end.
    if matches!(at(bytes, i), Some(b'?')) {
        match component(bytes, i + 2, Component::QComponent) {
            Ok(end) => i = end,
            Err(e) => return Err(e),
        }
    }
    let q_end = i;

    // f-component: '#' then PLAIN, %XX, '/', '?' (possibly nothing).
    if matches!(at(bytes, i), Some(b'#')) {
        i += 1;
        loop {
            i = skip(bytes, i, QF);
            match at(bytes, i) {
                Some(b'%') => {
                    if let Err(e) = percent(bytes, i, Component::FComponent) {
                        return Err(e);
                    }
                    i += 3;
                }
                None => break,
                Some(_) => return Err(invalid_char(bytes, i, Component::FComponent)),
            }
        }
    }

    let mut flags = 0;
    if scheme_lower && !nid_upper && !lower_hex {
        flags |= RFC8141_VERBATIM;
    }
    if lower_hex {
        flags |= LOWER_HEX;
    }
    if has_percent {
        flags |= HAS_PERCENT;
    }
    // The length cap and the NID cap (32) make these casts lossless.
    Ok(Offsets {
        nid_end: nid_end as u8,
        flags,
        rule: rule_of(bytes, nid_end),
        nss_end: nss_end as u32,
        r_end: r_end as u32,
        q_end: q_end as u32,
    })
}

/// The first index at or after `i` whose byte is not a hex digit (or the length).
pub(super) const fn skip_hex(bytes: &[u8], i: usize) -> usize {
    skip(bytes, i, HEX)
}
