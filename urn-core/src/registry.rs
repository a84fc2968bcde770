//! The IANA URN namespace registry, embedded at build time, and NID classification
//! (RFC 8141 section 5).

use core::fmt;

/// The date of the IANA registry snapshot in `data/nid-registry.csv`
/// ("Uniform Resource Names (URN) Namespaces", updated 2026-05-28).
pub const REGISTRY_DATE: &str = "2026-05-28";

/// What the registry (and RFC 8141 section 5) says about a NID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NidStatus {
    /// A registered formal NID, e.g. `isbn`.
    Formal,
    /// A registered informal NID, `urn-` and a number, e.g. `urn-7`.
    Informal,
    /// A shape that can never be a formal NID and is not a registered informal one:
    /// two characters or fewer, `urn`, `urn-…`, two letters and `-` (country codes,
    /// `xn--`), or `x-…` (the abolished experimental class).
    Reserved,
    /// Syntactically possible, but not in the registry (e.g. `ngsi-ld`): not a URN in the
    /// RFC 8141 section 1 sense, though often met in practice.
    Unregistered,
}

impl fmt::Display for NidStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NidStatus::Formal => "formal",
            NidStatus::Informal => "informal",
            NidStatus::Reserved => "reserved",
            NidStatus::Unregistered => "unregistered",
        })
    }
}

/// One row of the embedded IANA registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegistryEntry {
    /// The NID in lower case.
    pub nid: &'static str,
    /// The defining document or registrant, as the registry gives it.
    pub reference: &'static str,
    /// [`NidStatus::Formal`] or [`NidStatus::Informal`].
    pub status: NidStatus,
}

include!(concat!(env!("OUT_DIR"), "/nid_registry.rs"));

/// Every entry of the embedded registry, sorted by NID.
///
/// ```
/// let all = urn_core::registry();
/// assert!(all.iter().any(|e| e.nid == "uuid"));
/// ```
#[must_use]
pub fn registry() -> &'static [RegistryEntry] {
    REGISTRY
}

/// The registry entry for a NID (compared case-insensitively).
///
/// ```
/// let e = urn_core::registry_entry("ISBN").unwrap();
/// assert_eq!(e.status, urn_core::NidStatus::Formal);
/// ```
#[must_use]
pub fn registry_entry(nid: &str) -> Option<&'static RegistryEntry> {
    if nid.len() > 32 {
        return None;
    }
    let mut buf = [0u8; 32];
    let lower = buf.get_mut(..nid.len())?;
    lower.copy_from_slice(nid.as_bytes());
    lower.make_ascii_lowercase();
    let lower = core::str::from_utf8(lower).ok()?;
    // Most probes differ in the first byte: compare it inline before calling memcmp.
    let first = lower.as_bytes().first().copied();
    REGISTRY
        .binary_search_by(|e| {
            e.nid
                .as_bytes()
                .first()
                .copied()
                .cmp(&first)
                .then_with(|| e.nid.cmp(lower))
        })
        .ok()
        .and_then(|i| REGISTRY.get(i))
}

/// Classifies a NID: registered formal or informal, reserved shape, or unregistered.
///
/// ```
/// use urn_core::{nid_status, NidStatus};
/// assert_eq!(nid_status("UUID"), NidStatus::Formal);
/// assert_eq!(nid_status("urn-7"), NidStatus::Informal);
/// assert_eq!(nid_status("xn--abc"), NidStatus::Reserved);
/// assert_eq!(nid_status("ngsi-ld"), NidStatus::Unregistered);
/// ```
#[must_use]
pub fn nid_status(nid: &str) -> NidStatus {
    if let Some(entry) = registry_entry(nid) {
        return entry.status;
    }
    let b = nid.as_bytes();
    let starts = |p: &str| {
        b.get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()))
    };
    let country_code =
        matches!(b, [x, y, b'-', ..] if x.is_ascii_alphabetic() && y.is_ascii_alphabetic());
    if b.len() <= 2
        || nid.eq_ignore_ascii_case("urn")
        || starts("urn-")
        || starts("x-")
        || country_code
    {
        NidStatus::Reserved
    } else {
        NidStatus::Unregistered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_registry_matches_the_csv_counts() {
        let formal = REGISTRY
            .iter()
            .filter(|e| e.status == NidStatus::Formal)
            .count();
        let informal = REGISTRY
            .iter()
            .filter(|e| e.status == NidStatus::Informal)
            .count();
        assert_eq!((formal, informal), (96, 8));
        assert!(REGISTRY.windows(2).all(|w| w[0].nid < w[1].nid));
    }

    #[test]
    fn shapes() {
        assert_eq!(nid_status("ab"), NidStatus::Reserved);
        assert_eq!(nid_status("X-foo"), NidStatus::Reserved);
        assert_eq!(nid_status("urn-9"), NidStatus::Reserved);
        assert_eq!(nid_status("de-foo"), NidStatus::Reserved);
        assert_eq!(nid_status("URN"), NidStatus::Reserved);
        assert_eq!(nid_status("thread"), NidStatus::Formal);
        assert_eq!(nid_status("foo"), NidStatus::Unregistered);
    }
}
