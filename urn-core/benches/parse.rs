//! Parse, parse + key, and equality, side by side with the `urn` (0.7) and `urn-rs` (0.9)
//! crates on the same corpora in the same run; `find` and `repair` on text of the corpus and
//! on the shapes that were quadratic, in bytes a second. `cargo bench -p urn-core`.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    unreachable_pub
)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

#[path = "support/corpus.rs"]
// `text_line` is for the benches of `find` (urn-cli, urn-arrow).
#[allow(dead_code)]
mod corpus;

/// One benchmark per library for `op`, over the whole corpus per iteration.
fn group<Ours, Rs, Peer>(
    c: &mut Criterion,
    name: &str,
    inputs: &[String],
    throughput: Throughput,
    ours: Ours,
    rs: Rs,
    peer: Peer,
) where
    Ours: Fn(&str) -> usize,
    Rs: Fn(&str) -> usize,
    Peer: Fn(&str) -> usize,
{
    let mut group = c.benchmark_group(name);
    group.throughput(throughput);
    group.bench_function(BenchmarkId::from_parameter("urn-core"), |b| {
        b.iter(|| inputs.iter().map(|s| ours(black_box(s))).sum::<usize>())
    });
    group.bench_function(BenchmarkId::from_parameter("urn-rs"), |b| {
        b.iter(|| inputs.iter().map(|s| rs(black_box(s))).sum::<usize>())
    });
    group.bench_function(BenchmarkId::from_parameter("urn"), |b| {
        b.iter(|| inputs.iter().map(|s| peer(black_box(s))).sum::<usize>())
    });
    group.finish();
}

fn parse_groups(c: &mut Criterion, name: &str, inputs: &[String]) {
    let throughput = if name == "long" {
        Throughput::Bytes(inputs.iter().map(String::len).sum::<usize>() as u64)
    } else {
        Throughput::Elements(inputs.len() as u64)
    };
    group(
        c,
        &format!("{name}/parse_borrowed"),
        inputs,
        throughput.clone(),
        |s| urn_core::UrnRef::parse(s).is_ok() as usize,
        |s| urn_rs::UrnSlice::try_from(s).is_ok() as usize,
        |s| urn_peer::UrnSlice::try_from(s).is_ok() as usize,
    );
    group(
        c,
        &format!("{name}/parse_owned"),
        inputs,
        throughput.clone(),
        |s| black_box(urn_core::Urn::parse(s)).is_ok() as usize,
        |s| black_box(s.parse::<urn_rs::Urn>()).is_ok() as usize,
        |s| black_box(s.parse::<urn_peer::Urn>()).is_ok() as usize,
    );
    // The peers normalize while parsing, so their key is the parsed assigned name.
    group(
        c,
        &format!("{name}/parse_key"),
        inputs,
        throughput,
        |s| urn_core::UrnRef::parse(s).map_or(0, |u| black_box(u.key()).as_str().len()),
        |s| urn_rs::UrnSlice::try_from(s).map_or(0, |u| black_box(u.nid().len() + u.nss().len())),
        |s| urn_peer::UrnSlice::try_from(s).map_or(0, |u| black_box(u.nid().len() + u.nss().len())),
    );
}

fn equality(c: &mut Criterion) {
    // Pairs of equal URNs already in normal form (the common case in a database), and pairs
    // of equivalent spellings that need normalizing.
    let inputs: Vec<String> = corpus::mixed(1000)
        .into_iter()
        .filter(|s| urn_core::UrnRef::parse(s).is_ok())
        .collect();
    let normal: Vec<String> = inputs
        .iter()
        .map(|s| urn_core::UrnRef::parse(s).unwrap().key().into_string())
        .collect();
    for (label, left) in [("normal", &normal), ("respelled", &inputs)] {
        let mut group = c.benchmark_group(format!("eq/{label}"));
        group.throughput(Throughput::Elements(normal.len() as u64));
        let ours: Vec<_> = left
            .iter()
            .zip(&normal)
            .map(|(a, b)| {
                (
                    urn_core::Urn::parse(a).unwrap(),
                    urn_core::Urn::parse(b).unwrap(),
                )
            })
            .collect();
        group.bench_function("urn-core", |b| {
            b.iter(|| {
                ours.iter()
                    .filter(|(x, y)| black_box(x) == black_box(y))
                    .count()
            })
        });
        let rs: Vec<_> = left
            .iter()
            .zip(&normal)
            .map(|(a, b)| {
                (
                    a.parse::<urn_rs::Urn>().unwrap(),
                    b.parse::<urn_rs::Urn>().unwrap(),
                )
            })
            .collect();
        group.bench_function("urn-rs", |b| {
            b.iter(|| {
                rs.iter()
                    .filter(|(x, y)| black_box(x) == black_box(y))
                    .count()
            })
        });
        let peer: Vec<_> = left
            .iter()
            .zip(&normal)
            .filter_map(|(a, b)| {
                Some((
                    a.parse::<urn_peer::Urn>().ok()?,
                    b.parse::<urn_peer::Urn>().ok()?,
                ))
            })
            .collect();
        group.bench_function("urn", |b| {
            b.iter(|| {
                peer.iter()
                    .filter(|(x, y)| black_box(x) == black_box(y))
                    .count()
            })
        });
        group.finish();
    }
}

/// `find` and `repair` on 1 MiB texts: prose of the corpus (the reference), URNs each in a
/// link after the last (`find` read the 2 KiB before each one again), white space before a
/// URN and an NSS of one long run (`repair` re-copied its fix at every character). Linear
/// means each runs in bytes a second of the same order as the reference.
fn dirty(c: &mut Criterion) {
    const SIZE: usize = 1 << 20;
    let mut rng = corpus::Rng::new(7);
    let mut prose = String::new();
    while prose.len() < SIZE {
        prose.push_str(&corpus::text_line(&mut rng));
        prose.push(' ');
    }
    let mut links = String::from("https://nbn-resolving.org");
    while links.len() < SIZE {
        links.push_str("/urn:nbn:de:1-2|");
    }
    let texts = [
        ("prose", prose),
        ("links", links),
        (
            "leading_space",
            format!("{}urn:example:a", " ".repeat(SIZE)),
        ),
        (
            "long_nss",
            format!("urn:isbn:978{}0-395-36341-6", " ".repeat(SIZE)),
        ),
    ];
    let mut group = c.benchmark_group("dirty");
    for (name, text) in &texts {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(BenchmarkId::new("find", name), |b| {
            b.iter(|| urn_core::find(black_box(text)).count())
        });
        group.bench_function(BenchmarkId::new("repair", name), |b| {
            b.iter(|| urn_core::repair(black_box(text)).fixes().len())
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    parse_groups(c, "mixed", &corpus::mixed(1000));
    parse_groups(c, "long", &corpus::long(100));
    equality(c);
    dirty(c);
}

criterion_group! {
    name = all;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .sample_size(30);
    targets = benches
}
criterion_main!(all);
