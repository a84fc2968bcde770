//! `Arbitrary` for `Urn`, `UrnKey` and `NsUrn<N>`: *valid* values, for fuzzing code that takes
//! URNs (cargo-fuzz targets with structured input, `arbitrary`-based property tests).

use arbitrary::{Arbitrary, Error, Result, Unstructured};

use crate::choices::Choices;
use crate::generate;
use crate::{Namespace, NsUrn, Urn, UrnKey};

/// Choices drawn from libFuzzer's (or anyone's) bytes.
struct Draw<'u, 'a>(&'u mut Unstructured<'a>);

impl Choices for Draw<'_, '_> {
    fn below(&mut self, n: u32) -> u32 {
        self.0.int_in_range(0..=n.saturating_sub(1)).unwrap_or(0)
    }
}

/// Any valid URN: every known namespace's shape (valid for its rules: check digits included)
/// and other NIDs, the scheme and NID in any case, `%XX` escapes, r-, q- and f-components.
///
/// ```
/// use arbitrary::{Arbitrary, Unstructured};
/// let mut u = Unstructured::new(&[7, 1, 42, 3, 9, 200, 17, 5, 88, 13, 250, 1, 2, 3]);
/// let urn = urn_core::Urn::arbitrary(&mut u)?;
/// assert!(urn_core::Urn::parse(urn.as_str()).is_ok());
/// # Ok::<(), arbitrary::Error>(())
/// ```
impl<'a> Arbitrary<'a> for Urn {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        generate::urn(&mut Draw(u), None).ok_or(Error::IncorrectFormat)
    }
}

/// The key of an arbitrary valid URN.
impl<'a> Arbitrary<'a> for UrnKey<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Urn::arbitrary(u)?.key().into_owned())
    }
}

/// A valid URN of N: for the built-in namespaces (and any `N` whose NID is a known namespace)
/// a value of that namespace's shape; for your own namespaces a generic NSS, tried a few times
/// against `N::validate_nss` (`Error::IncorrectFormat` when none passes: a namespace with a
/// narrow syntax deserves its own generator).
impl<'a, N: Namespace> Arbitrary<'a> for NsUrn<N> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        for _ in 0..8 {
            let text = generate::urn_text_with_nid(&mut Draw(u), N::NID);
            if let Ok(urn) = text.parse::<NsUrn<N>>() {
                return Ok(urn);
            }
        }
        Err(Error::IncorrectFormat)
    }
}
