//! [`NsUrn`]: a URN restricted to one namespace, for typed fields (`isbn: IsbnUrn`).

use alloc::string::String;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::Deref;
use core::str::FromStr;

use crate::error::FromStringError;
use crate::namespaces::{KnownNamespace, NamespaceError};
use crate::{ParseError, Urn, UrnRef};

/// A namespace that [`NsUrn`] can be restricted to. Implement it (or use [`namespace!`](crate::namespace))
/// to declare your own.
///
/// ```
/// use urn_core::{Namespace, NamespaceError, NsUrn};
///
/// /// URNs of our product catalogue: `urn:acme-sku:<digits>`.
/// #[derive(Debug)]
/// enum AcmeSku {}
///
/// impl Namespace for AcmeSku {
///     const NID: &'static str = "acme-sku";
///     fn validate_nss(nss: &str) -> Result<(), NamespaceError> {
///         match nss.bytes().position(|b| !b.is_ascii_digit()) {
///             Some(at) => Err(NamespaceError::new(at, "a SKU is digits only")),
///             None => Ok(()),
///         }
///     }
/// }
///
/// let sku: NsUrn<AcmeSku> = "urn:ACME-SKU:12345".parse()?;
/// assert_eq!(sku.nss(), "12345");
/// let err = "urn:acme-sku:12a".parse::<NsUrn<AcmeSku>>().unwrap_err();
/// assert_eq!(err.to_string(), "invalid acme-sku URN: a SKU is digits only (byte 15)");
/// # Ok::<(), urn_core::NsUrnError>(())
/// ```
pub trait Namespace {
    /// The NID, in lower case (matched case-insensitively).
    const NID: &'static str;

    /// A regular expression for the NSS (no anchors, in the common subset described in
    /// [`patterns`](crate::patterns)), used for JSON Schema `pattern`s. It must accept every
    /// NSS [`validate_nss`](Namespace::validate_nss) accepts and may accept more (check digits
    /// are not regular). The default is any RFC 8141 NSS.
    const NSS_PATTERN: &'static str = crate::patterns::NSS;

    /// Checks the NSS (offsets into the NSS); the default accepts any NSS.
    fn validate_nss(nss: &str) -> Result<(), NamespaceError> {
        let _ = nss;
        Ok(())
    }
}

/// Why a string is not a URN of the expected namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NsUrnError {
    /// Not a URN at all.
    Parse(ParseError),
    /// A URN of another namespace.
    WrongNamespace {
        /// The NID the type requires.
        expected: &'static str,
        /// The NID found, as written.
        found: String,
    },
    /// The right namespace, but the NSS breaks its rules (the offset counts from the start
    /// of the URN).
    InvalidNss(NamespaceError),
}

impl NsUrnError {
    /// The rule broken, as every engine names it: the parser's kind, or
    /// [`ErrorKind::WrongNamespace`](crate::ErrorKind::WrongNamespace) or
    /// [`ErrorKind::InvalidNss`](crate::ErrorKind::InvalidNss).
    ///
    /// ```
    /// use urn_core::{ErrorKind, IsbnUrn};
    /// let err = "urn:issn:0317-8471".parse::<IsbnUrn>().unwrap_err();
    /// assert_eq!((err.kind(), err.kind().name(), err.offset()), (ErrorKind::WrongNamespace, "wrong_namespace", 4));
    /// let err = "urn:isbn:0-395-36341-2".parse::<IsbnUrn>().unwrap_err();
    /// assert_eq!((err.kind().name(), err.offset()), ("invalid_nss", 21));
    /// ```
    #[must_use]
    pub fn kind(&self) -> crate::ErrorKind {
        match self {
            NsUrnError::Parse(e) => e.kind(),
            NsUrnError::WrongNamespace { .. } => crate::ErrorKind::WrongNamespace,
            NsUrnError::InvalidNss(_) => crate::ErrorKind::InvalidNss,
        }
    }

    /// The byte offset into the input where it went wrong.
    #[must_use]
    pub fn offset(&self) -> usize {
        match self {
            NsUrnError::Parse(e) => e.offset(),
            NsUrnError::WrongNamespace { .. } => 4,
            NsUrnError::InvalidNss(e) => e.offset(),
        }
    }
}

