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

/// The characters of a pchar other than a `%XX` triplet up to `;` (RFC 3986 unreserved and
/// sub-delims, `=` apart), for the bracket classes below.
macro_rules! pchar_head {
    () => {
        "A-Za-z0-9._~!$&'()*+,;"
    };
}

/// The last characters of a pchar, `:` and `@` (`-` ends every class, so it is literal).
macro_rules! pchar_tail {
    () => {
        ":@"
    };
}

/// A pchar other than `%XX`: `[A-Za-z0-9._~!$&'()*+,;=:@-]`.
macro_rules! pchar {
    () => {
        concat!("[", pchar_head!(), "=", pchar_tail!(), "-]")
    };
}

/// A pchar other than `%XX`, or `/`: what continues an NSS or an r-component.
macro_rules! pchar_slash {
    () => {
        concat!("[", pchar_head!(), "=", pchar_tail!(), "/-]")
    };
}

/// A pchar other than `%XX`, `/` or `?`: what continues a q- or f-component.
macro_rules! pchar_slash_question {
    () => {
        concat!("[", pchar_head!(), "=", pchar_tail!(), "/?-]")
    };
}

/// Two hex digits of a `%XX` triplet, any case.
macro_rules! hex2 {
    () => {
        "%[0-9A-Fa-f]{2}"
    };
}

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
            "(",
            pchar!(),
            "|",
            hex2!(),
            ")",
            "(",
            pchar_slash!(),
            "|",
            hex2!(),
            ")*",
        )
    };
}

/// A pchar other than a `%XX` triplet, as a bracket class: the one list of those characters,
/// which the parser's byte table (and every rendering of the grammar) is made from.
pub const PCHAR: &str = pchar!();

/// [`PCHAR`] or `/`: the characters that continue an NSS or an r-component (with `%XX`).
pub const PCHAR_SLASH: &str = pchar_slash!();

/// [`PCHAR`], `/` or `?`: the characters that continue a q- or f-component (with `%XX`).
pub const PCHAR_SLASH_QUESTION: &str = pchar_slash_question!();

/// A hex digit in any case, as a bracket class (the digits of `%XX`).
pub const HEX_DIGIT: &str = "[0-9A-Fa-f]";

/// A character of a NID, as a bracket class.
pub const NID_CHAR: &str = "[A-Za-z0-9-]";

/// The white space the parser names around a URN ([`ErrorKind::Empty`],
/// [`ErrorKind::LeadingWhitespace`], [`ErrorKind::TrailingWhitespace`]): Unicode's
/// `White_Space` property (what `char::is_whitespace` says), as inclusive ranges, for code in
/// other languages that must name the same.
///
/// [`ErrorKind::Empty`]: crate::ErrorKind::Empty
/// [`ErrorKind::LeadingWhitespace`]: crate::ErrorKind::LeadingWhitespace
/// [`ErrorKind::TrailingWhitespace`]: crate::ErrorKind::TrailingWhitespace
///
/// ```
/// assert!(urn_core::patterns::WHITE_SPACE.contains(&('\u{3000}', '\u{3000}')));
/// ```
pub const WHITE_SPACE: &[(char, char)] = &[
    ('\u{9}', '\u{d}'),
    (' ', ' '),
    ('\u{85}', '\u{85}'),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
];

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
            "(\\?\\+(",
            pchar!(),
            "|",
            hex2!(),
            ")",
            "(",
            pchar_slash!(),
            "|",
            hex2!(),
            "|\\?+(",
            "[",
            pchar_head!(),
            pchar_tail!(),
            "/-]",
            "|",
            hex2!(),
            "))*\\?*)?",
            // ?=q: q-component = pchar *( pchar / "/" / "?" ), ended by '#'.
            "(\\?=(",
            pchar!(),
            "|",
            hex2!(),
            ")(",
            pchar_slash_question!(),
            "|",
            hex2!(),
            ")*)?",
            // #f: f-component = *( pchar / "/" / "?" ), possibly empty.
            "(#(",
            pchar_slash_question!(),
            "|",
            hex2!(),
            ")*)?",
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
    "(",
    pchar!(),
    "|%[0-9A-F]{2})",
    "(",
    pchar_slash!(),
    "|%[0-9A-F]{2})*$",
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

    /// The texts the macros make (the way the other crates and documents read them).
    #[test]
    fn the_classes_read_as_written() {
        assert_eq!(PCHAR, "[A-Za-z0-9._~!$&'()*+,;=:@-]");
        assert_eq!(
            NSS,
            "([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})([A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*"
        );
        assert!(COMPONENTS.starts_with("(\\?\\+([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})"));
        assert!(COMPONENTS.contains("|\\?+([A-Za-z0-9._~!$&'()*+,;:@/-]|%[0-9A-Fa-f]{2}))*\\?*)?"));
        assert!(COMPONENTS.ends_with("(#([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?"));
    }

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
