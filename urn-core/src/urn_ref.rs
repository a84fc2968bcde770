//! [`UrnRef`]: a validated URN borrowed from its text.

use alloc::borrow::Cow;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use crate::canonical;
use crate::encoding::{self, DecodeError};
use crate::error::ParseError;
use crate::key::UrnKey;
use crate::key_rules::KeyRules;
use crate::literal;
use crate::namespaces::{KnownNamespace, NamespaceError};
use crate::parse::{self, Offsets, ParseOptions, Parsed};
use crate::registry::{self, NidStatus};

/// A validated URN that borrows its text: parsing it allocates nothing.
///
/// It has the same accessors as [`Urn`](crate::Urn); equality, ordering and hashing follow the
/// canonical key ([`UrnRef::key`]). `Urn::from(view)` makes an owned copy, and
/// [`Urn::as_urn_ref`](crate::Urn::as_urn_ref) borrows one.
///
/// ```
/// use urn_core::{UrnRef, urn};
/// let urn = UrnRef::parse("urn:example:weather?=op=map&lat=39.56#top")?;
/// assert_eq!(urn.nid(), "example");
/// assert_eq!(urn.nss(), "weather");
/// assert_eq!(urn.q_component(), Some("op=map&lat=39.56"));
/// assert_eq!(urn.f_component(), Some("top"));
/// assert_eq!(urn, urn!("URN:EXAMPLE:weather"));
/// # Ok::<(), urn_core::ParseError>(())
/// ```
///
/// [`urn!`](crate::urn) makes a `UrnRef<'static>` of a literal, checked when the program is
/// compiled.
#[derive(Clone, Copy)]
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression),
    diesel(sql_type = diesel::sql_types::Text),
    diesel(sql_type = crate::sql_types::Urn)
)]
pub struct UrnRef<'a> {
    parsed: Parsed<'a>,
}

impl<'a> UrnRef<'a> {
    /// Parses `text` as an RFC 8141 URN of at most [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN)
    /// bytes. A `const fn`: the one parser, so constants can parse too (and
    /// [`urn!`](crate::urn) checks literals with it).
    ///
    /// ```
    /// use urn_core::{ErrorKind, ParseError, UrnRef};
    /// const CHECKED: Result<UrnRef<'static>, ParseError> = UrnRef::parse("urn:example:a?b");
    /// assert!(matches!(CHECKED, Err(e) if e.kind() == ErrorKind::BareQuestionMark));
    /// const VALID: bool = UrnRef::parse("urn:example:a").is_ok();
    /// assert!(VALID);
    /// ```
    pub const fn parse(text: &'a str) -> Result<Self, ParseError> {
        match parse::parse(text, ParseOptions::new()) {
            Ok(parsed) => Ok(UrnRef { parsed }),
            Err(e) => Err(e),
        }
    }

    /// Parses `text` with the given options: a [`Syntax`](crate::Syntax), or
    /// [`ParseOptions`] for the length cap too.
    ///
    /// ```
    /// use urn_core::{ParseOptions, Syntax, UrnRef};
    /// assert!(UrnRef::parse_with("urn:trailing-:x", Syntax::Rfc2141).is_ok());
    /// assert!(UrnRef::parse_with("urn:trailing-:x", Syntax::Rfc8141).is_err());
    /// assert!(UrnRef::parse_with("urn:example:abc", ParseOptions::new().with_max_len(8)).is_err());
    /// ```
    pub fn parse_with(text: &'a str, options: impl Into<ParseOptions>) -> Result<Self, ParseError> {
        parse::parse(text, options.into()).map(|parsed| UrnRef { parsed })
    }

