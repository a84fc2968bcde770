//! Re-keying a V1 table to V2 on PostgreSQL, MariaDB and SQLite (urn_sql::sqlx::rekey, and on
//! PostgreSQL the psql script stopped after every step): collisions listed first and refused
//! or moved whole, no row lost or doubled, the table working under V1 until the switch and
//! under V2 after it, a second run a no-op; and online, under a concurrent writer that
//! inserts, updates and deletes (rows counted, its longest wait measured).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::{AssertSqlSafe, Executor};
use urn_sql::sqlx::{find, insert_or_get, install, rekey, rekey_collisions};
use urn_sql::{Dialect, KeyRules, OnCollision, Urn, UrnTable};

/// URNs two by two distinct under V1 and one under V2 (the collisions), and their first
/// spellings' positions: a DOI in two cases and in its two URN forms, an LEI in two cases,
/// a lex name with jurisdiction units, an mpeg name with `_`.
const PAIRS: &[(&str, &str)] = &[
    ("urn:doi:10.1000/ABC", "urn:doi:10.1000/abc"),
    (
        "urn:doi:10.1093/nar/gkaa1100",
        "urn:doi:10.1093:NAR%2Fgkaa1100",
    ),
    (
        "urn:lei:7LTWFZYICNSX8D621K86",
        "urn:lei:7ltwfzyicnsx8d621k86",
    ),
    ("urn:lex:ch;glarus:regiere", "urn:lex:CH;Glarus:Regiere"),
    ("urn:mpeg:mpeg_7:schema", "urn:mpeg:MPEG_7:schema"),
];

/// URNs that stay distinct under both rules, `n` of them, of several namespaces.
fn distinct(n: usize) -> Vec<Urn> {
    (0..n)
        .map(|i| {
            let text = match i % 5 {
                0 => format!("urn:example:row-{i}"),
                1 => format!("urn:doi:10.{}/Item.{i}", 1000 + i % 7),
                2 => format!("urn:isbn:978-0-{:04}-{:04}-X", i / 10_000, i % 10_000),
                3 => format!("urn:lex:it;roma:legge:{i}"),
                _ => format!("URN:UUID:{:08X}-7DEC-11D0-A765-00A0C91E6BF6", i),
            };
            Urn::parse(&text).unwrap()
        })
        // (An ISBN with a wrong check digit is still a URN: the generic key.)
        .collect()
}

/// The V1 table the tests re-key.
fn v1(table: UrnTable) -> UrnTable {
    table.with_key_rules(KeyRules::V1).unwrap()
}

/// What every database must show after a re-key with `KeepFirst`: the kept rows and the
/// moved ones, every stored key the V2 key of its URN, no two rows one URN under V2.
fn check_rows(rows: &[(i64, String, String)], expected: usize) {
    assert_eq!(rows.len(), expected);
    let mut keys = HashSet::new();
    for (id, urn, key) in rows {
        let urn = Urn::parse(urn).unwrap();
        assert_eq!(key, urn.key_with(KeyRules::V2).as_str(), "row {id}");
        assert!(keys.insert(key.clone()), "row {id}: {key} twice");
    }
}

mod postgres {
    use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

    use super::*;

    struct Db {
        pool: PgPool,
        admin: PgPool,
        schema: String,
        url: String,
    }

