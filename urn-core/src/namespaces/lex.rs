//! `urn:lex:` (RFC 9676): `jurisdiction ":" local-name`, where the jurisdiction is a code and
//! any number of `;`-separated units (RFC 9676 section 2.1: `urn:lex:ch;glarus:…`,
//! `urn:lex:br;sao.paulo;campinas:…`). Names are case-insensitive as a whole (section 3.3).

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "lex",
    title: "LEX",
    reference: "RFC 9676",
    syntax: "`jurisdiction[;unit]*:…`",
    rules: &[
        Rule {
            since: KeyRules::V1,
            summary: "the NSS in lower case, names without jurisdiction units only",
            key: key_v1,
            // V1 keys the names whose jurisdiction has no units.
            data: KeyRule::Lower {
                when: "[A-Za-z][A-Za-z0-9.-]*:.",
            },
        },
        Rule {
            since: KeyRules::V2,
            summary: "the NSS in lower case",
            key: key_v2,
            // V2 keys every valid name, units and all.
            data: KeyRule::Lower {
                when: concat!(
                    "[A-Za-z][A-Za-z0-9.-]*",
                    "(?:;(?:[A-Za-z0-9]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9.]|%[0-9A-Fa-f]{2})*)*:."
                ),
            },
        },
    ],
    nss_pattern: concat!(
        "[A-Za-z][A-Za-z0-9.-]*",
        "(;([A-Za-z0-9]|%[0-9A-Fa-f]{2})([A-Za-z0-9.]|%[0-9A-Fa-f]{2})*)*:",
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})+",
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &[
        "urn:lex:it:stato:legge:2003-09-21;456",
        "urn:lex:ch;glarus:regiere:erlass:2007-10-15;963",
    ],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A jurisdiction code (a letter, then letters, digits, `-` or `.`), its units (each a `;`, a
/// letter, digit or `%XX`, then letters, digits, `.` or `%XX`: RFC 9676 section 8's
/// `jurisdiction-unit`), a `:`, and more.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match jurisdiction(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks `nss`; returns whether its jurisdiction has units.
const fn jurisdiction(nss: &str) -> Result<bool, Fault> {
    let bytes = nss.as_bytes();
    if !matches!(chars::at(bytes, 0), Some(b) if b.is_ascii_alphabetic()) {
        return Err(fault(0, "a lex name starts with a jurisdiction code"));
    }
    let mut end = super::name_end(bytes, b"-.");
    let mut units = false;
    while matches!(chars::at(bytes, end), Some(b';')) {
        units = true;
        end = match unit_end(bytes, end + 1) {
            Ok(end) => end,
            Err(e) => return Err(e),
        };
    }
    if !matches!(chars::at(bytes, end), Some(b':')) {
        return Err(fault(end, "expected ':' after the jurisdiction"));
    }
    if end + 1 == bytes.len() {
        return Err(fault(
            end + 1,
            "expected a local name after the jurisdiction",
        ));
    }
    Ok(units)
}

/// Where the jurisdiction unit starting at `start` ends: a letter, digit or `%XX`, then
/// letters, digits, `.` or `%XX`. (The parser checks every `%XX` of a URN; `validate_nss` may
/// be given any text, so this checks them again.)
const fn unit_end(bytes: &[u8], start: usize) -> Result<usize, Fault> {
    let mut i = start;
    loop {
        match chars::at(bytes, i) {
            Some(b) if b.is_ascii_alphanumeric() => i += 1,
            Some(b'.') if i > start => i += 1,
            Some(b'%') => {
                if !(is_hex(chars::at(bytes, i + 1)) && is_hex(chars::at(bytes, i + 2))) {
                    return Err(fault(i, "'%' must be followed by two hex digits"));
                }
                i += 3;
            }
            _ if i == start => {
                return Err(fault(
                    i,
                    "a jurisdiction unit starts with a letter or digit",
                ));
            }
            _ => return Ok(i),
        }
    }
}

/// Whether `b` is a hex digit.
const fn is_hex(b: Option<u8>) -> bool {
    matches!(b, Some(b) if b.is_ascii_hexdigit())
}

/// [`KeyRules::V1`](crate::KeyRules::V1): names differing only in case are equivalent, for a
/// jurisdiction without units; the key is lower case (hex digits of `%XX` stay upper case).
fn key_v1(nss: &str) -> Option<NssKey> {
    match jurisdiction(nss) {
        Ok(false) => Some(NssKey::whole(Fold::Lower)),
        _ => None,
    }
}

/// [`KeyRules::V2`](crate::KeyRules::V2): the same for every valid name.
fn key_v2(nss: &str) -> Option<NssKey> {
    jurisdiction(nss).ok()?;
    Some(NssKey::whole(Fold::Lower))
}

/// A jurisdiction code, maybe units, `:` and a local name.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    choices::push_from(out, c, choices::LETTERS);
    for _ in 0..c.below(6) {
        choices::push_from(out, c, b"abcdefghijklmnopqrstuvwxyz0123456789.-");
    }
    if c.one_in(3) {
        for _ in 0..=c.below(2) {
            out.push(';');
            choices::push_from(out, c, b"abcdefghijklmnopqrstuvwxyzGLARUS0123456789");
            for _ in 0..c.below(8) {
                choices::push_from(out, c, b"abcdefghijklmnopqrstuvwxyzSP0123456789.");
            }
        }
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
        assert!(validate("ch;glarus:regiere:erlass:2007-10-15;963").is_ok());
        assert!(validate("br;sao.paulo;campinas:governo:decreto").is_ok());
        assert!(validate("ch;gl%C3%A4rus:x").is_ok());
        assert_eq!(validate(":x").unwrap_err().at, 0);
        assert_eq!(validate("it").unwrap_err().at, 2);
        assert_eq!(validate("it:").unwrap_err().at, 3);
        assert_eq!(validate("i,t:x").unwrap_err().at, 1);
        assert_eq!(validate("ch;:x").unwrap_err().at, 3);
        assert_eq!(validate("ch;.x:x").unwrap_err().at, 3);
        assert_eq!(validate("ch;a-b:x").unwrap_err().at, 4);
        // `validate_nss` takes any text, not only a parsed NSS (found by the namespaces fuzz
        // target: "t;%." gave byte 5 of 4).
        assert_eq!(validate("t;%.").unwrap_err().at, 2);
        assert_eq!(validate("t;a%4").unwrap_err().at, 3);
        assert_eq!(validate("t;%zz:x").unwrap_err().at, 2);
        assert_eq!(key_v1("ch;glarus:x"), None);
        assert_eq!(key_v2("ch;glarus:x"), Some(NssKey::whole(Fold::Lower)));
        assert_eq!(key_v1("ch:x"), key_v2("ch:x"));
    }
}