    /// Parses `bytes`, which a caller holds as bytes (a line of a file, a database value):
    /// text that is not UTF-8 is refused with [`ErrorKind::NotUtf8`](crate::ErrorKind::NotUtf8)
    /// at the first byte that is not, unless a rule breaks before it (then that rule's error,
    /// as [`UrnRef::parse`] would give it).
    ///
    /// ```
    /// use urn_core::UrnRef;
    /// assert!(UrnRef::parse_bytes(b"urn:example:a").is_ok());
    /// let err = UrnRef::parse_bytes(b"urn:example:\xff").unwrap_err();
    /// assert_eq!((err.kind().name(), err.to_string().as_str()), ("invalid_utf8", "invalid URN: byte 12 is not UTF-8"));
    /// assert_eq!(UrnRef::parse_bytes(b"urx:\xff").unwrap_err().kind().name(), "scheme");
    /// ```
    pub fn parse_bytes(bytes: &'a [u8]) -> Result<Self, ParseError> {
        Self::parse_bytes_with(bytes, ParseOptions::new())
    }

    /// [`UrnRef::parse_bytes`] with the given options.
    pub fn parse_bytes_with(
        bytes: &'a [u8],
        options: impl Into<ParseOptions>,
    ) -> Result<Self, ParseError> {
        let options = options.into();
        match core::str::from_utf8(bytes) {
            Ok(text) => Self::parse_with(text, options),
            Err(e) => {
                let at = e.valid_up_to();
                let head = bytes.get(..at).and_then(|b| core::str::from_utf8(b).ok());
                match head.map(|head| Self::parse_with(head, options)) {
                    Some(Err(err)) if err.offset() < at => Err(err),
                    _ if bytes.len() > options.max_len() => Err(options.too_long()),
                    _ => Err(ParseError::new(crate::ErrorKind::NotUtf8, at)),
                }
            }
        }
    }

    /// The view of text whose offsets a parse produced.
    pub(crate) const fn from_offsets(text: &'a str, offsets: Offsets) -> Self {
        UrnRef {
            parsed: Parsed { text, offsets },
        }
    }

