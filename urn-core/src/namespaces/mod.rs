//! The namespaces this crate knows: one file each, holding everything about its namespace
//! ([`Spec`]: NID, title, NSS syntax, its equivalence rule in each version of
//! [`KeyRules`](crate::KeyRules), the schema pattern, examples, the generator), and one table,
//! [`known_namespaces!`],
//! from which every list in the workspace is derived: [`KnownNamespace`], the typed aliases
//! (`IsbnUrn`), the JSON Schemas, the CLI's help and the generators.
//!
//! # Adding a namespace
//!
//! A namespace is 2 hand-edited files, its own and this one (its table row); everything else
//! is derived from them or written by `bash .ci/bless`, and each derived file has a test that
//! fails until it is written:
//!
//! 1. Write `namespaces/<nid>.rs` with a `pub(crate) const SPEC: Spec` and a
//!    `pub(crate) const fn validate(nss: &str) -> Result<(), Fault>` (see `ogc.rs` for one
//!    without an equivalence rule, `nbn.rs` for one with), citing the namespace's
//!    registration in its module docs. `validate` is the one check, run by parsing an `NsUrn`,
//!    by `validate_namespace` and, at compile time, by `urn!(<nid>: "…")`; it names the byte
//!    and the rule for any NSS it refuses. The `nss_pattern` accepts at least every NSS
//!    `validate` accepts (and nothing that is not an NSS); the examples are valid; `generate`
//!    writes valid NSSs of every shape; `syntax` says in a few words what an NSS is.
//! 2. Add its row to [`known_namespaces!`](crate::known_namespaces) (the enum variant, the
//!    module, the typed alias) and its `mod` line. [`KnownNamespace`], the typed alias and its
//!    marker in [`ns`](crate::ns), the prelude, the parser's fast check ([`rule_namespace`]),
//!    urnkit's class, the JSON Schema documents, the CLI's help, the README's table and the
//!    generators follow.
//! 3. An equivalence rule changes keys, so it comes only with a new
//!    [`KeyRules`](crate::KeyRules) version (a stored key never changes meaning; the recipe is
//!    in [`key_versions!`](crate::key_versions)): the `Spec` gets a [`Rule`] starting in that
//!    version (`rules: &[Rule { since: KeyRules::V3, summary, key, data }]`, the hand-written
//!    `key` and the same rule as [`KeyRule`] data, held equal by `tests/key_rule_table.rs`). A
//!    rule shape the renderers do not know yet (a new [`KeyRule`] variant) is also rendered in
//!    urn-sql's `postgres/key_functions.rs` and `mariadb/expression.rs` and interpreted in
//!    `tests/key_rule_table.rs`.
//! 4. Run `bash .ci/bless`: the JSON Schema in `schemas/`, the README's table, urnkit's class
//!    list and, with a rule, the SQL key functions.
//! 5. Note it in the CHANGELOG, as every change.
//!
//! `examples/tests/docs.rs` holds the count: no other hand-written file names every namespace,
//! and no hand-written paragraph lists them.

use alloc::borrow::Cow;
use core::fmt;

#[cfg(any(feature = "arbitrary", feature = "proptest"))]
use crate::choices::Choices;
use crate::key_rule::KeyRule;
use crate::key_rules::KeyRules;
use crate::nss_key::NssKey;

mod doi;
mod example;
mod ietf;
mod isbn;
mod issn;
mod lei;
mod lex;
mod mpeg;
mod nbn;
mod ogc;
mod oid;
mod uuid;

/// Where an NSS breaks its namespace's syntax: a byte offset into the NSS and a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) at: usize,
    pub(crate) reason: &'static str,
}

pub(crate) const fn fault(at: usize, reason: &'static str) -> Fault {
    Fault { at, reason }
}

