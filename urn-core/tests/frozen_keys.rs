//! Every version of the key rules is frozen: on every input of the workspace's corpora (the
//! shared vectors and urn-sql's combinatorial set, which includes inputs for every rule V2
//! added), `key_with(version)` gives exactly the keys it gave when the version was recorded in
//! `frozen_keys.txt`: a digest per version, with the commit whose code computed it over the
//! same inputs (V1's before V2 existed, V2's before the rules became one table per namespace).
//! `bash .ci/bless` records a version that has no line yet (`URN_FREEZE_NEW=1`), and never
//! rewrites one; `URN_KEY_DIGEST=print` shows the digests of the code at hand.
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

/// The FNV-1a digest of every input with its key under `rules` (or `-` where it is not a URN),
/// in order, and the number of inputs.
fn digest(inputs: &[String], rules: KeyRules) -> (usize, u64) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for input in inputs {
        let key = Urn::parse(input).map(|urn| urn.key_with(rules).as_str().to_owned());
        let line = format!("{input}\0{}\n", key.as_deref().unwrap_or("-"));
        for b in line.bytes() {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    (inputs.len(), hash)
}

const RECORD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/frozen_keys.txt");

/// The recorded lines: version name, commit, count, digest.
fn recorded() -> Vec<(String, String, usize, u64)> {
    std::fs::read_to_string(RECORD)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let digest = u64::from_str_radix(f[3].trim_start_matches("0x"), 16).unwrap();
            (
                f[0].to_owned(),
                f[1].to_owned(),
                f[2].parse().unwrap(),
                digest,
            )
        })
        .collect()
}

#[test]
fn every_version_gives_the_keys_it_always_gave() {
    let mut inputs = corpus::vector_inputs();
    inputs.extend(corpus::generated_inputs());
    let record = recorded();
    for &rules in KeyRules::VERSIONS {
        let (count, hash) = digest(&inputs, rules);
        if std::env::var("URN_KEY_DIGEST").as_deref() == Ok("print") {
            println!("{} inputs {count}, digest {hash:#018x}", rules.name());
        }
        match record.iter().find(|(name, ..)| name == rules.name()) {
            Some((name, commit, want_count, want_hash)) => assert_eq!(
                (count, hash),
                (*want_count, *want_hash),
                "{name}'s keys differ from those recorded at {commit}"
            ),
            None if std::env::var_os("URN_FREEZE_NEW").is_some() => {
                let commit = std::process::Command::new("git")
                    .args(["rev-parse", "--short", "HEAD"])
                    .output()
                    .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
                    .unwrap_or_default();
                let line = format!("{} {commit} {count} {hash:#018x}\n", rules.name());
                let mut text = std::fs::read_to_string(RECORD).unwrap();
                text.push_str(&line);
                std::fs::write(RECORD, text).unwrap();
            }
            None => panic!(
                "{} has no recorded keys: bash .ci/bless records them (URN_FREEZE_NEW=1)",
                rules.name()
            ),
        }
    }
}
