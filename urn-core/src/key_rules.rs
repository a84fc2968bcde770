//! [`KeyRules`]: which equivalence rules a key follows. Its own module because the parser, the
//! namespace rules and the key all name it, and none of them should depend on another for it.

use core::fmt;
use core::str::FromStr;

/// A versioned set of equivalence rules.
///
/// A key stored in a database must never change meaning silently, so rules are never edited
/// in place: a new rule means a new version, and stored keys are recomputed deliberately (a
/// table moves from one version to the next with urn-sql's re-key migration). Each namespace's
/// rule in each version is data: [`KnownNamespace::key_rule`](crate::KnownNamespace::key_rule).
///
/// ```
/// use urn_core::{KeyRules, Urn};
/// let doi = Urn::parse("urn:doi:10.1000/ABC")?;
/// assert_eq!(doi.key_with(KeyRules::V1).as_str(), "urn:doi:10.1000/ABC");
/// assert_eq!(doi.key_with(KeyRules::V2).as_str(), "urn:doi:10.1000/abc");
/// assert_eq!(doi.key(), doi.key_with(KeyRules::CURRENT));
/// assert_eq!("v1".parse::<KeyRules>(), Ok(KeyRules::V1));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
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
    /// in lower case, hex digits stay upper case, for a jurisdiction without units), `mpeg`
    /// (the standard name in lower case, for a name of letters, digits, `.` and `-`).
    ///
    /// Frozen: every key it gives stays as it is.
    V1,
    /// V1, plus:
    /// - `lex` names with jurisdiction units (`urn:lex:ch;glarus:…`, RFC 9676 section 2.1):
    ///   the whole name in lower case (RFC 9676 section 3.3 makes names case-insensitive);
    /// - `mpeg` standard names holding `_` (RFC 3614 section 2: a standard name is any
    ///   US-ASCII string of the URN syntax; section 4: it is case-insensitive): in lower case;
    /// - `doi` (the DOI Handbook): ASCII letters in lower case (Handbook §2.4 and 2025
    ///   edition §3.3.4: DOI names compare with ASCII case folding only), the Handbook's URN
    ///   form `urn:doi:10.123:456` (§2.6.3, a `:` for the first `/`, later ones as `%2F`)
    ///   and the DOI name as written, `urn:doi:10.123/456` (2025 edition §3.4.3), as one
    ///   key: the prefix, `/`, and the suffix with each `%2F` read as `/`;
    /// - `lei` (GLEIF's registration; ISO 17442): a valid LEI (20 letters and digits, its
    ///   ISO/IEC 7064 MOD 97-10 check digits right) in upper case.
    ///
    /// `urn:ietf:params:` names keep their case, as in V1: RFC 3553 section 3 compares them
    /// by exact string match, and none of the registries under `params:` (`xml`, RFC 3688;
    /// `oauth`, RFC 6755; `scim`, RFC 7643; …) gives its URNs another comparison.
    ///
    /// Every two URNs with one V1 key have one V2 key.
    #[default]
    V2,
}

impl KeyRules {
    /// The rules [`Urn::key`](crate::Urn::key), `==`, ordering and hashing apply, and the
    /// version new tables are keyed by.
    pub const CURRENT: KeyRules = KeyRules::V2;

    /// The versions, oldest first: each is frozen once released, and the last is
    /// [`KeyRules::CURRENT`].
    pub const VERSIONS: &'static [KeyRules] = &[KeyRules::V1, KeyRules::V2];

    /// The rules' short name: `"rfc8141"`, `"v1"`, `"v2"` (what [`FromStr`] reads, the CLI's
    /// `--rules` and urnkit's `rules=` take, and the suffix of the SQL key functions'
    /// names).
    ///
    /// ```
    /// assert_eq!(urn_core::KeyRules::V2.name(), "v2");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            KeyRules::Rfc8141 => "rfc8141",
            KeyRules::V1 => "v1",
            KeyRules::V2 => "v2",
        }
    }

    /// The name of the SQL key function of a version (`urn_key_v1`, `urn_key_v2`); `None` for
    /// [`KeyRules::Rfc8141`], which no table is keyed by.
    ///
    /// ```
    /// assert_eq!(urn_core::KeyRules::V1.sql_function(), Some("urn_key_v1"));
    /// ```
    #[must_use]
    pub const fn sql_function(self) -> Option<&'static str> {
        match self {
            KeyRules::Rfc8141 => None,
            KeyRules::V1 => Some("urn_key_v1"),
            KeyRules::V2 => Some("urn_key_v2"),
        }
    }
}

impl fmt::Display for KeyRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`KeyRules`]' ([`KeyRules::name`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKeyRules;

impl fmt::Display for UnknownKeyRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown key rules (expected v1, v2 or rfc8141)")
    }
}

impl core::error::Error for UnknownKeyRules {}

impl FromStr for KeyRules {
    type Err = UnknownKeyRules;

    /// Reads [`KeyRules::name`], in any case.
    fn from_str(s: &str) -> Result<Self, UnknownKeyRules> {
        [KeyRules::Rfc8141, KeyRules::V1, KeyRules::V2]
            .into_iter()
            .find(|rules| rules.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownKeyRules)
    }
}
