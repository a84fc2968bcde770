//! [`KeyRules`]: which equivalence rules a key follows. Its own module because the parser, the
//! namespace rules and the key all name it, and none of them should depend on another for it.

use core::fmt;
use core::str::FromStr;

/// The one table of key-rule versions, oldest first: a row per version, naming its
/// [`KeyRules`] variant (with its documentation) and its SQL key function (`urn_key_` and the
/// version's short name). Passes the rows to the macro `$then` (`$(#[doc] Variant =>
/// urn_key_name;)*`), so every per-version name is made from
/// here: in this crate ([`KeyRules::VERSIONS`], [`KeyRules::CURRENT`] (the last row),
/// [`KeyRules::name`], [`KeyRules::sql_function`]), and in the bindings that must declare
/// something per version at compile time (urn-pg's SQL functions), which call
/// `urn_core::key_versions!(their_macro)`. Each namespace's rule is given once, with the
/// version it starts in ([`KnownNamespace::key_rule`](crate::KnownNamespace::key_rule)).
///
/// # Adding a version
///
/// 1. Add its row here: the variant, its documentation (what it adds to the version before)
///    and its key function, `V3 => urn_key_v3;`.
/// 2. Give each namespace whose rule changes the new rule with `since: KeyRules::V3` in its
///    file (a rule that does not change is not restated).
/// 3. Run `bash .ci/bless`: the new version's frozen-key digest, the SQL key functions of
///    every version, the docs' tables and urnkit's per-version functions.
///
/// Every engine's names (`urn_key_v3`, `try_urn_key_v3`, `key_v3`, `--rules v3`) follow, and
/// the CHANGELOG says so; `examples/tests/key_versions.rs` counts these 3 steps and holds each
/// engine's per-version names to the table.
#[doc(hidden)]
#[macro_export]
macro_rules! key_versions {
    ($then:ident) => {
        $then! {
            /// RFC 8141 section 3 plus the equivalence rules of the namespaces' own
            /// registrations, each applied only when the NSS is valid for its namespace:
            /// `uuid` (hex digits in lower case), `isbn` (hyphens dropped, `X` upper case),
            /// `issn` (`NNNN-NNNC`, `X` upper case), `ietf` RFC 2648 names (`rfc`, `fyi`,
            /// `std`, `bcp`, `id`, `mtg`: the whole name in lower case; `urn:ietf:params:` is
            /// left to the generic rule), `nbn` (the prefix before the first `-` in lower
            /// case), `lex` (the NSS in lower case, hex digits stay upper case, for a
            /// jurisdiction without units), `mpeg` (the standard name in lower case, for a
            /// name of letters, digits, `.` and `-`).
            ///
            /// Frozen: every key it gives stays as it is.
            V1 => urn_key_v1;
            /// V1, plus:
            /// - `lex` names with jurisdiction units (`urn:lex:ch;glarus:…`, RFC 9676 section
            ///   2.1): the whole name in lower case (RFC 9676 section 3.3 makes names
            ///   case-insensitive);
            /// - `mpeg` standard names holding `_` (RFC 3614 section 2: a standard name is any
            ///   US-ASCII string of the URN syntax; section 4: it is case-insensitive): in
            ///   lower case;
            /// - `doi` (the DOI Handbook): ASCII letters in lower case (Handbook §2.4 and 2025
            ///   edition §3.3.4: DOI names compare with ASCII case folding only), the
            ///   Handbook's URN form `urn:doi:10.123:456` (§2.6.3, a `:` for the first `/`,
            ///   later ones as `%2F`) and the DOI name as written, `urn:doi:10.123/456` (2025
            ///   edition §3.4.3), as one key: the prefix, `/`, and the suffix with each `%2F`
            ///   read as `/`;
            /// - `lei` (GLEIF's registration; ISO 17442): a valid LEI (20 letters and digits,
            ///   its ISO/IEC 7064 MOD 97-10 check digits right) in upper case.
            ///
            /// `urn:ietf:params:` names keep their case, as in V1: RFC 3553 section 3 compares
            /// them by exact string match, and none of the registries under `params:` (`xml`,
            /// RFC 3688; `oauth`, RFC 6755; `scim`, RFC 7643; …) gives its URNs another
            /// comparison.
            ///
            /// Every two URNs with one V1 key have one V2 key.
            V2 => urn_key_v2;
        }
    };
}

