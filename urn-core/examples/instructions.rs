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
// `text_line` is for the benches of `find` (urn-cli, urn-arrow).
#[allow(dead_code)]
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
    if op.starts_with("eq") {
        return equality(lib, op, &inputs, reps);
    }
    let total = match (lib, op) {
        (_, "none") => each(&inputs, reps, str::len),
        ("urn-core", "parse") => each(&inputs, reps, |s| {
            urn_core::UrnRef::parse(s).is_ok() as usize
        }),
        ("urn-core", "owned") => each(&inputs, reps, |s| urn_core::Urn::parse(s).is_ok() as usize),
        ("urn-core", "key") => each(&inputs, reps, |s| {
            urn_core::UrnRef::parse(s).map_or(0, |u| u.key().as_str().len())
        }),
        ("urn-core", "key_v1") => each(&inputs, reps, |s| {
            urn_core::UrnRef::parse(s)
                .map_or(0, |u| u.key_with(urn_core::KeyRules::V1).as_str().len())
        }),
        ("urn-core", "rfc8141_key") => each(&inputs, reps, |s| {
            urn_core::UrnRef::parse(s).map_or(0, |u| u.rfc8141_key().as_str().len())
        }),
        ("urn-rs", "parse") => each(&inputs, reps, |s| {
            urn_rs::UrnSlice::try_from(s).is_ok() as usize
        }),
        ("urn-rs", "owned") => each(&inputs, reps, |s| s.parse::<urn_rs::Urn>().is_ok() as usize),
        ("urn-rs", "key" | "rfc8141_key") => each(&inputs, reps, |s| {
            urn_rs::UrnSlice::try_from(s).map_or(0, |u| u.nid().len() + u.nss().len())
        }),
        ("urn", "parse") => each(&inputs, reps, |s| {
            urn_peer::UrnSlice::try_from(s).is_ok() as usize
        }),
        ("urn", "owned") => each(&inputs, reps, |s| {
            s.parse::<urn_peer::Urn>().is_ok() as usize
        }),
        ("urn", "key" | "rfc8141_key") => each(&inputs, reps, |s| {
            urn_peer::UrnSlice::try_from(s).map_or(0, |u| u.nid().len() + u.nss().len())
        }),
        other => panic!("unknown {other:?}"),
    };
    println!("{}", black_box(total));
}

/// `op` over every input, `reps` times: one function per operation (each closure its own
/// copy), so the compiler decides what to inline into each operation's loop alone, as it would
/// in a program that does only that, and not by what the other operations' code costs.
#[inline(never)]
fn each(inputs: &[String], reps: usize, op: impl Fn(&str) -> usize) -> usize {
    let mut total = 0usize;
    for _ in 0..reps {
        for s in inputs {
            total += op(black_box(s.as_str()));
        }
    }
    total
}

/// `==` between each valid input and its key's text (equal URNs: spelled alike when the input
/// is normal, respelled otherwise). `eq_setup` parses the pairs without comparing them, the
/// baseline to subtract.
fn equality(lib: &str, op: &str, inputs: &[String], reps: usize) {
    let pairs: Vec<(String, String)> = inputs
        .iter()
        .filter_map(|s| {
            let key = urn_core::UrnRef::parse(s).ok()?.key().into_string();
            Some((s.clone(), key))
        })
        .collect();
    let compare = op != "eq_setup";
    let mut total = 0usize;
    macro_rules! run {
        ($parse:expr) => {{
            let parsed: Vec<_> = pairs.iter().map(|(a, b)| ($parse(a), $parse(b))).collect();
            if compare {
                for _ in 0..reps {
                    for (a, b) in &parsed {
                        total += usize::from(black_box(a) == black_box(b));
                    }
                }
            }
        }};
    }
    match lib {
        "urn-core" => run!(|s: &String| urn_core::Urn::parse(s).unwrap()),
        "urn-rs" => run!(|s: &String| s.parse::<urn_rs::Urn>().unwrap()),
        "urn" => run!(|s: &String| s.parse::<urn_peer::Urn>().ok()),
        other => panic!("unknown {other:?}"),
    }
    println!("{}", black_box(total));
}
