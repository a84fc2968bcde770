//! [`Urn`]: a validated URN that owns its text, and [`UrnBuilder`], the way to assemble one
//! from parts (it can only ever yield a valid `Urn`).

use alloc::borrow::Cow;
use alloc::string::String;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::UrnRef;
use crate::encoding::DecodeError;
use crate::error::{Component, ErrorKind, FromStringError, ParseError};
use crate::key::UrnKey;
use crate::key_rules::KeyRules;
use crate::namespaces::{KnownNamespace, NamespaceError};
use crate::parse::{self, Offsets, ParseOptions};
use crate::registry::NidStatus;

/// A validated URN that owns its text, kept exactly as given.
///
/// It stores one `String` plus the offsets of its components, found in the single parse.
/// `==`, `Ord` and `Hash` follow the canonical key ([`Urn::key`]), so equivalent spellings are
/// equal; [`Urn::eq_text`] compares the exact text. `Display` prints the original text.
///
/// ```
/// use urn_core::{Urn, urn};
/// let urn: Urn = "URN:ISBN:0-395-36341-1?+res?=view=1#p4".parse()?;
/// assert_eq!(urn.to_string(), "URN:ISBN:0-395-36341-1?+res?=view=1#p4");
/// assert_eq!(urn.nid(), "ISBN");
/// assert_eq!(urn.nss(), "0-395-36341-1");
/// assert_eq!(urn.r_component(), Some("res"));
/// assert_eq!(urn.q_component(), Some("view=1"));
/// assert_eq!(urn.f_component(), Some("p4"));
/// assert_eq!(urn.key().as_str(), "urn:isbn:0395363411");
/// assert_eq!(urn, urn!("urn:isbn:0395363411"));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
///
/// A URN written in the code is a [`urn!`](crate::urn) literal, checked when the program is
/// compiled; `Urn::from` copies one into an owned `Urn`:
///
/// ```
/// use urn_core::{Urn, urn};
/// let default_licence: Urn = urn!("urn:example:licence:cc-by-4.0").into();
/// assert_eq!(default_licence.nss(), "licence:cc-by-4.0");
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
    /// Parses an RFC 8141 URN of at most [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN) bytes (the
    /// same as [`FromStr`]). Copies the text: one allocation.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        Self::parse_with(text, ParseOptions::new())
    }

    /// Parses with the given options: a [`Syntax`](crate::Syntax), or [`ParseOptions`] for
    /// the length cap too.
    ///
    /// ```
    /// use urn_core::{ParseOptions, Syntax, Urn};
    /// let legacy = Urn::parse_with("urn:a:b", Syntax::Rfc2141)?;
    /// assert_eq!(legacy.nid(), "a");
    /// assert!(Urn::parse_with("urn:example:a/b", Syntax::Rfc2141).is_err());
    /// assert!(Urn::parse_with("urn:example:abc", ParseOptions::new().with_max_len(8)).is_err());
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn parse_with(text: &str, options: impl Into<ParseOptions>) -> Result<Self, ParseError> {
        UrnRef::parse_with(text, options).map(Urn::from)
    }

    /// Parses an RFC 8141 URN, taking the string without copying it; on failure the error
    /// hands the string back ([`FromStringError::into_string`]).
    ///
    /// ```
    /// use urn_core::Urn;
    /// let urn = Urn::from_string(String::from("urn:example:a"))?;
    /// assert_eq!(urn.into_string(), "urn:example:a");
    /// let err = Urn::from_string(String::from("urn:example:a?b")).unwrap_err();
    /// assert_eq!(err.into_string(), "urn:example:a?b");
    /// # Ok::<(), urn_core::FromStringError>(())
    /// ```
    pub fn from_string(text: String) -> Result<Self, FromStringError> {
        Self::from_string_or_back(text).map_err(|(text, e)| FromStringError::new(text, e))
    }

    /// Like [`Urn::from_string`], but hands the text back with the error (for messages that
    /// quote the input without copying it up front).
    pub(crate) fn from_string_or_back(text: String) -> Result<Self, (String, ParseError)> {
        match parse::parse(&text, ParseOptions::new()) {
            Ok(parsed) => {
                let offsets = parsed.offsets;
                Ok(Urn { text, offsets })
            }
            Err(e) => Err((text, e)),
        }
    }

    /// A URN whose text is its own key with no components (a key, a UUID's URN).
    fn from_normal_assigned_name(text: String, nid_len: usize) -> Self {
        let offsets = Offsets::normal_assigned_name(&text, nid_len);
        Urn { text, offsets }
    }

    /// Starts building a URN from a NID and an (already percent-encoded) NSS.
    ///
    /// ```
    /// use urn_core::{encode_nss, Urn};
    /// let urn = Urn::builder("example", &encode_nss("a b/c"))
    ///     .q_component("lang=en")
    ///     .build()?;
    /// assert_eq!(urn.as_str(), "urn:example:a%20b%2Fc?=lang=en");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    #[must_use]
    pub fn builder(nid: &str, nss: &str) -> UrnBuilder {
        UrnBuilder::new(nid, nss)
    }

    /// A builder holding this URN's parts, for changing a component.
    ///
    /// ```
    /// let urn = urn_core::Urn::from(urn_core::urn!("urn:example:a?=x=1#top"));
    /// let plain = urn.to_builder().q_component(None).f_component(None).build()?;
    /// assert_eq!(plain.as_str(), "urn:example:a");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    #[must_use]
    pub fn to_builder(&self) -> UrnBuilder {
        UrnBuilder::new(self.nid(), self.nss())
            .r_component(self.r_component())
            .q_component(self.q_component())
            .f_component(self.f_component())
    }

    /// A view that borrows this URN's text (free: no copy, no parse).
    #[must_use]
    pub fn as_urn_ref(&self) -> UrnRef<'_> {
        UrnRef::from_offsets(&self.text, self.offsets)
    }

    /// The URN exactly as given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text, giving up the URN.
    #[must_use]
    pub fn into_string(self) -> String {
        self.text
    }

    /// The namespace identifier, as written.
    #[must_use]
    pub fn nid(&self) -> &str {
        self.as_urn_ref().nid()
    }

    /// The namespace-specific string, as written (percent-encoded).
    #[must_use]
    pub fn nss(&self) -> &str {
        self.as_urn_ref().nss()
    }

    /// The r-component without its `?+`, if present.
    #[must_use]
    pub fn r_component(&self) -> Option<&str> {
        self.as_urn_ref().r_component()
    }

    /// The q-component without its `?=`, if present.
    #[must_use]
    pub fn q_component(&self) -> Option<&str> {
        self.as_urn_ref().q_component()
    }

    /// The f-component without its `#`, if present (`Some("")` for a bare trailing `#`).
    #[must_use]
    pub fn f_component(&self) -> Option<&str> {
        self.as_urn_ref().f_component()
    }

    /// `urn:<NID>:<NSS>` as written, without components.
    #[must_use]
    pub fn assigned_name(&self) -> &str {
        self.as_urn_ref().assigned_name()
    }

    /// The canonical key under [`KeyRules::CURRENT`] (borrows when already normal).
    #[must_use]
    pub fn key(&self) -> UrnKey<'_> {
        self.as_urn_ref().key()
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    #[must_use]
    pub fn rfc8141_key(&self) -> UrnKey<'_> {
        self.as_urn_ref().rfc8141_key()
    }

    /// The canonical key under a given rule set.
    #[must_use]
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
    /// use urn_core::{NidStatus, Urn, urn};
    /// let urn = Urn::from(urn!("urn:ngsi-ld:Car:1"));
    /// assert_eq!(urn.nid_status(), NidStatus::Unregistered);
    /// ```
    #[must_use]
    pub fn nid_status(&self) -> NidStatus {
        self.as_urn_ref().nid_status()
    }

    /// The namespace, when this crate knows its NSS syntax.
    #[must_use]
    pub fn namespace(&self) -> Option<KnownNamespace> {
        self.as_urn_ref().namespace()
    }

    /// Checks the NSS against its namespace's syntax (see [`UrnRef::validate_namespace`]).
    pub fn validate_namespace(&self) -> Result<(), NamespaceError> {
        self.as_urn_ref().validate_namespace()
    }

    /// The UUID of a valid `urn:uuid:` URN (feature `uuid`); `None` for any other URN.
    #[cfg(feature = "uuid")]
    #[must_use]
    pub fn to_uuid(&self) -> Option<uuid::Uuid> {
        self.as_urn_ref().to_uuid()
    }

    /// Exact comparison of the text (`==` compares keys).
    #[must_use]
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