    impl Db {
        async fn new(test: &str) -> Option<Db> {
            let url = support::postgres_url()?;
            let schema = support::schema_name(test);
            let admin = PgPoolOptions::new()
                .max_connections(1)
                .connect(&url)
                .await
                .unwrap();
            admin
                .execute(AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
                .await
                .unwrap();
            let options = PgConnectOptions::from_str(&url)
                .unwrap()
                .options([("search_path", support::search_path(&schema))]);
            let pool = PgPoolOptions::new()
                .max_connections(8)
                .connect_with(options)
                .await
                .unwrap();
            install(&pool).await.unwrap();
            Some(Db {
                pool,
                admin,
                url: format!(
                    "{url}{}options=-csearch_path%3D{}",
                    if url.contains('?') { '&' } else { '?' },
                    support::search_path(&schema).replace(',', "%2C")
                ),
                schema,
            })
        }

        fn table(&self, name: &str) -> UrnTable {
            support::table(name, &self.schema)
        }

        /// A V1 table holding `urns`.
        async fn filled(&self, name: &str, urns: &[Urn]) -> UrnTable {
            let table = v1(self.table(name));
            self.pool
                .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
                .await
                .unwrap();
            let texts: Vec<&str> = urns.iter().map(Urn::as_str).collect();
            sqlx::query(AssertSqlSafe(format!(
                "INSERT INTO {}.{name} (urn) SELECT unnest($1::text[])",
                self.schema
            )))
            .bind(&texts)
            .execute(&self.pool)
            .await
            .unwrap();
            table
        }

        async fn rows(&self, name: &str) -> Vec<(i64, String, String)> {
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT id, urn::text, urn_key FROM {}.{name} ORDER BY id",
                self.schema
            )))
            .fetch_all(&self.pool)
            .await
            .unwrap()
        }

        /// Runs `script` in psql; returns its exit code and stderr.
        fn psql(&self, script: &str) -> (Option<i32>, String) {
            use std::io::Write;
            let mut child = std::process::Command::new("psql")
                .args(["-X", "-q", &self.url])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("psql is installed (.ci/run installs postgresql-client)");
            let mut stdin = child.stdin.take().unwrap();
            let script = script.to_owned();
            let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
            let out = child.wait_with_output().unwrap();
            writer.join().unwrap().unwrap();
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        }

        async fn drop(self) {
            self.pool.close().await;
            self.admin
                .execute(AssertSqlSafe(format!(
                    "DROP SCHEMA {} CASCADE",
                    self.schema
                )))
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn collisions_first_then_keep_first_then_v2() {
        let Some(db) = Db::new("rekey").await else {
            return;
        };
        let urns = scenario_urns();
        let table = db.filled("items", &urns).await;
        // The psql script refuses the collisions, naming how many, and changes nothing.
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let (code, err) = db.psql(&script);
        assert_ne!(code, Some(0));
        assert!(err.contains("5 groups of rows"), "{err}");
        collisions_scenario(
            &db.pool,
            &table,
            urns.len(),
            async || db.rows("items").await,
            async || {
                sqlx::query_as(AssertSqlSafe(format!(
                    "SELECT id, urn::text, urn_sql_kept_id \
                     FROM {}.items_urn_key_v2_collisions ORDER BY id",
                    db.schema
                )))
                .fetch_all(&db.pool)
                .await
                .unwrap()
            },
        )
        .await;
        // The key column cannot be written around the trigger.
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE {}.items SET urn_key = 'urn:x:forged'",
            db.schema
        )))
        .execute(&db.pool)
        .await
        .unwrap();
        check_rows(&db.rows("items").await, urns.len() - PAIRS.len() + 2);
        // Again, by the script: nothing to do.
        let (code, err) = db.psql(&script);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("nothing to do"), "{err}");
        db.drop().await;
    }

    /// The psql script stopped after each of its steps leaves a table that works under V1
    /// (respellings meet their rows, new URNs go in), and the whole script run after it
    /// finishes the re-key; so does a backfill cancelled midway.
    #[tokio::test]
    async fn stopped_after_any_step_the_table_works_and_the_rekey_goes_on() {
        let Some(db) = Db::new("rekey_stop").await else {
            return;
        };
        let urns = distinct(30_000);
        let probe = v1(db.table("probe"));
        let script = Dialect::Postgres
            .rekey_sql(&probe, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let steps = script.matches("\n-- ").count();
        assert!(steps >= 12, "{steps}");
        for stop in 1..steps {
            let name = format!("stop_{stop}");
            let table = db.filled(&name, &urns[..200]).await;
            let script = Dialect::Postgres
                .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
                .unwrap();
            // The script up to (not including) step `stop + 1`.
            let cut = script
                .match_indices("\n-- ")
                .nth(stop)
                .map_or(script.len(), |(at, _)| at);
            let (code, err) = db.psql(&script[..cut]);
            assert_eq!(code, Some(0), "stop {stop}: {err}");
            let row = insert_or_get(
                &db.pool,
                &table,
                &urns[0].as_str().to_ascii_lowercase().parse().unwrap(),
            )
            .await
            .unwrap();
            assert!(!row.inserted, "stop {stop}");
            let new = insert_or_get(
                &db.pool,
                &table,
                &format!("urn:example:after-{stop}").parse().unwrap(),
            )
            .await
            .unwrap();
            assert!(new.inserted, "stop {stop}");
            let (code, err) = db.psql(&script);
            assert_eq!(code, Some(0), "stop {stop}, then all: {err}");
            check_rows(&db.rows(&name).await, 201);
        }
        // A backfill cancelled midway (statement_timeout), then the whole script.
        let table = db.filled("cancelled", &urns).await;
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let (code, err) = db.psql(&format!("SET statement_timeout = '150ms';\n{script}"));
        assert_ne!(code, Some(0));
        assert!(err.contains("statement timeout"), "{err}");
        let (code, err) = db.psql(&script);
        assert_eq!(code, Some(0), "{err}");
        check_rows(&db.rows("cancelled").await, urns.len());
        db.drop().await;
    }

    /// Online: a writer inserts, updates and deletes all along; every write goes through,
    /// none waits long, and the rows at the end are the rows written.
    #[tokio::test]
    async fn online_under_a_concurrent_writer() {
        let Some(db) = Db::new("rekey_online").await else {
            return;
        };
        let rows = online_rows();
        let table = db.filled("items", &distinct(rows)).await;
        let (pool, name, writing) = (
            db.pool.clone(),
            format!("{}.items", db.schema),
            table.clone(),
        );
        let writer = Writer::start(move |i| {
            let (pool, name, table) = (pool.clone(), name.clone(), writing.clone());
            Box::pin(async move {
                let urn: Urn = format!("urn:example:written-{i}").parse().unwrap();
                assert!(insert_or_get(&pool, &table, &urn).await.unwrap().inserted);
                if i % 3 != 0 {
                    return (1, 0, 0);
                }
                // Every 3rd write: row i + 1 (`row-i`) respelled, row i + 2 deleted.
                let edit = |sql: String| {
                    let pool = pool.clone();
                    async move {
                        let done = sqlx::query(AssertSqlSafe(sql))
                            .execute(&pool)
                            .await
                            .unwrap();
                        usize::try_from(done.rows_affected()).unwrap()
                    }
                };
                let updated = edit(format!(
                    "UPDATE {name} SET urn = 'URN:EXAMPLE:row-{i}' WHERE id = {}",
                    i + 1
                ))
                .await;
                let deleted = edit(format!("DELETE FROM {name} WHERE id = {}", i + 2)).await;
                (1, updated, deleted)
            })
        });
        let started = Instant::now();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        let took = started.elapsed();
        let report = writer.stop().await;
        assert!(done.switched);
        check_rows(&db.rows("items").await, report.rows(rows));
        eprintln!("postgres, {rows} rows: re-key {took:?}; writer {report:?}");
        assert!(report.longest < Duration::from_secs(2), "{report:?}");
        db.drop().await;
    }
}

