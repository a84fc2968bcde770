//! Exact, lossless, fast URNs (RFC 8141; RFC 2141 for legacy data).
//!
//! - [`urn!`] writes a URN in the code: checked when the program is compiled (a typo is a
//!   compile error naming the rule and the byte), usable in `const` and `static` items.
//! - [`Urn`] owns its text, [`UrnRef`] borrows it; both keep the input verbatim and know where
//!   each component lies after one pass over the bytes.
//! - [`ParseError`] names the broken rule ([`ErrorKind`]) and the byte offset.
//! - [`UrnKey`] is the canonical key: RFC 8141 section 3 normalization plus the namespaces'
//!   own equivalence rules ([`KeyRules`], versioned). `==`, `Ord` and `Hash` follow it.
//! - [`nid_status`] checks the NID against the embedded IANA registry;
//!   [`Urn::validate_namespace`] checks the NSS of well-known namespaces.
//! - [`Urn::builder`], [`encode_nss`] and [`decode_nss`] build URNs that are valid by
//!   construction.
//! - [`NsUrn`] restricts a field to one namespace ([`IsbnUrn`], …, or your own
//!   [`Namespace`]).
//!
//! `API.md` (in the crate's repository folder and package) lists the public types and why each
//! exists: the 0.1 API.
//!
//! ```
//! use urn_core::{ErrorKind, Urn, UrnRef, urn};
//!
//! // A URN written in the code: checked by the compiler.
//! const B: UrnRef<'static> = urn!("urn:example:a123%2Cz456#frag");
//!
//! // A URN from outside: parsed at run time.
//! let a: Urn = "URN:EXAMPLE:a123%2cz456?=lang=en".parse()?;
//! assert_eq!(a, B); // equivalent: same key
//! assert_ne!(a.as_str(), B.as_str()); // but spelled differently
//! assert_eq!(a.key().as_str(), "urn:example:a123%2Cz456");
//! assert_eq!(a.q_component(), Some("lang=en"));
//!
//! let err = Urn::parse("urn:example:a b").unwrap_err();
//! assert_eq!(err.kind(), ErrorKind::InvalidChar { component: urn_core::Component::Nss, found: ' ' });
//! assert_eq!(err.to_string(), "invalid URN: ' ' at byte 13 is not allowed in the NSS");
//! # Ok::<(), urn_core::ParseError>(())
//! ```
//!
//! `no_std` with `alloc`: disable the default `std` feature.
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

mod canonical;
mod chars;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod choices;
mod encoding;
mod error;
mod find;
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod generate;
mod integrations;
mod key;
mod key_rule;
mod key_rules;
mod key_text;
mod literal;
mod namespaces;
mod ns_urn;
mod nss_key;
mod parse;
pub mod patterns;
pub mod prelude;
mod registry;
mod repair;
mod resolver;
#[cfg(feature = "diesel")]
pub mod sql_types;
#[cfg(feature = "proptest")]
pub mod strategy;
mod urn;
mod urn_ref;

/// This crate's README, whose examples run as doc tests (so they cannot go stale).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct Readme;

pub use encoding::{DecodeError, DecodeErrorKind, decode_nss, encode_nss};
pub use error::{Component, ErrorKind, FromStringError, MESSAGE_PARTS, MessagePart, ParseError};
pub use find::{FIND_CONTEXT, FindOptions, FindUrns, Found, UrnEnd, find, find_with, outside_urns};
pub use key::UrnKey;
pub use key_rule::{CheckDigits, DigitForm, Hyphens, KeyRule};
pub use key_rules::{KeyRules, UnknownKeyRules};
pub use namespaces::{KnownNamespace, NamespaceError};
pub use ns_urn::{Namespace, NsUrn, NsUrnError, ns};

/// Re-exports the typed aliases (`IsbnUrn`, …) named in the rows of the namespace table.
macro_rules! reexport_aliases {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        pub use ns_urn::{$($alias),*};
    };
}

known_namespaces!(reexport_aliases);
pub use parse::{DEFAULT_MAX_LEN, ParseOptions, Syntax};
pub use registry::{NidStatus, REGISTRY_DATE, RegistryEntry, nid_status, registry, registry_entry};
pub use repair::{Fix, FixKind, Repair, repair, repair_with};
pub use resolver::{LinkError, LinkForm, RESOLVERS_DATE, Resolver, link, resolvers, unwrap_link};
pub use urn::{Urn, UrnBuilder};
pub use urn_ref::UrnRef;

/// What the macros expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    /// The typed literal `urn!(isbn: "…")`: `text` checked as a URN of the known namespace
    /// whose NID is `namespace`.
    #[must_use]
    #[track_caller]
    pub const fn typed(namespace: &str, text: &'static str) -> crate::UrnRef<'static> {
        crate::UrnRef::from_offsets(text, crate::literal::typed(namespace, text))
    }
}