impl fmt::Display for NsUrnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NsUrnError::Parse(e) => e.fmt(f),
            NsUrnError::WrongNamespace { expected, found } => write!(
                f,
                "expected a URN in namespace \"{expected}\", found \"{}\"",
                found.escape_debug()
            ),
            NsUrnError::InvalidNss(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for NsUrnError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            NsUrnError::Parse(e) => Some(e),
            NsUrnError::InvalidNss(e) => Some(e),
            NsUrnError::WrongNamespace { .. } => None,
        }
    }
}

impl From<ParseError> for NsUrnError {
    fn from(e: ParseError) -> Self {
        NsUrnError::Parse(e)
    }
}

/// The parse error, without the text.
impl From<FromStringError> for NsUrnError {
    fn from(e: FromStringError) -> Self {
        NsUrnError::Parse(e.error())
    }
}

/// A [`Urn`] whose NID is `N::NID` (any case) and whose NSS passes `N::validate_nss`.
///
/// It dereferences to [`Urn`] for every accessor; equality, ordering and hashing are the
/// [`Urn`]'s (by canonical key).
///
/// ```
/// use urn_core::{IsbnUrn, NsUrnError, Urn};
/// let isbn: IsbnUrn = "URN:ISBN:0-395-36341-1".parse()?;
/// assert_eq!(isbn.key().as_str(), "urn:isbn:0395363411");
/// let err = "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6".parse::<IsbnUrn>().unwrap_err();
/// assert_eq!(err.to_string(), r#"expected a URN in namespace "isbn", found "uuid""#);
/// let urn: Urn = isbn.into();
/// assert!(IsbnUrn::try_from(urn).is_ok());
/// # Ok::<(), NsUrnError>(())
/// ```
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow),
    diesel(sql_type = diesel::sql_types::Text),
    diesel(sql_type = crate::sql_types::Urn)
)]
pub struct NsUrn<N: Namespace> {
    urn: Urn,
    namespace: PhantomData<fn() -> N>,
}

impl<N: Namespace> NsUrn<N> {
    /// Parses an RFC 8141 URN and checks its namespace.
    pub fn parse(text: &str) -> Result<Self, NsUrnError> {
        Self::new(Urn::parse(text)?)
    }

    /// Checks the namespace of a parsed URN (the narrowing conversion).
    pub fn new(urn: Urn) -> Result<Self, NsUrnError> {
        Self::new_or_back(urn).map_err(|(_, e)| e)
    }

    /// Like [`NsUrn::new`], but hands the URN back with the error.
    pub(crate) fn new_or_back(urn: Urn) -> Result<Self, (Urn, NsUrnError)> {
        match Self::check(&urn) {
            Ok(()) => Ok(NsUrn {
                urn,
                namespace: PhantomData,
            }),
            Err(e) => Err((urn, e)),
        }
    }

    /// Checks that `urn` belongs to this namespace.
    pub fn check(urn: &Urn) -> Result<(), NsUrnError> {
        if !urn.nid().eq_ignore_ascii_case(N::NID) {
            return Err(NsUrnError::WrongNamespace {
                expected: N::NID,
                found: urn.nid().into(),
            });
        }
        N::validate_nss(urn.nss())
            .map_err(|e| NsUrnError::InvalidNss(e.reported(N::NID, urn.nid().len() + 5)))
    }

    /// The underlying URN.
    #[must_use]
    pub fn as_urn(&self) -> &Urn {
        &self.urn
    }

    /// The underlying URN, by value.
    #[must_use]
    pub fn into_urn(self) -> Urn {
        self.urn
    }
}

impl<N: Namespace> Deref for NsUrn<N> {
    type Target = Urn;
    fn deref(&self) -> &Urn {
        &self.urn
    }
}

impl<N: Namespace> AsRef<str> for NsUrn<N> {
    fn as_ref(&self) -> &str {
        self.urn.as_str()
    }
}

impl<N: Namespace> AsRef<Urn> for NsUrn<N> {
    fn as_ref(&self) -> &Urn {
        &self.urn
    }
}

impl<N: Namespace> FromStr for NsUrn<N> {
    type Err = NsUrnError;
    fn from_str(s: &str) -> Result<Self, NsUrnError> {
        Self::parse(s)
    }
}

impl<N: Namespace> TryFrom<Urn> for NsUrn<N> {
    type Error = NsUrnError;
    fn try_from(urn: Urn) -> Result<Self, NsUrnError> {
        Self::new(urn)
    }
}