/// Where a name of ASCII letters, digits and the bytes of `also` that starts `bytes` ends.
pub(crate) const fn name_end(bytes: &[u8], also: &[u8]) -> usize {
    let mut i = 0;
    'bytes: while let Some(b) = crate::chars::at(bytes, i) {
        if !b.is_ascii_alphanumeric() {
            let mut k = 0;
            while let Some(a) = crate::chars::at(also, k) {
                if a == b {
                    i += 1;
                    continue 'bytes;
                }
                k += 1;
            }
            break;
        }
        i += 1;
    }
    i
}

/// Everything this crate knows about one namespace, declared once in its module.
pub(crate) struct Spec {
    /// The NID, lower case.
    pub(crate) nid: &'static str,
    /// How people write the namespace's name in a title (`ISBN`).
    pub(crate) title: &'static str,
    /// The document that defines its syntax and equivalence.
    pub(crate) reference: &'static str,
    /// What the NSS must be, in a few words of Markdown (the README's namespace table).
    pub(crate) syntax: &'static str,
    /// The namespace's equivalence rules, each given once with the version it starts in and
    /// applying until a later one replaces it, oldest first; none: the generic key in every
    /// version.
    pub(crate) rules: &'static [Rule],
    /// A regular expression (no anchors, see [`patterns`](crate::patterns)) that accepts
    /// every NSS `validate` accepts.
    pub(crate) nss_pattern: &'static str,
    /// Whether `nss_pattern` accepts exactly what `validate` accepts (check digits are not
    /// regular, so some patterns accept a superset).
    pub(crate) pattern_is_exact: bool,
    /// Whether the syntax writes `-` between groups of characters (`978-0-395-36341-6`), so
    /// that [`repair`](crate::repair) may read a Unicode dash or a space in the NSS as one.
    pub(crate) grouped_by_dashes: bool,
    /// Valid URNs of the namespace, for documentation and schema `examples`.
    pub(crate) examples: &'static [&'static str],
    /// Appends a valid NSS of the namespace, of every shape it has (the generators).
    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    pub(crate) generate: fn(&mut dyn Choices, &mut alloc::string::String),
}

/// A namespace's equivalence rule in one version of [`KeyRules`](crate::KeyRules), twice: as
/// code and as data. A property test (`tests/key_rule_table.rs`) holds the two equal.
#[derive(Clone, Copy)]
pub(crate) struct Rule {
    /// The first version of [`KeyRules`](crate::KeyRules) the rule is in.
    pub(crate) since: KeyRules,
    /// What the rule does, in a few words of Markdown (the README's namespace table).
    pub(crate) summary: &'static str,
    /// How a valid NSS maps into the key; `None` for an NSS the rule does not apply to (it is
    /// not valid for the namespace). Hand-written for speed.
    pub(crate) key: fn(&str) -> Option<NssKey>,
    /// The same rule as data, for renderers in other languages (urn-sql's SQL).
    pub(crate) data: KeyRule,
}

impl Spec {
    /// The namespace's rule under `rules`, if it has one: the latest of its rules that starts
    /// in `rules` or before (a reference: the key path reads only its function).
    #[inline(always)]
    pub(crate) const fn rule(&self, rules: KeyRules) -> Option<&Rule> {
        let mut found = None;
        let mut rest = self.rules;
        while let [first, tail @ ..] = rest {
            // (`KeyRules` is ordered oldest first, `Rfc8141` before every version.)
            if first.since as u8 <= rules as u8 {
                found = Some(first);
            }
            rest = tail;
        }
        found
    }
}