/// [`Urn::from_string`]: no copy, and the string back on failure.
impl TryFrom<String> for Urn {
    type Error = FromStringError;
    fn try_from(s: String) -> Result<Self, FromStringError> {
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

/// An owned copy of a borrowed URN (one allocation, no parse).
impl From<UrnRef<'_>> for Urn {
    fn from(urn: UrnRef<'_>) -> Self {
        let parsed = urn.parsed();
        Urn {
            text: String::from(parsed.text),
            offsets: parsed.offsets,
        }
    }
}

/// A key as a URN (a key is itself a valid URN with no components).
///
/// ```
/// use urn_core::{Urn, urn};
/// let urn = urn!("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
/// assert_eq!(Urn::from(urn.key()), urn);
/// ```
impl From<UrnKey<'_>> for Urn {
    fn from(key: UrnKey<'_>) -> Self {
        let nid_len = key.nid().len();
        Urn::from_normal_assigned_name(key.into_string(), nid_len)
    }
}

/// `urn:uuid:` followed by the lower-case hyphenated UUID (its canonical key; feature `uuid`).
///
/// ```
/// let urn = urn_core::Urn::from(uuid::Uuid::nil());
/// assert_eq!(urn.as_str(), "urn:uuid:00000000-0000-0000-0000-000000000000");
/// ```
#[cfg(feature = "uuid")]
impl From<uuid::Uuid> for Urn {
    fn from(uuid: uuid::Uuid) -> Self {
        let mut text = String::with_capacity(45);
        text.push_str("urn:uuid:");
        let mut buf = uuid::Uuid::encode_buffer();
        text.push_str(uuid.hyphenated().encode_lower(&mut buf));
        Urn::from_normal_assigned_name(text, 4)
    }
}

