//! [`UrnKey`]: the canonical key, the normal form under which equivalent URNs are byte-equal
//! (computed by [`canonical`](crate::canonical) under [`KeyRules`]), and checking key text
//! read back from storage.

use alloc::string::String;
use core::borrow::Borrow;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::canonical::{self, KeyBytes};
use crate::error::{ErrorKind, FromStringError, ParseError};
use crate::key_rules::KeyRules;
use crate::key_text::KeyText;
use crate::parse::{self, ParseOptions, Syntax};

/// The canonical key of a URN: `urn:` + lower-case NID + `:` + the normalized NSS.
///
/// Two URNs are equivalent exactly when their keys are equal, so this is the value to store
/// under a UNIQUE index. A key is always valid and always canonical: [`UrnKey::parse`] and
/// [`FromStr`](core::str::FromStr) accept only canonical text (under [`KeyRules::CURRENT`]), and a key read back
/// from a database (the sqlx, diesel, tokio-postgres, rusqlite and SeaORM decoders) is
/// checked to be canonical under some version of [`KeyRules`], since a table keeps the
/// version it was keyed by.
/// It borrows from the URN when the URN is already in normal form; otherwise its text is built
/// inline when it has at most 64 bytes (nearly every real URN), so computing a key allocates
/// nothing either way; longer keys are built on the heap.
///
/// ```
/// use urn_core::urn;
/// let a = urn!("URN:EXAMPLE:a123%2cz456?=q");
/// assert_eq!(a.key().as_str(), "urn:example:a123%2Cz456");
/// let uuid = urn!("urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
/// assert_eq!(uuid.key().as_str(), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// assert_eq!(uuid.rfc8141_key().as_str(), "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
/// ```
#[derive(Clone)]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text),
    diesel(sql_type = crate::sql_types::UrnKey)
)]
pub struct UrnKey<'a> {
    text: KeyText<'a>,
}

impl<'a> UrnKey<'a> {
    pub(crate) fn from_text(text: KeyText<'a>) -> Self {
        UrnKey { text }
    }

    /// Checks that `text` is a canonical key (under [`KeyRules::CURRENT`]) and borrows it.
    ///
    /// Keys of RFC 2141 URNs (whose NID may have one character or end in `-`) are accepted.
    ///
    /// ```
    /// use urn_core::{ErrorKind, UrnKey};
    /// assert!(UrnKey::parse("urn:isbn:0395363411").is_ok());
    /// let err = UrnKey::parse("urn:isbn:0-395-36341-1").unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::KeyNotCanonical);
    /// assert_eq!(err.offset(), 10);
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, ParseError> {
        Self::parse_with(text, KeyRules::CURRENT)
    }

    /// Checks that `text` is a canonical key under `rules` and borrows it: what a database
    /// column of keys computed by those rules may hold.
    ///
    /// ```
    /// use urn_core::{ErrorKind, KeyRules, UrnKey};
    /// // Canonical for RFC 8141 alone, though V1 drops an ISBN's hyphens.
    /// assert!(UrnKey::parse_with("urn:isbn:0-395-36341-1", KeyRules::Rfc8141).is_ok());
    /// let err = UrnKey::parse_with("urn:example:a%2f", KeyRules::Rfc8141).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::KeyNotCanonical, 15));
    /// let err = UrnKey::parse_with("urn:example:a#f", KeyRules::Rfc8141).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (ErrorKind::KeyHasComponent, 13));
    /// ```
    pub fn parse_with(text: &'a str, rules: KeyRules) -> Result<Self, ParseError> {
        let urn = parse::parse(text, ParseOptions::new())
            .or_else(|err| parse::parse(text, Syntax::Rfc2141.into()).map_err(|_| err))?;
        if urn.offsets.nss_end as usize != text.len() {
            return Err(ParseError::new(
                ErrorKind::KeyHasComponent,
                urn.offsets.nss_end as usize,
            ));
        }
        if !canonical::is_verbatim(&urn, rules) {
            let at = KeyBytes::of(&urn, rules)
                .zip(text.bytes())
                .position(|(k, t)| k != t)
                .unwrap_or(text.len());
            return Err(ParseError::new(ErrorKind::KeyNotCanonical, at));
        }
        Ok(UrnKey::from_text(KeyText::Borrowed(text)))
    }

    /// The key as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }

    /// The lower-case NID.
    ///
    /// ```
    /// let urn = urn_core::urn!("URN:ISBN:0-395-36341-1");
    /// assert_eq!(urn.key().nid(), "isbn");
    /// assert_eq!(urn.key().nss(), "0395363411");
    /// ```
    #[must_use]
    pub fn nid(&self) -> &str {
        self.split().0
    }

    /// The normalized NSS.
    #[must_use]
    pub fn nss(&self) -> &str {
        self.split().1
    }

