//! URN equivalence: `==`, ordering and hashing by the canonical key, without allocating.
//!
//! When both sides are already in normal form (the parser records this), the key is the
//! assigned name itself and a comparison is one `memcmp`; otherwise the keys are produced
//! byte by byte from their pieces and compared as they go.

use core::cmp::Ordering;
use core::hash::Hasher;

use crate::UrnRef;
use crate::key::{self, KeyRules};

const RULES: KeyRules = KeyRules::CURRENT;

pub(crate) fn eq(a: &UrnRef<'_>, b: &UrnRef<'_>) -> bool {
    if a.offsets().verbatim(RULES) && b.offsets().verbatim(RULES) {
        return a.assigned_name() == b.assigned_name();
    }
    a.key_parts(RULES).bytes().eq(b.key_parts(RULES).bytes())
}

pub(crate) fn cmp(a: &UrnRef<'_>, b: &UrnRef<'_>) -> Ordering {
    if a.offsets().verbatim(RULES) && b.offsets().verbatim(RULES) {
        return a.assigned_name().cmp(b.assigned_name());
    }
    a.key_parts(RULES).bytes().cmp(b.key_parts(RULES).bytes())
}

pub(crate) fn hash<H: Hasher>(a: &UrnRef<'_>, state: &mut H) {
    if a.offsets().verbatim(RULES) {
        key::hash_slice(a.assigned_name().as_bytes(), state);
    } else {
        key::hash_key(a.key_parts(RULES).bytes(), state);
    }
}
