//! The canonical key: the normal form under which equivalent URNs are byte-equal. It is built
//! from the pieces of [`key_parts`](crate::key_parts) under [`KeyRules`].

use alloc::string::String;
use core::borrow::Borrow;
use core::fmt;
use core::hash::{Hash, Hasher};

use crate::key_parts::{Fold, HexSeen, KeyParts, Piece};
use crate::key_rules::KeyRules;
use crate::key_text::KeyText;
use crate::namespaces;

/// The key of `nid` and `nss` under `rules`, as pieces; `hex` is what the parse saw of `%XX`.
#[inline]
pub(crate) fn parts_of<'a>(
    nid: &'a str,
    nss: &'a str,
    rules: KeyRules,
    hex: HexSeen,
) -> KeyParts<'a> {
    let mut parts = KeyParts::with_hex(hex);
    parts.push(Piece::new("urn:", Fold::Keep));
    parts.push(Piece::new(nid, Fold::Lower));
    parts.push(Piece::new(":", Fold::Keep));
    if rules == KeyRules::Rfc8141 || !namespaces::v1_key_pieces(nid, nss, &mut parts) {
        parts.push(Piece::new(nss, Fold::Keep));
    }
    parts
}

/// The canonical key of a URN: `urn:` + lower-case NID + `:` + the normalized NSS.
///
/// Two URNs are equivalent exactly when their keys are equal, so this is the value to store
/// under a UNIQUE index. A key is always valid and always canonical: [`UrnKey::parse`] and
/// [`FromStr`](core::str::FromStr) accept only canonical text, so a key read back from a database is checked.
/// It borrows from the URN when the URN is already in normal form; otherwise its text is built
/// inline when it has at most 64 bytes (nearly every real URN), so computing a key allocates
/// nothing either way; longer keys are built on the heap.
///
/// ```
/// use urn_core::Urn;
/// let a: Urn = "URN:EXAMPLE:a123%2cz456?=q".parse()?;
/// assert_eq!(a.key().as_str(), "urn:example:a123%2Cz456");
/// let uuid: Urn = "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6".parse()?;
/// assert_eq!(uuid.key().as_str(), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
/// assert_eq!(uuid.rfc8141_key().as_str(), "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
/// # Ok::<(), urn_core::ParseError>(())
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

    /// Whether the key borrows its text (nothing was built).
    #[cfg(test)]
    pub(crate) fn is_borrowed(&self) -> bool {
        self.text.is_borrowed()
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }

    /// The lower-case NID.
    ///
    /// ```
    /// let urn: urn_core::Urn = "URN:ISBN:0-395-36341-1".parse()?;
    /// assert_eq!(urn.key().nid(), "isbn");
    /// assert_eq!(urn.key().nss(), "0395363411");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn nid(&self) -> &str {
        self.split().0
    }

    /// The normalized NSS.
    pub fn nss(&self) -> &str {
        self.split().1
    }

    fn split(&self) -> (&str, &str) {
        let rest = self.as_str().get(4..).unwrap_or_default();
        rest.split_once(':').unwrap_or((rest, ""))
    }

    /// A key that owns its text (kept inline, without a heap allocation, up to 64 bytes).
    pub fn into_owned(self) -> UrnKey<'static> {
        UrnKey {
            text: self.text.into_owned(),
        }
    }

    /// The key's text, owned.
    pub fn into_string(self) -> String {
        self.text.into_string()
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

impl fmt::Display for UrnKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
    use crate::error::ErrorKind;

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
