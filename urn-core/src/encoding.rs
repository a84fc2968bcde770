//! Percent-encoding between native identifiers (any UTF-8 text) and NSS text.
//!
//! Lossless both ways: every character outside RFC 8141's literal `pchar` set (the NSS's
//! characters less `/`) is written as
//! `%XX` with upper-case hex (so `%`, `/`, `?`, `#` and non-ASCII are always encoded), `+` is
//! data and never a space, and decoding rejects what is not UTF-8 instead of guessing.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::chars::{self, HEX, PLAIN};

const HEX_DIGITS: &[u8; 16] = b"0123456789ABCDEF";

/// Percent-encodes any text into a valid NSS (borrowed when nothing needs encoding).
///
/// The result is a valid NSS for every non-empty input. RFC 8141 section 2.2 asks that only
/// software that knows a namespace's own encoding rules build its URNs from native names:
/// use this for namespaces you define, or whose rules are plain percent-encoding.
///
/// ```
/// use urn_core::{decode_nss, encode_nss};
/// assert_eq!(encode_nss("a+b c/ü?"), "a+b%20c%2F%C3%BC%3F");
/// assert_eq!(encode_nss("plain"), "plain");
/// assert_eq!(decode_nss(&encode_nss("100% sure/#1")).unwrap(), "100% sure/#1");
/// ```
#[must_use]
pub fn encode_nss(native: &str) -> Cow<'_, str> {
    let bytes = native.as_bytes();
    let first_bad = chars::skip(bytes, 0, PLAIN);
    if first_bad == bytes.len() {
        return Cow::Borrowed(native);
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    out.push_str(native.get(..first_bad).unwrap_or_default());
    for &b in bytes.get(first_bad..).unwrap_or_default() {
        if chars::is(b, PLAIN) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(hex_digit(b >> 4)));
            out.push(char::from(hex_digit(b & 0x0f)));
        }
    }
    Cow::Owned(out)
}

fn hex_digit(nibble: u8) -> u8 {
    HEX_DIGITS.get(usize::from(nibble)).copied().unwrap_or(b'0')
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Why percent-decoding failed, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    offset: usize,
    kind: DecodeErrorKind,
}

/// The kind of a [`DecodeError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// `%` not followed by two hex digits.
    BadPercent,
    /// The decoded bytes are not UTF-8 (overlong forms, surrogates, truncated sequences...).
    InvalidUtf8,
}

impl DecodeError {
    /// The byte offset of the offending `%` (into the URN when the error comes from
    /// [`Urn::nss_decoded`](crate::Urn::nss_decoded), into the NSS from [`decode_nss`]).
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What went wrong.
    #[must_use]
    pub const fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    pub(crate) const fn shifted(mut self, by: usize) -> Self {
        self.offset += by;
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::BadPercent => write!(
                f,
                "cannot decode NSS: '%' at byte {} must be followed by two hex digits",
                self.offset
            ),
            DecodeErrorKind::InvalidUtf8 => write!(
                f,
                "cannot decode NSS: the bytes encoded from byte {} are not UTF-8",
                self.offset
            ),
        }
    }
}

impl core::error::Error for DecodeError {}

/// Percent-decodes NSS text back into the native identifier (borrowed when it holds no `%`).
///
/// `+` stays `+`. Decoded bytes must form UTF-8; the error names the first `%` of the
/// sequence that does not.
///
/// ```
/// use urn_core::{decode_nss, DecodeErrorKind};
/// assert_eq!(decode_nss("a%2Cb+c").unwrap(), "a,b+c");
/// let err = decode_nss("ok%C0%AF").unwrap_err(); // an overlong '/'
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::InvalidUtf8, 2));
/// ```
pub fn decode_nss(nss: &str) -> Result<Cow<'_, str>, DecodeError> {
    let bytes = nss.as_bytes();
    let Some(first) = bytes.iter().position(|&b| b == b'%') else {
        return Ok(Cow::Borrowed(nss));
    };
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    // For each output byte, the input offset it came from (to place UTF-8 errors).
    let mut origin: Vec<usize> = Vec::new();
    out.extend_from_slice(bytes.get(..first).unwrap_or_default());
    origin.extend(0..first);
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let value = match (bytes.get(i + 1), bytes.get(i + 2)) {
                (Some(&h1), Some(&h2)) if chars::is(h1, HEX) && chars::is(h2, HEX) => {
                    hex_value(h1).zip(hex_value(h2)).map(|(a, b)| a << 4 | b)
                }
                _ => None,
            };
            let Some(value) = value else {
                return Err(DecodeError {
                    offset: i,
                    kind: DecodeErrorKind::BadPercent,
                });
            };
            out.push(value);
            origin.push(i);
            i += 3;
        } else {
            out.push(b);
            origin.push(i);
            i += 1;
        }
    }
    String::from_utf8(out).map(Cow::Owned).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        DecodeError {
            offset: origin.get(at).copied().unwrap_or(bytes.len()),
            kind: DecodeErrorKind::InvalidUtf8,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_hazards_are_errors() {
        for bad in ["%ED%A0%80", "%F4%90%80%80", "%E2%82", "%FF", "%C0%AF"] {
            assert_eq!(
                decode_nss(bad).unwrap_err().kind(),
                DecodeErrorKind::InvalidUtf8,
                "{bad}"
            );
        }
        assert_eq!(
            decode_nss("a%4").unwrap_err(),
            DecodeError {
                offset: 1,
                kind: DecodeErrorKind::BadPercent
            }
        );
    }

    #[test]
    fn encode_uses_upper_case_hex_and_keeps_plus() {
        assert_eq!(encode_nss("%"), "%25");
        assert_eq!(encode_nss("a+b"), "a+b");
        assert_eq!(encode_nss("\u{1F600}"), "%F0%9F%98%80");
        assert_eq!(encode_nss("/x"), "%2Fx");
    }
}