/// The one table of known namespaces: a row per namespace, naming its [`KnownNamespace`]
/// variant (with the variant's documentation), the module that declares its [`Spec`], and
/// its typed alias. Passes the rows to the macro `$then` (`$(#[doc] Variant => module,
/// Alias;)*`), so each list is derived from here: in this crate, and in the bindings that
/// declare something per namespace (urnkit's classes), which call
/// `urn_core::known_namespaces!(their_macro)` and use the variant and the alias.
#[doc(hidden)]
#[macro_export]
macro_rules! known_namespaces {
    ($then:ident) => {
        $then! {
            /// `urn:uuid:` (RFC 9562): 8-4-4-4-12 hex digits, case-insensitive.
            Uuid => uuid, UuidUrn;
            /// `urn:isbn:` (RFC 3187 and the ISBN Agency template): ISBN-10 or ISBN-13 with a
            /// valid check digit, hyphens optional and not significant.
            Isbn => isbn, IsbnUrn;
            /// `urn:issn:` (RFC 3044 and the ISSN Centre template): `NNNN-NNNC` with a valid
            /// check character, the hyphen optional.
            Issn => issn, IssnUrn;
            /// `urn:ietf:` (RFC 2648): `rfc:N`, `fyi:N`, `std:N`, `bcp:N`, `id:name`,
            /// `mtg:name`, and `params:...` (RFC 3553); no percent-encoding.
            Ietf => ietf, IetfUrn;
            /// `urn:oid:` (RFC 3061): dotted decimal without leading zeros.
            Oid => oid, OidUrn;
            /// `urn:nbn:` (RFC 8458): `cc[:sub]*-string`, the prefix case-insensitive.
            Nbn => nbn, NbnUrn;
            /// `urn:lex:` (RFC 9676): `jurisdiction:...`, case-insensitive.
            Lex => lex, LexUrn;
            /// `urn:mpeg:` (RFC 3614): `standard:...`, the standard name case-insensitive.
            Mpeg => mpeg, MpegUrn;
            /// `urn:ogc:` (RFC 5165): `resource:...` for the Open Geospatial Consortium's
            /// definitions, specifications and services (`urn:ogc:def:crs:EPSG::4326`);
            /// case-sensitive.
            Ogc => ogc, OgcUrn;
            /// `urn:example:` (RFC 6963): any NSS; for documentation and tests only.
            Example => example, ExampleUrn;
            /// `urn:doi:` (the DOI Foundation's registration; the DOI Handbook): a DOI name,
            /// `prefix/suffix`, or `prefix:suffix` as the Handbook's URN form writes it;
            /// ASCII letters case-insensitive.
            Doi => doi, DoiUrn;
            /// `urn:lei:` (GLEIF's registration; ISO 17442): a Legal Entity Identifier, 20
            /// letters and digits with ISO/IEC 7064 MOD 97-10 check digits, case-insensitive.
            Lei => lei, LeiUrn;
        }
    };
}

/// Declares [`KnownNamespace`] and its table lookups from the rows of [`known_namespaces!`].
macro_rules! declare_known_namespace {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        /// A namespace whose NSS syntax this crate knows.
        ///
        /// Each has its own syntax check ([`KnownNamespace::validate_nss`]), a typed alias
        /// (`NsUrn` of its marker in [`ns`](crate::ns): [`IsbnUrn`](crate::IsbnUrn), …), a
        /// JSON Schema pattern and examples; some have an equivalence rule of their own
        /// ([`KnownNamespace::has_key_rule`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum KnownNamespace {
            $($(#[$doc])* $variant,)*
        }

        impl KnownNamespace {
            /// Every known namespace.
            pub const ALL: &'static [KnownNamespace] = &[$(KnownNamespace::$variant),*];

            /// Everything known about this namespace.
            pub(crate) const fn spec(self) -> &'static Spec {
                match self {
                    $(KnownNamespace::$variant => &$module::SPEC,)*
                }
            }

            /// The namespace with a rule whose NID of `LEN` bytes (3 or 4) is the folded
            /// `word` ([`rule_namespace`]): one comparison per namespace, with words made when
            /// the crate is compiled.
            #[inline(always)]
            const fn ruled_of_word<const LEN: usize>(word: u32) -> Option<KnownNamespace> {
                $(if word == const { ruled_word::<LEN>(&$module::SPEC) } {
                    return Some(KnownNamespace::$variant);
                })*
                None
            }

            /// Checks `nss` against this namespace's syntax (offsets into the NSS): each
            /// module's `validate`, a `const fn`, so that run-time checks and the typed
            /// literal `urn!(isbn: "…")` run the same code.
            pub(crate) const fn validate(self, nss: &str) -> Result<(), Fault> {
                match self {
                    $(KnownNamespace::$variant => $module::validate(nss),)*
                }
            }

            /// The mapping of `nss` under `rules`, when this namespace has a rule there and
            /// `nss` is valid for it. One `match` of direct calls, so the key of a URN costs
            /// no indirect call.
            #[inline]
            pub(crate) fn key(self, rules: KeyRules, nss: &str) -> Option<NssKey> {
                match self {
                    $(KnownNamespace::$variant => match $module::SPEC.rule(rules) {
                        Some(rule) => (rule.key)(nss),
                        None => None,
                    },)*
                }
            }
        }
    };
}

