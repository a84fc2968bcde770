//! The native extension (urn-pg) against the portable SQL on PostgreSQL, in one run: bulk loads
//! of 100,000 and 1,000,000 mixed URNs, by `INSERT … SELECT unnest($1::text[])` (batches of
//! 10,000) and by `COPY … FROM STDIN`, each in one transaction, into a plain `text` column, a
//! `text UNIQUE` column, the text plus a generated copy with UNIQUE on the copy (what storing a
//! key costs before any URN logic), the portable keyed table and the same keyed table on the
//! extension, with each table's size;
//! then the cost of one `urn_key_v1` call in each. Rounds interleave the variants; the figures
//! are medians of 5 runs (by default).
//!
//! Needs the extension installed in the server (`cargo pgrx install --release` in `urn-pg`):
//! `DATABASE_URL=postgres://… cargo bench -p urn-sql --all-features --bench extension`.
//! `URN_BENCH_ROWS=100000` runs one size only; `URN_BENCH_RUNS=9` takes the median of 9 runs.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

mod support;

use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use support::{corpus, median};
use urn_sql::UrnTable;

/// Runs per variant (`URN_BENCH_RUNS` to change).
fn run_count() -> usize {
    std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap())
}
const BATCH: usize = 10_000;
const CALL_ROWS: usize = 200_000;

#[derive(Clone, Copy, PartialEq)]
enum Load {
    Unnest,
    Copy,
}

struct Variant {
    name: &'static str,
    ddl: String,
    extension: bool,
}

async fn pool(url: &str, database: Option<&str>, search_path: Option<&str>) -> PgPool {
    let mut options = PgConnectOptions::from_str(url).unwrap();
    if let Some(database) = database {
        options = options.database(database);
    }
    if let Some(path) = search_path {
        options = options.options([("search_path", path)]);
    }
    PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap()
}

async fn load(pool: &PgPool, ddl: &str, urns: &[String], how: Load) -> Duration {
    pool.execute("DROP TABLE IF EXISTS t").await.unwrap();
    pool.execute(AssertSqlSafe(ddl.to_owned())).await.unwrap();
    pool.execute("CHECKPOINT").await.unwrap();
    let start = Instant::now();
    let mut tx = pool.begin().await.unwrap();
    match how {
        Load::Unnest => {
            for chunk in urns.chunks(BATCH) {
                sqlx::query("INSERT INTO t (urn) SELECT unnest($1::text[])")
                    .bind(chunk)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
        }
        Load::Copy => {
            // Text format: one URN per line (valid URNs hold no tab, newline or backslash).
            let mut copy = tx.copy_in_raw("COPY t (urn) FROM STDIN").await.unwrap();
            for chunk in urns.chunks(BATCH) {
                let mut data = String::with_capacity(chunk.len() * 48);
                for urn in chunk {
                    data.push_str(urn);
                    data.push('\n');
                }
                copy.send(data.into_bytes()).await.unwrap();
            }
            copy.finish().await.unwrap();
        }
    }
    tx.commit().await.unwrap();
    start.elapsed()
}

/// Seconds for `SELECT count(expr) FROM src` over [`CALL_ROWS`] URNs, median of [`run_count`].
async fn count_time(pool: &PgPool, expr: &str) -> f64 {
    let mut runs = Vec::new();
    for _ in 0..run_count() {
        let start = Instant::now();
        sqlx::query(AssertSqlSafe(format!("SELECT count({expr}) FROM src")))
            .execute(pool)
            .await
            .unwrap();
        runs.push(start.elapsed());
    }
    median(runs).as_secs_f64()
}

/// Microseconds per row of `urn_key_v1(x::urn)` and of the `x::urn` domain check alone, above
/// `count(x)`.
async fn per_call(pool: &PgPool, urns: &[String]) -> (f64, f64) {
    pool.execute("SET max_parallel_workers_per_gather = 0")
        .await
        .unwrap();
    pool.execute("DROP TABLE IF EXISTS src; CREATE TABLE src (x text)")
        .await
        .unwrap();
    sqlx::query("INSERT INTO src SELECT unnest($1::text[])")
        .bind(urns)
        .execute(pool)
        .await
        .unwrap();
    pool.execute("VACUUM ANALYZE src").await.unwrap();
    let base = count_time(pool, "x").await;
    let domain = count_time(pool, "x::urn").await;
    let key = count_time(pool, "urn_key_v1(x::urn)").await;
    let per_row = |t: f64| (t - base) / urns.len() as f64 * 1e6;
    (per_row(key), per_row(domain))
}

fn main() {
    let Some(url) = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        println!("DATABASE_URL not set: skipped");
        return;
    };
    let sizes: Vec<usize> = match std::env::var("URN_BENCH_ROWS") {
        Ok(rows) => vec![rows.parse().unwrap()],
        Err(_) => vec![100_000, 1_000_000],
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let id = std::process::id();
        let (schema, database) = (format!("urn_bench_{id}"), format!("urn_bench_ext_{id}"));
        let admin = pool(&url, None, None).await;
        for sql in [
            format!("CREATE SCHEMA {schema}"),
            format!("CREATE DATABASE {database}"),
        ] {
            admin.execute(AssertSqlSafe(sql)).await.unwrap();
        }
        let portable = pool(&url, None, Some(&schema)).await;
        urn_sql::sqlx::postgres::install(&portable).await.unwrap();
        let native = pool(&url, Some(&database), None).await;
        if let Err(e) = native.execute("CREATE EXTENSION urn_pg").await {
            println!("urn_pg is not installed in the server ({e}): skipped");
        } else {
            run(&portable, &native, &sizes).await;
        }
        native.close().await;
        portable.close().await;
        for sql in [
            format!("DROP SCHEMA {schema} CASCADE"),
            format!("DROP DATABASE {database} WITH (FORCE)"),
        ] {
            admin.execute(AssertSqlSafe(sql)).await.unwrap();
        }
    });
}

