//! `urn:isbn:` (RFC 3187; the International ISBN Agency's registration template).

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::{CheckDigits, DigitForm, Hyphens, KeyRule};
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "isbn",
    title: "ISBN",
    reference: "RFC 3187",
    syntax: "ISBN-10 or ISBN-13 with its check digit",
    rules: &[RULE],
    // The shape, hyphens optional between digits; the check digit and the limit of four
    // hyphens are left to the parser.
    nss_pattern: "[0-9](-?[0-9]){8}-?[0-9Xx]|9-?7-?[89](-?[0-9]){10}",
    pattern_is_exact: false,
    grouped_by_dashes: true,
    examples: &["urn:isbn:0-395-36341-1", "urn:isbn:9780395363416"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The equivalence rule (the same in [`KeyRules::V1`](crate::KeyRules::V1) and
/// [`KeyRules::V2`](crate::KeyRules::V2)).
const RULE: Rule = Rule {
    since: KeyRules::V1,
    summary: "hyphens dropped, `X` in upper case",
    key,
    // Hyphens are not significant and `x` is `X`: the key is the 13 or 10 characters.
    data: KeyRule::CheckDigits(CheckDigits {
        hyphens: Hyphens::Between { max: 4 },
        forms: &[
            DigitForm {
                prefixes: &["978", "979"],
                weights: &[1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1],
                modulus: 10,
                x_last: false,
            },
            DigitForm {
                prefixes: &[],
                weights: &[10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
                modulus: 11,
                x_last: true,
            },
        ],
        key_hyphen_after: None,
    }),
};

/// ISBN-10 (check character `0-9` or `X`) or ISBN-13 (prefix `978`/`979`), in groups
/// separated by single hyphens (at most five groups).
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match scan(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// What [`scan`] learns of a valid ISBN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scanned {
    /// Whether it is its own key: no hyphen and no lower-case `x`.
    normal: bool,
}

/// Checks an ISBN. The common shapes (digits with single hyphens, no `X`) take a short
/// path that gathers the digits in one tight pass; anything else (an `X`, an error to
/// explain) takes [`scan_general`]. Both end in [`check`].
#[inline]
const fn scan(nss: &str) -> Result<Scanned, Fault> {
    let mut digits = [0u32; 13];
    let (mut n, mut hyphens, mut prev_hyphen) = (0usize, 0usize, true);
    let mut rest = nss.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        rest = tail;
        let d = b.wrapping_sub(b'0');
        if d < 10 {
            if n >= 13 {
                return scan_general(nss);
            }
            // Just checked: `n < 13`.
            #[allow(clippy::indexing_slicing)]
            {
                digits[n] = d as u32;
            }
            n += 1;
            prev_hyphen = false;
        } else if b == b'-' && !prev_hyphen {
            hyphens += 1;
            prev_hyphen = true;
        } else {
            return scan_general(nss);
        }
    }
    if prev_hyphen || hyphens > 4 {
        return scan_general(nss);
    }
    if let Err(e) = check(&digits, n, nss) {
        return Err(e);
    }
    Ok(Scanned {
        normal: hyphens == 0,
    })
}

/// [`scan`] for every input, explaining what is wrong.
#[cold]
const fn scan_general(nss: &str) -> Result<Scanned, Fault> {
    let bytes = nss.as_bytes();
    let mut digits = [0u32; 13];
    let (mut n, mut hyphens, mut prev_hyphen, mut lower_x) = (0usize, 0, true, false);
    let mut i = 0;
    while let Some(b) = chars::at(bytes, i) {
        let value = if b.is_ascii_digit() {
            (b - b'0') as u32
        } else if b == b'-' && !prev_hyphen && hyphens < 4 {
            hyphens += 1;
            prev_hyphen = true;
            i += 1;
            continue;
        } else if (b == b'X' || b == b'x') && n == 9 && i + 1 == bytes.len() {
            lower_x = b == b'x';
            10
        } else {
            return Err(explain(bytes, i, n, prev_hyphen));
        };
        if n >= 13 {
            return Err(fault(i, "an ISBN has 10 or 13 digits"));
        }
        // Just checked: `n < 13`.
        #[allow(clippy::indexing_slicing)]
        {
            digits[n] = value;
        }
        n += 1;
        prev_hyphen = false;
        i += 1;
    }
    if prev_hyphen && !nss.is_empty() {
        return Err(fault(nss.len(), "hyphens must stand between digits"));
    }
    if let Err(e) = check(&digits, n, nss) {
        return Err(e);
    }
    Ok(Scanned {
        normal: hyphens == 0 && !lower_x,
    })
}

/// The check over the `n` gathered digits of `nss` (`X` = 10): ISBN-10 weights 10 down to 1,
/// ISBN-13 (after the prefix 978 or 979) weights 1, 3, 1, ….
const fn check(digits: &[u32; 13], n: usize, nss: &str) -> Result<(), Fault> {
    let ok = match *digits {
        [a, b, c, d, e, f, g, h, i, j, 0, 0, 0] if n == 10 => {
            (10 * a + 9 * b + 8 * c + 7 * d + 6 * e + 5 * f + 4 * g + 3 * h + 2 * i + j)
                .is_multiple_of(11)
        }
        [9, 7, c @ (8 | 9), d, e, f, g, h, i, j, k, l, m] if n == 13 => {
            (9 + 21 + c + 3 * d + e + 3 * f + g + 3 * h + i + 3 * j + k + 3 * l + m)
                .is_multiple_of(10)
        }
        _ if n == 13 => return Err(fault(0, "an ISBN-13 starts with 978 or 979")),
        _ => return Err(fault(nss.len(), "an ISBN has 10 or 13 digits")),
    };
    if ok {
        Ok(())
    } else {
        Err(fault(
            nss.len().saturating_sub(1),
            "the check digit does not match",
        ))
    }
}

/// Why the byte at `i` cannot continue an ISBN.
#[cold]
const fn explain(bytes: &[u8], i: usize, n: usize, prev_hyphen: bool) -> Fault {
    match chars::at(bytes, i) {
        Some(b'-') if prev_hyphen => fault(i, "hyphens must stand between digits"),
        Some(b'-') => fault(i, "an ISBN has at most five hyphen-separated groups"),
        Some(b'X' | b'x') if n <= 13 => {
            fault(i, "'X' may only be the check character of an ISBN-10")
        }
        _ => fault(i, "an ISBN holds only digits, hyphens and 'X'"),
    }
}

/// Hyphens are not significant and the check character `x` equals `X`: the key is the
/// digits alone, `X` upper case.
#[inline]
fn key(nss: &str) -> Option<NssKey> {
    let isbn = scan(nss).ok()?;
    Some(NssKey::whole(Fold::Digits).unchanged_if(isbn.normal))
}

/// An ISBN-13 or ISBN-10 with its check digit, hyphens between some digits.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    if c.one_in(2) {
        let mut d = alloc::vec![9, 7, if c.one_in(2) { 9 } else { 8 }];
        d.extend(choices::digits(c, 9));
        let sum: u32 = d
            .iter()
            .enumerate()
            .map(|(i, x)| x * if i % 2 == 0 { 1 } else { 3 })
            .sum();
        let check = (10 - sum % 10) % 10;
        push_hyphenated(out, c, &d, char::from_digit(check, 10).unwrap_or('0'));
    } else {
        let d = choices::digits(c, 9);
        let sum: u32 = d.iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
        let check = choices::mod11_check(c, sum);
        push_hyphenated(out, c, &d, check);
    }
}

