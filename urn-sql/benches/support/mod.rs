//! Shared by the database benches (and urn-datafusion's, which has no sqlx): the corpus and the
//! median.
#![allow(dead_code)]

use std::time::Duration;

/// `rows` distinct valid URNs, mixed like urn-core's corpus: uuid, upper-case ietf, example
/// names with `/`, `%xx` and a q-component, mixed-case NIDs with an f-component, hyphenated
/// ISBN-13s (whose key drops the hyphens) and German NBNs. Deterministic, so runs compare.
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
            match r % 6 {
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
                3 => format!("urn:Example:{:x}/{i}#frag", r),
                // 7,919 is prime to 10^9: distinct i, distinct ISBNs, in no order.
                4 => isbn13(978_000_000_000 + (i as u64 * 7_919) % 1_000_000_000),
                _ => format!("urn:nbn:de:bvb:{}-opus4-{i}", r % 89 + 1),
            }
        })
        .collect()
}

/// `urn:isbn:` and the ISBN-13 whose first twelve digits are `first12`, hyphenated as
/// `978-0-395-36341-6`.
fn isbn13(first12: u64) -> String {
    let digits = format!("{first12:012}");
    let sum: u32 = digits
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    let check = (10 - sum % 10) % 10;
    format!(
        "urn:isbn:{}-{}-{}-{}-{check}",
        &digits[..3],
        &digits[3..4],
        &digits[4..7],
        &digits[7..12]
    )
}

/// The median of some timings.
pub(crate) fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

/// URNs of 8 KiB and exactly 65,536 bytes (the length policy) of each shape the functions loop
/// over, named: `%XX` escapes, plain characters, long r-, q- and f-components, `%XX` with a
/// fault at the end, and `%XX` with an upper-case NID (valid, but no key). Shared with the
/// security tests' linear-time check.
pub(crate) fn long_inputs() -> Vec<(&'static str, usize, String)> {
    let mut out = Vec::new();
    for len in [8_192, 65_536] {
        let fill = |prefix: &str, unit: &str| {
            let mut text = prefix.to_owned();
            while text.len() + unit.len() <= len {
                text.push_str(unit);
            }
            while text.len() < len {
                text.push('a');
            }
            text
        };
        let escapes = fill("urn:example:", "%4a");
        let mut broken = escapes.clone();
        broken.replace_range(len - 3.., "%4g");
        let mut upper = escapes.clone();
        upper.replace_range(4..11, "EXAMPLE");
        out.extend([
            ("%XX", len, escapes),
            ("plain", len, fill("urn:example:", "aB")),
            ("r-component", len, fill("urn:example:a?+", "r?")),
            ("q-component", len, fill("urn:example:a?=", "q=")),
            ("f-component", len, fill("urn:example:a#", "f/")),
            ("%XX, fault at the end", len, broken),
            ("%XX, upper-case NID", len, upper),
        ]);
    }
    out
}
