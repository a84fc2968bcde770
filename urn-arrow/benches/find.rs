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

// urn-core's bench corpora (the mixed text of `find`'s benches).
#[path = "../../urn-core/benches/support/corpus.rs"]
#[allow(dead_code, unreachable_pub)]
mod corpus;

use std::hint::black_box;
use std::time::{Duration, Instant};

use arrow_array::{Array, StringArray};
use urn_arrow::{OnInvalid, Op, compute};
use urn_core::KeyRules;

/// One line of mixed text per row: urn-core's bench lines for `find`.
fn lines(rows: usize) -> Vec<String> {
    let mut rng = corpus::Rng::new(0x2545_F491_4F6C_DD1D);
    (0..rows).map(|_| corpus::text_line(&mut rng)).collect()
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
        array.values().len() / 1_000_000,
        kernel.as_secs_f64() / iterator.as_secs_f64()
    );
}
