//! `urn:lex:` (RFC 9676): `jurisdiction ":" ...`, case-insensitive as a whole.

use super::{Fault, fault};
use crate::key_parts::{Fold, KeyParts, Piece};

/// A jurisdiction code (a letter, then letters, digits, `-` or `.`), a `:`, and more.
pub(crate) fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return Err(fault(0, "a lex name starts with a jurisdiction code"));
    }
    let end = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'.'))
        .unwrap_or(bytes.len());
    if bytes.get(end) != Some(&b':') {
        return Err(fault(end, "expected ':' after the jurisdiction code"));
    }
    if end + 1 == bytes.len() {
        return Err(fault(
            end + 1,
            "expected a local name after the jurisdiction",
        ));
    }
    Ok(())
}

/// Names differing only in case are equivalent: the key is lower case (hex digits of `%XX`
/// stay upper case).
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    validate(nss).ok()?;
    parts.push(Piece::new(nss, Fold::Lower)).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jurisdiction() {
        assert!(validate("it:stato:legge:2003-09-21;456").is_ok());
        assert!(validate("IT:Stato:Legge:2003-09-21;456").is_ok());
        assert_eq!(validate(":x").unwrap_err().at, 0);
        assert_eq!(validate("it").unwrap_err().at, 2);
        assert_eq!(validate("it:").unwrap_err().at, 3);
        assert_eq!(validate("i,t:x").unwrap_err().at, 1);
    }
}