crate::known_namespaces!(declare_known_namespace);

impl KnownNamespace {
    /// The namespace of a NID (compared case-insensitively).
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert_eq!(KnownNamespace::from_nid("ISBN"), Some(KnownNamespace::Isbn));
    /// assert_eq!(KnownNamespace::from_nid("ngsi-ld"), None);
    /// ```
    pub fn from_nid(nid: &str) -> Option<Self> {
        KnownNamespace::ALL
            .iter()
            .copied()
            .find(|ns| ns.nid().eq_ignore_ascii_case(nid))
    }

    /// The lower-case NID.
    pub const fn nid(self) -> &'static str {
        self.spec().nid
    }

    /// The namespace's name as people write it in a title (`"ISBN"`, `"Example"`).
    ///
    /// ```
    /// assert_eq!(urn_core::KnownNamespace::Isbn.title(), "ISBN");
    /// ```
    pub const fn title(self) -> &'static str {
        self.spec().title
    }

    /// The document that defines the namespace's syntax and equivalence (`"RFC 3187"`).
    pub const fn reference(self) -> &'static str {
        self.spec().reference
    }

    /// What the NSS must be, in a few words of Markdown (`"dotted decimal"`): for tables of
    /// the namespaces, such as the one urn-core's README renders from these.
    ///
    /// ```
    /// assert_eq!(urn_core::KnownNamespace::Oid.syntax(), "dotted decimal");
    /// ```
    pub const fn syntax(self) -> &'static str {
        self.spec().syntax
    }

    /// What the namespace's equivalence rule under `rules` does, in a few words of Markdown;
    /// `None` where it has none (the generic RFC 8141 key).
    ///
    /// ```
    /// use urn_core::{KeyRules, KnownNamespace};
    /// assert_eq!(KnownNamespace::Lei.key_rule_summary(KeyRules::V2), Some("upper case"));
    /// assert_eq!(KnownNamespace::Lei.key_rule_summary(KeyRules::V1), None);
    /// ```
    pub const fn key_rule_summary(self, rules: KeyRules) -> Option<&'static str> {
        match self.spec().rule(rules) {
            Some(rule) => Some(rule.summary),
            None => None,
        }
    }

    /// Whether the namespace has an equivalence rule of its own under `rules` (otherwise its
    /// URNs get the generic RFC 8141 key).
    ///
    /// ```
    /// use urn_core::{KeyRules, KnownNamespace};
    /// assert!(KnownNamespace::Isbn.has_key_rule(KeyRules::V1));
    /// assert!(!KnownNamespace::Doi.has_key_rule(KeyRules::V1));
    /// assert!(KnownNamespace::Doi.has_key_rule(KeyRules::V2));
    /// assert!(!KnownNamespace::Oid.has_key_rule(KeyRules::V2));
    /// ```
    pub const fn has_key_rule(self, rules: KeyRules) -> bool {
        self.spec().rule(rules).is_some()
    }

    /// The namespace's equivalence rule under `rules` as data, for code in other languages
    /// that must compute the same keys (urn-sql renders its SQL key functions from it); `None`
    /// for a namespace with the generic RFC 8141 key there.
    ///
    /// ```
    /// use urn_core::{KeyRule, KeyRules, KnownNamespace};
    /// assert!(matches!(KnownNamespace::Isbn.key_rule(KeyRules::V1), Some(KeyRule::CheckDigits(_))));
    /// assert!(matches!(KnownNamespace::Lei.key_rule(KeyRules::V2), Some(KeyRule::Mod97 { .. })));
    /// assert_eq!(KnownNamespace::Ogc.key_rule(KeyRules::V2), None);
    /// ```
    pub const fn key_rule(self, rules: KeyRules) -> Option<KeyRule> {
        match self.spec().rule(rules) {
            Some(rule) => Some(rule.data),
            None => None,
        }
    }

    /// A regular expression for the NSS (no anchors; see [`patterns`](crate::patterns) for
    /// the dialect) that accepts every NSS [`KnownNamespace::validate_nss`] accepts.
    /// [`patterns::namespace_urn`](crate::patterns::namespace_urn) makes a whole-URN pattern
    /// of it.
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert_eq!(KnownNamespace::Issn.nss_pattern(), "[0-9]{4}-?[0-9]{3}[0-9Xx]");
    /// ```
    pub const fn nss_pattern(self) -> &'static str {
        self.spec().nss_pattern
    }

    /// Whether [`KnownNamespace::nss_pattern`] accepts exactly the valid NSSs (false where a
    /// check digit, which no regular expression can check, is left to the parser).
    pub const fn pattern_is_exact(self) -> bool {
        self.spec().pattern_is_exact
    }

    /// Whether the namespace's syntax writes `-` between groups of characters (isbn, issn,
    /// uuid): [`repair`](crate::repair) reads a Unicode dash or a space in such an NSS as `-`.
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert!(KnownNamespace::Isbn.grouped_by_dashes());
    /// assert!(!KnownNamespace::Doi.grouped_by_dashes());
    /// ```
    #[must_use]
    pub const fn grouped_by_dashes(self) -> bool {
        self.spec().grouped_by_dashes
    }

    /// Valid URNs of this namespace, for documentation and schema `examples`.
    pub const fn examples(self) -> &'static [&'static str] {
        self.spec().examples
    }

    /// Checks an NSS against this namespace's syntax. Offsets in the error count from the
    /// start of the NSS.
    ///
    /// ```
    /// use urn_core::KnownNamespace;
    /// assert!(KnownNamespace::Issn.validate_nss("0317-8471").is_ok());
    /// let err = KnownNamespace::Issn.validate_nss("0317-8472").unwrap_err();
    /// assert_eq!(err.offset(), 8);
    /// assert_eq!(err.to_string(), "invalid issn URN: the check character does not match (byte 8)");
    /// ```
    pub fn validate_nss(self, nss: &str) -> Result<(), NamespaceError> {
        self.validate(nss).map_err(|f| NamespaceError {
            nid: self.nid(),
            offset: f.at,
            reason: Cow::Borrowed(f.reason),
        })
    }
}

