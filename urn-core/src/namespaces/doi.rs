//! `urn:doi:` (the DOI Foundation's registration of the `doi` NID; the DOI Handbook). A DOI
//! name is a prefix, `/` and a suffix (Handbook, 2025 edition, section 3.3.1): the prefix a
//! directory indicator and a registrant code, digits apart by `.` (section 3.3.2; the
//! indicator is usually `10`, and then a registrant code follows; ISO 26324:2022 allows
//! others), the suffix any characters, percent-encoded in a URN where the URN syntax needs it.
//!
//! Two URN forms are in use, and both are accepted: the DOI name as written,
//! `urn:doi:10.123/456` (Handbook 2025, section 3.4.3, and most data), and the form the DOI
//! proxy reads, `urn:doi:10.123:456`, a `:` for the first `/` with any later `/` written
//! `%2F` (Handbook, section 2.6.3, "URN presentation"). Both name the DOI name `10.123/456`,
//! so [`KeyRules::V2`](crate::KeyRules::V2) gives them one key, written with `/`. DOI names
//! compare with ASCII case folding only (Handbook section 2.4; 2025 edition section 3.3.4:
//! `10.123/ABC` is `10.123/AbC`; non-ASCII characters, percent-encoded here, keep their
//! case), so the key's ASCII letters are lower case. [`KeyRules::V1`](crate::KeyRules::V1)
//! knew no `doi` rule: it keys a DOI URN as RFC 8141 alone does.

use super::{Fault, Rule, Spec, fault};
use crate::chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, Joint, NssKey};

/// The prefix and the separator, as a pattern: `10.` and a registrant code, or another
/// directory indicator with or without one.
macro_rules! prefix {
    () => {
        "(10([.][0-9]+)+|([0-9]|[02-9][0-9]|1[1-9]|[0-9][0-9][0-9]+)([.][0-9]+)*)[/:]"
    };
}

pub(crate) const SPEC: Spec = Spec {
    nid: "doi",
    title: "DOI",
    reference: "DOI Handbook",
    syntax: "`prefix/suffix` or `prefix:suffix`",
    rules: &[Rule {
        since: KeyRules::V2,
        summary: "ASCII letters in lower case, `prefix/suffix`, `%2F` read as `/`",
        key,
        data: KeyRule::Separated {
            when: concat!(prefix!(), "."),
            separators: "/:",
            separator: '/',
        },
    }],
    nss_pattern: concat!(
        prefix!(),
        "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})+"
    ),
    pattern_is_exact: true,
    grouped_by_dashes: false,
    examples: &["urn:doi:10.1000/182", "urn:doi:10.123:456ABC%2Fzyz"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// A prefix (digits apart by `.`; after a directory indicator `10`, a registrant code), `/`
/// or `:`, and a suffix of at least one character.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match prefix_len(nss) {
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Checks `nss`; returns the length of its prefix (the separator follows it).
const fn prefix_len(nss: &str) -> Result<usize, Fault> {
    let bytes = nss.as_bytes();
    let mut i = digits_end(bytes, 0);
    if i == 0 {
        return Err(fault(
            0,
            "a DOI name starts with its prefix (digits and '.')",
        ));
    }
    let directory_10 = i == 2 && matches!(bytes.first_chunk::<2>(), Some(b"10"));
    let mut codes = 0;
    while matches!(chars::at(bytes, i), Some(b'.')) {
        let end = digits_end(bytes, i + 1);
        if end == i + 1 {
            return Err(fault(end, "expected digits after '.' in the DOI prefix"));
        }
        codes += 1;
        i = end;
    }
    if directory_10 && codes == 0 {
        return Err(fault(i, "a DOI prefix 10 has a registrant code: 10.NNNN"));
    }
    if !matches!(chars::at(bytes, i), Some(b'/' | b':')) {
        return Err(fault(i, "expected '/' or ':' after the DOI prefix"));
    }
    if i + 1 == bytes.len() {
        return Err(fault(i + 1, "expected the DOI suffix after the prefix"));
    }
    Ok(i)
}

/// Where the digits starting at `from` end.
const fn digits_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while matches!(chars::at(bytes, i), Some(b) if b.is_ascii_digit()) {
        i += 1;
    }
    i
}

/// [`KeyRules::V2`](crate::KeyRules::V2): the prefix, `/`, and the suffix with its ASCII
/// letters in lower case and each `%2F` read as `/`.
fn key(nss: &str) -> Option<NssKey> {
    let end = prefix_len(nss).ok()?;
    let slash = nss.as_bytes().get(end) == Some(&b'/');
    let suffix = nss.get(end + 1..)?;
    let unchanged = slash && Fold::LowerSlashes.leaves(suffix);
    Some(
        NssKey::split(end, Fold::Keep, Fold::LowerSlashes)
            .replacing_split(Joint::Slash)
            .unchanged_if(unchanged),
    )
}

/// A prefix (mostly `10.` and a registrant code), `/` (or `:`), and a suffix.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    use alloc::string::ToString;
    let directory = if c.one_in(8) { c.below(1000) } else { 10 };
    out.push_str(&directory.to_string());
    let codes = if directory == 10 {
        1 + c.below(2)
    } else {
        c.below(2)
    };
    for _ in 0..codes {
        out.push('.');
        out.push_str(&(1000 + c.below(99_000)).to_string());
    }
    out.push(if c.one_in(4) { ':' } else { '/' });
    choices::push_pchars(out, c, 16, b":@", true);
    if c.one_in(4) {
        out.push_str(if c.one_in(2) { "%2F" } else { "%2f" });
        choices::push_pchars(out, c, 8, b"", false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_and_suffix() {
        assert_eq!(prefix_len("10.1000/182"), Ok(7));
        assert_eq!(prefix_len("10.123:456"), Ok(6));
        assert_eq!(prefix_len("10.1.2/x"), Ok(6));
        assert_eq!(prefix_len("5/x"), Ok(1));
        assert_eq!(prefix_len("100/x"), Ok(3));
        assert_eq!(validate("10/x").unwrap_err().at, 2);
        assert_eq!(validate("x/y").unwrap_err().at, 0);
        assert_eq!(validate("10./x").unwrap_err().at, 3);
        assert_eq!(validate("10.1000").unwrap_err().at, 7);
        assert_eq!(validate("10.1000/").unwrap_err().at, 8);
        assert_eq!(validate("10.10a/x").unwrap_err().at, 5);
        let key = key("10.123:456").unwrap();
        assert_eq!(key.parts("10.123:456"), ("10.123", "456"));
        assert_eq!(super::key("10.123/abc%2C").unwrap().unchanged, Some(true));
        assert_eq!(super::key("10.123/aBc").unwrap().unchanged, Some(false));
    }
}
