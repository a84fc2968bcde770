//! `urn:uuid:` (RFC 9562 section 4; RFC 4122 section 3).

use super::{Fault, Rule, Spec, fault};
use crate::chars::{self, HEX};
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::{self, Choices};
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::{Fold, NssKey};

pub(crate) const SPEC: Spec = Spec {
    nid: "uuid",
    title: "UUID",
    reference: "RFC 9562",
    syntax: "8-4-4-4-12 hex digits",
    rules: &[RULE],
    nss_pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
    pattern_is_exact: true,
    grouped_by_dashes: true,
    examples: &["urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"],
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    generate,
};

/// The equivalence rule (the same in [`KeyRules::V1`](crate::KeyRules::V1) and
/// [`KeyRules::V2`](crate::KeyRules::V2)).
const RULE: Rule = Rule {
    since: KeyRules::V1,
    summary: "hex digits in lower case",
    key,
    // Hex digits in any case: the key is lower case.
    data: KeyRule::Lower {
        when: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$",
    },
};

/// `8HEX-4HEX-4HEX-4HEX-12HEX`, any case.
pub(crate) const fn validate(nss: &str) -> Result<(), Fault> {
    match scan(nss) {
        Some(_) => Ok(()),
        None => explain(nss.as_bytes()),
    }
}

/// Whether `nss` is a UUID and, if so, whether it holds upper-case hex digits (then its key
/// differs from it): one pass over the 36 bytes with arithmetic tests only (no table loads),
/// which the compiler turns into a few vector operations.
#[inline]
const fn scan(nss: &str) -> Option<bool> {
    let Some(bytes) = nss.as_bytes().first_chunk::<36>() else {
        return None;
    };
    if nss.len() != 36 {
        return None;
    }
    let (mut bad, mut upper) = (false, false);
    let mut i = 0;
    while i < 36 {
        // `i < 36`, the length of both arrays.
        #[allow(clippy::indexing_slicing)]
        let (b, want_dash) = (bytes[i], DASHES[i]);
        let digit = b.wrapping_sub(b'0') < 10;
        let big = b.wrapping_sub(b'A') < 6;
        let small = b.wrapping_sub(b'a') < 6;
        let hex = digit | big | small;
        bad |= if want_dash { b != b'-' } else { !hex };
        upper |= big;
        i += 1;
    }
    if bad { None } else { Some(upper) }
}

/// The positions of the hyphens in `8-4-4-4-12`.
const DASHES: [bool; 36] = {
    let mut dashes = [false; 36];
    dashes[8] = true;
    dashes[13] = true;
    dashes[18] = true;
    dashes[23] = true;
    dashes
};

/// Where and why `bytes` is not a UUID.
#[cold]
const fn explain(bytes: &[u8]) -> Result<(), Fault> {
    let mut start = 0;
    let ends = [8, 13, 18, 23, 36];
    let mut k = 0;
    while k < ends.len() {
        // `k < ends.len()`.
        #[allow(clippy::indexing_slicing)]
        let end = ends[k];
        k += 1;
        let stop = chars::skip(bytes, start, HEX);
        let stop = if stop < end { stop } else { end };
        if stop < end {
            return Err(if stop == bytes.len() {
                fault(stop, "a UUID has 36 characters (8-4-4-4-12 hex digits)")
            } else {
                fault(stop, "expected a hex digit in the 8-4-4-4-12 UUID form")
            });
        }
        match chars::at(bytes, end) {
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
#[inline]
fn key(nss: &str) -> Option<NssKey> {
    let upper = scan(nss)?;
    Some(NssKey::whole(Fold::Lower).unchanged_if(!upper))
}

/// A UUID, its hex digits in any case.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
fn generate(c: &mut dyn Choices, out: &mut alloc::string::String) {
    for (i, n) in [8, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0 {
            out.push('-');
        }
        for _ in 0..n {
            choices::push_from(out, c, choices::HEX);
        }
    }
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
