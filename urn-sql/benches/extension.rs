//! The portable SQL and the native extension (urn-pg) on PostgreSQL, in one run, in a database
//! whose default collation is libc `C.UTF-8` and in one whose default is ICU `en-US` (a
//! stand-in for the `en_US.UTF-8` managed services often default to):
//!
//! - bulk loads of 100,000 and 1,000,000 mixed URNs, by `INSERT … SELECT unnest($1::text[])`
//!   (batches of 10,000) and by `COPY … FROM STDIN`, each in one transaction, into a plain
//!   `text` column, a `text UNIQUE` column, the text plus a generated copy with UNIQUE on the
//!   copy (the storage baseline: what storing a key costs before any URN logic), the same with
//!   the key column and unique index of today's pattern (its floor: the pattern without the
//!   `urn` domain's check or the key function), and the keyed
//!   table: on the previous revision of the portable SQL (revision 3,
//!   `tests/fixtures/urn-sql-3-up.sql`: the "before"), on the current one and on the extension,
//!   each with the key in the database's collation (revision 3's pattern) and with the table
//!   pattern of today (`Dialect::create_table_sql`); with each table's size;
//! - the same keyed table under the V1 rules (`urn_key_v1_inline`) and the V2 rules
//!   (`urn_key_v2_inline`, today's default), in one run;
//! - the cost of one `x::urn` check and one `urn_key_v1(x)` and `urn_key_v2(x)` call in each
//!   SQL;
//! - the time of one call of each function, and of each domain's refusal path, on URNs of
//!   8 KiB and 64 KiB of each shape (`%XX`, plain characters, long r-, q- and f-components).
//!
//! Rounds interleave the variants; the figures are medians of 5 runs (by default).
//!
//! `DATABASE_URL=postgres://… cargo bench -p urn-sql --all-features --bench extension`. The
//! extension's variants run when it is installed in the server (`cargo pgrx install --release`
//! in `urn-pg`). `URN_BENCH_ROWS=100000` runs one size only; `URN_BENCH_RUNS=9` takes the median
//! of 9 runs; `URN_BENCH_COLLATIONS=c` (or `icu`) runs one database.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use support::{corpus, long_inputs, median};
use urn_sql::{KeyRules, UrnTable};

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

/// Where a variant's objects live, in each database.
#[derive(Clone, Copy, PartialEq)]
enum Sql {
    /// The current portable SQL (also the home of the tables without URN logic), in schema
    /// `current`.
    Portable,
    /// The previous revision of the portable SQL, in schema `previous`.
    Previous,
    /// The urn_pg extension, in `public`.
    Extension,
}

struct Variant {
    name: &'static str,
    ddl: String,
    sql: Sql,
}

/// The previous revision of the portable SQL, as installed before this one.
const PREVIOUS: &str = include_str!("../tests/fixtures/urn-sql-3-up.sql");

/// A database of one default collation, with the three installs.
struct Database {
    name: String,
    label: &'static str,
    portable: PgPool,
    previous: PgPool,
    native: Option<PgPool>,
}

impl Database {
    fn pool(&self, sql: Sql) -> &PgPool {
        match (sql, &self.native) {
            (Sql::Extension, Some(native)) => native,
            (Sql::Previous, _) => &self.previous,
            _ => &self.portable,
        }
    }
}

