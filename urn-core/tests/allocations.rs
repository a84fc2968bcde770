//! Counts heap allocations: a borrowed parse allocates nothing, an owned parse from `&str`
//! once (the copy of the text), from `String` never; keys of normal URNs and comparisons
//! allocate nothing; `repair` of any text allocates, in all and at its peak, a small constant
//! a byte of it.
//!
//! Implementing a counting allocator needs `unsafe impl GlobalAlloc`; it only forwards to the
//! system allocator, and this test binary is the only place the workspace uses `unsafe`.
#![allow(unsafe_code, missing_docs, clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use urn_core::{Urn, UrnRef, urn};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// Bytes asked for in all (a `realloc` counts its new size), bytes held now, and the most
    /// held since the last reset.
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

/// Counts `size` bytes allocated (and `freed` freed).
fn held(size: usize, freed: usize) {
    BYTES.with(|c| c.set(c.get() + size));
    let live = LIVE.with(|c| {
        let now = (c.get() + size).saturating_sub(freed);
        c.set(now);
        now
    });
    PEAK.with(|c| c.set(c.get().max(live)));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the
// thread-local counter is a const-initialized `Cell` without a destructor, so touching it
// never allocates or recurses into the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        held(layout.size(), 0);
        // SAFETY: forwarded unchanged (see above).
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(0, layout.size());
        // SAFETY: forwarded unchanged (see above).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        held(new_size, layout.size());
        // SAFETY: forwarded unchanged (see above).
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let value = f();
    (value, ALLOCATIONS.with(Cell::get) - before)
}

const INPUTS: [&str; 5] = [
    "urn:example:a123,z456",
    "URN:EXAMPLE:a123%2cz456?+r?=q#f",
    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
    "urn:isbn:978-0-395-36341-6",
    "urn:ietf:params:scim:schemas:core:2.0:User",
];

#[test]
fn parsing_allocates_exactly_what_it_must() {
    for input in INPUTS {
        let (urn, n) = count(|| UrnRef::parse(input).unwrap());
        assert_eq!(n, 0, "borrowed parse of {input}");
        let _ = urn;

        let (urn, n) = count(|| Urn::parse(input).unwrap());
        assert_eq!(n, 1, "owned parse from &str of {input}");
        drop(urn);

        let text = String::from(input);
        let (urn, n) = count(|| Urn::from_string(text).unwrap());
        assert_eq!(n, 0, "owned parse from String of {input}");
        let (urn2, n) = count(|| Urn::try_from(urn.to_string()).unwrap());
        assert!(n <= 1, "to_string allocates once, try_from never");
        assert_eq!(urn, urn2);
    }
}

#[test]
fn normal_keys_and_comparisons_allocate_nothing() {
    let normal = urn!("urn:example:a123%2Cz456?=q");
    let (key, n) = count(|| normal.key());
    assert_eq!((key.as_str(), n), ("urn:example:a123%2Cz456", 0));

    let uuid = urn!("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    let (_, n) = count(|| uuid.key());
    assert_eq!(n, 0, "a lower-case uuid is already its key");

    let upper = urn!("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6");
    let (key, n) = count(|| upper.key());
    assert_eq!(
        n, 0,
        "a key that needs normalizing is built inline up to 64 bytes"
    );
    let (owned, n) = count(|| key.into_owned());
    assert_eq!(n, 0, "and stays inline when owned");
    assert_eq!(
        owned.as_str(),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
    let (owned, n) = count(|| normal.key().into_owned());
    assert_eq!((owned.as_str(), n), ("urn:example:a123%2Cz456", 0));

    let long_text = format!("URN:example:{}", "a".repeat(60));
    let long = UrnRef::parse(&long_text).unwrap();
    let (key, n) = count(|| long.key());
    assert_eq!(
        n, 1,
        "a longer key that needs normalizing is built once, on the heap"
    );
    assert_eq!(key.as_str(), long_text.to_ascii_lowercase());
    let (text, n) = count(|| key.into_string());
    assert_eq!(n, 0, "a heap key hands over its string");
    assert_eq!(text.len(), 72);

    let (equal, n) = count(|| upper == uuid && upper.cmp(&uuid).is_eq());
    assert!(equal);
    assert_eq!(n, 0, "comparing non-normal URNs allocates nothing");

    let (_, n) = count(|| {
        let mut h = DefaultHasher::new();
        upper.hash(&mut h);
        uuid.hash(&mut h);
        h.finish()
    });
    assert_eq!(n, 0, "hashing allocates nothing");
}

/// The bytes `f` allocates in all, and the most it holds at once beyond what was held before.
fn volume<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let (bytes, live) = (BYTES.with(Cell::get), LIVE.with(Cell::get));
    PEAK.with(|c| c.set(live));
    let value = f();
    (
        value,
        BYTES.with(Cell::get) - bytes,
        PEAK.with(Cell::get) - live,
    )
}

/// `repair` is linear in time and memory: on 256 KiB texts of the shapes that were quadratic
/// or took ~90 bytes a byte (white space before a URN, one fix kind merged again and again;
/// a long run of one character; a long NSS to encode), it allocates at most 40 bytes a byte
/// of the text in all and holds at most 32 at once. (Before: 1 MB of leading spaces took 16 s,
/// re-copying the fix's text at every merge.)
#[test]
fn repair_takes_a_small_constant_a_byte() {
    let n = 256 * 1024;
    let texts = [
        format!("{}urn:example:a", " ".repeat(n)),
        format!("urn:example:a{}", "\t".repeat(n)),
        "x".repeat(n),
        format!("urn:example:{}", "x".repeat(n)),
        format!("urn:example:{}", "é".repeat(n / 2)),
        format!("urn:isbn:978{}0-395-36341-6", " ".repeat(n)),
        format!("\u{200b}{}", "ｘ".repeat(n / 3)),
    ];
    for text in &texts {
        let (fixed, bytes, peak) = volume(|| urn_core::repair(text));
        let label = text.get(..16).unwrap_or(text);
        assert!(bytes <= 40 * text.len(), "{label:?}: {bytes} bytes in all");
        assert!(peak <= 32 * text.len(), "{label:?}: {peak} bytes held");
        drop(fixed);
    }
    // What a repair of such a text gives: the URN, one fix for the whole run.
    let fixed = urn_core::repair(texts.first().map_or("", String::as_str));
    assert_eq!(fixed.urn().map(|u| u.as_str()), Some("urn:example:a"));
    assert_eq!(fixed.fixes().len(), 1);
}
