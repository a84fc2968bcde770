//! URN equivalence: `==`, ordering and hashing by the canonical key, without allocating.
//!
//! The parser records whether a URN's assigned name is already its own key. When it is for
//! both sides (most real URNs), a comparison is one `memcmp` of the assigned names; otherwise
//! the keys are produced byte by byte from their pieces and compared as they go.

use core::cmp::Ordering;
use core::hash::Hasher;

use crate::UrnRef;
use crate::key::{self, KeyRules};

const RULES: KeyRules = KeyRules::CURRENT;

#[inline]
pub(crate) fn eq(a: &UrnRef<'_>, b: &UrnRef<'_>) -> bool {
    let (x, y) = (a.assigned_name(), b.assigned_name());
    if x == y {
        return true;
    }
    // Both are their own (different) keys: different. A URN whose namespace has its own
    // rule can only equal one of the same namespace, so one such side is not enough.
    let (oa, ob) = (a.offsets(), b.offsets());
    if (oa.surely_verbatim(RULES) || ob.surely_verbatim(RULES))
        && oa.verbatim(KeyRules::Rfc8141) == Some(true)
        && ob.verbatim(KeyRules::Rfc8141) == Some(true)
    {
        return false;
    }
    a.key_parts(RULES).bytes().eq(b.key_parts(RULES).bytes())
}

#[inline]
pub(crate) fn cmp(a: &UrnRef<'_>, b: &UrnRef<'_>) -> Ordering {
    if a.offsets().surely_verbatim(RULES) && b.offsets().surely_verbatim(RULES) {
        return a.assigned_name().cmp(b.assigned_name());
    }
    a.key_parts(RULES).bytes().cmp(b.key_parts(RULES).bytes())
}

#[inline]
pub(crate) fn hash<H: Hasher>(a: &UrnRef<'_>, state: &mut H) {
    if a.offsets().surely_verbatim(RULES) {
        key::hash_slice(a.assigned_name().as_bytes(), state);
    } else {
        key::hash_key(a.key_parts(RULES).bytes(), state);
    }
}