impl fmt::Display for KnownNamespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.nid())
    }
}

/// An NSS that breaks its namespace's rules: which namespace, at which byte, and why.
///
/// The one error of namespace validation, for the known namespaces
/// ([`KnownNamespace::validate_nss`], [`Urn::validate_namespace`](crate::Urn::validate_namespace))
/// and for your own ([`Namespace::validate_nss`](crate::Namespace::validate_nss) returns it).
///
/// ```
/// let urn = urn_core::Urn::parse("urn:isbn:0-395-36341-2")?;
/// let err = urn.validate_namespace().unwrap_err();
/// assert_eq!((err.nid(), err.offset()), ("isbn", 21));
/// assert_eq!(err.reason(), "the check digit does not match");
/// assert_eq!(err.to_string(), "invalid isbn URN: the check digit does not match (byte 21)");
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NamespaceError {
    nid: &'static str,
    offset: usize,
    reason: Cow<'static, str>,
}

impl NamespaceError {
    /// An error at byte `offset` of an NSS, for a [`Namespace`](crate::Namespace) validator
    /// (the namespace and the offset into the URN are filled in where it is reported).
    ///
    /// ```
    /// let err = urn_core::NamespaceError::new(3, "a SKU is digits only");
    /// assert_eq!((err.offset(), err.reason()), (3, "a SKU is digits only"));
    /// ```
    pub fn new(offset: usize, reason: impl Into<Cow<'static, str>>) -> Self {
        NamespaceError {
            nid: "",
            offset,
            reason: reason.into(),
        }
    }

