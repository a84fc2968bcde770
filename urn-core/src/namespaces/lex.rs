//! `urn:lex:` (RFC 9676): `jurisdiction ":" ...`, case-insensitive as a whole.

use super::{Fault, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "lex",
    title: "LEX",
    reference: "RFC 9676",
    v1_key: Some(key),
    // A lex name is case-insensitive as a whole.
    v1_rule: Some(KeyRule::Lower {
        when: "[A-Za-z][A-Za-z0-9.-]*:.",
    }),
    nss_pattern: concat!(
        "[A-Za-z][A-Za-z0-9.-]*:",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})+",
    ),
    pattern_is_exact: true,
    examples: &["urn:lex:it:stato:legge:2003-09-21;456"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A jurisdiction code (a letter, then letters, digits, `-` or `.`), a `:`, and more.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    if !matches!(chars::at(bytes, 0), Some(b) if b.is_ascii_alphabetic()) {
        return Err(fault(0, "a lex name starts with a jurisdiction code"));
    }
    let end = super::name_end(bytes, b"-.");
    if !matches!(chars::at(bytes, end), Some(b':')) {
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
fn key(nss: &str) -> Option<NssKey> {
    validate(nss).ok()?;
    Some(NssKey::whole(Fold::Lower))
}

/// A jurisdiction code, `:` and a local name.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    choices::push_from(out, c, choices::LETTERS);
    for _ in 0..c.below(6) {
        choices::push_from(out, c, b"abcdefghijklmnopqrstuvwxyz0123456789.-");
    }
    out.push(':');
    choices::push_pchars(out, c, 24, b":@;", true);
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
