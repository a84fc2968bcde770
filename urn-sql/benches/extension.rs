//! The portable SQL and the native extension (urn-pg) on PostgreSQL, call by call, in a
//! database whose default collation is libc `C.UTF-8` and in one whose default is ICU `en-US`:
//!
//! - the cost of one `x::urn` check and one `urn_key_v1(x)` and `urn_key_v2(x)` call in each
//!   SQL (the previous revision of the portable SQL, `tests/fixtures/urn-sql-3-up.sql`, too), and
//!   of each key's `_inline` form on a `urn` column (what a keyed table's generated key pays);
//! - the time of one call of each function, and of each domain's refusal path, on URNs of
//!   8 KiB and 64 KiB of each shape (`%XX`, plain characters, long r-, q- and f-components).
//!
//! Keyed loads, against `text UNIQUE` on every database, are `keyed.sh`'s.
//!
//! `DATABASE_URL=postgres://… cargo bench -p urn-sql --all-features --bench extension`. The
//! extension's rows run when it is installed in the server (`cargo pgrx install --release`
//! in `urn-pg`). `URN_BENCH_RUNS=9` takes the median of 9 runs; `URN_BENCH_COLLATIONS=c` (or
//! `icu`) runs one database.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;
#[path = "support/postgres.rs"]
mod support_postgres;

use std::time::Instant;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use support::{corpus, long_inputs, median};
use support_postgres::pg_pool;

/// Runs per variant (`URN_BENCH_RUNS` to change).
fn run_count() -> usize {
    std::env::var("URN_BENCH_RUNS").map_or(5, |r| r.parse().unwrap())
}
const CALL_ROWS: usize = 200_000;

/// The previous revision of the portable SQL, as installed before this one.
const PREVIOUS: &str = include_str!("../tests/fixtures/urn-sql-3-up.sql");

/// A database of one default collation, with the three installs: the current portable SQL in
/// schema `current`, the previous revision in `previous`, urn_pg in `public`.
struct Database {
    name: String,
    label: &'static str,
    portable: PgPool,
    previous: PgPool,
    native: Option<PgPool>,
}

/// Creates database `name` with `locale` (the `CREATE DATABASE` options) and installs the
/// current portable SQL, the previous revision and, if the server has it, urn_pg.
async fn database(
    url: &str,
    admin: &PgPool,
    name: String,
    label: &'static str,
    locale: &str,
) -> Database {
    admin
        .execute(AssertSqlSafe(format!(
            "CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' {locale}"
        )))
        .await
        .unwrap();
    let setup = pg_pool(url, &name, "public").await;
    setup
        .execute("CREATE SCHEMA current; CREATE SCHEMA previous")
        .await
        .unwrap();
    let native = match setup.execute("CREATE EXTENSION urn_pg").await {
        Ok(_) => Some(pg_pool(url, &name, "public").await),
        Err(e) => {
            println!("urn_pg is not installed in the server ({e}): its variants are skipped");
            None
        }
    };
    setup.close().await;
    let portable = pg_pool(url, &name, "current").await;
    urn_sql::sqlx::install(&portable).await.unwrap();
    let previous = pg_pool(url, &name, "previous").await;
    previous
        .execute(AssertSqlSafe(format!("BEGIN; {PREVIOUS} COMMIT;")))
        .await
        .unwrap();
    Database {
        name,
        label,
        portable,
        previous,
        native,
    }
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

/// Microseconds per row above `count(x)` of the `x::urn` check and of `key(x)` (`urn_key_v1`,
/// `urn_key_v2`: it checks, then keys), over [`CALL_ROWS`] URNs, and of `key`'s `_inline` form
/// on a `urn` column (what a keyed table's generated column pays), above `count(u)`.
async fn per_call(pool: &PgPool, urns: &[String], key: &str) -> (f64, f64, f64) {
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
    let base = count_time_in(pool, "x", "src").await;
    let domain = count_time_in(pool, "x::urn", "src").await;
    let key_time = count_time_in(pool, &format!("{key}(x)"), "src").await;
    pool.execute(
        "DROP TABLE IF EXISTS src_urn; CREATE TABLE src_urn AS SELECT x::urn AS u FROM src",
    )
    .await
    .unwrap();
    pool.execute("VACUUM ANALYZE src_urn").await.unwrap();
    let column_base = count_time_in(pool, "u", "src_urn").await;
    let column = count_time_in(pool, &format!("{key}_inline(u)"), "src_urn").await;
    pool.execute("DROP TABLE src; DROP TABLE src_urn")
        .await
        .unwrap();
    let per_row = |t: f64| t / urns.len() as f64 * 1e6;
    (
        per_row(domain - base),
        per_row(key_time - base),
        per_row(column - column_base),
    )
}

/// Milliseconds for one `SELECT expr` with `$1` bound to `text` (median of [`run_count`]); an
/// error (a refusal path) counts like a result.
async fn one_call(pool: &PgPool, expr: &str, text: &str) -> f64 {
    let mut runs = Vec::new();
    for _ in 0..run_count() {
        let start = Instant::now();
        let _ = sqlx::query(AssertSqlSafe(format!("SELECT {expr}")))
            .bind(text)
            .execute(pool)
            .await;
        runs.push(start.elapsed());
    }
    median(runs).as_secs_f64() * 1e3
}

fn main() {
    let Some(url) = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        println!("DATABASE_URL not set: skipped");
        return;
    };
    let collations = std::env::var("URN_BENCH_COLLATIONS").unwrap_or_else(|_| "c,icu".into());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let id = std::process::id();
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        let mut databases = Vec::new();
        for flavour in collations.split(',') {
            let (label, locale) = match flavour {
                "c" => ("C.UTF-8", "LOCALE 'C.UTF-8'"),
                "icu" => (
                    "ICU en-US",
                    "LOCALE 'C.UTF-8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'",
                ),
                other => panic!("URN_BENCH_COLLATIONS: {other:?} is neither c nor icu"),
            };
            let name = format!("urn_bench_{flavour}_{id}");
            databases.push(database(&url, &admin, name, label, locale).await);
        }
        if let Some(first) = databases.first() {
            calls(first).await;
            long_calls(first).await;
        }
        for db in databases {
            db.portable.close().await;
            db.previous.close().await;
            if let Some(native) = db.native {
                native.close().await;
            }
            admin
                .execute(AssertSqlSafe(format!(
                    "DROP DATABASE {} WITH (FORCE)",
                    db.name
                )))
                .await
                .unwrap();
        }
    });
}

