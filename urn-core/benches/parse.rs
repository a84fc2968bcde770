//! Criterion benchmarks (filled below).
fn main() {}
