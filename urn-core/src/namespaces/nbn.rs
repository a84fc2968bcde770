//! `urn:nbn:` (RFC 8458 section 4): `prefix "-" nbn-string`,
//! `prefix = iso-cc *(":" subspc)`, the prefix case-insensitive.

use super::{Fault, fault};
use crate::key_parts::{Fold, KeyParts, Piece};

/// Returns the length of the prefix including its `-`.
pub(crate) fn validate(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    for i in 0..2 {
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            return Err(fault(i, "an NBN starts with a two-letter country code"));
        }
    }
    let mut i = 2;
    loop {
        match bytes.get(i) {
            Some(b'-') => break,
            Some(b':') => {
                let start = i + 1;
                i = start;
                while bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
                    i += 1;
                }
                if i == start {
                    return Err(fault(i, "an NBN sub-namespace is letters and digits"));
                }
            }
            _ => return Err(fault(i, "expected '-' or ':' in the NBN prefix")),
        }
    }
    match bytes.get(i + 1) {
        None => Err(fault(i + 1, "the NBN string after '-' is empty")),
        Some(b'/') => Err(fault(i + 1, "the NBN string cannot start with '/'")),
        Some(_) => Ok(i + 1),
    }
}

/// The prefix is case-insensitive, the NBN string is not.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    let split = validate(nss).ok()?;
    let (prefix, rest) = (nss.get(..split)?, nss.get(split..)?);
    (parts.push(Piece::new(prefix, Fold::Lower)) && parts.push(Piece::new(rest, Fold::Keep)))
        .then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix() {
        assert_eq!(validate("fi-fe201003181510"), Ok(3));
        assert_eq!(validate("se:uu:diva-3475"), Ok(11));
        assert_eq!(validate("ch:bel-9039"), Ok(7));
        assert_eq!(validate("f-1").unwrap_err().at, 1);
        assert_eq!(validate("fi").unwrap_err().at, 2);
        assert_eq!(validate("fi-").unwrap_err().at, 3);
        assert_eq!(validate("fi:-x").unwrap_err().at, 3);
        assert_eq!(validate("fi-/x").unwrap_err().at, 3);
    }
}