/// The per-call costs in each SQL.
async fn calls(db: &Database) {
    let urns = corpus(CALL_ROWS);
    // What each keyed table's generated column calls: urn_key_v1_inline in revision 3 and in
    // V1 tables, urn_key_v2_inline in today's.
    let mut sets = vec![
        (
            "portable rev 3",
            per_call(&db.previous, &urns, "urn_key_v1").await,
        ),
        (
            "portable V1",
            per_call(&db.portable, &urns, "urn_key_v1").await,
        ),
        (
            "portable V2",
            per_call(&db.portable, &urns, "urn_key_v2").await,
        ),
    ];
    if let Some(native) = &db.native {
        sets.push(("urn_pg V1", per_call(native, &urns, "urn_key_v1").await));
        sets.push(("urn_pg V2", per_call(native, &urns, "urn_key_v2").await));
    }
    println!(
        "per call, µs per row above count(x), {CALL_ROWS} URNs ({}):",
        db.label
    );
    for (name, (domain, key, column)) in sets {
        println!(
            "  {name:<15} x::urn {domain:>5.2}  urn_key_vN(x) {key:>5.2}  the key function alone \
             {:>5.2}  the table's key on a urn column {column:>5.2}",
            key - domain
        );
    }
}

/// One call of each function and of each domain's check on long inputs, in ms.
async fn long_calls(db: &Database) {
    let expressions = [
        "urn_check($1)",
        "$1::text::urn",
        "urn_key_v1($1::text::urn)",
        "urn_rfc8141_key($1::text::urn)",
        "$1::text::urn_key",
    ];
    let mut installs = vec![("portable SQL", &db.portable)];
    if let Some(native) = &db.native {
        installs.push(("urn_pg", native));
    }
    for (install, pool) in installs {
        println!("one call on long input, ms ({install}; an error counts as the answer):");
        println!(
            "  {:<24} {:>6}  {}",
            "input",
            "bytes",
            expressions.map(|e| format!("{e:>30}")).join("")
        );
        for (shape, len, text) in long_inputs() {
            let mut times = Vec::new();
            for expr in expressions {
                times.push(format!("{:>30.2}", one_call(pool, expr, &text).await));
            }
            println!("  {shape:<24} {len:>6}  {}", times.join(""));
        }
    }
}