/// The scenario every database runs: a V1 table with the pairs and `distinct` rows; the
/// collisions listed, refused (nothing changes), then moved; the table a V2 table after; a
/// second run a no-op. `rows` reads the table; `moved` the side table's ids, URNs and kept ids.
async fn collisions_scenario<DB>(
    pool: &sqlx::Pool<DB>,
    table: &UrnTable,
    initial: usize,
    rows: impl AsyncFn() -> Vec<(i64, String, String)>,
    moved: impl AsyncFn() -> Vec<(i64, String, i64)>,
) where
    DB: urn_sql::sqlx::Database,
    for<'a> &'a sqlx::Pool<DB>: sqlx::Acquire<'a, Database = DB>,
{
    let before = rows().await;
    assert_eq!(before.len(), initial);
    let listed = rekey_collisions(pool, table, KeyRules::V2).await.unwrap();
    assert_eq!(listed.len(), PAIRS.len());
    for (collision, (a, b)) in listed.iter().zip(PAIRS) {
        assert_eq!(collision.urns, [*a, *b]);
        assert_eq!(collision.key, Urn::parse(a).unwrap().key().as_str());
    }
    let refused = rekey(pool, table, KeyRules::V2, OnCollision::Refuse)
        .await
        .unwrap();
    assert_eq!(
        (refused.collisions, refused.switched),
        (listed.clone(), false)
    );
    assert_eq!(rows().await, before);
    let again = insert_or_get(pool, table, &"URN:DOI:10.1000/ABC".parse().unwrap())
        .await
        .unwrap();
    assert!(!again.inserted, "the V1 table still takes V1 respellings");
    let done = rekey(pool, table, KeyRules::V2, OnCollision::KeepFirst)
        .await
        .unwrap();
    assert!(done.switched);
    assert_eq!(done.collisions, listed);
    check_rows(&rows().await, initial - PAIRS.len());
    let expected: Vec<(i64, String, i64)> = listed
        .iter()
        .map(|c| (c.ids[1], c.urns[1].clone(), c.ids[0]))
        .collect();
    assert_eq!(moved().await, expected);
    let items = table.clone().with_key_rules(KeyRules::V2).unwrap();
    for (a, b) in PAIRS {
        let row = insert_or_get(pool, &items, &b.parse().unwrap())
            .await
            .unwrap();
        assert!(!row.inserted && row.urn.as_str() == *a, "{b}: {row:?}");
    }
    let fresh = insert_or_get(pool, &items, &"urn:doi:10.5555/NEW".parse().unwrap())
        .await
        .unwrap();
    assert!(fresh.inserted && fresh.key.as_str() == "urn:doi:10.5555/new");
    let found = find(pool, &items, &"urn:doi:10.5555:new".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(found.map(|r| r.id), Some(fresh.id));
    let err = insert_or_get(pool, table, &"urn:doi:10.5555/OTHER".parse().unwrap())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("keyed by other rules"), "{err}");
    check_rows(&rows().await, initial - PAIRS.len() + 2);
    let twice = rekey(pool, table, KeyRules::V2, OnCollision::Refuse)
        .await
        .unwrap();
    assert!(twice.switched && twice.collisions.is_empty());
}