/// [`NsUrn::parse`].
///
/// ```
/// use urn_core::IsbnUrn;
/// let isbn = IsbnUrn::try_from("urn:isbn:0-395-36341-1")?;
/// assert!(IsbnUrn::try_from("urn:issn:0317-8471").is_err());
/// # Ok::<(), urn_core::NsUrnError>(())
/// ```
impl<N: Namespace> TryFrom<&str> for NsUrn<N> {
    type Error = NsUrnError;
    fn try_from(s: &str) -> Result<Self, NsUrnError> {
        Self::parse(s)
    }
}

/// Takes the string without copying it.
impl<N: Namespace> TryFrom<String> for NsUrn<N> {
    type Error = NsUrnError;
    fn try_from(s: String) -> Result<Self, NsUrnError> {
        Self::new(Urn::from_string(s)?)
    }
}

impl<N: Namespace> From<NsUrn<N>> for Urn {
    fn from(urn: NsUrn<N>) -> Urn {
        urn.urn
    }
}

impl<N: Namespace> From<NsUrn<N>> for String {
    fn from(urn: NsUrn<N>) -> String {
        urn.urn.into_string()
    }
}

impl<N: Namespace> Clone for NsUrn<N> {
    fn clone(&self) -> Self {
        NsUrn {
            urn: self.urn.clone(),
            namespace: PhantomData,
        }
    }
}

impl<N: Namespace> fmt::Debug for NsUrn<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("NsUrn").field(&self.urn.as_str()).finish()
    }
}

/// The text, padded, aligned and truncated exactly as `str` is, as [`Urn`]'s `Display`.
impl<N: Namespace> fmt::Display for NsUrn<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.urn, f)
    }
}

impl<N: Namespace> PartialEq for NsUrn<N> {
    fn eq(&self, other: &Self) -> bool {
        self.urn == other.urn
    }
}

impl<N: Namespace> Eq for NsUrn<N> {}

/// Equal when the keys are equal, as two [`Urn`]s are.
impl<N: Namespace> PartialEq<Urn> for NsUrn<N> {
    fn eq(&self, other: &Urn) -> bool {
        self.urn == *other
    }
}

/// Equal when the keys are equal, as two [`Urn`]s are.
impl<N: Namespace> PartialEq<NsUrn<N>> for Urn {
    fn eq(&self, other: &NsUrn<N>) -> bool {
        *self == other.urn
    }
}

/// Equal when the keys are equal: `typed == urn!("…")`.
impl<N: Namespace> PartialEq<UrnRef<'_>> for NsUrn<N> {
    fn eq(&self, other: &UrnRef<'_>) -> bool {
        self.urn == *other
    }
}

/// Equal when the keys are equal: `urn!("…") == typed`.
impl<N: Namespace> PartialEq<NsUrn<N>> for UrnRef<'_> {
    fn eq(&self, other: &NsUrn<N>) -> bool {
        *self == other.urn
    }
}

impl<N: Namespace> PartialOrd for NsUrn<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<N: Namespace> Ord for NsUrn<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.urn.cmp(&other.urn)
    }
}

impl<N: Namespace> Hash for NsUrn<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.urn.hash(state);
    }
}

