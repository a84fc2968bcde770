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

/// A `%XX` triplet written as two classes, no `{2}` bound (PostgreSQL's regex engine makes a
/// state per repetition of a bound).
macro_rules! hex_pair {
    () => {
        "%[0-9A-Fa-f][0-9A-Fa-f]"
    };
}

/// The characters a NID has between its first and last (it has 2 to 32).
macro_rules! nid_inner_max {
    () => {
        30
    };
}

/// A letter or digit: what a NID starts and ends with.
macro_rules! nid_edge {
    () => {
        "[A-Za-z0-9]"
    };
}

/// A character of a NID.
macro_rules! nid_char {
    () => {
        "[A-Za-z0-9-]"
    };
}

/// A letter or digit of a canonical key's (lower-case) NID, as a bracket class.
macro_rules! key_nid_edge {
    () => {
        "[a-z0-9]"
    };
}

/// A character of a canonical key's NID, as a bracket class.
macro_rules! key_nid_char {
    () => {
        "[a-z0-9-]"
    };
}

/// The text of [`NID`], as a literal for `concat!`.
macro_rules! nid {
    () => {
        concat!(
            nid_edge!(),
            nid_char!(),
            "{0,",
            nid_inner_max!(),
            "}",
            nid_edge!()
        )
    };
}

/// The URN grammar's pieces in one spelling, as literals for `concat!`: `$q` and `$p` are how
/// `?` and `+` are written (`\\?` in a regex, `[?]` where a backslash cannot stand), the tokens
/// in parentheses a `%XX` triplet (`hex2!()` or `hex_pair!()`). Every pattern of this module
/// and of each SQL rendering is one of these pieces or made of them, so the grammar is written
/// once whatever the spelling.
macro_rules! grammar {
    (nss; $($hex:tt)*) => {
        concat!("(", pchar!(), "|", $($hex)*, ")", "(", pchar_slash!(), "|", $($hex)*, ")*")
    };
    // ?+r: r-component = pchar *( pchar / "/" / "?" ), ended by the first "?=" (so it cannot
    // contain "?="; a run of '?' is never followed by '=').
    (r; $q:tt $p:tt $($hex:tt)*) => {
        concat!(
            "(", $q, $p, "(", pchar!(), "|", $($hex)*, ")",
            "(", pchar_slash!(), "|", $($hex)*, "|", $q, "+(",
            "[", pchar_head!(), pchar_tail!(), "/-]", "|", $($hex)*, "))*", $q, "*)?",
        )
    };
    // ?=q: q-component = pchar *( pchar / "/" / "?" ), ended by '#'.
    (q; $q:tt $($hex:tt)*) => {
        concat!(
            "(", $q, "=(", pchar!(), "|", $($hex)*, ")(", pchar_slash_question!(), "|",
            $($hex)*, ")*)?",
        )
    };
    // #f: f-component = *( pchar / "/" / "?" ), possibly empty.
    (f; $($hex:tt)*) => {
        concat!("(#(", pchar_slash_question!(), "|", $($hex)*, ")*)?")
    };
    (components; $q:tt $p:tt $($hex:tt)*) => {
        concat!(
            grammar!(r; $q $p $($hex)*),
            grammar!(q; $q $($hex)*),
            grammar!(f; $($hex)*),
        )
    };
    // The grammar of text without `%` (no `%XX` alternative).
    (nss_plain) => {
        concat!(pchar!(), pchar_slash!(), "*")
    };
    (f_plain) => {
        concat!("(#", pchar_slash_question!(), "*)?")
    };
}