/// The URNs of the collision scenario: `distinct(200)` and the pairs.
fn scenario_urns() -> Vec<Urn> {
    let mut urns = distinct(200);
    for (a, b) in PAIRS {
        urns.push(a.parse().unwrap());
        urns.push(b.parse().unwrap());
    }
    urns
}

mod mariadb {
    use sqlx::mysql::{MySqlConnectOptions, MySqlPool, MySqlPoolOptions};

    use super::*;

    struct Db {
        name: String,
        server: MySqlPool,
        pool: MySqlPool,
    }

    impl Db {
        async fn new(test: &str) -> Option<Db> {
            let url = support::mariadb_url()?;
            let name = support::schema_name(test);
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
                .max_connections(8)
                .connect_with(options)
                .await
                .unwrap();
            install(&pool).await.unwrap();
            Some(Db { name, server, pool })
        }

        async fn filled(&self, name: &str, urns: &[Urn]) -> UrnTable {
            let table = v1(UrnTable::new(name).unwrap());
            self.pool
                .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&table)))
                .await
                .unwrap();
            for chunk in urns.chunks(1000) {
                let mut query = sqlx::QueryBuilder::new(format!("INSERT INTO {name} (urn) "));
                query.push_values(chunk, |mut row, urn| {
                    row.push_bind(urn.as_str());
                });
                query.build().execute(&self.pool).await.unwrap();
            }
            table
        }

        async fn rows(&self, name: &str) -> Vec<(i64, String, String)> {
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT id, urn, CAST(urn_key AS CHAR) FROM {name} ORDER BY id"
            )))
            .fetch_all(&self.pool)
            .await
            .unwrap()
        }

        async fn drop(self) {
            self.pool.close().await;
            self.server
                .execute(AssertSqlSafe(format!("DROP DATABASE {}", self.name)))
                .await
                .unwrap();
        }
    }

    #[tokio::test]
    async fn collisions_first_then_keep_first_then_v2() {
        let Some(db) = Db::new("rekey").await else {
            return;
        };
        let urns = scenario_urns();
        let table = db.filled("items", &urns).await;
        collisions_scenario(
            &db.pool,
            &table,
            urns.len(),
            async || db.rows("items").await,
            async || {
                sqlx::query_as(
                    "SELECT id, urn, urn_sql_kept_id FROM items_urn_key_v2_collisions ORDER BY id",
                )
                .fetch_all(&db.pool)
                .await
                .unwrap()
            },
        )
        .await;
        // The script for the mariadb tool says the same (nothing to do now), and names the
        // statement that drops the retired columns.
        let script = Dialect::MariaDb
            .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        assert!(script.contains("-- ALTER TABLE `items` DROP COLUMN `urn_key_v1_retired_sha256`"));
        db.drop().await;
    }

    #[tokio::test]
    async fn online_under_a_concurrent_writer() {
        let Some(db) = Db::new("rekey_online").await else {
            return;
        };
        let rows = online_rows();
        let table = db.filled("items", &distinct(rows)).await;
        let (pool, writing) = (db.pool.clone(), table.clone());
        let writer = Writer::start(move |i| {
            let (pool, table) = (pool.clone(), writing.clone());
            Box::pin(async move {
                let urn: Urn = format!("urn:example:written-{i}").parse().unwrap();
                assert!(insert_or_get(&pool, &table, &urn).await.unwrap().inserted);
                if i % 3 != 0 {
                    return (1, 0, 0);
                }
                let edit = |sql: String| {
                    let pool = pool.clone();
                    async move {
                        let done = sqlx::query(AssertSqlSafe(sql))
                            .execute(&pool)
                            .await
                            .unwrap();
                        usize::try_from(done.rows_affected()).unwrap()
                    }
                };
                let updated = edit(format!(
                    "UPDATE items SET urn = 'URN:EXAMPLE:row-{i}' WHERE id = {}",
                    i + 1
                ))
                .await;
                let deleted = edit(format!("DELETE FROM items WHERE id = {}", i + 2)).await;
                (1, updated, deleted)
            })
        });
        let started = Instant::now();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        let took = started.elapsed();
        let report = writer.stop().await;
        assert!(done.switched);
        check_rows(&db.rows("items").await, report.rows(rows));
        eprintln!("mariadb, {rows} rows: re-key {took:?}; writer {report:?}");
        assert!(report.longest < Duration::from_secs(2), "{report:?}");
        db.drop().await;
    }
}

