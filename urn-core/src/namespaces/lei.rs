//! `urn:lei:` (GLEIF's registration of the `lei` NID): a Legal Entity Identifier (ISO 17442),
//! 20 characters, letters and digits, the last two check digits by ISO/IEC 7064 MOD 97-10
//! (the characters as one number, each letter its two-digit value in base 36, `A` = 10 … `Z`
//! = 35, leave 1 when divided by 97). GLEIF writes the URN "not case sensitive"
//! (`urn:LEI:7LTWFZYICNSX8D621K86`) and LEIs in upper case, so
//! [`KeyRules::V2`](crate::KeyRules::V2) keys a valid LEI in upper case;
//! [`KeyRules::V1`](crate::KeyRules::V1) knew no `lei` rule.

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "lei",
    title: "LEI",
    reference: "ISO 17442",
    syntax: "20 letters and digits with MOD 97-10 check digits",
    rules: &[Rule {
        since: KeyRules::V2,
        summary: "upper case",
        key,
        data: KeyRule::Mod97 {
            when: "[A-Za-z0-9]{18}[0-9]{2}$",
        },
    }],
    // The shape; the check digits are left to the parser.
    nss_pattern: "[A-Za-z0-9]{18}[0-9]{2}",
    pattern_is_exact: false,
    grouped_by_dashes: false,
    examples: &[
        "urn:lei:7LTWFZYICNSX8D621K86",
        "urn:lei:506700GE1G29325QX363",
    ],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The number of characters of an LEI.
const LEN: usize = 20;

/// Twenty letters and digits, the last two digits, the MOD 97-10 check right.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match scan(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks `nss`; returns whether it holds a lower-case letter (then its key differs from it).
const fn scan(nss: &str) -> Result<bool, Fault> {
    let bytes = nss.as_bytes();
    let (mut i, mut remainder, mut lower) = (0, 0u32, false);
    while let Some(b) = chars::at(bytes, i) {
        if i == LEN {
            return Err(fault(i, "an LEI has 20 characters"));
        }
        let value = match b {
            b'0'..=b'9' => (b - b'0') as u32,
            b'A'..=b'Z' => (b - b'A') as u32 + 10,
            b'a'..=b'z' => {
                lower = true;
                (b - b'a') as u32 + 10
            }
            _ => return Err(fault(i, "an LEI holds only letters and digits")),
        };
        if i >= LEN - 2 && value > 9 {
            return Err(fault(i, "an LEI ends with two check digits"));
        }
        // A letter's value has two decimal digits, a digit's one.
        remainder = (remainder * if value > 9 { 100 } else { 10 } + value) % 97;
        i += 1;
    }
    if i < LEN {
        return Err(fault(i, "an LEI has 20 characters"));
    }
    if remainder != 1 {
        return Err(fault(LEN - 2, "the check digits do not match"));
    }
    Ok(lower)
}

/// [`KeyRules::V2`](crate::KeyRules::V2): a valid LEI in upper case.
fn key(nss: &str) -> Option<NssKey> {
    let lower = scan(nss).ok()?;
    Some(NssKey::whole(Fold::Upper).unchanged_if(!lower))
}

/// Eighteen letters and digits and their check digits, in either case.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    let mut remainder = 0u32;
    for _ in 0..LEN - 2 {
        let before = out.len();
        choices::push_from(
            out,
            c,
            b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcxyz",
        );
        let value = out.as_bytes().get(before).map_or(0, |&b| match b {
            b'0'..=b'9' => u32::from(b - b'0'),
            _ => u32::from(b.to_ascii_uppercase() - b'A') + 10,
        });
        remainder = (remainder * if value > 9 { 100 } else { 10 } + value) % 97;
    }
    // Two more digits dd: (remainder * 100 + dd) % 97 == 1.
    let check = (98 - remainder * 100 % 97) % 97;
    out.push(char::from(b'0' + (check / 10) as u8));
    out.push(char::from(b'0' + (check % 10) as u8));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits() {
        for lei in [
            "7LTWFZYICNSX8D621K86",
            "506700GE1G29325QX363",
            "213800KUD8LAJWSQ9D15",
        ] {
            assert_eq!(scan(lei), Ok(false), "{lei}");
            assert_eq!(scan(&lei.to_ascii_lowercase()), Ok(true), "{lei}");
        }
        assert_eq!(validate("213800KUD8LXJWSQ9D15").unwrap_err().at, 18);
        assert_eq!(validate("213800KUD8LAJWSQ9D1").unwrap_err().at, 19);
        assert_eq!(validate("213800KUD8LAJWSQ9D150").unwrap_err().at, 20);
        assert_eq!(validate("213800KUD8LAJWSQ9D1A").unwrap_err().at, 19);
        assert_eq!(validate("213800-UD8LAJWSQ9D15").unwrap_err().at, 6);
    }
}
