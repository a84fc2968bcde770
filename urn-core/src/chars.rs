//! Byte classes of the URN grammars, as one 256-entry table.
//!
//! Every parser loop asks one question per byte ("may this byte continue the current
//! component?"), so the answer is a single table load and a mask test.

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

const fn build() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let upper = b.is_ascii_uppercase();
        let alnum = b.is_ascii_alphanumeric();
        let plain = alnum
            || matches!(
                b,
                b'!' | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b':'
                    | b';'
                    | b'='
                    | b'@'
                    | b'_'
                    | b'~'
            );
        let trans = alnum
            || matches!(
                b,
                b'(' | b')'
                    | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b':'
                    | b'='
                    | b'@'
                    | b';'
                    | b'$'
                    | b'_'
                    | b'!'
                    | b'*'
                    | b'\''
            );
        let mut class = 0;
        if plain {
            class |= PLAIN | NSS | QF;
        }
        if b == b'/' {
            class |= NSS | QF;
        }
        if b == b'?' {
            class |= QF;
        }
        if alnum {
            class |= NID;
        }
        if b == b'-' {
            class |= NID;
        }
        if b.is_ascii_hexdigit() {
            class |= HEX;
        }
        if trans {
            class |= TRANS_2141;
        }
        if !upper && b != b'%' {
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

/// The same table as a constant, for the `const fn` validator behind `urn!` (the run-time
/// parser keeps reading the `static`).
const CLASS_CONST: [u8; 256] = build();

/// The class bits of one byte, in a `const fn` (see [`class`]).
#[inline]
pub(crate) const fn class_const(b: u8) -> u8 {
    // A `u8` index into a 256-entry table is always in bounds.
    #[allow(clippy::indexing_slicing)]
    CLASS_CONST[b as usize]
}

/// The class bits of one byte.
#[inline(always)]
pub(crate) fn class(b: u8) -> u8 {
    // A `u8` index into a 256-entry table is always in bounds.
    #[allow(clippy::indexing_slicing)]
    CLASS[b as usize]
}

/// Whether `b` belongs to every class in `mask`.
#[inline(always)]
pub(crate) fn is(b: u8, mask: u8) -> bool {
    class(b) & mask == mask
}

/// Index of the first byte at or after `i` that is not in class `mask` (or `bytes.len()`).
///
/// Tests eight bytes per step: one table load per byte and a single branch per eight bytes,
/// which is what makes long NSS scans run at memory speed.
#[inline(always)]
pub(crate) fn skip(bytes: &[u8], mut i: usize, mask: u8) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok([a, b, c, d, e, f, g, h]) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let all =
            class(a) & class(b) & class(c) & class(d) & class(e) & class(f) & class(g) & class(h);
        if all & mask == 0 {
            break;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if class(b) & mask == 0 {
            break;
        }
        i += 1;
    }
    i
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