mod sqlite {
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

    use super::*;

    #[tokio::test]
    async fn collisions_first_then_keep_first_then_v2() {
        urn_sql::sqlite::register_for_all_connections().unwrap();
        let pool: SqlitePool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(SqliteConnectOptions::from_str("sqlite::memory:").unwrap())
            .await
            .unwrap();
        let urns = scenario_urns();
        let table = v1(UrnTable::new("items").unwrap());
        pool.execute(AssertSqlSafe(Dialect::Sqlite.create_table_sql(&table)))
            .await
            .unwrap();
        for urn in &urns {
            sqlx::query("INSERT INTO items (urn) VALUES (?1)")
                .bind(urn.as_str())
                .execute(&pool)
                .await
                .unwrap();
        }
        let rows = async || -> Vec<(i64, String, String)> {
            sqlx::query_as("SELECT id, urn, urn_key FROM items ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap()
        };
        collisions_scenario(&pool, &table, urns.len(), rows, async || {
            sqlx::query_as(
                "SELECT id, urn, urn_sql_kept_id FROM items_urn_key_v2_collisions ORDER BY id",
            )
            .fetch_all(&pool)
            .await
            .unwrap()
        })
        .await;
        // The table is the V2 table urn-sql makes, as SQLite stores it.
        let sql: String = sqlx::query_scalar("SELECT sql FROM sqlite_schema WHERE name = 'items'")
            .fetch_one(&pool)
            .await
            .unwrap();
        let fresh = Dialect::Sqlite.create_table_sql(&UrnTable::new("items").unwrap());
        assert_eq!(format!("{sql};\n"), fresh);
    }

    /// A table with an index of its own is refused, before anything changes.
    #[tokio::test]
    async fn a_table_with_its_own_index_is_refused() {
        urn_sql::sqlite::register_for_all_connections().unwrap();
        let pool: SqlitePool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(SqliteConnectOptions::from_str("sqlite::memory:").unwrap())
            .await
            .unwrap();
        let table = v1(UrnTable::new("items").unwrap());
        pool.execute(AssertSqlSafe(Dialect::Sqlite.create_table_sql(&table)))
            .await
            .unwrap();
        pool.execute("CREATE INDEX items_by_urn ON items (urn)")
            .await
            .unwrap();
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("indexes or triggers of its own"), "{err}");
        let kept: String = sqlx::query_scalar("SELECT sql FROM sqlite_schema WHERE name = 'items'")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert!(kept.contains("urn_key_v1("), "{kept}");
    }
}

