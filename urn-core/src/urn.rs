//! [`Urn`]: a validated URN that owns its text.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::UrnRef;
use crate::encoding::DecodeError;
use crate::error::ParseError;
use crate::key::UrnKey;
use crate::key_rules::KeyRules;
use crate::namespaces::{KnownNamespace, NamespaceError};
use crate::parse::{self, Offsets, ParseOptions, Syntax};
use crate::registry::NidStatus;

/// A validated URN that owns its text, kept exactly as given.
///
/// It stores one `String` plus the offsets of its components, found in the single parse.
/// `==`, `Ord` and `Hash` follow the canonical key ([`Urn::key`]), so equivalent spellings are
/// equal; [`Urn::eq_text`] compares the exact text. `Display` prints the original text.
///
/// ```
/// use urn_core::Urn;
/// let urn: Urn = "URN:ISBN:0-395-36341-1?+res?=view=1#p4".parse()?;
/// assert_eq!(urn.to_string(), "URN:ISBN:0-395-36341-1?+res?=view=1#p4");
/// assert_eq!(urn.nid(), "ISBN");
/// assert_eq!(urn.nss(), "0-395-36341-1");
/// assert_eq!(urn.r_component(), Some("res"));
/// assert_eq!(urn.q_component(), Some("view=1"));
/// assert_eq!(urn.f_component(), Some("p4"));
/// assert_eq!(urn.key().as_str(), "urn:isbn:0395363411");
/// assert_eq!(urn, Urn::parse("urn:isbn:0395363411")?);
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone)]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text),
    diesel(sql_type = crate::sql_types::Urn)
)]
pub struct Urn {
    text: String,
    offsets: Offsets,
}

impl Urn {
    /// Parses an RFC 8141 URN (the same as [`FromStr`]). Copies the text: one allocation.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        ParseOptions::new().parse(text)
    }

    /// Parses with the given grammar.
    ///
    /// ```
    /// use urn_core::{Syntax, Urn};
    /// let legacy = Urn::parse_with("urn:a:b", Syntax::Rfc2141)?;
    /// assert_eq!(legacy.nid(), "a");
    /// assert!(Urn::parse_with("urn:example:a/b", Syntax::Rfc2141).is_err());
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn parse_with(text: &str, syntax: Syntax) -> Result<Self, ParseError> {
        ParseOptions::new().syntax(syntax).parse(text)
    }

    /// Parses an RFC 8141 URN, taking the string without copying it.
    ///
    /// ```
    /// let urn = urn_core::Urn::from_string(String::from("urn:example:a"))?;
    /// assert_eq!(urn.into_string(), "urn:example:a");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn from_string(text: String) -> Result<Self, ParseError> {
        Self::from_string_or_back(text).map_err(|(_, e)| e)
    }

    /// Like [`Urn::from_string`], but hands the text back with the error (for messages that
    /// quote the input without copying it up front).
    pub(crate) fn from_string_or_back(text: String) -> Result<Self, (String, ParseError)> {
        match parse::parse(&text, &ParseOptions::new()) {
            Ok(offsets) => Ok(Urn { text, offsets }),
            Err(e) => Err((text, e)),
        }
    }

    /// A URN whose offsets are known to describe `text`.
    pub(crate) const fn from_trusted(text: String, offsets: Offsets) -> Self {
        Urn { text, offsets }
    }

    /// A view that borrows this URN's text.
    pub fn as_urn_ref(&self) -> UrnRef<'_> {
        UrnRef::from_parts(&self.text, self.offsets)
    }

    /// The URN exactly as given.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text, giving up the URN.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The namespace identifier, as written.
    pub fn nid(&self) -> &str {
        self.as_urn_ref().nid()
    }

    /// The namespace-specific string, as written (percent-encoded).
    pub fn nss(&self) -> &str {
        self.as_urn_ref().nss()
    }

    /// The r-component without its `?+`, if present.
    pub fn r_component(&self) -> Option<&str> {
        self.as_urn_ref().r_component()
    }

    /// The q-component without its `?=`, if present.
    pub fn q_component(&self) -> Option<&str> {
        self.as_urn_ref().q_component()
    }

    /// The f-component without its `#`, if present (`Some("")` for a bare trailing `#`).
    pub fn f_component(&self) -> Option<&str> {
        self.as_urn_ref().f_component()
    }

    /// `urn:<NID>:<NSS>` as written, without components.
    pub fn assigned_name(&self) -> &str {
        self.as_urn_ref().assigned_name()
    }

    /// The canonical key under [`KeyRules::CURRENT`] (borrows when already normal).
    pub fn key(&self) -> UrnKey<'_> {
        self.as_urn_ref().key()
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    pub fn rfc8141_key(&self) -> UrnKey<'_> {
        self.as_urn_ref().rfc8141_key()
    }

    /// The canonical key under a given rule set.
    pub fn key_with(&self, rules: KeyRules) -> UrnKey<'_> {
        self.as_urn_ref().key_with(rules)
    }

    /// The NSS percent-decoded; an error when the decoded bytes are not UTF-8.
    pub fn nss_decoded(&self) -> Result<Cow<'_, str>, DecodeError> {
        self.as_urn_ref().nss_decoded()
    }

    /// The NID's registration status.
    ///
    /// ```
    /// use urn_core::{NidStatus, Urn};
    /// assert_eq!(Urn::parse("urn:ngsi-ld:Car:1")?.nid_status(), NidStatus::Unregistered);
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn nid_status(&self) -> NidStatus {
        self.as_urn_ref().nid_status()
    }

    /// The namespace, when this crate knows its NSS syntax.
    pub fn namespace(&self) -> Option<KnownNamespace> {
        self.as_urn_ref().namespace()
    }

    /// Checks the NSS against its namespace's syntax (see [`UrnRef::validate_namespace`]).
    pub fn validate_namespace(&self) -> Result<(), NamespaceError> {
        self.as_urn_ref().validate_namespace()
    }

    /// Exact comparison of the text (`==` compares keys).
    pub fn eq_text(&self, other: &Urn) -> bool {
        self.text == other.text
    }
}