/// Declares a [`Namespace`] marker type: `namespace!(pub Acme, "acme")`, optionally with an
/// NSS validator `fn(&str) -> Result<(), NamespaceError>`.
///
/// ```
/// use urn_core::{namespace, NamespaceError, NsUrn};
/// namespace!(pub Weather, "weather");
/// namespace!(pub Station, "station", |nss: &str| {
///     if nss.len() == 5 { Ok(()) } else { Err(NamespaceError::new(0, "station codes have 5 characters")) }
/// });
/// let w: NsUrn<Weather> = "urn:weather:today".parse().unwrap();
/// assert!("urn:station:KSEA".parse::<NsUrn<Station>>().is_err());
/// ```
#[macro_export]
macro_rules! namespace {
    ($(#[$meta:meta])* $vis:vis $name:ident, $nid:literal) => {
        $crate::namespace!($(#[$meta])* $vis $name, $nid, |_: &str| Ok(()));
    };
    ($(#[$meta:meta])* $vis:vis $name:ident, $nid:literal, $validate:expr) => {
        $(#[$meta])*
        #[doc = concat!("The `urn:", $nid, ":` namespace.")]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {}
        impl $crate::Namespace for $name {
            const NID: &'static str = $nid;
            fn validate_nss(nss: &str) -> ::core::result::Result<(), $crate::NamespaceError> {
                let validate: fn(&str) -> ::core::result::Result<(), $crate::NamespaceError> = $validate;
                validate(nss)
            }
        }
    };
}

/// The markers of the built-in namespaces and their typed aliases, one per row of the
/// namespace table.
macro_rules! declare_markers {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        /// The [`Namespace`] markers of the namespaces this crate knows ([`KnownNamespace`]),
        /// for `NsUrn<ns::Isbn>`; the aliases ([`IsbnUrn`], …) name those types.
        pub mod ns {
            use super::{KnownNamespace, Namespace, NamespaceError};
            $(
                #[doc = concat!(
                    "The marker of [`KnownNamespace::", stringify!($variant), "`]: its NID, ",
                    "NSS check and schema pattern.",
                )]
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                pub enum $variant {}

                impl Namespace for $variant {
                    const NID: &'static str = KnownNamespace::$variant.nid();
                    const NSS_PATTERN: &'static str = KnownNamespace::$variant.nss_pattern();
                    fn validate_nss(nss: &str) -> Result<(), NamespaceError> {
                        KnownNamespace::$variant.validate_nss(nss)
                    }
                }
            )*
        }

        $(
            #[doc = concat!(
                "A URN of [`KnownNamespace::", stringify!($variant), "`] whose NSS is valid for ",
                "that namespace.",
            )]
            pub type $alias = NsUrn<ns::$variant>;
        )*

        /// Every typed alias's name with its namespace, for the tests that check that the
        /// sibling crates re-export each of them.
        #[cfg(test)]
        pub(crate) const TYPED_ALIASES: &[(&str, KnownNamespace)] =
            &[$((stringify!($alias), KnownNamespace::$variant)),*];
    };
}