/// Declares [`KeyRules`] from the rows of [`key_versions!`].
macro_rules! declare_key_rules {
    ($($(#[$doc:meta])* $variant:ident => $function:ident;)*) => {
        /// A versioned set of equivalence rules.
        ///
        /// A key stored in a database must never change meaning silently, so rules are never
        /// edited in place: a new rule means a new version, and stored keys are recomputed
        /// deliberately (a table moves from one version to the next with urn-sql's re-key
        /// migration). The versions are one table (see [`KeyRules::VERSIONS`]); each
        /// namespace's rule is data, given once with the version it starts in:
        /// [`KnownNamespace::key_rule`](crate::KnownNamespace::key_rule).
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
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum KeyRules {
            /// RFC 8141 section 3 alone: lowercase `urn` and the NID, uppercase the hex digits
            /// of every `%XX` in the NSS, drop the r-, q- and f-components. Nothing is decoded.
            Rfc8141,
            $($(#[$doc])* $variant,)*
        }

        impl KeyRules {
            /// The versions, oldest first: each is frozen once released, and the last is
            /// [`KeyRules::CURRENT`].
            pub const VERSIONS: &'static [KeyRules] = &[$(KeyRules::$variant),*];

            /// The rules [`Urn::key`](crate::Urn::key), `==`, ordering and hashing apply, and
            /// the version new tables are keyed by: the last of [`KeyRules::VERSIONS`].
            pub const CURRENT: KeyRules = match Self::VERSIONS.split_last() {
                Some((last, _)) => *last,
                None => KeyRules::Rfc8141,
            };

            /// Every set of rules: [`KeyRules::Rfc8141`], then the versions.
            pub const ALL: &'static [KeyRules] = &[KeyRules::Rfc8141, $(KeyRules::$variant),*];

            /// The rules' short name: `"rfc8141"`, `"v1"`, `"v2"` (what [`FromStr`] reads,
            /// the CLI's `--rules` and urnkit's `rules=` take, and the suffix of the SQL key
            /// functions' names).
            ///
            /// ```
            /// assert_eq!(urn_core::KeyRules::V2.name(), "v2");
            /// ```
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    KeyRules::Rfc8141 => "rfc8141",
                    $(KeyRules::$variant => short(stringify!($function)),)*
                }
            }

            /// The name of the SQL key function of a version (`urn_key_v1`, `urn_key_v2`);
            /// `None` for [`KeyRules::Rfc8141`], which no table is keyed by.
            ///
            /// ```
            /// assert_eq!(urn_core::KeyRules::V1.sql_function(), Some("urn_key_v1"));
            /// ```
            #[must_use]
            pub const fn sql_function(self) -> Option<&'static str> {
                match self {
                    KeyRules::Rfc8141 => None,
                    $(KeyRules::$variant => Some(stringify!($function)),)*
                }
            }
        }
    };
}

key_versions!(declare_key_rules);

/// A version's short name: its key function's name after `urn_key_`.
const fn short(function: &'static str) -> &'static str {
    match function.split_at_checked("urn_key_".len()) {
        Some((_, name)) => name,
        None => function,
    }
}

impl Default for KeyRules {
    /// [`KeyRules::CURRENT`].
    fn default() -> Self {
        KeyRules::CURRENT
    }
}

impl KeyRules {
    /// Whether this is a version (a table can be keyed by it), not [`KeyRules::Rfc8141`].
    #[must_use]
    pub const fn is_version(self) -> bool {
        !matches!(self, KeyRules::Rfc8141)
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
        // The versions, oldest first, then RFC 8141 alone: "v1, v2 or rfc8141".
        f.write_str("unknown key rules (expected ")?;
        for (i, rules) in KeyRules::ALL
            .iter()
            .cycle()
            .skip(1)
            .take(KeyRules::ALL.len())
            .enumerate()
        {
            f.write_str(match i {
                0 => "",
                _ if i + 1 == KeyRules::ALL.len() => " or ",
                _ => ", ",
            })?;
            f.write_str(rules.name())?;
        }
        f.write_str(")")
    }
}

impl core::error::Error for UnknownKeyRules {}

impl FromStr for KeyRules {
    type Err = UnknownKeyRules;

    /// Reads [`KeyRules::name`], in any case.
    fn from_str(s: &str) -> Result<Self, UnknownKeyRules> {
        KeyRules::ALL
            .iter()
            .copied()
            .find(|rules| rules.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownKeyRules)
    }
}