impl FromStr for Urn {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Urn::parse(s)
    }
}

impl TryFrom<String> for Urn {
    type Error = ParseError;
    fn try_from(s: String) -> Result<Self, ParseError> {
        Urn::from_string(s)
    }
}

impl TryFrom<&str> for Urn {
    type Error = ParseError;
    fn try_from(s: &str) -> Result<Self, ParseError> {
        Urn::parse(s)
    }
}

impl From<Urn> for String {
    fn from(urn: Urn) -> String {
        urn.text
    }
}

impl From<UrnRef<'_>> for Urn {
    fn from(urn: UrnRef<'_>) -> Self {
        urn.to_owned()
    }
}

impl From<UrnKey<'_>> for Urn {
    fn from(key: UrnKey<'_>) -> Self {
        key.to_urn()
    }
}

impl AsRef<str> for Urn {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Urn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Urn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Urn").field(&self.text).finish()
    }
}

/// Owned copies of a borrowed URN; here, beside `Urn`, so `UrnRef` does not depend on it.
impl UrnRef<'_> {
    /// An owned copy (one allocation).
    #[allow(clippy::should_implement_trait)]
    pub fn to_owned(&self) -> Urn {
        Urn::from_trusted(String::from(self.as_str()), self.offsets())
    }

    /// An owned copy (one allocation); the same as [`UrnRef::to_owned`].
    pub fn to_urn(&self) -> Urn {
        self.to_owned()
    }
}

impl<'a> From<&'a Urn> for UrnRef<'a> {
    fn from(urn: &'a Urn) -> Self {
        urn.as_urn_ref()
    }
}

/// Parsing into an owned URN; beside `Urn`, so the grammar and `UrnRef` do not depend on it.
impl ParseOptions {
    /// Parses into an owned [`Urn`] (one allocation: the copy of the text).
    pub fn parse(&self, input: &str) -> Result<Urn, ParseError> {
        self.parse_ref(input).map(|urn| urn.to_owned())
    }
}

/// A key as a URN; beside `Urn`, so `UrnKey` does not depend on it.
impl UrnKey<'_> {
    /// The key as a URN (a key is itself a valid URN with no components).
    ///
    /// ```
    /// let urn: urn_core::Urn = "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6".parse()?;
    /// assert_eq!(urn.key().to_urn(), urn);
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn to_urn(&self) -> Urn {
        let offsets = Offsets::normal_assigned_name(self.as_str(), self.nid().len());
        Urn::from_trusted(String::from(self.as_str()), offsets)
    }
}
