//! Regular expressions for the URN languages, for JSON Schema `pattern`, SQL `CHECK`s and
//! validators written in other languages.
//!
//! Each full pattern is anchored (`^…$`) and uses only plain groups, bracket classes,
//! `{m,n}` bounds and `|` — no flags, no look-around — so the same text means the same
//! language in ECMA-262 (with or without the `u` flag), Rust `regex`, PCRE and PostgreSQL's
//! `~`. They do not encode the length cap: pair them with `maxLength`
//! [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN).
//!
//! urn-schema's tests check them against the parser on every test vector and on generated
//! strings; urn-sql's tests check that the SQL domains use them verbatim.
//!
//! The NSS patterns of the known namespaces are [`KnownNamespace::nss_pattern`](crate::KnownNamespace::nss_pattern).
//!
//! ```
//! use urn_core::{KnownNamespace, patterns};
//! assert!(patterns::URN.starts_with("^[Uu][Rr][Nn]:"));
//! let isbn = KnownNamespace::Isbn.nss_pattern();
//! assert_eq!(
//!     patterns::namespace_urn("isbn", isbn),
//!     format!("^[Uu][Rr][Nn]:[Ii][Ss][Bb][Nn]:({isbn}){}$", patterns::COMPONENTS),
//! );
//! ```

use alloc::string::String;

/// The text of [`NID`], as a literal for `concat!`.
macro_rules! nid {
    () => {
        "[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]"
    };
}

/// The text of [`NSS`], as a literal for `concat!`.
macro_rules! nss {
    () => {
        concat!(
            "([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})",
            "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*",
        )
    };
}

/// One NID: 2 to 32 letters, digits and hyphens, a letter or digit at both ends.
pub const NID: &str = nid!();

/// One NSS: `pchar *(pchar / "/")`, where a pchar is an unreserved or sub-delims character,
/// `:`, `@` or a `%XX` triplet.
pub const NSS: &str = nss!();

/// The text of [`COMPONENTS`], as a literal for `concat!`.
macro_rules! components {
    () => {
        concat!(
            // ?+r: r-component = pchar *( pchar / "/" / "?" ), ended by the first "?=" (so it
            // cannot contain "?="; a run of '?' is never followed by '=').
            "(\\?\\+([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})",
            "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2}|\\?+([A-Za-z0-9._~!$&'()*+,;:@/-]|%[0-9A-Fa-f]{2}))*\\?*)?",
            // ?=q: q-component = pchar *( pchar / "/" / "?" ), ended by '#'.
            "(\\?=([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?",
            // #f: f-component = *( pchar / "/" / "?" ), possibly empty.
            "(#([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?",
        )
    };
}

/// The optional `?+r`, `?=q` and `#f` components, in that order.
pub const COMPONENTS: &str = components!();

/// RFC 8141 `namestring`: exactly what [`Urn::parse`](crate::Urn::parse) accepts (up to the
/// length cap).
pub const URN: &str = concat!("^[Uu][Rr][Nn]:", nid!(), ":", nss!(), components!(), "$");

/// The RFC 8141 section 3 canonical form: lower-case `urn` and NID, upper-case hex in
/// `%XX`, no r-, q- or f-component.
///
/// Every [`UrnKey`](crate::UrnKey) matches it. The converse also needs the namespace rules
/// (`urn:uuid:` keys are lower case, `urn:isbn:` keys have no hyphens, …), which
/// [`UrnKey::parse`](crate::UrnKey::parse) checks on top.
pub const URN_KEY: &str = concat!(
    "^urn:[a-z0-9][a-z0-9-]{0,30}[a-z0-9]:",
    "([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-F]{2})",
    "([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-F]{2})*$",
);

/// The full pattern for URNs of one namespace: `nid` matched in any case, `nss` (an unanchored
/// alternative-safe fragment such as a [`KnownNamespace::nss_pattern`](crate::KnownNamespace::nss_pattern))
/// as the NSS, then the usual components.
///
/// The caller must pass an `nss` fragment that only matches valid NSS text, so the result
/// never accepts a string [`URN`] rejects.
#[must_use]
pub fn namespace_urn(nid: &str, nss: &str) -> String {
    let mut out = String::from("^[Uu][Rr][Nn]:");
    for c in nid.chars() {
        if c.is_ascii_alphabetic() {
            out.push('[');
            out.push(c.to_ascii_uppercase());
            out.push(c.to_ascii_lowercase());
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out.push_str(":(");
    out.push_str(nss);
    out.push(')');
    out.push_str(COMPONENTS);
    out.push('$');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urn_is_made_of_the_parts() {
        assert_eq!(
            URN,
            alloc::format!("^[Uu][Rr][Nn]:{NID}:{NSS}{COMPONENTS}$")
        );
        assert_eq!(
            namespace_urn("ex-1", NSS),
            alloc::format!("^[Uu][Rr][Nn]:[Ee][Xx]-1:({NSS}){COMPONENTS}$")
        );
    }
}
