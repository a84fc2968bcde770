//! Shared by the database benches: the corpus and the median.
#![allow(dead_code)]

use std::time::Duration;

/// `rows` distinct valid URNs, mixed like urn-core's corpus: uuid, upper-case ietf, example
/// names with `/`, `%xx` and a q-component, and mixed-case NIDs with an f-component.
/// Deterministic, so runs compare.
pub(crate) fn corpus(rows: usize) -> Vec<String> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..rows)
        .map(|i| {
            let r = next();
            match r % 4 {
                0 => format!(
                    "urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                    r >> 32,
                    (r >> 16) & 0xffff,
                    r & 0xfff,
                    (r >> 12) & 0xfff,
                    (i as u64) << 8 | (r & 0xff)
                ),
                1 => format!("URN:IETF:rfc:{}", i + 1),
                2 => format!("urn:example:shelf-{}/item%2c{i}?=lang=en", r % 97),
                _ => format!("urn:Example:{:x}/{i}#frag", r),
            }
        })
        .collect()
}

/// The median of some timings.
pub(crate) fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}