    /// The NID (lower case) of the namespace whose rule was broken; empty for an error made
    /// by [`NamespaceError::new`] that has not been reported by a namespace yet.
    pub fn nid(&self) -> &str {
        self.nid
    }

    /// The rule's kind, as every engine names it:
    /// [`ErrorKind::InvalidNss`](crate::ErrorKind::InvalidNss).
    pub const fn kind(&self) -> crate::ErrorKind {
        crate::ErrorKind::InvalidNss
    }

    /// The known namespace whose rule was broken, if it is one.
    pub fn namespace(&self) -> Option<KnownNamespace> {
        KnownNamespace::from_nid(self.nid)
    }

    /// The byte offset at which the rule was broken: into the URN when the error comes from
    /// a URN ([`Urn::validate_namespace`](crate::Urn::validate_namespace), parsing an
    /// [`NsUrn`](crate::NsUrn)), into the NSS when from [`KnownNamespace::validate_nss`] or a
    /// validator.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong, e.g. `"the check digit does not match"`.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The error as reported for namespace `nid`, with the offset moved `by` bytes (from the
    /// NSS into the URN).
    pub(crate) fn reported(mut self, nid: &'static str, by: usize) -> Self {
        self.nid = nid;
        self.offset += by;
        self
    }
}

impl fmt::Display for NamespaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nid.is_empty() {
            write!(f, "invalid NSS: {} (byte {})", self.reason, self.offset)
        } else {
            write!(
                f,
                "invalid {} URN: {} (byte {})",
                self.nid, self.reason, self.offset
            )
        }
    }
}

impl core::error::Error for NamespaceError {}

/// The namespace with an equivalence rule (in any version of [`KeyRules`]) that URNs of `nid`
/// (any case) belong to, if any.
///
/// The parser's fast check, run on every parse: a NID of 3 or 4 bytes (the lengths of the
/// NIDs with a rule today) is compared as one word with the words of the table's NIDs, made
/// when the crate is compiled ([`KnownNamespace::ruled_of_word`]); a NID holds only letters,
/// digits and `-`, for which setting bit `0x20` lower-cases letters and changes nothing else.
/// Any other length is compared letter by letter.
#[inline]
pub(crate) const fn rule_namespace(nid: &[u8]) -> Option<KnownNamespace> {
    match *nid {
        [a, b, c] => {
            KnownNamespace::ruled_of_word::<3>(u32::from_le_bytes([a, b, c, b' ']) | 0x2020_2020)
        }
        [a, b, c, d] => {
            KnownNamespace::ruled_of_word::<4>(u32::from_le_bytes([a, b, c, d]) | 0x2020_2020)
        }
        // (A constant test: false while no NID with a rule has another length.)
        _ if nid.len() < 64 && (OTHER_RULED_LENGTHS >> nid.len()) & 1 == 1 => {
            ruled_of_other_length(KnownNamespace::ALL, nid)
        }
        _ => None,
    }
}

/// The lengths, other than 3 and 4, of the NIDs with a rule, as bits (bit `n` for `n` bytes; a
/// NID is at most 32 bytes): 0 today.
const OTHER_RULED_LENGTHS: u64 = {
    let mut lengths = 0u64;
    let mut rest = KnownNamespace::ALL;
    while let [ns, tail @ ..] = rest {
        let len = ns.spec().nid.len();
        if !ns.spec().rules.is_empty() && len != 3 && len != 4 {
            lengths |= 1 << len;
        }
        rest = tail;
    }
    lengths
};

