//! `urn:uuid:` (RFC 9562 section 4; RFC 4122 section 3).

use super::{Fault, fault};
use crate::chars::{self, HEX};
use crate::key::{Fold, KeyParts, Piece};

/// `8HEX-4HEX-4HEX-4HEX-12HEX`, any case.
pub(crate) fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    let fast = bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, &b)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                chars::is(b, HEX)
            }
        });
    if fast {
        return Ok(());
    }
    explain(bytes)
}

/// Where and why `bytes` is not a UUID.
#[cold]
fn explain(bytes: &[u8]) -> Result<(), Fault> {
    let mut start = 0;
    for end in [8, 13, 18, 23, 36] {
        let stop = chars::skip(bytes, start, HEX).min(end);
        if stop < end {
            return Err(if stop == bytes.len() {
                fault(stop, "a UUID has 36 characters (8-4-4-4-12 hex digits)")
            } else {
                fault(stop, "expected a hex digit in the 8-4-4-4-12 UUID form")
            });
        }
        match bytes.get(end) {
            Some(b'-') if end < 36 => start = end + 1,
            None if end == 36 => return Ok(()),
            _ if end == 36 => {
                return Err(fault(
                    36,
                    "a UUID has 36 characters (8-4-4-4-12 hex digits)",
                ));
            }
            _ => return Err(fault(end, "expected '-' in the 8-4-4-4-12 UUID form")),
        }
    }
    Ok(())
}

/// Hex digits are case-insensitive; the key is lower case.
pub(crate) fn key<'a>(nss: &'a str, parts: &mut KeyParts<'a>) -> Option<()> {
    validate(nss).ok()?;
    parts.push(Piece::new(nss, Fold::Lower)).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        assert!(validate("f81d4fae-7dec-11d0-a765-00a0c91e6bf6").is_ok());
        assert!(validate("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").is_ok());
        assert_eq!(
            validate("f81d4fae7dec-11d0-a765-00a0c91e6bf6")
                .unwrap_err()
                .at,
            8
        );
        assert_eq!(
            validate("f81d4fae-7dec-11d0-a765-00a0c91e6bf")
                .unwrap_err()
                .at,
            35
        );
        assert_eq!(
            validate("f81d4fae-7dec-11d0-a765-00a0c91e6bf6a")
                .unwrap_err()
                .at,
            36
        );
        assert_eq!(
            validate("g81d4fae-7dec-11d0-a765-00a0c91e6bf6")
                .unwrap_err()
                .at,
            0
        );
    }
}