    /// The URN exactly as given.
    #[must_use]
    pub const fn as_str(&self) -> &'a str {
        self.parsed.text
    }

    /// The namespace identifier, as written (compare it case-insensitively).
    #[must_use]
    pub fn nid(&self) -> &'a str {
        self.parsed.nid()
    }

    /// The namespace-specific string, as written (percent-encoded).
    #[must_use]
    pub fn nss(&self) -> &'a str {
        self.parsed.nss()
    }

    /// The r-component without its `?+`, if present.
    #[must_use]
    pub fn r_component(&self) -> Option<&'a str> {
        self.parsed.r_component()
    }

    /// The q-component without its `?=`, if present.
    #[must_use]
    pub fn q_component(&self) -> Option<&'a str> {
        self.parsed.q_component()
    }

    /// The f-component without its `#`, if present (`Some("")` for a bare trailing `#`).
    #[must_use]
    pub fn f_component(&self) -> Option<&'a str> {
        self.parsed.f_component()
    }

    /// `urn:<NID>:<NSS>` as written, without components: what a resolver is asked about.
    #[must_use]
    pub fn assigned_name(&self) -> &'a str {
        self.parsed.assigned_name()
    }

    /// The canonical key under [`KeyRules::CURRENT`]: RFC 8141 section 3 plus the
    /// namespaces' own equivalence rules. Borrows when the URN is already normal.
    // Inlined across crates, as `key_with` is: a caller's `key()` costs what its
    // `key_with(rules)` does, without a call more (BENCHMARKS.md, "Instructions per URN").
    #[inline]
    #[must_use]
    pub fn key(&self) -> UrnKey<'a> {
        self.key_with(KeyRules::CURRENT)
    }

    /// The RFC 8141 section 3 key alone (no namespace rules).
    // Inlined across crates, as `key` is.
    #[inline]
    #[must_use]
    pub fn rfc8141_key(&self) -> UrnKey<'a> {
        self.key_with(KeyRules::Rfc8141)
    }

    /// The canonical key under a given rule set.
    ///
    /// ```
    /// use urn_core::{KeyRules, urn};
    /// let urn = urn!("URN:ISBN:0-395-36341-1");
    /// assert_eq!(urn.key_with(KeyRules::Rfc8141).as_str(), "urn:isbn:0-395-36341-1");
    /// assert_eq!(urn.key_with(KeyRules::V1).as_str(), "urn:isbn:0395363411");
    /// ```
    #[inline]
    #[must_use]
    pub fn key_with(&self, rules: KeyRules) -> UrnKey<'a> {
        UrnKey::from_text(canonical::key(&self.parsed, rules))
    }

    /// The parse behind this view.
    pub(crate) const fn parsed(&self) -> &Parsed<'a> {
        &self.parsed
    }

    /// The NSS percent-decoded (borrowed when it holds no `%`); an error when the decoded
    /// bytes are not UTF-8.
    ///
    /// ```
    /// let urn = urn_core::urn!("urn:example:%D0%B0123,z456");
    /// assert_eq!(urn.nss_decoded()?, "а123,z456"); // Cyrillic 'а'
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nss_decoded(&self) -> Result<Cow<'a, str>, DecodeError> {
        encoding::decode_nss(self.nss()).map_err(|e| e.shifted(self.parsed.nss_start()))
    }

    /// The NID's registration status (IANA registry of [`REGISTRY_DATE`](crate::REGISTRY_DATE)).
    ///
    /// ```
    /// use urn_core::{NidStatus, urn};
    /// assert_eq!(urn!("urn:ngsi-ld:Car:1").nid_status(), NidStatus::Unregistered);
    /// ```
    #[must_use]
    pub fn nid_status(&self) -> NidStatus {
        registry::nid_status(self.nid())
    }

    /// The namespace, when this crate knows its NSS syntax.
    #[must_use]
    pub fn namespace(&self) -> Option<KnownNamespace> {
        KnownNamespace::from_nid(self.nid())
    }

    /// Checks the NSS against its namespace's syntax, for the namespaces this crate knows
    /// ([`KnownNamespace`]); other namespaces pass (see [`UrnRef::nid_status`] for them).
    /// The error's offset counts from the start of the URN.
    ///
    /// ```
    /// let urn = urn_core::urn!("urn:isbn:0-395-36341-2"); // a URN, but not a valid ISBN
    /// let err = urn.validate_namespace().unwrap_err();
    /// assert_eq!(err.to_string(), "invalid isbn URN: the check digit does not match (byte 21)");
    /// ```
    pub fn validate_namespace(&self) -> Result<(), NamespaceError> {
        match self.namespace() {
            Some(ns) => ns
                .validate_nss(self.nss())
                .map_err(|e| e.reported(ns.nid(), self.parsed.nss_start())),
            None => Ok(()),
        }
    }

    /// The UUID of a valid `urn:uuid:` URN (feature `uuid`); `None` for any other URN.
    ///
    /// ```
    /// let urn = urn_core::urn!("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
    /// let uuid = urn.to_uuid().unwrap();
    /// assert_eq!(uuid.to_string(), "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    /// ```
    #[cfg(feature = "uuid")]
    #[must_use]
    pub fn to_uuid(&self) -> Option<uuid::Uuid> {
        if self.namespace() != Some(KnownNamespace::Uuid) || self.validate_namespace().is_err() {
            return None;
        }
        uuid::Uuid::try_parse(self.nss()).ok()
    }

    /// Exact comparison of the text, including case and components (`==` compares keys).
    ///
    /// ```
    /// use urn_core::urn;
    /// let (a, b) = (urn!("urn:ex:a#1"), urn!("URN:ex:a"));
    /// assert!(a == b && !a.eq_text(&b));
    /// ```
    #[must_use]
    pub fn eq_text(&self, other: &UrnRef<'_>) -> bool {
        self.as_str() == other.as_str()
    }
}