crate::known_namespaces!(declare_markers);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_accept_and_reject() {
        assert!(UuidUrn::parse("urn:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6").is_ok());
        let e = UuidUrn::parse("urn:uuid:f81d4fae").unwrap_err();
        assert_eq!(e.offset(), 17);
        assert!(IssnUrn::parse("urn:issn:1046-8188").is_ok());
        assert!(OidUrn::parse("urn:oid:1.3.6.01").is_err());
        assert!(IetfUrn::parse("urn:ietf:rfc:2141").is_ok());
        assert!(ExampleUrn::parse("urn:example:anything").is_ok());
        assert!(matches!(
            ExampleUrn::parse("urn:isbn:0395363411"),
            Err(NsUrnError::WrongNamespace { .. })
        ));
    }

    /// `?` turns `Urn::from_string`'s error into an `NsUrnError`, as it did when that was a
    /// `ParseError`.
    #[test]
    fn from_string_errors_convert_with_question_mark() {
        fn typed(text: &str) -> Result<IsbnUrn, NsUrnError> {
            IsbnUrn::new(Urn::from_string(text.into())?)
        }
        assert!(matches!(
            typed("urn:isbn:"),
            Err(NsUrnError::Parse(e)) if e.kind() == crate::ErrorKind::EmptyNss
        ));
        assert!(IsbnUrn::try_from("urn:isbn:0395363411").is_ok());
    }

    /// `Urn`, `UrnRef` and `NsUrn` compare with each other in both directions, by key.
    #[test]
    fn the_three_types_compare_both_ways_by_key() {
        const SAME: UrnRef<'static> = crate::urn!("urn:isbn:0395363411");
        const OTHER: UrnRef<'static> = crate::urn!(isbn: "urn:isbn:9780395363416");
        let typed = IsbnUrn::parse("URN:ISBN:0-395-36341-1").unwrap();
        let owned = Urn::from(SAME);
        assert_eq!(typed, SAME);
        assert_eq!(SAME, typed);
        assert_eq!(typed, owned);
        assert_eq!(owned, typed);
        assert_eq!(owned, SAME);
        assert_eq!(SAME, owned);
        let other = Urn::from(OTHER);
        assert_ne!(typed, OTHER);
        assert_ne!(OTHER, typed);
        assert_ne!(typed, other);
        assert_ne!(other, typed);
        assert_ne!(owned, OTHER);
        assert_ne!(OTHER, owned);
    }

    /// The typed aliases follow one naming rule, `<variant>Urn`, which the sibling crates'
    /// re-export tests rely on, and there is one per known namespace.
    #[test]
    fn every_known_namespace_has_its_alias() {
        assert_eq!(TYPED_ALIASES.len(), KnownNamespace::ALL.len());
        for (alias, ns) in TYPED_ALIASES {
            assert_eq!(*alias, alloc::format!("{ns:?}Urn"));
        }
    }

    // The typed literal `urn!(isbn: "…")` checks, in a `const fn`, what `NsUrn::parse` does.

    use alloc::format;

    use proptest::prelude::*;

    use crate::literal::tests::{EDGES, agree, const_message, found, urn_like};
    use crate::literal::{Refusal, message_in, parse_in};

    /// `NsUrn::<marker of ns>::parse(text)`, the run-time check the typed literal copies.
    fn runtime_in(ns: KnownNamespace, text: &str) -> Result<(), NsUrnError> {
        macro_rules! by_marker {
            ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
                match ns {
                    $(KnownNamespace::$variant => NsUrn::<crate::ns::$variant>::parse(text).map(drop),)*
                }
            };
        }
        crate::known_namespaces!(by_marker)
    }

    /// The typed literal's check and the run-time one agree on `text`, and so do the messages.
    fn agree_in(ns: KnownNamespace, text: &str) -> Result<(), TestCaseError> {
        let want = runtime_in(ns, text);
        let got = parse_in(ns, text)
            .map(drop)
            .map_err(|refusal| match refusal {
                Refusal::Parse(e) => NsUrnError::Parse(e),
                Refusal::WrongNamespace { expected, nid_end } => NsUrnError::WrongNamespace {
                    expected,
                    found: text.get(4..nid_end).unwrap_or_default().into(),
                },
                Refusal::InvalidNss {
                    nid,
                    offset,
                    reason,
                } => NsUrnError::InvalidNss(
                    crate::NamespaceError::new(offset, reason).reported(nid, 0),
                ),
            });
        prop_assert_eq!(&got, &want, "{} {:?}", ns, text);
        let quoted = match &want {
            Err(NsUrnError::Parse(e)) => found(e),
            _ => None,
        };
        prop_assert_eq!(
            message_in(ns, text),
            want.err().map(|e| const_message(e, quoted)),
            "{} {:?}",
            ns,
            text
        );
        Ok(())
    }

    /// The typed literal: other namespaces, bad NSSs, components, spellings of the NID.
    #[test]
    fn the_typed_check_agrees_with_ns_urn() {
        for &ns in KnownNamespace::ALL {
            for text in EDGES.iter().copied().chain(ns.examples().iter().copied()) {
                agree_in(ns, text).unwrap();
            }
            for example in ns.examples() {
                let upper = example.to_ascii_uppercase();
                agree_in(ns, &upper).unwrap();
                agree_in(ns, &format!("{example}x")).unwrap();
                agree_in(ns, &example.replacen(':', "::", 2)).unwrap();
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        #[test]
        fn the_typed_check_agrees_with_ns_urn_on_anything(
            text in urn_like(),
            k in 0..KnownNamespace::ALL.len(),
        ) {
            agree_in(KnownNamespace::ALL[k], &text)?;
        }
    }

    #[cfg(any(feature = "arbitrary", feature = "proptest"))]
    proptest! {
        /// Valid URNs of every shape and namespace (the crate's own generators), and the same
        /// with one byte changed: the const grammar and the typed check agree with the parser
        /// and `NsUrn`.
        #[test]
        fn the_const_checks_agree_on_generated_urns(
            bytes in prop::collection::vec(any::<u8>(), 0..256),
            at in any::<prop::sample::Index>(),
            byte in prop::sample::select(b"0-Xx:%/?#+=.a ".to_vec()),
        ) {
            let mut choices = crate::choices::ByteChoices::new(&bytes);
            let text = crate::generate::urn_text(&mut choices, None);
            let mut edited = text.as_bytes().to_vec();
            let i = at.index(edited.len());
            edited[i] = byte;
            let edited = alloc::string::String::from_utf8_lossy(&edited);
            agree(&text)?;
            agree(&edited)?;
            for &ns in KnownNamespace::ALL {
                agree_in(ns, &text)?;
                agree_in(ns, &edited)?;
            }
        }
    }
}