impl<'a> From<&'a Urn> for UrnRef<'a> {
    fn from(urn: &'a Urn) -> Self {
        urn.as_urn_ref()
    }
}

impl AsRef<str> for Urn {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// The text, padded, aligned and truncated exactly as `str` is (`{:>40}`, `{:.20}`); `{:#}`
/// prints the same as `{}`.
impl fmt::Display for Urn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.text)
    }
}

impl fmt::Debug for Urn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Urn").field(&self.text).finish()
    }
}

/// Equal when the keys are equal (compared without allocating).
impl PartialEq for Urn {
    fn eq(&self, other: &Self) -> bool {
        self.as_urn_ref() == other.as_urn_ref()
    }
}

impl Eq for Urn {}

impl PartialEq<UrnRef<'_>> for Urn {
    fn eq(&self, other: &UrnRef<'_>) -> bool {
        self.as_urn_ref() == *other
    }
}

impl PartialEq<Urn> for UrnRef<'_> {
    fn eq(&self, other: &Urn) -> bool {
        *self == other.as_urn_ref()
    }
}

impl PartialOrd for Urn {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered as the keys' text.
impl Ord for Urn {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_urn_ref().cmp(&other.as_urn_ref())
    }
}

/// Hashes as its [`UrnRef`] does: by key.
impl Hash for Urn {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_urn_ref().hash(state);
    }
}

/// Builds a [`Urn`] from a NID, an NSS and optional components ([`Urn::builder`]).
///
/// The parts must already be percent-encoded ([`encode_nss`](crate::encode_nss) turns any
/// text into a valid NSS). [`UrnBuilder::build`] parses the result and checks that every part
/// reads back unchanged, so a delimiter inside a part (say `?=` inside an r-component) is an
/// error rather than a silently different URN.
///
/// ```
/// use urn_core::{ErrorKind, Urn};
/// let urn = Urn::builder("example", "a123").r_component("res").f_component("").build()?;
/// assert_eq!(urn.as_str(), "urn:example:a123?+res#");
/// let err = Urn::builder("example", "a").r_component("x?=y").build().unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Delimiter { .. }));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrnBuilder {
    nid: String,
    nss: String,
    r_component: Option<String>,
    q_component: Option<String>,
    f_component: Option<String>,
}

impl UrnBuilder {
    /// A builder for `urn:<nid>:<nss>` (the same as [`Urn::builder`]).
    #[must_use]
    pub fn new(nid: &str, nss: &str) -> Self {
        UrnBuilder {
            nid: nid.into(),
            nss: nss.into(),
            ..UrnBuilder::default()
        }
    }

    /// Sets the NID.
    #[must_use]
    pub fn nid(mut self, nid: &str) -> Self {
        self.nid = nid.into();
        self
    }

    /// Sets the NSS (percent-encoded).
    #[must_use]
    pub fn nss(mut self, nss: &str) -> Self {
        self.nss = nss.into();
        self
    }