    fn split(&self) -> (&str, &str) {
        let rest = self.as_str().get(4..).unwrap_or_default();
        rest.split_once(':').unwrap_or((rest, ""))
    }

    /// A key that owns its text (kept inline, without a heap allocation, up to 64 bytes).
    #[must_use]
    pub fn into_owned(self) -> UrnKey<'static> {
        UrnKey {
            text: self.text.into_owned(),
        }
    }

    /// The key's text, owned.
    #[must_use]
    pub fn into_string(self) -> String {
        self.text.into_string()
    }
}

impl UrnKey<'static> {
    /// Checks and takes ownership of `text` without copying it; on failure the error hands
    /// the string back ([`FromStringError::into_string`]).
    ///
    /// ```
    /// use urn_core::UrnKey;
    /// let key = UrnKey::from_string("urn:isbn:0395363411".to_owned())?;
    /// assert_eq!(key.nss(), "0395363411");
    /// let err = UrnKey::from_string("URN:ISBN:0395363411".to_owned()).unwrap_err();
    /// assert_eq!(err.into_string(), "URN:ISBN:0395363411");
    /// # Ok::<(), urn_core::FromStringError>(())
    /// ```
    pub fn from_string(text: String) -> Result<Self, FromStringError> {
        Self::from_string_or_back(text).map_err(|(text, e)| FromStringError::new(text, e))
    }

    /// Like [`UrnKey::from_string`], but hands the text back with the error.
    pub(crate) fn from_string_or_back(text: String) -> Result<Self, (String, ParseError)> {
        match UrnKey::parse(&text) {
            Ok(_) => Ok(UrnKey::from_text(KeyText::from(text))),
            Err(e) => Err((text, e)),
        }
    }

    /// Like [`UrnKey::from_string_or_back`], for text read from a database's key column: a
    /// key under any version of [`KeyRules`] (the column's table keeps the version it was
    /// keyed by), the error being the one for [`KeyRules::CURRENT`].
    #[cfg(any(
        feature = "sqlx-postgres",
        feature = "sqlx-sqlite",
        feature = "sqlx-mariadb",
        feature = "diesel",
        feature = "tokio-postgres",
        feature = "rusqlite",
        feature = "sea-orm"
    ))]
    pub(crate) fn from_stored_or_back(text: String) -> Result<Self, (String, ParseError)> {
        match UrnKey::parse(&text) {
            Ok(_) => Ok(UrnKey::from_text(KeyText::from(text))),
            Err(e) => {
                let earlier = KeyRules::VERSIONS
                    .iter()
                    .any(|&rules| UrnKey::parse_with(&text, rules).is_ok());
                if earlier {
                    Ok(UrnKey::from_text(KeyText::from(text)))
                } else {
                    Err((text, e))
                }
            }
        }
    }
}

impl FromStr for UrnKey<'static> {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        UrnKey::parse(s).map(UrnKey::into_owned)
    }
}

/// [`UrnKey::from_string`]: no copy, and the string back on failure.
impl TryFrom<String> for UrnKey<'static> {
    type Error = FromStringError;
    fn try_from(s: String) -> Result<Self, FromStringError> {
        UrnKey::from_string(s)
    }
}

impl<'a> TryFrom<&'a str> for UrnKey<'a> {
    type Error = ParseError;
    fn try_from(s: &'a str) -> Result<Self, ParseError> {
        UrnKey::parse(s)
    }
}

impl From<UrnKey<'_>> for String {
    fn from(key: UrnKey<'_>) -> String {
        key.into_string()
    }
}

impl AsRef<str> for UrnKey<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for UrnKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for UrnKey<'_> {}

impl PartialOrd for UrnKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UrnKey<'_> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as its text does (`Borrow<str>` requires it).
impl Hash for UrnKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

/// Keys compare as their text, so a `HashMap<UrnKey, _>` can be searched with a `&str`.
impl Borrow<str> for UrnKey<'_> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// The key's text, padded, aligned and truncated exactly as `str` is; `{:#}` prints the same
/// as `{}`.
impl fmt::Display for UrnKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl fmt::Debug for UrnKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UrnKey").field(&self.as_str()).finish()
    }
}

impl PartialEq<str> for UrnKey<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for UrnKey<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_rejects_components_and_non_canonical_text() {
        assert_eq!(
            UrnKey::parse("urn:ab:c#").unwrap_err().kind(),
            ErrorKind::KeyHasComponent
        );
        let e = UrnKey::parse("URN:ab:c").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::KeyNotCanonical, 0));
        let e = UrnKey::parse("urn:ab:c%2f").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::KeyNotCanonical, 10));
        assert!(UrnKey::parse("urn:a-:b").is_ok(), "RFC 2141 keys are keys");
    }
}
