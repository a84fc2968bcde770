//! `Op::Find` over an Arrow array against urn-core's `find` iterator over the same strings,
//! doing the same work per hit (span, text, key, link), on 1,000,000 lines of mixed text (a URN
//! in about one line of four; prose, links, punctuation). Medians of `URN_BENCH_RUNS` runs (5).
//! The bound: the kernel within 1.5x of the iterator.
//!
//! `cargo bench --manifest-path urn-arrow/Cargo.toml --bench find`
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use arrow_array::{Array, StringArray};
use urn_arrow::{OnInvalid, Op, compute};
use urn_core::KeyRules;

/// One line of mixed text per row.
fn lines(rows: usize) -> Vec<String> {
    let words = [
        "the",
        "catalogue",
        "record",
        "of",
        "Saturn:",
        "edition",
        "see",
        "(print)",
        "Zürich",
        "2019.",
        "turn:",
        "left,",
        "https://example.org/a?b=c",
        "ISBN",
        "978-0-395-36341-6",
    ];
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..rows)
        .map(|_| {
            let r = next();
            let mut line = String::new();
            for k in 0..(6 + r % 10) {
                line.push_str(words[(next() % words.len() as u64) as usize]);
                line.push(' ');
                if k == 2 && r % 4 == 0 {
                    let n = next();
                    line.push_str(&match n % 4 {
                        0 => format!("(URN:ISBN:0-395-{:05}-1), ", n % 100_000),
                        1 => format!(
                            "https://nbn-resolving.org/urn:nbn:de:bvb:{}-{}. ",
                            n % 100,
                            n % 9999
                        ),
                        2 => format!("'urn:example:a{}%2Cb?=lang=en#p{}'; ", n % 999, n % 7),
                        _ => format!("urn:ietf:rfc:{}. ", n % 9000),
                    });
                }
            }
            line
        })
        .collect()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let runs = std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap());
    let lines = lines(1_000_000);
    let array = StringArray::from_iter_values(&lines);
    let (mut iterator, mut kernel) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let started = Instant::now();
        let mut hits = 0usize;
        for line in &lines {
            for found in urn_core::find(line) {
                black_box((
                    found.span(),
                    found.as_str(),
                    found.urn().key_with(KeyRules::CURRENT),
                    found.link(),
                ));
                hits += 1;
            }
        }
        iterator.push(started.elapsed());
        black_box(hits);
        let started = Instant::now();
        let out = compute(Op::Find(KeyRules::CURRENT), OnInvalid::Null, &array).unwrap();
        kernel.push(started.elapsed());
        black_box(out.len());
    }
    let (iterator, kernel) = (median(iterator), median(kernel));
    println!(
        "1,000,000 lines ({} MB): iterator {iterator:.2?}, Arrow kernel {kernel:.2?}, {:.2}x",
        array.get_buffer_memory_size() / 1_000_000,
        kernel.as_secs_f64() / iterator.as_secs_f64()
    );
}