/// How many rows the online tests re-key (`URN_REKEY_ROWS`; BENCHMARKS.md's figures are for
/// 1,000,000).
fn online_rows() -> usize {
    std::env::var("URN_REKEY_ROWS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000)
}

/// A writer that, until stopped, writes (each database's test says how: a new URN through the
/// V1 table's insert-or-get, and every third write an initial row's URN respelled and another
/// initial row deleted), timing each write.
struct Writer {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    task: tokio::task::JoinHandle<WriterReport>,
}

/// What the writer did.
#[derive(Debug)]
struct WriterReport {
    inserted: usize,
    deleted: usize,
    updated: usize,
    /// The longest write.
    longest: Duration,
}

impl WriterReport {
    /// The rows a table that held `initial` rows holds after the writer.
    fn rows(&self, initial: usize) -> usize {
        initial + self.inserted - self.deleted
    }
}

/// One write of the writer: the number of rows it inserted, updated and deleted.
type Write = Pin<Box<dyn Future<Output = (usize, usize, usize)> + Send>>;

impl Writer {
    /// Starts the writer; `write(i)` does its `i`th write.
    fn start(write: impl Fn(usize) -> Write + Send + 'static) -> Writer {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let task = tokio::spawn(async move {
            let mut report = WriterReport {
                inserted: 0,
                deleted: 0,
                updated: 0,
                longest: Duration::ZERO,
            };
            let mut i = 0usize;
            while !flag.load(std::sync::atomic::Ordering::Relaxed) {
                let started = Instant::now();
                let (inserted, updated, deleted) = write(i).await;
                report.inserted += inserted;
                report.updated += updated;
                report.deleted += deleted;
                report.longest = report.longest.max(started.elapsed());
                if started.elapsed() > Duration::from_millis(300)
                    && std::env::var("URN_REKEY_TRACE").is_ok()
                {
                    eprintln!("slow write {i}: {:?}", started.elapsed());
                }
                i += 1;
                tokio::task::yield_now().await;
            }
            report
        });
        Writer { stop, task }
    }

    async fn stop(self) -> WriterReport {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.task.await.unwrap()
    }
}
