//! proptest strategies for URNs (feature `proptest`): valid URNs of every shape, and
//! respellings that keep a URN's key, for testing code that stores, compares or indexes URNs.
//!
//! ```
//! use proptest::prelude::*;
//! use urn_core::{Urn, strategy};
//!
//! proptest!(|(urn in strategy::urn())| {
//!     // Your code: e.g. a map keyed by URN finds every spelling.
//!     let mut seen = std::collections::HashSet::new();
//!     seen.insert(urn.clone());
//!     prop_assert!(seen.contains(&urn));
//! });
//!
//! let hobbit: Urn = urn_core::urn!("urn:isbn:0-395-36341-1").into();
//! proptest!(|(spelling in strategy::equivalent_spellings(&hobbit))| {
//!     prop_assert_eq!(spelling.key(), hobbit.key());
//!     prop_assert_eq!(&spelling, &hobbit);
//! });
//! ```
//!
//! Each strategy draws its choices from a byte vector, and choice 0 is always the simplest
//! option, so a failing case shrinks towards short URNs without components.

use alloc::vec::Vec;

use proptest::collection::vec;
use proptest::prelude::{Strategy, any};

use crate::choices::ByteChoices;
use crate::generate;
use crate::{KnownNamespace, Namespace, NsUrn, Urn, UrnKey};

/// The bytes every strategy draws its choices from.
fn choices() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..256)
}

/// Any valid URN: every known namespace's shape (valid for its rules: check digits included)
/// and other NIDs, the scheme and NID in any case, `%XX` escapes, r-, q- and f-components.
pub fn urn() -> impl Strategy<Value = Urn> {
    choices().prop_filter_map("a valid URN", |bytes| {
        generate::urn(&mut ByteChoices::new(&bytes), None)
    })
}

/// Valid URNs of one known namespace (valid for its rules too).
///
/// ```
/// use proptest::prelude::*;
/// use urn_core::{KnownNamespace, strategy};
/// proptest!(|(isbn in strategy::urn_in(KnownNamespace::Isbn))| {
///     prop_assert!(isbn.validate_namespace().is_ok());
/// });
/// ```
pub fn urn_in(namespace: KnownNamespace) -> impl Strategy<Value = Urn> {
    choices().prop_filter_map("a valid URN", move |bytes| {
        generate::urn(&mut ByteChoices::new(&bytes), Some(namespace))
    })
}

/// The keys of valid URNs.
pub fn urn_key() -> impl Strategy<Value = UrnKey<'static>> {
    urn().prop_map(|urn| urn.key().into_owned())
}

/// Valid URNs of `N`: the namespace's own shape when its NID is a known namespace, otherwise
/// generic NSSs that `N::validate_nss` accepts (a namespace with a narrow syntax deserves its
/// own strategy: too many rejections make proptest give up).
///
/// ```
/// use proptest::prelude::*;
/// use urn_core::{IsbnUrn, strategy};
/// proptest!(|(isbn in strategy::ns_urn::<urn_core::ns::Isbn>())| {
///     let _: IsbnUrn = isbn;
/// });
/// ```
pub fn ns_urn<N: Namespace>() -> impl Strategy<Value = NsUrn<N>> {
    choices().prop_filter_map("a valid URN of the namespace", |bytes| {
        generate::urn_text_with_nid(&mut ByteChoices::new(&bytes), N::NID)
            .parse()
            .ok()
    })
}

/// Spellings of `urn` with the same key (so equal to it): the scheme, NID and `%XX` digits in
/// other cases, other r-, q- and f-components, and, where the namespace's rules allow, NSS
/// letters in another case, hyphens added or dropped and a DOI's `/` respelled (`uuid`, `isbn`,
/// `issn`, `ietf`, `doi`...).
pub fn equivalent_spellings(urn: &Urn) -> impl Strategy<Value = Urn> + use<> {
    let urn = urn.clone();
    vec(any::<u8>(), 0..64)
        .prop_map(move |bytes| generate::respell(&urn, &mut ByteChoices::new(&bytes)))
}
