//! urn_key_v2 in DataFusion over a Parquet file of mixed URNs (urn-sql's benchmark corpus: uuid,
//! IETF RFCs, `%XX` names, mixed-case NIDs, hyphenated ISBN-13, German NBNs; a third of the rows
//! respellings of earlier ones), 1,000,000 and
//! 10,000,000 rows (`URN_BENCH_ROWS=1000000` for one size, `URN_BENCH_RUNS` runs, 5 by
//! default; medians):
//!
//! - `SELECT count(DISTINCT urn_key_v2(x))` against `SELECT count(DISTINCT lower(x))` on the
//!   same file, all cores (the deduplication job; the bound is 1.5x);
//! - on one core (`target_partitions = 1`): `count(urn_key_v2(x))` above `count(x)`, and the
//!   function alone over the file's batches in memory (the bound is 5 million rows/s).
//!
//! `cargo bench --manifest-path urn-datafusion/Cargo.toml --bench functions`. The file is
//! written once under `target/bench-data/`.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

// urn-sql's benchmark corpus, shared with its database benches.
#[path = "../../urn-sql/benches/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::config::ConfigOptions;
use datafusion::dataframe::DataFrameWriteOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};

fn runs() -> usize {
    std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap())
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// urn-sql's benchmark corpus (uuid, upper-case ietf, `%XX` names with a q-component, mixed-case
/// NIDs with an f-component, hyphenated ISBN-13, NBNs), every third row replaced by a
/// respelling of an earlier one (upper-case scheme and NID, hex digits in the other case).
fn corpus(rows: usize) -> Vec<String> {
    let mut out = support::corpus(rows);
    for i in (2..rows).step_by(3) {
        // A deterministic earlier row, spread over all of them.
        let earlier = ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % i;
        let respelled = out[earlier]
            .replacen("urn:", "URN:", 1)
            .replace("%2c", "%2C")
            .replacen(":isbn:", ":ISBN:", 1)
            .replacen(":uuid:", ":UUID:", 1)
            .replacen(":nbn:", ":NBN:", 1);
        out[i] = respelled;
    }
    out
}

/// The Parquet file of `rows` URNs in column `x`, written once.
async fn parquet(rows: usize) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("urns-{rows}.parquet"));
    if path.exists() {
        return path;
    }
    let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Utf8, false)]));
    let ctx = SessionContext::new();
    let urns = corpus(rows);
    let batches: Vec<RecordBatch> = urns
        .chunks(65_536)
        .map(|chunk| {
            let column: ArrayRef = Arc::new(StringArray::from_iter_values(chunk));
            RecordBatch::try_new(schema.clone(), vec![column]).unwrap()
        })
        .collect();
    let frame = ctx.read_batches(batches).unwrap();
    frame
        .write_parquet(
            path.to_str().unwrap(),
            DataFrameWriteOptions::new().with_single_file_output(true),
            None,
        )
        .await
        .unwrap();
    path
}

async fn context(partitions: Option<usize>, path: &Path) -> SessionContext {
    let mut config = SessionConfig::new();
    if let Some(n) = partitions {
        config = config.with_target_partitions(n);
    }
    let mut ctx = SessionContext::new_with_config(config);
    urn_datafusion::register_all(&mut ctx).unwrap();
    ctx.register_parquet("t", path.to_str().unwrap(), ParquetReadOptions::default())
        .await
        .unwrap();
    ctx
}

async fn time(ctx: &SessionContext, sql: &str) -> Duration {
    let start = Instant::now();
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 1);
    start.elapsed()
}

/// The function alone over the file's batches (one thread): rows per second.
async fn kernel(path: &Path) -> f64 {
    let ctx = context(Some(1), path).await;
    let batches = ctx
        .sql("SELECT x FROM t")
        .await
        .unwrap()
        .collect()
        .await
        .unwrap();
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    let udf = urn_datafusion::function("urn_key_v2").unwrap();
    let mut times = Vec::new();
    for _ in 0..runs() {
        let start = Instant::now();
        for batch in &batches {
            let column = batch.column(0).clone();
            let t = column.data_type().clone();
            udf.invoke_with_args(ScalarFunctionArgs {
                args: vec![ColumnarValue::Array(column)],
                arg_fields: vec![Arc::new(Field::new("x", t.clone(), true))],
                number_rows: batch.num_rows(),
                return_field: Arc::new(Field::new("k", t, true)),
                config_options: Arc::new(ConfigOptions::default()),
            })
            .unwrap();
        }
        times.push(start.elapsed());
    }
    rows as f64 / median(times).as_secs_f64()
}

#[tokio::main]
async fn main() {
    let sizes: Vec<usize> = match std::env::var("URN_BENCH_ROWS") {
        Ok(rows) => vec![rows.parse().unwrap()],
        Err(_) => vec![1_000_000, 10_000_000],
    };
    for rows in sizes {
        let path = parquet(rows).await;
        let all_cores = context(None, &path).await;
        let one_core = context(Some(1), &path).await;
        let queries = [
            (&all_cores, "SELECT count(DISTINCT lower(x)) FROM t"),
            (&all_cores, "SELECT count(DISTINCT urn_key_v2(x)) FROM t"),
            (&one_core, "SELECT count(x) FROM t"),
            (&one_core, "SELECT count(urn_key_v2(x)) FROM t"),
        ];
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); queries.len()];
        for _ in 0..runs() {
            for (q, (ctx, sql)) in queries.iter().enumerate() {
                times[q].push(time(ctx, sql).await);
            }
        }
        let t: Vec<f64> = times.into_iter().map(|r| median(r).as_secs_f64()).collect();
        let distinct: i64 = {
            let batches = all_cores
                .sql("SELECT count(DISTINCT urn_key_v2(x)) AS n FROM t")
                .await
                .unwrap()
                .collect()
                .await
                .unwrap();
            batches[0]
                .column(0)
                .as_any()
                .downcast_ref::<datafusion::arrow::array::Int64Array>()
                .unwrap()
                .value(0)
        };
        println!("{rows:>10} rows, {distinct} distinct keys");
        println!(
            "  count(DISTINCT lower(x))       {:>8.3} s\n  count(DISTINCT urn_key_v2(x))  {:>8.3} s  {:.2}x lower",
            t[0],
            t[1],
            t[1] / t[0]
        );
        let per_row = (t[3] - t[2]) / rows as f64;
        println!(
            "  one core: count(x) {:.3} s, count(urn_key_v2(x)) {:.3} s: urn_key_v2 {:.0} rows/s ({:.0} ns a row)",
            t[2],
            t[3],
            1.0 / per_row,
            per_row * 1e9
        );
        println!(
            "  one core, the function alone: {:.0} rows/s",
            kernel(&path).await
        );
    }
}
