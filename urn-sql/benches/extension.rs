//! The portable SQL and the native extension (urn-pg) on PostgreSQL, in one run: bulk loads of
//! 100,000 and 1,000,000 mixed URNs, by `INSERT … SELECT unnest($1::text[])` (batches of
//! 10,000) and by `COPY … FROM STDIN`, each in one transaction, into a plain `text` column, a
//! `text UNIQUE` column, the text plus a generated copy with UNIQUE on the copy (the storage
//! baseline: what storing a key costs before any URN logic), the keyed table on the previous
//! revision of the portable SQL (revision 2, `tests/fixtures/urn-sql-2-up.sql`: the "before"),
//! on the current one, and on the extension, with each table's size; then the cost of one
//! `x::urn` check and one `urn_key_v1(x)` call in each. Rounds interleave the variants; the
//! figures are medians of 5 runs (by default).
//!
//! `DATABASE_URL=postgres://… cargo bench -p urn-sql --all-features --bench extension`. The
//! extension's variants run when it is installed in the server (`cargo pgrx install --release`
//! in `urn-pg`). `URN_BENCH_ROWS=100000` runs one size only; `URN_BENCH_RUNS=9` takes the median
//! of 9 runs.
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

/// Where a variant's objects live.
#[derive(Clone, Copy, PartialEq)]
enum Sql {
    /// The current portable SQL (also the home of the tables without URN logic).
    Portable,
    /// The previous revision of the portable SQL.
    Revision2,
    /// The urn_pg extension.
    Extension,
}

struct Variant {
    name: &'static str,
    ddl: String,
    sql: Sql,
}

/// The previous revision of the portable SQL, as installed before this one.
const REVISION_2: &str = include_str!("../tests/fixtures/urn-sql-2-up.sql");

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
    count_time_in(pool, expr, "src").await
}

/// Seconds for `SELECT count(expr) FROM table`, median of [`run_count`].
async fn count_time_in(pool: &PgPool, expr: &str, table: &str) -> f64 {
    let mut runs = Vec::new();
    for _ in 0..run_count() {
        let start = Instant::now();
        sqlx::query(AssertSqlSafe(format!("SELECT count({expr}) FROM {table}")))
            .execute(pool)
            .await
            .unwrap();
        runs.push(start.elapsed());
    }
    median(runs).as_secs_f64()
}

/// Microseconds per row above `count(x)` of the `x::urn` check and of `urn_key_v1(x)` (which
/// checks, then keys), over [`CALL_ROWS`] URNs, and of `column_key` on a `urn` column (what a
/// keyed table's generated column pays), above `count(u)`.
async fn per_call(pool: &PgPool, urns: &[String], column_key: &str) -> (f64, f64, f64) {
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
    let key = count_time(pool, "urn_key_v1(x)").await;
    pool.execute(
        "DROP TABLE IF EXISTS src_urn; CREATE TABLE src_urn AS SELECT x::urn AS u FROM src",
    )
    .await
    .unwrap();
    pool.execute("VACUUM ANALYZE src_urn").await.unwrap();
    let column_base = count_time_in(pool, "u", "src_urn").await;
    let column = count_time_in(pool, &format!("{column_key}(u)"), "src_urn").await;
    pool.execute("DROP TABLE src; DROP TABLE src_urn")
        .await
        .unwrap();
    let per_row = |t: f64| t / urns.len() as f64 * 1e6;
    (
        per_row(domain - base),
        per_row(key - base),
        per_row(column - column_base),
    )
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
        let (schema, old, database) = (
            format!("urn_bench_{id}"),
            format!("urn_bench_{id}_r2"),
            format!("urn_bench_ext_{id}"),
        );
        let admin = pool(&url, None, None).await;
        for sql in [
            format!("CREATE SCHEMA {schema}"),
            format!("CREATE SCHEMA {old}"),
            format!("CREATE DATABASE {database}"),
        ] {
            admin.execute(AssertSqlSafe(sql)).await.unwrap();
        }
        let portable = pool(&url, None, Some(&schema)).await;
        urn_sql::sqlx::postgres::install(&portable).await.unwrap();
        let revision2 = pool(&url, None, Some(&old)).await;
        revision2
            .execute(AssertSqlSafe(format!("BEGIN; {REVISION_2} COMMIT;")))
            .await
            .unwrap();
        let native = pool(&url, Some(&database), None).await;
        let native = match native.execute("CREATE EXTENSION urn_pg").await {
            Ok(_) => Some(native),
            Err(e) => {
                println!("urn_pg is not installed in the server ({e}): its variants are skipped");
                native.close().await;
                None
            }
        };
        run(&portable, &revision2, native.as_ref(), &sizes).await;
        for pool in [Some(portable), Some(revision2), native]
            .into_iter()
            .flatten()
        {
            pool.close().await;
        }
        for sql in [
            format!("DROP SCHEMA {schema} CASCADE"),
            format!("DROP SCHEMA {old} CASCADE"),
            format!("DROP DATABASE {database} WITH (FORCE)"),
        ] {
            admin.execute(AssertSqlSafe(sql)).await.unwrap();
        }
    });
}

