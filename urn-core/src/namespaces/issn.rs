//! `urn:issn:` (RFC 3044; the ISSN International Centre's registration template).

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::{CheckDigits, DigitForm, Hyphens, KeyRule};
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "issn",
    title: "ISSN",
    reference: "RFC 3044",
    syntax: "`NNNN-NNNC` with its check character",
    rules: &[RULE],
    // The shape; the check character is left to the parser.
    nss_pattern: "[0-9]{4}-?[0-9]{3}[0-9Xx]",
    pattern_is_exact: false,
    grouped_by_dashes: true,
    examples: &["urn:issn:0317-8471"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The equivalence rule (the same in [`KeyRules::V1`](crate::KeyRules::V1) and
/// [`KeyRules::V2`](crate::KeyRules::V2)).
const RULE: Rule = Rule {
    since: KeyRules::V1,
    summary: "`NNNN-NNNC`, `X` in upper case",
    key,
    // The hyphen is optional and `x` is `X`: the key is `NNNN-NNNC`.
    data: KeyRule::CheckDigits(CheckDigits {
        hyphens: Hyphens::OptionalAfter { after: 4 },
        forms: &[DigitForm {
            prefixes: &[],
            weights: &[8, 7, 6, 5, 4, 3, 2, 1],
            modulus: 11,
            x_last: true,
        }],
        key_hyphen_after: Some(4),
    }),
};

/// `NNNN-NNNC` or `NNNNNNNC`, where `C` is a digit or `X` and the weighted sum checks.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    let bytes = nss.as_bytes();
    let hyphen = matches!(chars::at(bytes, 4), Some(b'-'));
    let len = if hyphen { 9 } else { 8 };
    let mut sum = 0u32;
    let mut weight = 8u32;
    let mut i = 0;
    while let Some(b) = chars::at(bytes, i) {
        if i >= len {
            return Err(fault(i, "an ISSN has 8 characters (NNNN-NNNC)"));
        }
        if hyphen && i == 4 {
            i += 1;
            continue;
        }
        let last = i + 1 == len;
        let value = match b {
            b'0'..=b'9' => (b - b'0') as u32,
            b'X' | b'x' if last => 10,
            _ => return Err(fault(i, "an ISSN is 7 digits and a check digit or 'X'")),
        };
        sum += value * weight;
        weight = weight.saturating_sub(1);
        i += 1;
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
fn key(nss: &str) -> Option<NssKey> {
    validate(nss).ok()?;
    Some(if nss.len() == 9 {
        NssKey::whole(Fold::Upper)
    } else {
        NssKey::split(4, Fold::Keep, Fold::Upper).with_hyphen()
    })
}

/// An ISSN with its check character, the hyphen usually there.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    let d = choices::digits(c, 7);
    let sum: u32 = d.iter().zip((2..=8).rev()).map(|(x, w)| x * w).sum();
    for (i, x) in d.iter().enumerate() {
        if i == 4 && !c.one_in(4) {
            out.push('-');
        }
        out.push(char::from_digit(*x, 10).unwrap_or('0'));
    }
    out.push(choices::mod11_check(c, sum));
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
