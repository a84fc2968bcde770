//! Lines per second of `urn key`, `urn dedup`, `urn check` and `urn inspect` on 1,000,000 mixed
//! lines (uuid, ietf, example with `%xx` and components; ~10% repeated spellings), the whole
//! process from a file on stdin to /dev/null.
//!
//! `cargo bench -p urn-cli --bench throughput`
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::fs::File;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const LINES: u64 = 1_000_000;

fn corpus() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("urn-cli-bench-{}.txt", std::process::id()));
    let mut file = std::io::BufWriter::new(File::create(&path).unwrap());
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    for i in 0..LINES {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let r = state;
        let j = r % 900_000;
        match i % 4 {
            0 => writeln!(
                file,
                "urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                r >> 32,
                (r >> 16) & 0xffff,
                r & 0xfff,
                (r >> 12) & 0xfff,
                i
            ),
            1 => writeln!(file, "URN:IETF:rfc:{}", j + 1),
            2 => writeln!(file, "urn:example:shelf-{}/item%2c{j}?=lang=en", r % 97),
            _ => writeln!(file, "urn:Example:{:x}/{j}#frag", r >> 40),
        }
        .unwrap();
    }
    file.flush().unwrap();
    path
}

fn run(command: &str, input: &std::path::Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_urn"))
        .arg(command)
        .stdin(File::open(input).unwrap())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

fn throughput(c: &mut Criterion) {
    let input = corpus();
    let mut group = c.benchmark_group("urn-cli 1M lines");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .throughput(Throughput::Elements(LINES));
    for command in ["key", "dedup", "check", "inspect"] {
        group.bench_function(command, |b| b.iter(|| run(command, &input)));
    }
    group.finish();
    let _ = std::fs::remove_file(input);
}

criterion_group!(benches, throughput);
criterion_main!(benches);
