//! `urn:isbn:` (RFC 3187; the International ISBN Agency's registration template).

use super::{Fault, fault};
use crate::key::{Fold, KeyParts, Piece};

/// ISBN-10 (check character `0-9` or `X`) or ISBN-13 (prefix `978`/`979`), in groups
/// separated by single hyphens (at most five groups). Returns the number of digits.
pub(crate) fn validate(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let (mut n, mut hyphens, mut prefix) = (0u32, 0, 0u32);
    // ISBN-10 weights the n-th digit 10 - n; ISBN-13 alternates 1 and 3.
    let (mut sum10, mut sum13) = (0u32, 0u32);
    let mut prev_hyphen = true;
    for (i, &b) in bytes.iter().enumerate() {
        let value = match b {
            b'-' if prev_hyphen => return Err(fault(i, "hyphens must stand between digits")),
            b'-' if hyphens == 4 => {
                return Err(fault(i, "an ISBN has at most five hyphen-separated groups"));
            }
            b'-' => {
                hyphens += 1;
                prev_hyphen = true;
                continue;
            }
            _ if n == 13 => return Err(fault(i, "an ISBN has 10 or 13 digits")),
            b'0'..=b'9' => u32::from(b - b'0'),
            b'X' | b'x' if n == 9 && i + 1 == bytes.len() => 10,
            b'X' | b'x' => {
                return Err(fault(
                    i,
                    "'X' may only be the check character of an ISBN-10",
                ));
            }
            _ => return Err(fault(i, "an ISBN holds only digits, hyphens and 'X'")),
        };
        sum10 += value * 10u32.saturating_sub(n);
        sum13 += if n % 2 == 0 { value } else { 3 * value };
        if n < 3 {
            prefix = prefix * 10 + value;
        }
        n += 1;
        prev_hyphen = false;
    }
    if prev_hyphen && !nss.is_empty() {
        return Err(fault(nss.len(), "hyphens must stand between digits"));
    }
    let check_ok = match n {
        10 => sum10.is_multiple_of(11),
        13 if prefix == 978 || prefix == 979 => sum13.is_multiple_of(10),
        13 => return Err(fault(0, "an ISBN-13 starts with 978 or 979")),
        _ => return Err(fault(nss.len(), "an ISBN has 10 or 13 digits")),
    };
    if !check_ok {
        return Err(fault(nss.len() - 1, "the check digit does not match"));
    }
    Ok(n as usize)
}

/// Hyphens are not significant and the check character `x` equals `X`: the key is the
/// digits alone, `X` upper case.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    validate(nss).ok()?;
    parts
        .push(Piece::new(nss, Fold::UpperWithoutHyphens))
        .then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits() {
        assert_eq!(validate("0-395-36341-1"), Ok(10));
        assert_eq!(validate("0395363411"), Ok(10));
        assert_eq!(validate("978-0-395-36341-6"), Ok(13));
        assert_eq!(validate("9780395363416"), Ok(13));
        assert_eq!(validate("0-8044-2957-X"), Ok(10));
        assert_eq!(validate("080442957x"), Ok(10));
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