async fn pool(url: &str, database: &str, search_path: &str) -> PgPool {
    let options = PgConnectOptions::from_str(url)
        .unwrap()
        .database(database)
        .options([("search_path", search_path)]);
    PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap()
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
    let setup = pool(url, &name, "public").await;
    setup
        .execute("CREATE SCHEMA current; CREATE SCHEMA previous")
        .await
        .unwrap();
    let native = match setup.execute("CREATE EXTENSION urn_pg").await {
        Ok(_) => Some(pool(url, &name, "public").await),
        Err(e) => {
            println!("urn_pg is not installed in the server ({e}): its variants are skipped");
            None
        }
    };
    setup.close().await;
    let portable = pool(url, &name, "current").await;
    urn_sql::sqlx::install(&portable).await.unwrap();
    let previous = pool(url, &name, "previous").await;
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
    let sizes: Vec<usize> = match std::env::var("URN_BENCH_ROWS") {
        Ok(rows) => vec![rows.parse().unwrap()],
        Err(_) => vec![100_000, 1_000_000],
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
        for db in &databases {
            run(db, &sizes).await;
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

async fn run(db: &Database, sizes: &[usize]) {
    let id = "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY";
    // Revision 3's table pattern: the key in the database's collation.
    let in_db_collation = format!(
        "CREATE TABLE t ({id}, urn urn NOT NULL, \
         urn_key text GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL); \
         CREATE UNIQUE INDEX t_urn_key_unique ON t (urn_key_index(urn_key))"
    );
    // Today's pattern, in the schema each install put urn-sql's objects in (the first of its
    // pool's search_path).
    let today = |schema: &str, rules: KeyRules| {
        let table = UrnTable::new(&format!("{schema}.t"))
            .unwrap()
            .with_urn_schema(schema)
            .unwrap()
            .with_key_rules(rules)
            .unwrap();
        urn_sql::Dialect::Postgres.create_table_sql(&table)
    };
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
            // The floor of today's pattern: the same columns, collation and unique index,
            // with a copy of the text for the key and no domain check: what the pattern costs
            // before any URN logic.
            name: "pattern, no URN logic",
            ddl: format!(
                "CREATE TABLE t ({id}, urn text NOT NULL, \
                 urn_key text COLLATE \"C\" GENERATED ALWAYS AS (urn || '') STORED NOT NULL); \
                 CREATE UNIQUE INDEX t_urn_key_unique ON t ((urn_key_index(urn_key)) COLLATE \"C\")"
            ),
            sql: Sql::Portable,
        },
        Variant {
            name: "keyed, portable rev 3",
            ddl: in_db_collation.clone(),
            sql: Sql::Previous,
        },
        Variant {
            name: "keyed, portable, db coll.",
            ddl: in_db_collation.clone(),
            sql: Sql::Portable,
        },
        Variant {
            name: "keyed V1, portable",
            ddl: today("current", KeyRules::V1),
            sql: Sql::Portable,
        },
        Variant {
            name: "keyed, portable",
            ddl: today("current", KeyRules::V2),
            sql: Sql::Portable,
        },
    ];
    if db.native.is_some() {
        variants.push(Variant {
            name: "keyed, urn_pg, db coll.",
            ddl: in_db_collation,
            sql: Sql::Extension,
        });
        variants.push(Variant {
            name: "keyed V1, urn_pg",
            ddl: today("public", KeyRules::V1),
            sql: Sql::Extension,
        });
        variants.push(Variant {
            name: "keyed, urn_pg",
            ddl: today("public", KeyRules::V2),
            sql: Sql::Extension,
        });
    }
    println!("database collation: {}", db.label);
    for &rows in sizes {
        let urns = corpus(rows);
        for how in [Load::Unnest, Load::Copy] {
            let mut runs: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
            let mut sizes = vec![0_i64; variants.len()];
            for _ in 0..run_count() {
                for (v, variant) in variants.iter().enumerate() {
                    let pool = db.pool(variant.sql);
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
                    "{:<10} {rows:>9} rows  {method:<16} {:<26} {:>9.0} rows/s  {:>8.2} s  {:.2}x text UNIQUE  {:>5} MB",
                    db.label,
                    variant.name,
                    rows as f64 / d.as_secs_f64(),
                    d.as_secs_f64(),
                    d.as_secs_f64() / unique,
                    size / 1_000_000
                );
            }
        }
        for sql in [Sql::Portable, Sql::Previous, Sql::Extension] {
            db.pool(sql)
                .execute("DROP TABLE IF EXISTS t")
                .await
                .unwrap();
        }
    }
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
