//! `==` holds exactly when the keys are equal; `Ord` and `Hash` agree with `==`, for `Urn`
//! and `UrnRef`. The input is two URNs separated by a newline (which no URN contains).
#![no_main]

use std::cmp::Ordering;
use std::hash::{BuildHasher, RandomState};

use libfuzzer_sys::fuzz_target;
use urn_core::{Urn, UrnRef};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (a, b) = text.split_once('\n').unwrap_or((text, text));
    let (Ok(x), Ok(y)) = (Urn::parse(a), Urn::parse(b)) else {
        return;
    };
    let same_key = x.key() == y.key();
    assert_eq!(x == y, same_key, "{a:?} vs {b:?}");
    assert_eq!(x.cmp(&y) == Ordering::Equal, same_key, "{a:?} vs {b:?}");
    assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
    assert_eq!(
        x.cmp(&y),
        x.key().cmp(&y.key()),
        "Ord is the order of the keys"
    );
    let hasher = RandomState::new();
    if same_key {
        assert_eq!(hasher.hash_one(&x), hasher.hash_one(&y), "{a:?} vs {b:?}");
    }
    let (xr, yr) = (UrnRef::parse(a).unwrap(), UrnRef::parse(b).unwrap());
    assert_eq!(xr == yr, same_key);
    assert_eq!(xr.cmp(&yr), x.cmp(&y));
    assert_eq!(
        hasher.hash_one(xr),
        hasher.hash_one(&x),
        "UrnRef hashes as Urn"
    );
    assert!(x == Urn::from(x.key()), "a URN equals its key");
});
