//! Bulk insert of 100,000 URNs: the keyed table (domain + generated key + UNIQUE on
//! PostgreSQL; guards + Rust-computed key + UNIQUE on SQLite) against a plain `text` column,
//! and against a plain `text UNIQUE` column. Prints rows/s (median of 5 runs) and ratios.
//!
//! `DATABASE_URL=postgres://… cargo bench -p urn-sql --all-features --bench bulk_insert`
//! (SQLite always runs; PostgreSQL only with `DATABASE_URL`).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::SqlitePoolOptions;
use sqlx::{AssertSqlSafe, Executor};
use urn_sql::{Urn, UrnTable};

const ROWS: usize = 100_000;
const BATCH: usize = 5_000;
const RUNS: usize = 5;

/// A mixed corpus like urn-core's: uuid, isbn, ietf, example with `/` and `%xx`, components.
fn corpus() -> Vec<String> {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..ROWS)
        .map(|i| {
            let r = next();
            match r % 4 {
                0 => format!(
                    "urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                    r >> 32,
                    (r >> 16) & 0xffff,
                    r & 0xfff,
                    (r >> 12) & 0xfff,
                    (i as u64) << 8 | (r & 0xff)
                ),
                1 => format!("URN:IETF:rfc:{}", i + 1),
                2 => format!("urn:example:shelf-{}/item%2c{i}?=lang=en", r % 97),
                _ => format!("urn:Example:{:x}/{i}#frag", r),
            }
        })
        .collect()
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn report(db: &str, results: &[(&str, Duration)]) {
    let base = results[0].1.as_secs_f64();
    for (name, d) in results {
        println!(
            "{db:<8} {name:<34} {:>9.0} rows/s  {:>7.1} ms  {:.2}x plain",
            ROWS as f64 / d.as_secs_f64(),
            d.as_secs_f64() * 1e3,
            d.as_secs_f64() / base
        );
    }
}

async fn postgres(url: &str, urns: &[String]) {
    let schema = format!("urn_sql_bench_{}", std::process::id());
    let admin = PgPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .unwrap();
    admin
        .execute(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .await
        .unwrap();
    let options = PgConnectOptions::from_str(url)
        .unwrap()
        .options([("search_path", schema.as_str())]);
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    urn_sql::sqlx::postgres::install(&pool).await.unwrap();
    let keyed = urn_sql::postgres::table_sql(&UrnTable::new("keyed").unwrap());
    let variants = [
        ("plain text", "CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, urn text NOT NULL)".to_owned()),
        ("plain text UNIQUE", "CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, urn text NOT NULL UNIQUE)".to_owned()),
        ("keyed (domain+generated key)", keyed.replace("\"keyed\"", "t")),
    ];
    let mut results = Vec::new();
    for (name, ddl) in &variants {
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            pool.execute("DROP TABLE IF EXISTS t").await.unwrap();
            pool.execute(AssertSqlSafe(ddl.clone())).await.unwrap();
            let start = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            for chunk in urns.chunks(BATCH) {
                let batch: Vec<Urn> = chunk.iter().map(|s| s.parse().unwrap()).collect();
                sqlx::query("INSERT INTO t (urn) SELECT * FROM unnest($1::text[])")
                    .bind(&batch)
                    .execute(&mut *tx)
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
            runs.push(start.elapsed());
        }
        results.push((*name, median(runs)));
    }
    report("postgres", &results);
    pool.close().await;
    admin
        .execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .unwrap();
}

async fn sqlite(urns: &[String]) {
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap();
    let keyed = urn_sql::sqlite::table_sql(&UrnTable::new("t").unwrap());
    let variants = [
        (
            "plain TEXT",
            "CREATE TABLE \"t\" (id INTEGER PRIMARY KEY, urn TEXT NOT NULL)".to_owned(),
            false,
        ),
        (
            "plain TEXT UNIQUE",
            "CREATE TABLE \"t\" (id INTEGER PRIMARY KEY, urn TEXT NOT NULL UNIQUE)".to_owned(),
            false,
        ),
        ("keyed (guards+Rust key+UNIQUE)", keyed, true),
    ];
    let mut results = Vec::new();
    for (name, ddl, with_key) in &variants {
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            pool.execute("DROP TABLE IF EXISTS \"t\"").await.unwrap();
            pool.execute(AssertSqlSafe(ddl.clone())).await.unwrap();
            let start = Instant::now();
            let mut tx = pool.begin().await.unwrap();
            for text in urns {
                let urn: Urn = text.parse().unwrap();
                if *with_key {
                    sqlx::query("INSERT INTO \"t\" (urn, urn_key) VALUES (?1, ?2)")
                        .bind(&urn)
                        .bind(urn.key())
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                } else {
                    sqlx::query("INSERT INTO \"t\" (urn) VALUES (?1)")
                        .bind(&urn)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                }
            }
            tx.commit().await.unwrap();
            runs.push(start.elapsed());
        }
        results.push((*name, median(runs)));
    }
    report("sqlite", &results);
}

fn main() {
    let urns = corpus();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        sqlite(&urns).await;
        match std::env::var("DATABASE_URL") {
            Ok(url) if url.starts_with("postgres") => postgres(&url, &urns).await,
            _ => println!("postgres: DATABASE_URL not set, skipped"),
        }
    });
}
