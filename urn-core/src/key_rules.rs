//! [`KeyRules`]: which equivalence rules a key follows. Its own module because the parser, the
//! namespace rules and the key all name it, and none of them should depend on another for it.

/// A versioned set of equivalence rules.
///
/// A key stored in a database must never change meaning silently, so rules are never edited
/// in place: a new rule means a new version, and stored keys are recomputed deliberately. The
/// crate README lists the candidates for a future `V2` (lex jurisdiction units, mpeg names
/// with `_`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum KeyRules {
    /// RFC 8141 section 3 alone: lowercase `urn` and the NID, uppercase the hex digits of
    /// every `%XX` in the NSS, drop the r-, q- and f-components. Nothing is decoded.
    Rfc8141,
    /// RFC 8141 section 3 plus the equivalence rules of the namespaces' own registrations,
    /// each applied only when the NSS is valid for its namespace:
    /// `uuid` (hex digits in lower case), `isbn` (hyphens dropped, `X` upper case),
    /// `issn` (`NNNN-NNNC`, `X` upper case), `ietf` RFC 2648 names (`rfc`, `fyi`, `std`,
    /// `bcp`, `id`, `mtg`: the whole name in lower case; `urn:ietf:params:` is left to the
    /// generic rule), `nbn` (the prefix before the first `-` in lower case), `lex` (the NSS
    /// in lower case, hex digits stay upper case), `mpeg` (the standard name in lower case).
    #[default]
    V1,
}

impl KeyRules {
    /// The rules [`Urn::key`](crate::Urn::key) applies.
    pub const CURRENT: KeyRules = KeyRules::V1;
}
