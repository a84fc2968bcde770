//! URN equivalence: `==`, ordering and hashing by the canonical key, without allocating.
//!
//! The parser records whether a URN's assigned name is already its own key. When it is for
//! both sides (most real URNs), a comparison is one `memcmp` of the assigned names. Otherwise
//! short keys (nearly all) are built on the stack and compared as slices, and longer ones are
//! produced byte by byte from their pieces and compared as they go.

use core::cmp::Ordering;
use core::hash::{Hash, Hasher};

use crate::key_parts::{self, nss_eq_generic};
use crate::key_rules::KeyRules;
use crate::key_text::INLINE;
use crate::{Urn, UrnRef, namespaces};

const RULES: KeyRules = KeyRules::CURRENT;

/// Equal assigned names (the common case for URNs in normal form) are decided inline by one
/// comparison; everything else goes to [`eq_respelled`].
#[inline(always)]
pub(crate) fn eq(a: &UrnRef<'_>, b: &UrnRef<'_>) -> bool {
    // Bytes, not `str`s: slicing a `str` would check for a character boundary on each side.
    let end = |u: &UrnRef<'_>| u.offsets().nss_end as usize;
    let x = a.as_str().as_bytes().get(..end(a));
    let y = b.as_str().as_bytes().get(..end(b));
    x == y || eq_respelled(a, b)
}

/// `==` for URNs whose assigned names differ.
#[inline(never)]
fn eq_respelled(a: &UrnRef<'_>, b: &UrnRef<'_>) -> bool {
    // Both are their own (different) keys: different. A URN whose namespace has its own
    // rule can only equal one of the same namespace, so one such side is not enough.
    let (oa, ob) = (a.offsets(), b.offsets());
    if (oa.surely_verbatim(RULES) || ob.surely_verbatim(RULES))
        && oa.verbatim(KeyRules::Rfc8141) == Some(true)
        && ob.verbatim(KeyRules::Rfc8141) == Some(true)
    {
        return false;
    }
    if !a.nid().eq_ignore_ascii_case(b.nid()) {
        return false;
    }
    let (p, q) = (a.nss(), b.nss());
    // Same NID and the same NSS bytes: the same key, whatever the namespace (respellings that
    // differ only in the case of "urn:" or the NID end here).
    if p == q {
        return true;
    }
    if !oa.has_rule_nid() {
        return nss_eq_generic(p, q);
    }
    match namespaces::simple_rule_eq(a.nid(), p, q) {
        Some(answer) => answer,
        None if builds_inline(a) && builds_inline(b) => a.key() == b.key(),
        None => a.key_parts(RULES).bytes().eq(b.key_parts(RULES).bytes()),
    }
}

/// Whether `u`'s key is built on the stack (it is at most one byte longer than the assigned
/// name: an ISSN key may gain a hyphen), so building it costs no allocation.
#[inline]
fn builds_inline(u: &UrnRef<'_>) -> bool {
    (u.offsets().nss_end as usize) < INLINE
}

#[inline]
pub(crate) fn cmp(a: &UrnRef<'_>, b: &UrnRef<'_>) -> Ordering {
    if a.offsets().surely_verbatim(RULES) && b.offsets().surely_verbatim(RULES) {
        return a.assigned_name().cmp(b.assigned_name());
    }
    if builds_inline(a) && builds_inline(b) {
        return a.key().as_str().cmp(b.key().as_str());
    }
    a.key_parts(RULES).bytes().cmp(b.key_parts(RULES).bytes())
}

#[inline]
pub(crate) fn hash<H: Hasher>(a: &UrnRef<'_>, state: &mut H) {
    if a.offsets().surely_verbatim(RULES) {
        key_parts::hash_slice(a.assigned_name().as_bytes(), state);
    } else if builds_inline(a) {
        key_parts::hash_slice(a.key().as_str().as_bytes(), state);
    } else {
        key_parts::hash_key(a.key_parts(RULES).bytes(), state);
    }
}

// `==`, `Ord` and `Hash` of the URN types, all by the key; here, so the types do not depend on
// the comparison built on them.

impl PartialEq for UrnRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self::eq(self, other)
    }
}

impl Eq for UrnRef<'_> {}

impl PartialOrd for UrnRef<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for UrnRef<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self::cmp(self, other)
    }
}

impl Hash for UrnRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self::hash(self, state);
    }
}

impl PartialEq<Urn> for UrnRef<'_> {
    fn eq(&self, other: &Urn) -> bool {
        self::eq(self, &other.as_urn_ref())
    }
}

impl PartialEq for Urn {
    fn eq(&self, other: &Self) -> bool {
        self::eq(&self.as_urn_ref(), &other.as_urn_ref())
    }
}

impl Eq for Urn {}

impl PartialEq<UrnRef<'_>> for Urn {
    fn eq(&self, other: &UrnRef<'_>) -> bool {
        self::eq(&self.as_urn_ref(), other)
    }
}

impl PartialOrd for Urn {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Urn {
    fn cmp(&self, other: &Self) -> Ordering {
        self::cmp(&self.as_urn_ref(), &other.as_urn_ref())
    }
}

impl Hash for Urn {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self::hash(&self.as_urn_ref(), state);
    }
}
