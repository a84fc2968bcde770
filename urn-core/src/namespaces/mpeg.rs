//! `urn:mpeg:` (RFC 3614): `standard ":" ...`, the standard name case-insensitive.

use super::{Fault, fault};
use crate::key_parts::{Fold, KeyParts, Piece};

/// A standard name (letters, digits, `-`, `.`) followed by `:`. Returns the name's length.
pub(crate) fn validate(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let end = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'.'))
        .unwrap_or(bytes.len());
    if end == 0 {
        return Err(fault(0, "an mpeg name starts with the standard's name"));
    }
    if bytes.get(end) != Some(&b':') {
        return Err(fault(end, "expected ':' after the standard's name"));
    }
    Ok(end)
}

/// `urn:mpeg:<standard>:` is case-insensitive, the rest is not.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    let end = validate(nss).ok()?;
    let (name, rest) = (nss.get(..end)?, nss.get(end..)?);
    (parts.push(Piece::new(name, Fold::Lower)) && parts.push(Piece::new(rest, Fold::Keep)))
        .then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_name() {
        assert_eq!(validate("mpeg7:schema:2001"), Ok(5));
        assert_eq!(validate("MPEG7:cs:VideoDomainCS:2001"), Ok(5));
        assert_eq!(validate("mpeg7").unwrap_err().at, 5);
        assert_eq!(validate(":x").unwrap_err().at, 0);
    }
}
