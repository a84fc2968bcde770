//! Lines per second of `urn key`, `urn dedup`, `urn check` and `urn inspect` on 1,000,000 mixed
//! lines (uuid, ietf, example with `%xx` and components; ~10% repeated spellings), the whole
//! process from a file on stdin to /dev/null. Then bytes per second of `urn find` over 100 MB of
//! mixed text (prose, reference lines, links; a URN in about one line of four) against
//! `grep -oE 'urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:[^[:space:]]+'` on the same file (which finds
//! fewer, and takes trailing punctuation: the figure to beat, not a peer).
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

// urn-core's bench corpora (the mixed text of `find`'s benches).
#[path = "../../urn-core/benches/support/corpus.rs"]
#[allow(dead_code, unreachable_pub)]
mod corpus;

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

/// 100 MB of mixed text: urn-core's bench lines for `find` (prose, catalogue and reference
/// lines, links, and URNs among them).
fn text_corpus() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("urn-cli-bench-text-{}.txt", std::process::id()));
    let mut file = std::io::BufWriter::new(File::create(&path).unwrap());
    let mut rng = corpus::Rng::new(0x2545_F491_4F6C_DD1D);
    let mut written = 0;
    while written < 100_000_000 {
        let line = corpus::text_line(&mut rng);
        writeln!(file, "{line}").unwrap();
        written += line.len() + 1;
    }
    file.flush().unwrap();
    path
}

fn find_in_text(c: &mut Criterion) {
    let input = text_corpus();
    let bytes = std::fs::metadata(&input).unwrap().len();
    let mut group = c.benchmark_group("find in 100 MB of text");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Bytes(bytes));
    // Each writes into a pipe that is read to its end (GNU grep stops at the first match when
    // its output is /dev/null).
    let drained = |program: &str, args: &[&str]| {
        let mut child = Command::new(program)
            .args(args)
            .stdin(File::open(&input).unwrap())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let read = std::io::copy(&mut out, &mut std::io::sink()).unwrap();
        assert!(child.wait().unwrap().success());
        read
    };
    group.bench_function("urn find", |b| {
        b.iter(|| drained(env!("CARGO_BIN_EXE_urn"), &["find"]))
    });
    // Another build of `urn` (an earlier commit's), measured in the same run: before/after.
    if let Some(baseline) = std::env::var_os("URN_FIND_BASELINE") {
        let baseline = baseline.to_string_lossy().into_owned();
        group.bench_function("urn find (URN_FIND_BASELINE)", |b| {
            b.iter(|| drained(&baseline, &["find"]))
        });
    }
    group.bench_function("grep -oE", |b| {
        b.iter(|| {
            drained(
                "grep",
                &["-oE", "urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:[^[:space:]]+"],
            )
        })
    });
    group.finish();
    let _ = std::fs::remove_file(input);
}

criterion_group!(benches, throughput, find_in_text);
criterion_main!(benches);
