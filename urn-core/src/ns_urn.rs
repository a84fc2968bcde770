//! [`NsUrn`]: a URN restricted to one namespace, for typed fields (`isbn: IsbnUrn`).

use alloc::borrow::Cow;
use alloc::string::String;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::Deref;
use core::str::FromStr;

use crate::{ParseError, Urn};

/// Why an NSS is not valid for a [`Namespace`]: a byte offset into the NSS and a reason.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NssError {
    offset: usize,
    reason: Cow<'static, str>,
}

impl NssError {
    /// An error at byte `offset` of the NSS.
    pub fn new(offset: usize, reason: impl Into<Cow<'static, str>>) -> Self {
        NssError {
            offset,
            reason: reason.into(),
        }
    }

    /// The byte offset into the NSS.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// A namespace that [`NsUrn`] can be restricted to. Implement it (or use [`namespace!`](crate::namespace))
/// to declare your own.
///
/// ```
/// use urn_core::{Namespace, NsUrn, NssError};
///
/// /// URNs of our product catalogue: `urn:acme-sku:<digits>`.
/// #[derive(Debug)]
/// enum AcmeSku {}
///
/// impl Namespace for AcmeSku {
///     const NID: &'static str = "acme-sku";
///     fn validate_nss(nss: &str) -> Result<(), NssError> {
///         match nss.bytes().position(|b| !b.is_ascii_digit()) {
///             Some(at) => Err(NssError::new(at, "a SKU is digits only")),
///             None => Ok(()),
///         }
///     }
/// }
///
/// let sku: NsUrn<AcmeSku> = "urn:ACME-SKU:12345".parse()?;
/// assert_eq!(sku.nss(), "12345");
/// let err = "urn:acme-sku:12a".parse::<NsUrn<AcmeSku>>().unwrap_err();
/// assert_eq!(err.to_string(), r#"invalid "acme-sku" URN: a SKU is digits only (byte 15)"#);
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

    /// Checks the NSS; the default accepts any NSS.
    fn validate_nss(nss: &str) -> Result<(), NssError> {
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
    /// The right namespace, but the NSS breaks its rules.
    InvalidNss {
        /// The NID the type requires.
        nid: &'static str,
        /// The byte offset into the URN.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
}

impl NsUrnError {
    /// The byte offset into the input where it went wrong.
    pub fn offset(&self) -> usize {
        match self {
            NsUrnError::Parse(e) => e.offset(),
            NsUrnError::WrongNamespace { .. } => 4,
            NsUrnError::InvalidNss { offset, .. } => *offset,
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
            NsUrnError::InvalidNss {
                nid,
                offset,
                reason,
            } => write!(f, "invalid \"{nid}\" URN: {reason} (byte {offset})"),
        }
    }
}

impl core::error::Error for NsUrnError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            NsUrnError::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseError> for NsUrnError {
    fn from(e: ParseError) -> Self {
        NsUrnError::Parse(e)
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
        N::validate_nss(urn.nss()).map_err(|e| NsUrnError::InvalidNss {
            nid: N::NID,
            offset: urn.nid().len() + 5 + e.offset(),
            reason: e.reason().into(),
        })
    }

    /// The underlying URN.
    pub fn as_urn(&self) -> &Urn {
        &self.urn
    }

    /// The underlying URN, by value.
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

impl<N: Namespace> PartialEq<Urn> for NsUrn<N> {
    fn eq(&self, other: &Urn) -> bool {
        self.urn == *other
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
/// NSS validator `fn(&str) -> Result<(), NssError>`.
///
/// ```
/// use urn_core::{namespace, NsUrn, NssError};
/// namespace!(pub Weather, "weather");
/// namespace!(pub Station, "station", |nss: &str| {
///     if nss.len() == 5 { Ok(()) } else { Err(NssError::new(0, "station codes have 5 characters")) }
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
            fn validate_nss(nss: &str) -> ::core::result::Result<(), $crate::NssError> {
                let validate: fn(&str) -> ::core::result::Result<(), $crate::NssError> = $validate;
                validate(nss)
            }
        }
    };
}

/// Built-in namespaces whose NSS syntax this crate checks (see [`KnownNamespace`](crate::KnownNamespace)).
pub mod ns {
    use super::{Namespace, NssError};
    use crate::KnownNamespace;

    fn known(ns: KnownNamespace, nss: &str) -> Result<(), NssError> {
        ns.validate_nss(nss)
            .map_err(|e| NssError::new(e.offset(), e.reason()))
    }

    macro_rules! builtin {
        ($($name:ident => $known:ident, $nid:literal, $pattern:expr;)*) => {$(
            #[doc = concat!("`urn:", $nid, ":`, NSS checked by [`KnownNamespace::", stringify!($known), "`].")]
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            pub enum $name {}
            impl Namespace for $name {
                const NID: &'static str = $nid;
                const NSS_PATTERN: &'static str = $pattern;
                fn validate_nss(nss: &str) -> Result<(), NssError> {
                    known(KnownNamespace::$known, nss)
                }
            }
        )*};
    }

    builtin! {
        Uuid => Uuid, "uuid", crate::patterns::UUID_NSS;
        Isbn => Isbn, "isbn", crate::patterns::ISBN_NSS;
        Issn => Issn, "issn", crate::patterns::ISSN_NSS;
        Oid => Oid, "oid", crate::patterns::OID_NSS;
        Ietf => Ietf, "ietf", crate::patterns::IETF_NSS;
        Example => Example, "example", crate::patterns::NSS;
    }
}

/// A `urn:uuid:` URN with a valid UUID.
pub type UuidUrn = NsUrn<ns::Uuid>;
/// A `urn:isbn:` URN with a valid ISBN-10 or ISBN-13.
pub type IsbnUrn = NsUrn<ns::Isbn>;
/// A `urn:issn:` URN with a valid ISSN.
pub type IssnUrn = NsUrn<ns::Issn>;
/// A `urn:oid:` URN with a dotted-decimal OID.
pub type OidUrn = NsUrn<ns::Oid>;
/// A `urn:ietf:` URN of an RFC 2648 form.
pub type IetfUrn = NsUrn<ns::Ietf>;
/// A `urn:example:` URN (RFC 6963, for documentation and tests).
pub type ExampleUrn = NsUrn<ns::Example>;

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
}
