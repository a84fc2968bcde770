//! Runs one operation over a benchmark corpus, for instruction counting under
//! `valgrind --tool=callgrind` (repeatable on a noisy machine, unlike wall time):
//!
//! ```sh
//! cargo build --release -p urn-core --example instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/instructions urn-core parse mixed 100
//! ```
//!
//! Run it once with the operation `none` to measure the corpus set-up, and subtract.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    unreachable_pub
)]

use std::hint::black_box;

#[path = "../benches/support/corpus.rs"]
mod corpus;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (lib, op, which, reps) = (
        args[1].as_str(),
        args[2].as_str(),
        args[3].as_str(),
        args[4].parse::<usize>().unwrap(),
    );
    let inputs = if which == "long" {
        corpus::long(100)
    } else {
        corpus::mixed(1000)
    };
    let mut total = 0usize;
    for _ in 0..reps {
        for s in &inputs {
            let s = black_box(s.as_str());
            total += match (lib, op) {
                (_, "none") => s.len(),
                ("urn-core", "parse") => urn_core::UrnRef::parse(s).is_ok() as usize,
                ("urn-core", "owned") => urn_core::Urn::parse(s).is_ok() as usize,
                ("urn-core", "key") => {
                    urn_core::UrnRef::parse(s).map_or(0, |u| u.key().as_str().len())
                }
                ("urn-core", "rfc8141_key") => {
                    urn_core::UrnRef::parse(s).map_or(0, |u| u.rfc8141_key().as_str().len())
                }
                ("urn-rs", "parse") => urn_rs::UrnSlice::try_from(s).is_ok() as usize,
                ("urn-rs", "owned") => s.parse::<urn_rs::Urn>().is_ok() as usize,
                ("urn-rs", "key" | "rfc8141_key") => {
                    urn_rs::UrnSlice::try_from(s).map_or(0, |u| u.nid().len() + u.nss().len())
                }
                ("urn", "parse") => urn_peer::UrnSlice::try_from(s).is_ok() as usize,
                ("urn", "owned") => s.parse::<urn_peer::Urn>().is_ok() as usize,
                ("urn", "key" | "rfc8141_key") => {
                    urn_peer::UrnSlice::try_from(s).map_or(0, |u| u.nid().len() + u.nss().len())
                }
                other => panic!("unknown {other:?}"),
            };
        }
    }
    println!("{}", black_box(total));
}