/// Digits with hyphens between some of them (never two in a row, never at an end, at most
/// four: an ISBN has at most five groups), then `last`.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn push_hyphenated(
    out: &mut alloc::string::String,
    c: &mut dyn Choices,
    digits: &[u32],
    last: char,
) {
    let mut hyphens = 0;
    let mut hyphen = |out: &mut alloc::string::String, c: &mut dyn Choices| {
        if hyphens < 4 && c.one_in(4) {
            hyphens += 1;
            out.push('-');
        }
    };
    for (i, d) in digits.iter().enumerate() {
        if i > 0 {
            hyphen(out, c);
        }
        out.push(char::from_digit(*d, 10).unwrap_or('0'));
    }
    hyphen(out, c);
    out.push(last);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits() {
        let normal = |nss| scan(nss).map(|isbn| isbn.normal);
        assert_eq!(normal("0-395-36341-1"), Ok(false));
        assert_eq!(normal("0395363411"), Ok(true));
        assert_eq!(normal("978-0-395-36341-6"), Ok(false));
        assert_eq!(normal("9780395363416"), Ok(true));
        assert_eq!(normal("0-8044-2957-X"), Ok(false));
        assert_eq!(normal("080442957x"), Ok(false));
        assert_eq!(normal("080442957X"), Ok(true));
        assert_eq!(validate("0-395-36341-2").unwrap_err().at, 12);
        assert_eq!(validate("9770395363416").unwrap_err().at, 0);
        assert_eq!(validate("0--395-36341-1").unwrap_err().at, 2);
        assert_eq!(validate("-0395363411").unwrap_err().at, 0);
        assert_eq!(validate("0395363411-").unwrap_err().at, 11);
        assert_eq!(validate("03953634X1").unwrap_err().at, 8);
        assert_eq!(validate("039536341").unwrap_err().at, 9);
        assert_eq!(validate("").unwrap_err().at, 0);
        assert_eq!(validate("9-7-8-0-3-95363416").unwrap_err().at, 9);
    }
}