impl UrnRef<'static> {
    /// The URN of a string literal, checked when the program is compiled if called in a
    /// constant (as [`urn!`](crate::urn) does), like `http`'s `HeaderName::from_static`.
    ///
    /// ```
    /// use urn_core::UrnRef;
    /// const HOBBIT: UrnRef<'static> = UrnRef::from_static("urn:isbn:0-395-36341-1");
    /// assert_eq!(HOBBIT.key().as_str(), "urn:isbn:0395363411");
    /// ```
    ///
    /// # Panics
    ///
    /// When `text` is not an RFC 8141 URN of at most
    /// [`DEFAULT_MAX_LEN`](crate::DEFAULT_MAX_LEN) bytes, with the message of the
    /// [`ParseError`] that [`UrnRef::parse`] returns: in a constant, that is a compile error.
    /// Use [`UrnRef::parse`] for text that is not a literal.
    ///
    /// ```compile_fail,E0080
    /// // error[E0080]: evaluation panicked: invalid URN: the NSS at byte 12 is empty
    /// const EMPTY: urn_core::UrnRef<'static> = urn_core::UrnRef::from_static("urn:example:");
    /// ```
    #[must_use]
    #[track_caller]
    pub const fn from_static(text: &'static str) -> UrnRef<'static> {
        match UrnRef::parse(text) {
            Ok(urn) => urn,
            Err(e) => literal::refuse_parse(&e),
        }
    }
}

/// The text, padded, aligned and truncated exactly as `str` is (`{:>40}`, `{:.20}`); `{:#}`
/// prints the same as `{}`.
impl fmt::Display for UrnRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl fmt::Debug for UrnRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UrnRef").field(&self.as_str()).finish()
    }
}

impl AsRef<str> for UrnRef<'_> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<'a> TryFrom<&'a str> for UrnRef<'a> {
    type Error = ParseError;
    fn try_from(text: &'a str) -> Result<Self, ParseError> {
        UrnRef::parse(text)
    }
}

/// Equal when the keys are equal (compared without allocating).
impl PartialEq for UrnRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        canonical::eq(&self.parsed, &other.parsed)
    }
}

impl Eq for UrnRef<'_> {}

impl PartialOrd for UrnRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered as the keys' text.
impl Ord for UrnRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        canonical::cmp(&self.parsed, &other.parsed)
    }
}

/// Hashes by its key, so equal URNs hash alike.
impl Hash for UrnRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        canonical::hash(&self.parsed, state);
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};

    use super::*;

    /// What `from_static` and the typed form do at run time: panic with the compile error's text.
    #[test]
    fn refusals_panic_with_the_run_time_message() {
        let nids: alloc::vec::Vec<&str> = crate::KnownNamespace::ALL
            .iter()
            .map(|ns| ns.nid())
            .collect();
        let (last, rest) = nids.split_last().unwrap();
        fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
            let payload = std::panic::catch_unwind(f).unwrap_err();
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap()
        }
        let text: &'static str = "urn:example:a?b";
        assert_eq!(
            panic_message(|| {
                let _ = UrnRef::from_static(text);
            }),
            UrnRef::parse(text).unwrap_err().to_string()
        );
        assert_eq!(
            panic_message(|| {
                let _ = crate::literal::typed("isbn", "urn:isbn:0-395-36341-2");
            }),
            "invalid isbn URN: the check digit does not match (byte 21)"
        );
        assert_eq!(
            panic_message(|| {
                let _ = crate::literal::typed("isbn", "urn:issn:0317-8471");
            }),
            r#"expected a URN in namespace "isbn", found "issn""#
        );
        assert_eq!(
            panic_message(|| {
                let _ = crate::literal::typed("acme", "urn:acme:1");
            }),
            alloc::format!(
                "urn!(acme: ...): not a namespace urn-core knows; the typed form takes {} or {last}",
                rest.join(", ")
            )
        );
    }
}
