//! `KeyRules::V1` is frozen: on every input of the workspace's corpora (the shared vectors and
//! urn-sql's combinatorial set, which includes inputs for every rule V2 added), `key_with(V1)`
//! gives exactly the keys it gave before V2 existed. The digest below was computed by this
//! file at commit f0b94f0 (urn-core before `KeyRules::V2`), over the same inputs; run with
//! `URN_V1_DIGEST=print` to see the digest of the code at hand.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[allow(dead_code, unreachable_pub)]
#[path = "../../urn-sql/tests/support/corpus.rs"]
mod corpus;

use urn_core::{KeyRules, Urn};

/// The FNV-1a digest of every input with its V1 key (or `-` where it is not a URN), in order.
fn digest() -> (usize, u64) {
    let mut inputs = corpus::vector_inputs();
    inputs.extend(corpus::generated_inputs());
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for input in &inputs {
        let key = Urn::parse(input).map(|urn| urn.key_with(KeyRules::V1).as_str().to_owned());
        let line = format!("{input}\0{}\n", key.as_deref().unwrap_or("-"));
        for b in line.bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (inputs.len(), hash)
}

#[test]
fn v1_keys_are_the_keys_v1_always_gave() {
    let (count, hash) = digest();
    if std::env::var("URN_V1_DIGEST").as_deref() == Ok("print") {
        println!("inputs {count}, digest {hash:#018x}");
    }
    assert_eq!((count, hash), (EXPECTED_COUNT, EXPECTED_DIGEST));
}

const EXPECTED_COUNT: usize = 50_985;
const EXPECTED_DIGEST: u64 = 0x80a4_097f_df88_ce74;