async fn run(portable: &PgPool, native: &PgPool, sizes: &[usize]) {
    let id = "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
    let keyed = urn_sql::postgres::table_sql(&UrnTable::new("t").unwrap());
    let variants = [
        Variant {
            name: "plain text",
            ddl: format!("CREATE TABLE t ({id}, urn text NOT NULL)"),
            extension: false,
        },
        Variant {
            name: "text UNIQUE",
            ddl: format!("CREATE TABLE t ({id}, urn text NOT NULL UNIQUE)"),
            extension: false,
        },
        Variant {
            // What storing a key costs before any URN logic: the text twice, UNIQUE on the copy.
            name: "text + copy, UNIQUE copy",
            ddl: format!(
                "CREATE TABLE t ({id}, urn text NOT NULL, \
                 copy text GENERATED ALWAYS AS (urn || '') STORED NOT NULL); \
                 CREATE UNIQUE INDEX t_copy ON t (copy)"
            ),
            extension: false,
        },
        Variant {
            name: "keyed, portable SQL",
            ddl: keyed.clone(),
            extension: false,
        },
        Variant {
            name: "keyed, urn_pg extension",
            ddl: keyed,
            extension: true,
        },
    ];
    for &rows in sizes {
        let urns = corpus(rows);
        for how in [Load::Unnest, Load::Copy] {
            let mut runs: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
            let mut sizes = vec![0_i64; variants.len()];
            for _ in 0..run_count() {
                for (v, variant) in variants.iter().enumerate() {
                    let pool = if variant.extension { native } else { portable };
                    runs[v].push(load(pool, &variant.ddl, &urns, how).await);
                    sizes[v] = sqlx::query_scalar("SELECT pg_total_relation_size('t')")
                        .fetch_one(pool)
                        .await
                        .unwrap();
                }
            }
            let medians: Vec<Duration> = runs.into_iter().map(median).collect();
            let unique = medians[1].as_secs_f64();
            let method = match how {
                Load::Unnest => "INSERT … unnest",
                Load::Copy => "COPY",
            };
            for ((variant, d), size) in variants.iter().zip(&medians).zip(&sizes) {
                println!(
                    "{rows:>9} rows  {method:<16} {:<24} {:>9.0} rows/s  {:>8.2} s  {:.2}x text UNIQUE  {:>5} MB",
                    variant.name,
                    rows as f64 / d.as_secs_f64(),
                    d.as_secs_f64(),
                    d.as_secs_f64() / unique,
                    size / 1_000_000
                );
            }
        }
        for pool in [portable, native] {
            pool.execute("DROP TABLE IF EXISTS t").await.unwrap();
        }
    }
    let urns = corpus(CALL_ROWS);
    let (portable_key, portable_domain) = per_call(portable, &urns).await;
    let (native_key, native_domain) = per_call(native, &urns).await;
    println!(
        "per call, µs: urn_key_v1(x::urn) portable {portable_key:.2}, urn_pg {native_key:.2} \
         ({:.1}x faster); the x::urn check alone portable {portable_domain:.2}, urn_pg \
         {native_domain:.2}; the key function alone portable {:.2}, urn_pg {:.2} ({:.1}x)",
        portable_key / native_key,
        portable_key - portable_domain,
        native_key - native_domain,
        (portable_key - portable_domain) / (native_key - native_domain)
    );
}
