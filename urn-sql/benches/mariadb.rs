//! The cost of one call of each of urn-sql's MariaDB routines (`urn_key_v2`, `urn_key_v1`,
//! `urn_check`, `urn_valid`), in microseconds per row above `COUNT(x)`, medians of 5 runs.
//! Keyed loads, against `TEXT UNIQUE` on every database, are `keyed.sh`'s.
//!
//! `MARIADB_URL=mysql://root@127.0.0.1:3306 cargo bench -p urn-sql --all-features --bench
//! mariadb`. `URN_BENCH_RUNS=9` takes the median of 9.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

mod support;

use std::str::FromStr;
use std::time::Instant;

use sqlx::mysql::{MySqlConnectOptions, MySqlPool, MySqlPoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use support::{corpus, median};

fn run_count() -> usize {
    std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap())
}
const BATCH: usize = 1_000;
const CALL_ROWS: usize = 100_000;

async fn seconds(pool: &MySqlPool, expr: &str) -> f64 {
    let mut runs = Vec::new();
    for _ in 0..run_count() {
        let start = Instant::now();
        pool.execute(AssertSqlSafe(format!("SELECT COUNT({expr}) FROM src")))
            .await
            .unwrap();
        runs.push(start.elapsed());
    }
    median(runs).as_secs_f64()
}

fn main() {
    let Some(url) = std::env::var("MARIADB_URL")
        .ok()
        .filter(|u| u.starts_with("mysql"))
    else {
        println!("MARIADB_URL not set: skipped");
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let name = format!("urn_bench_{}", std::process::id());
        let server = MySqlPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        server
            .execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .unwrap();
        let options = MySqlConnectOptions::from_str(&url).unwrap().database(&name);
        let pool = MySqlPoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .unwrap();
        urn_sql::sqlx::install(&pool).await.unwrap();
        // One call of each function, over CALL_ROWS URNs.
        pool.execute(
            "CREATE TABLE src (x LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin)",
        )
        .await
        .unwrap();
        for chunk in corpus(CALL_ROWS).chunks(BATCH) {
            let mut query = sqlx::QueryBuilder::new("INSERT INTO src (x) ");
            query.push_values(chunk, |mut row, urn| {
                row.push_bind(urn);
            });
            query.build().execute(&pool).await.unwrap();
        }
        let base = seconds(&pool, "x").await;
        let per_row = |t: f64| (t - base) / CALL_ROWS as f64 * 1e6;
        let mut calls = String::new();
        for function in ["urn_key_v2", "urn_key_v1", "urn_check", "urn_valid"] {
            let took = per_row(seconds(&pool, &format!("{function}(x)")).await);
            calls.push_str(&format!("  {function} {took:.2}"));
        }
        println!("per call, µs per row above COUNT(x), {CALL_ROWS} URNs:{calls}");
        pool.close().await;
        server
            .execute(AssertSqlSafe(format!("DROP DATABASE {name}")))
            .await
            .unwrap();
    });
}