async fn run(portable: &PgPool, revision2: &PgPool, native: Option<&PgPool>, sizes: &[usize]) {
    let id = "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
    let keyed = urn_sql::postgres::table_sql(&UrnTable::new("t").unwrap());
    let mut variants = vec![
        Variant {
            name: "plain text",
            ddl: format!("CREATE TABLE t ({id}, urn text NOT NULL)"),
            sql: Sql::Portable,
        },
        Variant {
            name: "text UNIQUE",
            ddl: format!("CREATE TABLE t ({id}, urn text NOT NULL UNIQUE)"),
            sql: Sql::Portable,
        },
        Variant {
            // The storage baseline: the text twice, UNIQUE on the copy, no URN logic.
            name: "text + copy, UNIQUE copy",
            ddl: format!(
                "CREATE TABLE t ({id}, urn text NOT NULL, \
                 copy text GENERATED ALWAYS AS (urn || '') STORED NOT NULL); \
                 CREATE UNIQUE INDEX t_copy ON t (copy)"
            ),
            sql: Sql::Portable,
        },
        Variant {
            // Revision 2's table pattern: the key column is the urn_key domain.
            name: "keyed, portable rev 2",
            ddl: format!(
                "CREATE TABLE t ({id}, urn urn NOT NULL, \
                 urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED NOT NULL); \
                 CREATE UNIQUE INDEX t_urn_key_unique ON t (urn_key_index(urn_key))"
            ),
            sql: Sql::Revision2,
        },
        Variant {
            name: "keyed, portable SQL",
            ddl: keyed.clone(),
            sql: Sql::Portable,
        },
    ];
    if native.is_some() {
        variants.push(Variant {
            name: "keyed, urn_pg extension",
            ddl: keyed,
            sql: Sql::Extension,
        });
    }
    let pool_of = |sql: Sql| match (sql, native) {
        (Sql::Extension, Some(native)) => native,
        (Sql::Revision2, _) => revision2,
        _ => portable,
    };
    for &rows in sizes {
        let urns = corpus(rows);
        for how in [Load::Unnest, Load::Copy] {
            let mut runs: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
            let mut sizes = vec![0_i64; variants.len()];
            for _ in 0..run_count() {
                for (v, variant) in variants.iter().enumerate() {
                    let pool = pool_of(variant.sql);
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
        for sql in [Sql::Portable, Sql::Revision2, Sql::Extension] {
            pool_of(sql)
                .execute("DROP TABLE IF EXISTS t")
                .await
                .unwrap();
        }
    }
    let urns = corpus(CALL_ROWS);
    // What each keyed table's generated column calls: revision 2's pattern urn_key_v1, the
    // current one urn_key_v1_inline.
    let mut sets = vec![
        (
            "portable rev 2",
            per_call(revision2, &urns, "urn_key_v1").await,
        ),
        (
            "portable SQL",
            per_call(portable, &urns, "urn_key_v1_inline").await,
        ),
    ];
    if let Some(native) = native {
        sets.push(("urn_pg", per_call(native, &urns, "urn_key_v1_inline").await));
    }
    println!("per call, µs per row above count(x), {CALL_ROWS} URNs:");
    for (name, (domain, key, column)) in sets {
        println!(
            "  {name:<15} x::urn {domain:>5.2}  urn_key_v1(x) {key:>5.2}  the key function alone \
             {:>5.2}  the table's key on a urn column {column:>5.2}",
            key - domain
        );
    }
}
