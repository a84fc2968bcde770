//! [`KeyRule`]: a namespace's equivalence rule in one version of [`KeyRules`](crate::KeyRules)
//! written as data, the one description from which every other language's key function is
//! rendered (urn-sql's PL/pgSQL arms and MariaDB expression). urn-core's own key functions are
//! hand-written for speed beside each rule, and a property test holds them to it.

/// How a known namespace's rule in one version of [`KeyRules`](crate::KeyRules) maps an NSS
/// into the key, as data ([`KnownNamespace::key_rule`](crate::KnownNamespace::key_rule)).
///
/// A rule applies only to an NSS that is valid for its namespace; any other NSS keeps the
/// generic RFC 8141 key (the NSS as written). Whatever the rule, the hex digits of every `%XX`
/// come out upper case afterwards, and the key's `urn:` and NID are lower case.
///
/// A pattern (`when`) is a regular expression that must match at the start of the NSS
/// (`^(?:when)`; a `$` inside anchors the end), written in the dialect of
/// [`patterns`](crate::patterns) that PostgreSQL, MariaDB (PCRE2) and Rust's `regex` read
/// alike: classes, `(?:…)`, `|`, `*`, `+`, `{n}`. It is tested only on NSSs that are valid
/// RFC 8141 NSSs.
///
/// ```
/// use urn_core::{KeyRule, KeyRules, KnownNamespace};
/// assert_eq!(
///     KnownNamespace::Mpeg.key_rule(KeyRules::V1),
///     Some(KeyRule::LowerBefore { sep: ':', when: "[A-Za-z0-9.-]+:" }),
/// );
/// assert_eq!(
///     KnownNamespace::Mpeg.key_rule(KeyRules::V2),
///     Some(KeyRule::LowerBefore { sep: ':', when: "[A-Za-z0-9._-]+:" }),
/// );
/// assert_eq!(KnownNamespace::Oid.key_rule(KeyRules::V2), None); // the generic key
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyRule {
    /// The whole NSS in lower case, when it matches `when` (a UUID: hex digits in any case).
    Lower {
        /// The NSSs the rule applies to.
        when: &'static str,
    },
    /// The part of the NSS before its first `sep` in lower case and the rest as written, when
    /// the NSS matches `when` (which then holds a `sep`).
    LowerBefore {
        /// Where the case-insensitive part ends.
        sep: char,
        /// The NSSs the rule applies to.
        when: &'static str,
    },
    /// An identifier of digits with a check character (ISBN, ISSN).
    CheckDigits(CheckDigits),
    /// An identifier of letters and digits with two ISO/IEC 7064 MOD 97-10 check digits (an
    /// LEI): when the NSS matches `when` and its characters, each letter read as its two-digit
    /// value in base 36 (`A` is 10, …, `Z` is 35), make a decimal number that leaves 1 when
    /// divided by 97, the whole NSS in upper case.
    Mod97 {
        /// The NSSs the rule applies to (the check aside).
        when: &'static str,
    },
    /// A name of a prefix and a suffix, apart by a separator that the namespace writes in two
    /// ways (a DOI name: `10.123/456`, and `10.123:456` in the DOI Handbook's URN form): when
    /// the NSS matches `when`, the whole NSS in lower case, its first character of
    /// `separators` written as `separator`, and every `%XX` that encodes `separator` (any case
    /// of its hex digits) written as `separator` itself.
    Separated {
        /// The NSSs the rule applies to.
        when: &'static str,
        /// The characters that may end the prefix (the first one in the NSS does).
        separators: &'static str,
        /// What the key writes there, and for each `%XX` that encodes it.
        separator: char,
    },
}

impl KeyRule {
    /// Whether an NSS without `%` and without an upper-case letter is always its own key under
    /// this rule (the rule only lower-cases): what SQL renderings test first, to skip the
    /// namespaces' arms for most URNs. False for rules that drop, add or replace characters
    /// or write upper case.
    ///
    /// ```
    /// use urn_core::{KeyRules, KnownNamespace};
    /// let rule = |ns: KnownNamespace| ns.key_rule(KeyRules::V2).unwrap();
    /// assert!(rule(KnownNamespace::Uuid).lower_case_is_key());
    /// assert!(!rule(KnownNamespace::Isbn).lower_case_is_key()); // hyphens dropped
    /// assert!(!rule(KnownNamespace::Lei).lower_case_is_key()); // upper case
    /// assert!(!rule(KnownNamespace::Doi).lower_case_is_key()); // `10.1:a` is `10.1/a`
    /// ```
    #[must_use]
    pub const fn lower_case_is_key(&self) -> bool {
        matches!(self, KeyRule::Lower { .. } | KeyRule::LowerBefore { .. })
    }
}

/// A [`KeyRule::CheckDigits`] identifier: hyphens where [`Hyphens`] allows them, then one of
/// the [`DigitForm`]s once the hyphens are dropped and an `x` read as `X`. The key is the
/// characters alone, `X` upper case, with a hyphen after [`CheckDigits::key_hyphen_after`]
/// of them if that is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct CheckDigits {
    /// Where hyphens may stand.
    pub hyphens: Hyphens,
    /// The forms the characters may take (ISBN: 13 or 10 of them).
    pub forms: &'static [DigitForm],
    /// Where the key has a hyphen (after this many characters), or `None` for none.
    pub key_hyphen_after: Option<usize>,
}

/// Where a [`CheckDigits`] identifier may hold hyphens; anywhere else a hyphen makes it
/// invalid for its namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Hyphens {
    /// Single hyphens between characters, at most `max` of them (not first, not last, never
    /// two in a row).
    Between {
        /// The most hyphens an identifier holds.
        max: usize,
    },
    /// At most one, right after the first `after` characters.
    OptionalAfter {
        /// How many characters come before it.
        after: usize,
    },
}

/// One form of the characters of a [`CheckDigits`] identifier (hyphens dropped, `X` upper
/// case): as many characters as weights, all digits but a last `X` where allowed, starting with
/// one of the prefixes, and the weighted sum of their values (`X` is 10) a multiple of the
/// modulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DigitForm {
    /// What the characters start with, one of these (empty: no prefix required).
    pub prefixes: &'static [&'static str],
    /// The weight of each character, in order: their number is the form's length.
    pub weights: &'static [u32],
    /// The weighted sum is a multiple of this.
    pub modulus: u32,
    /// Whether the last character may be `X`, worth 10.
    pub x_last: bool,
}

impl DigitForm {
    /// The number of characters.
    ///
    /// ```
    /// use urn_core::{KeyRule, KeyRules, KnownNamespace};
    /// let Some(KeyRule::CheckDigits(issn)) = KnownNamespace::Issn.key_rule(KeyRules::V1) else { unreachable!() };
    /// assert_eq!(issn.forms[0].len(), 8);
    /// ```
    #[must_use]
    pub const fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether the form has no characters (never, for a known namespace).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }
}