/// The text of [`NSS`], as a literal for `concat!`.
macro_rules! nss {
    () => {
        grammar!(nss; hex2!())
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
pub const NID_CHAR: &str = nid_char!();

/// A letter or digit, as a bracket class: what a NID starts and ends with.
pub const NID_EDGE: &str = nid_edge!();

/// The most characters a NID has (RFC 8141 and RFC 2141); the fewest is the syntax's
/// ([`Syntax::min_nid_len`](crate::Syntax::min_nid_len)).
pub const NID_MAX_LEN: usize = nid_inner_max!() + 2;

/// The scheme, `urn:` in any case, as the patterns match it.
pub const SCHEME: &str = "[Uu][Rr][Nn]:";

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

/// The optional `?+r`, `?=q` and `#f` components, in that order.
pub const COMPONENTS: &str = grammar!(components; "\\?" "\\+" hex2!());

/// RFC 8141 `namestring`: exactly what [`Urn::parse`](crate::Urn::parse) accepts (up to the
/// length cap).
pub const URN: &str = concat!(
    "^[Uu][Rr][Nn]:",
    nid!(),
    ":",
    nss!(),
    grammar!(components; "\\?" "\\+" hex2!()),
    "$"
);

/// The grammar spelled for an SQL string literal: no backslash (a `\\?` would mean another
/// thing under `standard_conforming_strings = off` or MariaDB's `NO_BACKSLASH_ESCAPES`), `?`
/// and `+` written `[?]` and `[+]`. The same pieces as the patterns above, in their other
/// spellings; urn-sql's renderings are made of these.
pub mod sql {
    /// [`URN`](super::URN) in this spelling (MariaDB's `REGEXP`).
    pub const URN: &str = concat!(
        "^[Uu][Rr][Nn]:",
        nid!(),
        ":",
        nss!(),
        grammar!(components; "[?]" "[+]" hex2!()),
        "$"
    );

    /// The NSS, its `%XX` as two classes (PostgreSQL's regex engine makes a state per
    /// repetition of a bound, measured 35% slower).
    pub const NSS: &str = grammar!(nss; hex_pair!());

    /// The r-component (`?+…`), optional, as [`NSS`] spells it.
    pub const R_COMPONENT: &str = grammar!(r; "[?]" "[+]" hex_pair!());

    /// The q-component (`?=…`), optional, as [`NSS`] spells it.
    pub const Q_COMPONENT: &str = grammar!(q; "[?]" hex_pair!());

    /// The f-component (`#…`), optional, as [`NSS`] spells it.
    pub const F_COMPONENT: &str = grammar!(f; hex_pair!());

    /// The NSS of text without `%`.
    pub const NSS_PLAIN: &str = grammar!(nss_plain);

    /// The f-component of text without `%`.
    pub const F_COMPONENT_PLAIN: &str = grammar!(f_plain);

    /// A canonical key's NSS (`%XX` with upper-case hex digits), its `%XX` as two classes.
    pub const KEY_NSS: &str = grammar!(nss; "%[0-9A-F][0-9A-F]");

    /// A letter or digit of a canonical key's (lower-case) NID.
    pub const KEY_NID_EDGE: &str = key_nid_edge!();

    /// A character of a canonical key's NID.
    pub const KEY_NID_CHAR: &str = key_nid_char!();
}

/// The RFC 8141 section 3 canonical form: lower-case `urn` and NID, upper-case hex in
/// `%XX`, no r-, q- or f-component.
///
/// Every [`UrnKey`](crate::UrnKey) of an RFC 8141 URN matches it (the key of an RFC 2141 URN
/// may have a one-character NID, or one ending in `-`, which it refuses). The converse also
/// needs the namespace rules
/// (`urn:uuid:` keys are lower case, `urn:isbn:` keys have no hyphens, …), which
/// [`UrnKey::parse`](crate::UrnKey::parse) checks on top.
pub const URN_KEY: &str = concat!(
    "^urn:",
    key_nid_edge!(),
    key_nid_char!(),
    "{0,",
    nid_inner_max!(),
    "}",
    key_nid_edge!(),
    ":",
    grammar!(nss; "%[0-9A-F]{2}"),
    "$",
);

/// Whether byte `b` is in the bracket class `class` (`[…]` of single characters and `a-z`
/// ranges; a `-` first or last is literal), read in a `const fn`: the classes of this module
/// are the one list of each set of characters, and the parser's byte table and every
/// rendering that reads a class read it with this.
///
/// ```
/// assert!(urn_core::patterns::in_class(urn_core::patterns::PCHAR, b'~'));
/// assert!(!urn_core::patterns::in_class(urn_core::patterns::PCHAR, b'/'));
/// ```
#[must_use]
pub const fn in_class(class: &str, b: u8) -> bool {
    /// Byte `i` of `text`, in a `const fn`.
    const fn byte_at(text: &[u8], i: usize) -> Option<u8> {
        match text.split_at_checked(i) {
            Some((_, [b, ..])) => Some(*b),
            _ => None,
        }
    }
    let text = class.as_bytes();
    // Inside the brackets.
    let (mut i, end) = (1, text.len().saturating_sub(1));
    while i < end {
        let (Some(first), next, last) =
            (byte_at(text, i), byte_at(text, i + 1), byte_at(text, i + 2))
        else {
            break;
        };
        match (next, last) {
            (Some(b'-'), Some(last)) if i + 2 < end => {
                if first <= b && b <= last {
                    return true;
                }
                i += 3;
            }
            _ => {
                if first == b {
                    return true;
                }
                i += 1;
            }
        }
    }
    false
}

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
