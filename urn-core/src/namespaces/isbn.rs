//! `urn:isbn:` (RFC 3187; the International ISBN Agency's registration template).

use super::{Fault, fault};
use crate::key::{Fold, KeyParts, Piece};

/// ISBN-10 (check character `0-9` or `X`) or ISBN-13 (prefix `978`/`979`), in groups
/// separated by single hyphens (at most five groups). Returns the number of digits.
pub(crate) fn validate(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let mut digits = [0u32; 13];
    let mut n = 0usize;
    let mut hyphens = 0;
    let mut prev_hyphen = true;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'-' => {
                if prev_hyphen {
                    return Err(fault(i, "hyphens must stand between digits"));
                }
                hyphens += 1;
                if hyphens > 4 {
                    return Err(fault(i, "an ISBN has at most five hyphen-separated groups"));
                }
                prev_hyphen = true;
                continue;
            }
            b'0'..=b'9' | b'X' | b'x' => {
                let value = if b.is_ascii_digit() {
                    u32::from(b - b'0')
                } else if n == 9 && i + 1 == bytes.len() {
                    10
                } else {
                    return Err(fault(
                        i,
                        "'X' may only be the check character of an ISBN-10",
                    ));
                };
                match digits.get_mut(n) {
                    Some(slot) => *slot = value,
                    None => return Err(fault(i, "an ISBN has 10 or 13 digits")),
                }
                n += 1;
            }
            _ => return Err(fault(i, "an ISBN holds only digits, hyphens and 'X'")),
        }
        prev_hyphen = false;
    }
    if prev_hyphen {
        return Err(fault(
            nss.len(),
            if nss.is_empty() {
                "an ISBN has 10 or 13 digits"
            } else {
                "hyphens must stand between digits"
            },
        ));
    }
    let check_ok = match n {
        10 => {
            let sum: u32 = digits
                .iter()
                .take(10)
                .zip((1..=10u32).rev())
                .map(|(d, w)| d * w)
                .sum();
            sum.is_multiple_of(11)
        }
        13 => {
            if !matches!(digits.get(..3), Some([9, 7, 8]) | Some([9, 7, 9])) {
                return Err(fault(0, "an ISBN-13 starts with 978 or 979"));
            }
            let sum: u32 = digits
                .iter()
                .enumerate()
                .map(|(i, d)| if i % 2 == 0 { *d } else { d * 3 })
                .sum();
            sum.is_multiple_of(10)
        }
        _ => return Err(fault(nss.len(), "an ISBN has 10 or 13 digits")),
    };
    if !check_ok {
        return Err(fault(nss.len() - 1, "the check digit does not match"));
    }
    Ok(n)
}

/// Hyphens are not significant and the check character `x` equals `X`: the key is the
/// digits alone, `X` upper case.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    validate(nss).ok()?;
    for group in nss.split('-') {
        if !parts.push(Piece::new(group, Fold::Upper)) {
            return None;
        }
    }
    Some(())
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