/// The word [`rule_namespace`] compares for `spec`'s NID when it is `LEN` bytes long (3 or 4)
/// and has a rule, padded with spaces; otherwise 0, which no folded NID is (every byte of one
/// has bit `0x20` set).
const fn ruled_word<const LEN: usize>(spec: &Spec) -> u32 {
    if spec.rules.is_empty() {
        return 0;
    }
    match *spec.nid.as_bytes() {
        [a, b, c] if LEN == 3 => u32::from_le_bytes([a, b, c, b' ']),
        [a, b, c, d] if LEN == 4 => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// The namespace of `among` with a rule whose NID, of neither 3 nor 4 bytes, is `nid` in any
/// case (none today).
const fn ruled_of_other_length(among: &[KnownNamespace], nid: &[u8]) -> Option<KnownNamespace> {
    let mut rest = among;
    while let [ns, tail @ ..] = rest {
        let spec = ns.spec();
        if !spec.rules.is_empty() && spec.nid.as_bytes().eq_ignore_ascii_case(nid) {
            return Some(*ns);
        }
        rest = tail;
    }
    None
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    /// Every spelling of `name` in upper and lower case.
    fn spellings(name: &str) -> Vec<Vec<u8>> {
        (0..(1u32 << name.len()))
            .map(|mask| {
                name.bytes()
                    .enumerate()
                    .map(|(i, b)| {
                        if mask & (1 << i) != 0 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The parser's fast check finds exactly the namespaces the table gives a rule in some
    /// version.
    #[test]
    fn the_fast_rule_check_is_the_table() {
        for &ns in KnownNamespace::ALL {
            let ruled = KeyRules::VERSIONS
                .iter()
                .any(|&rules| ns.has_key_rule(rules));
            let expected = ruled.then_some(ns);
            for nid in spellings(ns.nid()) {
                assert_eq!(rule_namespace(&nid), expected, "{nid:?}");
            }
        }
        for other in [
            "nb", "nbnn", "uuie", "isbm", "issm", "ietg", "mpef", "lexx", "le-", "-uid", "u1id",
            "ab", "urn-7", "nbn-", "ISBN0", "ogd", "exampl", "doj", "lej", "dol", "le", "doi-",
        ] {
            assert_eq!(rule_namespace(other.as_bytes()), None, "{other}");
        }
    }

    /// A NID with a rule of a length the word compare does not cover is found letter by
    /// letter (no such NID today: `lei` stands in for one).
    #[test]
    fn a_ruled_nid_of_another_length_is_found() {
        let among = [KnownNamespace::Oid, KnownNamespace::Lei];
        assert_eq!(
            ruled_of_other_length(&among, b"LeI"),
            Some(KnownNamespace::Lei)
        );
        assert_eq!(ruled_of_other_length(&among, b"oid"), None);
        assert_eq!(ruled_of_other_length(&among, b"lej"), None);
    }

    /// Each namespace's facts agree with each other: the examples are valid for the
    /// namespace, NIDs are distinct and lower case.
    #[test]
    fn every_spec_is_consistent() {
        for (i, &ns) in KnownNamespace::ALL.iter().enumerate() {
            let spec = ns.spec();
            assert_eq!(spec.nid, spec.nid.to_ascii_lowercase());
            assert_eq!(KnownNamespace::from_nid(spec.nid), Some(ns));
            assert!(!spec.examples.is_empty(), "{ns}");
            for example in spec.examples {
                let prefix = alloc::format!("urn:{}:", spec.nid);
                let nss = example
                    .strip_prefix(&prefix)
                    .unwrap_or_else(|| panic!("{example}"));
                let nss = nss.split(['?', '#']).next().unwrap_or_default();
                assert!(ns.validate_nss(nss).is_ok(), "{example}");
            }
            for other in KnownNamespace::ALL.get(i + 1..).unwrap_or_default() {
                assert_ne!(spec.nid, other.nid());
            }
            // Its rules start in versions, each later than the last (a rule that did not
            // change is not restated).
            let starts: alloc::vec::Vec<crate::KeyRules> =
                spec.rules.iter().map(|r| r.since).collect();
            assert!(
                starts.iter().all(|s| crate::KeyRules::VERSIONS.contains(s)),
                "{ns}"
            );
            assert!(starts.windows(2).all(|w| w.first() < w.get(1)), "{ns}");
        }
    }
}