    /// Sets or (with `None`) removes the r-component.
    #[must_use]
    pub fn r_component<'s>(mut self, r: impl Into<Option<&'s str>>) -> Self {
        self.r_component = r.into().map(String::from);
        self
    }

    /// Sets or (with `None`) removes the q-component.
    #[must_use]
    pub fn q_component<'s>(mut self, q: impl Into<Option<&'s str>>) -> Self {
        self.q_component = q.into().map(String::from);
        self
    }

    /// Sets or (with `None`) removes the f-component (`Some("")` gives a trailing `#`).
    #[must_use]
    pub fn f_component<'s>(mut self, f: impl Into<Option<&'s str>>) -> Self {
        self.f_component = f.into().map(String::from);
        self
    }

    /// Assembles and validates the URN. Error offsets count from the start of the assembled
    /// text `urn:<nid>:<nss>[?+r][?=q][#f]`.
    pub fn build(&self) -> Result<Urn, ParseError> {
        let components = [
            ("?+", &self.r_component),
            ("?=", &self.q_component),
            ("#", &self.f_component),
        ];
        let mut text = String::with_capacity(
            5 + self.nid.len()
                + self.nss.len()
                + components
                    .iter()
                    .map(|(marker, c)| c.as_ref().map_or(0, |c| c.len() + marker.len()))
                    .sum::<usize>(),
        );
        text.push_str("urn:");
        text.push_str(&self.nid);
        text.push(':');
        text.push_str(&self.nss);
        for (marker, part) in components {
            if let Some(part) = part {
                text.push_str(marker);
                text.push_str(part);
            }
        }
        let urn = Urn::from_string(text)?;
        let view = urn.as_urn_ref();
        let offsets = urn.offsets;
        let checks = [
            (
                view.nid() == self.nid,
                Component::Nid,
                offsets.nid_end as usize,
            ),
            (
                view.nss() == self.nss,
                Component::Nss,
                offsets.nss_end as usize,
            ),
            (
                view.r_component() == self.r_component.as_deref(),
                Component::RComponent,
                offsets.r_end as usize,
            ),
            (
                view.q_component() == self.q_component.as_deref(),
                Component::QComponent,
                offsets.q_end as usize,
            ),
        ];
        for (ok, component, at) in checks {
            if !ok {
                return Err(ParseError::new(ErrorKind::Delimiter { component }, at));
            }
        }
        Ok(urn)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::*;

    /// A failed `from_string` gives the caller's allocation back, not a copy; `?` still turns
    /// the error into a `ParseError`.
    #[test]
    fn a_failed_from_string_hands_the_string_back() {
        let text = String::from("urn:example:a?b");
        let at = text.as_ptr();
        let err = Urn::from_string(text).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::BareQuestionMark, 13)
        );
        assert_eq!(err.to_string(), err.error().to_string());
        assert_eq!(err.as_str(), "urn:example:a?b");
        let back = err.into_string();
        assert_eq!((back.as_str(), back.as_ptr()), ("urn:example:a?b", at));

        let again = Urn::try_from(back).unwrap_err().into_string();
        assert_eq!(again.as_ptr(), at);

        let key = String::from("URN:example:a");
        let at = key.as_ptr();
        let err = UrnKey::from_string(key).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::KeyNotCanonical);
        let key = err.into_string();
        assert_eq!(key.as_ptr(), at);

        fn question(text: &str) -> Result<Urn, ParseError> {
            Ok(Urn::from_string(text.into())?)
        }
        assert_eq!(
            question("urn:example:a b").unwrap_err().offset(),
            13,
            "`?` converts into ParseError"
        );
    }

    #[test]
    fn delimiters_inside_parts_are_errors() {
        let kind = |b: UrnBuilder| b.build().unwrap_err().kind();
        assert_eq!(
            kind(UrnBuilder::new("ab:c", "x")),
            ErrorKind::Delimiter {
                component: Component::Nid
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x?+y")),
            ErrorKind::Delimiter {
                component: Component::Nss
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x").r_component("a?=b")),
            ErrorKind::Delimiter {
                component: Component::RComponent
            }
        );
        assert_eq!(
            kind(UrnBuilder::new("ab", "x").q_component("a#b")),
            ErrorKind::Delimiter {
                component: Component::QComponent
            }
        );
        assert_eq!(kind(UrnBuilder::new("ab", "")), ErrorKind::EmptyNss);
    }
}
