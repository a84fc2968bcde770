//! `urn:issn:` (RFC 3044; the ISSN International Centre's registration template).

use super::{Fault, fault};
use crate::key_parts::{Fold, KeyParts, Piece};

/// `NNNN-NNNC` or `NNNNNNNC`, where `C` is a digit or `X` and the weighted sum checks.
pub(crate) fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    let hyphen = bytes.get(4) == Some(&b'-');
    let len = if hyphen { 9 } else { 8 };
    let mut sum = 0u32;
    let mut weight = 8u32;
    for (i, &b) in bytes.iter().enumerate() {
        if i >= len {
            return Err(fault(i, "an ISSN has 8 characters (NNNN-NNNC)"));
        }
        if hyphen && i == 4 {
            continue;
        }
        let last = i + 1 == len;
        let value = match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            b'X' | b'x' if last => 10,
            _ => return Err(fault(i, "an ISSN is 7 digits and a check digit or 'X'")),
        };
        sum += value * weight;
        weight = weight.saturating_sub(1);
    }
    if bytes.len() < len {
        return Err(fault(bytes.len(), "an ISSN has 8 characters (NNNN-NNNC)"));
    }
    if !sum.is_multiple_of(11) {
        return Err(fault(len - 1, "the check character does not match"));
    }
    Ok(())
}

/// The hyphen is not significant and `x` equals `X`: the key is `NNNN-NNNC`, `X` upper case.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    validate(nss).ok()?;
    if nss.len() == 9 {
        parts.push(Piece::new(nss, Fold::Upper)).then_some(())
    } else {
        let (head, tail) = (nss.get(..4)?, nss.get(4..)?);
        (parts.push(Piece::new(head, Fold::Keep))
            && parts.push(Piece::new("-", Fold::Keep))
            && parts.push(Piece::new(tail, Fold::Upper)))
        .then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_character() {
        assert!(validate("1046-8188").is_ok());
        assert!(validate("10468188").is_ok());
        assert!(validate("0317-8471").is_ok());
        assert!(validate("2434-561X").is_ok());
        assert!(validate("2434-561x").is_ok());
        assert_eq!(validate("1046-8189").unwrap_err().at, 8);
        assert_eq!(validate("1046-818").unwrap_err().at, 8);
        assert_eq!(validate("1046-81888").unwrap_err().at, 9);
        assert_eq!(validate("104X-8188").unwrap_err().at, 3);
    }
}
