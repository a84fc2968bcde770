//! Byte classes of the URN grammars, as one 256-entry table, made when compiling from the
//! bracket classes of [`patterns`](crate::patterns).
//!
//! Every parser loop asks one question per byte ("may this byte continue the current
//! component?"), so the answer is a single table load and a mask test.

use crate::patterns;

/// A PLAIN character of RFC 8141 (a `pchar` that is not part of a `%XX` triplet):
/// `! $ & ' ( ) * + , - . 0-9 : ; = @ A-Z _ a-z ~`.
pub(crate) const PLAIN: u8 = 1;
/// May continue an RFC 8141 NSS or r-component: PLAIN or `/` (`%` and `?` are handled apart).
pub(crate) const NSS: u8 = 1 << 1;
/// May continue a q- or f-component: PLAIN, `/` or `?`.
pub(crate) const QF: u8 = 1 << 2;
/// May appear in a NID: `A-Z a-z 0-9 -`.
pub(crate) const NID: u8 = 1 << 3;
/// `0-9 A-F a-f`.
pub(crate) const HEX: u8 = 1 << 4;
/// A literal NSS character of RFC 2141: letters, digits and `( ) + , - . : = @ ; $ _ ! * '`.
pub(crate) const TRANS_2141: u8 = 1 << 5;
/// Unchanged by ASCII lower-casing, and not `%` (so a scan stops at each `%XX`).
pub(crate) const KEEP_LOWER: u8 = 1 << 6;
/// Unchanged by ASCII upper-casing, and not `%`.
pub(crate) const KEEP_UPPER: u8 = 1 << 7;

/// The literal characters of RFC 2141's NSS (`<trans>` less `%`), as a bracket class.
const TRANS_2141_CLASS: &str = "[A-Za-z0-9()+,.:=@;$_!*'-]";

const fn build() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut class = 0;
        if patterns::in_class(patterns::PCHAR, b) {
            class |= PLAIN;
        }
        if patterns::in_class(patterns::PCHAR_SLASH, b) {
            class |= NSS;
        }
        if patterns::in_class(patterns::PCHAR_SLASH_QUESTION, b) {
            class |= QF;
        }
        if patterns::in_class(patterns::NID_CHAR, b) {
            class |= NID;
        }
        if patterns::in_class(patterns::HEX_DIGIT, b) {
            class |= HEX;
        }
        if patterns::in_class(TRANS_2141_CLASS, b) {
            class |= TRANS_2141;
        }
        if !b.is_ascii_uppercase() && b != b'%' {
            class |= KEEP_LOWER;
        }
        if !b.is_ascii_lowercase() && b != b'%' {
            class |= KEEP_UPPER;
        }
        // `i < 256` by the loop condition.
        #[allow(clippy::indexing_slicing)]
        {
            table[i] = class;
        }
        i += 1;
    }
    table
}

static CLASS: [u8; 256] = build();

/// The class bits of one byte. A `const fn` reading the one table, so the parser and its
/// compile-time uses (`urn!`) read the same bytes.
#[inline(always)]
pub(crate) const fn class(b: u8) -> u8 {
    // A `u8` index into a 256-entry table is always in bounds.
    #[allow(clippy::indexing_slicing)]
    CLASS[b as usize]
}

/// Whether `b` belongs to every class in `mask`.
#[inline(always)]
pub(crate) const fn is(b: u8, mask: u8) -> bool {
    class(b) & mask == mask
}

/// The byte at `i`, if any (`<[u8]>::get` is not a `const fn`).
#[inline(always)]
pub(crate) const fn at(bytes: &[u8], i: usize) -> Option<u8> {
    match bytes.split_at_checked(i) {
        Some((_, [b, ..])) => Some(*b),
        _ => None,
    }
}

/// `bytes[start..end]`, or nothing when that is out of range (`<[u8]>::get` is not `const`).
#[inline]
pub(crate) const fn slice(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    match bytes.split_at_checked(end) {
        Some((head, _)) => match head.split_at_checked(start) {
            Some((_, part)) => part,
            None => &[],
        },
        None => &[],
    }
}

/// Index of the first byte at or after `i` that is not in class `mask` (or `bytes.len()`).
///
/// Tests eight bytes per step: one table load per byte and a single branch per eight bytes,
/// which is what makes long NSS scans run at memory speed.
#[inline(always)]
pub(crate) const fn skip(bytes: &[u8], mut i: usize, mask: u8) -> usize {
    while let Some((_, rest)) = bytes.split_at_checked(i) {
        let Some(&[a, b, c, d, e, f, g, h]) = rest.first_chunk::<8>() else {
            break;
        };
        let all =
            class(a) & class(b) & class(c) & class(d) & class(e) & class(f) & class(g) & class(h);
        if all & mask == 0 {
            break;
        }
        i += 8;
    }
    while let Some(b) = at(bytes, i) {
        if class(b) & mask == 0 {
            break;
        }
        i += 1;
    }
    i
}

/// The character starting at byte `i` of a `str`'s bytes (U+FFFD when `i` is not the start of
/// one).
pub(crate) const fn char_at(bytes: &[u8], i: usize) -> char {
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

/// Whether `c` is white space ([`patterns::WHITE_SPACE`]: Unicode's `White_Space` property,
/// as `char::is_whitespace` says), in a `const fn`.
pub(crate) const fn is_whitespace(c: char) -> bool {
    let mut k = 0;
    while k < patterns::WHITE_SPACE.len() {
        // `k < len`.
        #[allow(clippy::indexing_slicing)]
        let (first, last) = patterns::WHITE_SPACE[k];
        if first <= c && c <= last {
            return true;
        }
        k += 1;
    }
    false
}

/// The length in bytes of the UTF-8 character whose first byte is `lead`.
pub(crate) const fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xFF => 4,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_is_the_79_characters_of_rfc8141() {
        let plain: alloc::string::String = (0u8..=255)
            .filter(|&b| is(b, PLAIN))
            .map(char::from)
            .collect();
        assert_eq!(plain.len(), 79);
        assert_eq!(
            plain,
            "!$&'()*+,-.0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
        );
    }

    #[test]
    fn rfc2141_trans_is_77_characters() {
        let n = (0u8..=255).filter(|&b| is(b, TRANS_2141)).count();
        assert_eq!(n, 62 + 15);
        assert!(!is(b'&', TRANS_2141) && !is(b'~', TRANS_2141) && !is(b'/', TRANS_2141));
    }

    #[test]
    fn white_space_is_unicodes() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_whitespace(c), c.is_whitespace(), "{c:?}");
        }
    }

    #[test]
    fn char_at_reads_what_str_reads() {
        let text = "a\u{e9}\u{20ac}\u{1f600}z";
        for (i, c) in text.char_indices() {
            assert_eq!(char_at(text.as_bytes(), i), c);
            assert_eq!(utf8_len(text.as_bytes()[i]), c.len_utf8());
        }
        assert_eq!(char_at(text.as_bytes(), 2), char::REPLACEMENT_CHARACTER);
        assert_eq!(char_at(text.as_bytes(), 99), char::REPLACEMENT_CHARACTER);
    }

    #[test]
    fn skip_stops_at_first_outsider_in_any_position() {
        for len in 0..20 {
            for bad in 0..=len {
                let mut s = alloc::vec![b'a'; len];
                if bad < len {
                    s[bad] = b'%';
                }
                assert_eq!(skip(&s, 0, NSS), bad.min(len));
            }
        }
    }
}
