//! MariaDB through sqlx: the stored functions against the Rust parser and key on every test
//! input, the keyed table (triggers, SHA-256 UNIQUE) with equivalent spellings of every length,
//! forged keys, updates, eight racing connections, round trips, decode errors, the install's
//! idempotence and its refusal of routines another user defined, session settings, and the
//! `mariadb` command-line client. Needs `MARIADB_URL` (e.g. `mysql://root@127.0.0.1:3306`;
//! skipped without it, a failure under `CI=true`).
#![cfg(feature = "sqlx-mariadb")]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::collections::BTreeSet;
use std::str::FromStr;

use sqlx::mysql::{MySqlConnectOptions, MySqlPool, MySqlPoolOptions};
use sqlx::{AssertSqlSafe, Executor, Row};
use urn_sql::sqlx::{find, insert_or_get, install};
use urn_sql::{Dialect, IsbnUrn, KeyRules, Urn, UrnKey, UrnTable};

/// The long inputs of the `extension` bench (8 KiB and 65,536 bytes of each shape).
#[path = "../benches/support/mod.rs"]
mod bench_support;

/// A database of its own for one test, with the functions installed (twice: the second run
/// changes nothing), and a pool on it.
struct Db {
    name: String,
    server: MySqlPool,
    pool: MySqlPool,
    options: MySqlConnectOptions,
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
            .connect_with(options.clone())
            .await
            .unwrap();
        install(&pool).await.unwrap();
        install(&pool).await.unwrap();
        Some(Db {
            name,
            server,
            pool,
            options,
        })
    }

    /// Creates the keyed table `name` (urn-sql's pattern) in the test's database.
    async fn keyed_table(&self, name: &str) -> UrnTable {
        let table = UrnTable::new(name).unwrap();
        self.pool
            .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&table)))
            .await
            .unwrap();
        table
    }

    /// A new user with all privileges on the test's database (`'<name>'@'%'`), and its
    /// connect options. Drop it with [`Db::drop_user`].
    async fn user(&self, what: &str) -> (String, MySqlConnectOptions) {
        self.user_with(what, "ALL PRIVILEGES").await
    }

    /// A new user with `privileges` on the test's database, and its connect options.
    async fn user_with(&self, what: &str, privileges: &str) -> (String, MySqlConnectOptions) {
        let user = support::schema_name(what);
        self.server
            .execute(AssertSqlSafe(format!(
                "CREATE USER '{user}'@'%'; GRANT {privileges} ON {}.* TO '{user}'@'%'",
                self.name
            )))
            .await
            .unwrap();
        let url = support::mariadb_url().unwrap();
        let host = url
            .rsplit_once('@')
            .map_or("127.0.0.1:3306", |(_, rest)| rest)
            .split('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let options =
            MySqlConnectOptions::from_str(&format!("mysql://{user}@{host}/{}", self.name)).unwrap();
        (user, options)
    }

    async fn drop_user(&self, user: &str) {
        self.server
            .execute(AssertSqlSafe(format!("DROP USER '{user}'@'%'")))
            .await
            .unwrap();
    }

    async fn drop(self) {
        self.pool.close().await;
        self.server
            .execute(AssertSqlSafe(format!("DROP DATABASE {}", self.name)))
            .await
            .unwrap();
    }
}

/// The SQLSTATE, error number and message of a MariaDB error.
fn failure(err: &sqlx::Error) -> (String, String) {
    let e = err
        .as_database_error()
        .unwrap_or_else(|| panic!("not a database error: {err}"));
    (
        e.code().unwrap_or_default().into_owned(),
        e.message().to_owned(),
    )
}

/// The functions agree with the parser on every test input: the vectors, the generated corpus
/// (length edges and long random URNs included), the long inputs of every shape, and 30,000
/// proptest strings (valid URNs, respellings, one-character mutations, near-URN and any text).
/// For each: `urn_check` is the parser's message or NULL, `urn_valid` its verdict, and
/// `urn_key_v1` and `urn_key_v2` the keys (the generated columns' expressions too), or SQLSTATE
/// 45000 with the parser's message.
#[tokio::test]
async fn functions_agree_with_the_parser_on_every_input() {
    let Some(db) = Db::new("mariadb_differential").await else {
        return;
    };
    let mut inputs: Vec<String> = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    inputs.extend(bench_support::long_inputs().into_iter().map(|(_, _, t)| t));
    inputs.extend(support::corpus::proptest_strings(30_000));
    inputs.push("urn:example:a\0b".to_owned());
    inputs.push("urn:example:a\nb".to_owned());
    inputs.push("urn:example:a\n".to_owned());
    let mut conn = db.pool.acquire().await.unwrap();
    // k1, k2: the expressions a keyed table's key column is generated by, V1 and V2.
    conn.execute(AssertSqlSafe(format!(
        "CREATE TEMPORARY TABLE inputs (n INT PRIMARY KEY, \
         v LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin, \
         k1 MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin AS ({}) STORED, \
         k2 MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin AS ({}) STORED)",
        urn_sql::mariadb::key_expression("`v`", KeyRules::V1),
        urn_sql::mariadb::key_expression("`v`", KeyRules::V2),
    )))
    .await
    .unwrap();
    for (chunk_no, chunk) in inputs.chunks(500).enumerate() {
        let mut query = sqlx::QueryBuilder::new("INSERT INTO inputs (n, v) ");
        query.push_values(chunk.iter().enumerate(), |mut row, (i, text)| {
            row.push_bind((chunk_no * 500 + i) as i32).push_bind(text);
        });
        query.build().execute(&mut *conn).await.unwrap();
    }
    let rows = sqlx::query(
        "SELECT n, urn_check(v), urn_valid(v), IF(urn_valid(v), urn_key_v1(v), NULL), k1, \
         IF(urn_valid(v), urn_key_v2(v), NULL), k2 FROM inputs ORDER BY n",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(rows.len(), inputs.len());
    let mut valid = 0;
    for row in rows {
        let n: i32 = row.get(0);
        let text = &inputs[n as usize];
        let check: Option<String> = row.get(1);
        let is_valid: bool = row.get(2);
        let keys: [(Option<String>, Option<String>, KeyRules); 2] = [
            (row.get(3), row.get(4), KeyRules::V1),
            (row.get(5), row.get(6), KeyRules::V2),
        ];
        match Urn::parse(text) {
            Ok(urn) => {
                valid += 1;
                assert_eq!((check, is_valid), (None, true), "{text:?}");
                for (key, generated, rules) in keys {
                    let expected = urn.key_with(rules);
                    assert_eq!(key.as_deref(), Some(expected.as_str()), "{text:?} {rules}");
                    assert_eq!(generated, key, "{text:?} {rules}");
                }
            }
            Err(e) => {
                assert_eq!(check.as_deref(), Some(e.to_string().as_str()), "{text:?}");
                assert!(!is_valid, "{text:?}");
                for (_, generated, rules) in keys {
                    assert_eq!(generated, None, "{text:?} {rules}");
                }
            }
        }
    }
    assert!(valid > 10_000, "{valid}");
    // An invalid URN's key raises the parser's message.
    for text in ["urn:example:a%zz", "URN:x:a", "urn:example:a b"] {
        for function in ["urn_key_v1", "urn_key_v2"] {
            let err =
                sqlx::query_scalar::<_, String>(AssertSqlSafe(format!("SELECT {function}(?)")))
                    .bind(text)
                    .fetch_one(&mut *conn)
                    .await
                    .unwrap_err();
            assert_eq!(
                failure(&err),
                (
                    "45000".to_owned(),
                    Urn::parse(text).unwrap_err().to_string()
                )
            );
        }
    }
    drop(conn);
    db.drop().await;
}

/// The keyed table holds each URN once: equivalent spellings, at lengths around 2,700 bytes,
/// 8,000 and 60,000 bytes, meet the stored row through insert-or-get, find and plain INSERTs;
/// different URNs, `urn:ex:ABC` and `urn:ex:abc` among them, never collide; a key a client
/// sends is overwritten, on INSERT and on UPDATE, and an UPDATE of the URN recomputes it; an
/// invalid URN is refused with the parser's message.
#[tokio::test]
async fn equivalent_spellings_are_stored_once_at_any_length() {
    let Some(db) = Db::new("mariadb_keyed").await else {
        return;
    };
    let table = db.keyed_table("items").await;
    let first = insert_or_get(&db.pool, &table, &"urn:isbn:0-395-36341-1".parse().unwrap())
        .await
        .unwrap();
    assert!(first.inserted);
    assert_eq!(first.key.as_str(), "urn:isbn:0395363411");
    for spelling in [
        "URN:ISBN:0395363411",
        "urn:Isbn:0-395-363411#p",
        "urn:isbn:0395363411?=x",
    ] {
        let again = insert_or_get(&db.pool, &table, &spelling.parse().unwrap())
            .await
            .unwrap();
        assert_eq!((again.id, again.inserted), (first.id, false), "{spelling}");
        assert_eq!(
            again.urn.as_str(),
            "urn:isbn:0-395-36341-1",
            "the first spelling stays"
        );
        let found = find(&db.pool, &table, &spelling.parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found.id, first.id);
    }
    for (long, respelled) in support::corpus::long_urns() {
        let stored = insert_or_get(&db.pool, &table, &long.parse().unwrap())
            .await
            .unwrap();
        assert!(stored.inserted, "{}", long.len());
        let again = insert_or_get(&db.pool, &table, &respelled.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(
            (again.id, again.inserted),
            (stored.id, false),
            "{}",
            long.len()
        );
        let err = sqlx::query("INSERT INTO items (urn) VALUES (?)")
            .bind(&respelled)
            .execute(&db.pool)
            .await
            .unwrap_err();
        assert_eq!(failure(&err).0, "23000", "{}", long.len());
    }
    for text in [
        "urn:ex:ABC",
        "urn:ex:abc",
        "urn:example:a%2C",
        "urn:example:a%2c%2c",
    ] {
        let stored = insert_or_get(&db.pool, &table, &text.parse().unwrap())
            .await
            .unwrap();
        assert!(stored.inserted, "{text}");
    }
    // No client can write the key: a strict session gets ERROR 1906, any other has its value
    // ignored. An UPDATE of the URN recomputes the key.
    let forge = "INSERT INTO items (urn, urn_key) VALUES \
                 ('URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6', 'urn:forged:x')";
    let err = db.pool.execute(forge).await.unwrap_err();
    assert_eq!(failure(&err).0, "HY000", "{err}");
    assert!(
        err.to_string().contains("generated column 'urn_key'"),
        "{err}"
    );
    let mut lax = db.pool.acquire().await.unwrap();
    lax.execute("SET SESSION sql_mode = ''").await.unwrap();
    lax.execute(forge).await.unwrap();
    lax.execute("UPDATE items SET urn_key = 'urn:forged:y' WHERE urn = 'urn:ex:abc'")
        .await
        .unwrap();
    drop(lax);
    db.pool
        .execute("UPDATE items SET urn = 'urn:example:Updated%2f' WHERE urn = 'urn:ex:ABC'")
        .await
        .unwrap();
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT urn, urn_key FROM items ORDER BY id")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    let keys: BTreeSet<&str> = rows.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(keys.len(), rows.len());
    assert!(keys.contains("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
    for (urn, key) in &rows {
        assert_eq!(key, Urn::parse(urn).unwrap().key().as_str(), "{urn}");
    }
    let err = sqlx::query("INSERT INTO items (urn) VALUES ('urn:example:a%zz')")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert_eq!(
        failure(&err),
        (
            "45000".to_owned(),
            "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits".to_owned()
        )
    );
    db.drop().await;
}

/// Eight connections insert spellings of one URN at once, ten times: one row, one id, one
/// `inserted`, no error.
#[tokio::test]
async fn eight_connections_racing_leave_one_row() {
    let Some(db) = Db::new("mariadb_race").await else {
        return;
    };
    let table = db.keyed_table("items").await;
    for round in 0..10 {
        let spellings = [
            format!("urn:example:race-{round}"),
            format!("URN:example:race-{round}"),
            format!("urn:EXAMPLE:race-{round}#f"),
            format!("urn:example:race-{round}?=q"),
        ];
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let (pool, table) = (db.pool.clone(), table.clone());
                let urn: Urn = spellings[i % 4].parse().unwrap();
                tokio::spawn(async move { insert_or_get(&pool, &table, &urn).await.unwrap() })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap());
        }
        assert!(results.iter().all(|r| r.id == results[0].id));
        assert_eq!(results.iter().filter(|r| r.inserted).count(), 1);
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 10);
    db.drop().await;
}

/// Values round-trip through sqlx (NULL as `None`), typed columns decode only their namespace,
/// and a stored value that is not a URN is a decode error with the parser's message.
#[tokio::test]
async fn values_round_trip_and_bad_stored_values_are_decode_errors() {
    let Some(db) = Db::new("mariadb_values").await else {
        return;
    };
    db.pool
        .execute(
            "CREATE TABLE t (u TEXT, k TEXT, isbn TEXT, maybe TEXT) \
             CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin",
        )
        .await
        .unwrap();
    let urn: Urn = "URN:ISBN:0-395-36341-1?=q#f".parse().unwrap();
    let isbn: IsbnUrn = "urn:isbn:0-395-36341-1".parse().unwrap();
    sqlx::query("INSERT INTO t VALUES (?, ?, ?, ?)")
        .bind(&urn)
        .bind(urn.key())
        .bind(&isbn)
        .bind(None::<Urn>)
        .execute(&db.pool)
        .await
        .unwrap();
    let row = sqlx::query("SELECT u, k, isbn, maybe FROM t")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let (u, k, i, m): (Urn, UrnKey<'static>, IsbnUrn, Option<Urn>) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    assert!(u.eq_text(&urn));
    assert_eq!((k.as_str(), i, m), ("urn:isbn:0395363411", isbn, None));
    let err = sqlx::query_scalar::<_, Urn>("SELECT 'urn:example:a%zz'")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("'%' at byte 13 in the NSS must be followed by two hex digits"),
        "{err}"
    );
    let err =
        sqlx::query_scalar::<_, IsbnUrn>("SELECT 'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66'")
            .fetch_one(&db.pool)
            .await
            .unwrap_err();
    assert!(err.to_string().contains("isbn"), "{err}");
    db.drop().await;
}

/// The install checks each routine name in its own kind. Another user's *procedure*
/// `urn_check` or *function* `urn_refuse` (the other routine namespace of each name) neither
/// blocks it nor is called (revision 1 refused every install after one); another user's
/// function `urn_valid` stops it, naming the routine and its definer (its code would run in
/// every session that calls it).
#[tokio::test]
async fn the_install_refuses_routines_another_user_defined() {
    let Some(db) = Db::new("mariadb_definer").await else {
        return;
    };
    // A user allowed to create routines there could make them; the administrator stands in
    // for it, naming that user as definer.
    let user = support::schema_name("urn_other");
    db.server
        .execute(AssertSqlSafe(format!(
            "CREATE USER '{user}'@'localhost'; \
             CREATE DEFINER = '{user}'@'localhost' PROCEDURE {0}.urn_check(v TEXT) SELECT 1; \
             CREATE DEFINER = '{user}'@'localhost' FUNCTION {0}.urn_refuse(v TEXT) RETURNS INT \
             DETERMINISTIC NO SQL RETURN 1",
            db.name
        )))
        .await
        .unwrap();
    install(&db.pool).await.unwrap();
    let check: Option<String> = sqlx::query_scalar("SELECT urn_check('urn:example:a b')")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(
        check.as_deref(),
        Some("invalid URN: ' ' at byte 13 is not allowed in the NSS")
    );
    // Each function the install makes (the key functions of every version too).
    for function in ["urn_valid", "urn_key_v1", "urn_key_v2"] {
        db.server
            .execute(AssertSqlSafe(format!(
                "DROP FUNCTION {0}.{function}; \
                 CREATE DEFINER = '{user}'@'localhost' FUNCTION {0}.{function}(v TEXT) \
                 RETURNS TEXT DETERMINISTIC NO SQL RETURN v",
                db.name
            )))
            .await
            .unwrap();
        let err = install(&db.pool).await.unwrap_err();
        let (code, message) = failure(&err);
        assert_eq!(code, "45000", "{message}");
        assert!(
            message.contains(&format!(
                "function {}.{function} is defined by {user}@localhost",
                db.name
            )),
            "{message}"
        );
        db.server
            .execute(AssertSqlSafe(format!(
                "DROP FUNCTION {0}.{function}",
                db.name
            )))
            .await
            .unwrap();
        install(&db.pool).await.unwrap();
    }
    db.server
        .execute(AssertSqlSafe(format!("DROP USER '{user}'@'localhost'")))
        .await
        .unwrap();
    db.drop().await;
}

/// Session settings change no answer: with `sql_mode` ANSI_QUOTES, PIPES_AS_CONCAT and
/// NO_BACKSLASH_ESCAPES, `default_regex_flags` EXTENDED and DOTALL, and a case-insensitive
/// collation for the connection, every function and the keyed table give the same results.
#[tokio::test]
async fn session_settings_change_no_answer() {
    let Some(db) = Db::new("mariadb_settings").await else {
        return;
    };
    db.keyed_table("items").await;
    let inputs = [
        "URN:ISBN:0-395-36341-1",
        "urn:example:a%2c%2fb?+r?=q#f",
        "urn:example:a\\b",
        "urn:example:a'b",
        "urn:example:a\tb",
        "urn:example:a%zz",
        "URN:EXAMPLE:A",
        "urn:nbn:DE:bvb:19-146642",
    ];
    let answers = |settings: &'static str| {
        let options = db.options.clone();
        async move {
            let mut conn = sqlx::MySqlConnection::connect_with(&options).await.unwrap();
            conn.execute(AssertSqlSafe(settings)).await.unwrap();
            let mut out = Vec::new();
            for input in inputs {
                let row = sqlx::query("SELECT urn_check(?), urn_valid(?)")
                    .bind(input)
                    .bind(input)
                    .fetch_one(&mut conn)
                    .await
                    .unwrap();
                let key = sqlx::query_scalar::<_, String>("SELECT urn_key_v1(?)")
                    .bind(input)
                    .fetch_one(&mut conn)
                    .await
                    .map_err(|e| failure(&e));
                let stored = sqlx::query_scalar::<_, String>(
                    "INSERT INTO items (urn) VALUES (?) RETURNING urn_key",
                )
                .bind(input)
                .fetch_one(&mut conn)
                .await
                .map_err(|e| failure(&e));
                let (check, valid): (Option<String>, bool) = (row.get(0), row.get(1));
                out.push((input, check, valid, key, stored));
            }
            conn.execute("DELETE FROM items").await.unwrap();
            out
        }
    };
    use sqlx::Connection;
    let baseline = answers("SELECT 1").await;
    for (input, check, ..) in &baseline {
        assert_eq!(
            check,
            &Urn::parse(input).err().map(|e| e.to_string()),
            "{input}"
        );
    }
    // Each session also opens the table first (after FLUSH TABLES), compiling the generated
    // column's regular expressions under its settings; the next, plain session gets that
    // cached table.
    for settings in [
        "SET sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES'",
        "SET default_regex_flags = 'EXTENDED,DOTALL,MULTILINE'",
        "SET default_regex_flags = 'UNGREEDY'",
        "SET default_regex_flags = 'EXTENDED_MORE,UNGREEDY,DUPNAMES'",
        "SET NAMES utf8mb4 COLLATE utf8mb4_general_ci",
        "SET NAMES latin1",
        "SET sql_mode = 'ORACLE'",
    ] {
        db.pool.execute("FLUSH TABLES").await.unwrap();
        assert_eq!(answers(settings).await, baseline, "under {settings}");
        assert_eq!(answers("SELECT 1").await, baseline, "after {settings}");
    }
    db.drop().await;
}

/// The key functions made from a session whose connection character set is UCS-2 give the
/// keys of any other install: what a key compares with the URN's bytes is binary in the SQL,
/// not text of the creating session's character set (in which a '%' is two bytes no URN
/// holds). The whole install refuses such a session (its SIGNALs' SQLSTATE literals), so each
/// function's own statement from the install script is run, as a DBA might.
#[tokio::test]
async fn key_functions_made_from_a_ucs2_session_key_alike() {
    use sqlx::Connection;
    let Some(db) = Db::new("mariadb_ucs2_functions").await else {
        return;
    };
    let mut conn = sqlx::MySqlConnection::connect_with(&db.options)
        .await
        .unwrap();
    conn.execute("SET collation_connection = ucs2_general_ci")
        .await
        .unwrap();
    let functions: Vec<&str> = KeyRules::VERSIONS
        .iter()
        .filter_map(|rules| rules.sql_function())
        .collect();
    for function in &functions {
        let create = urn_sql::mariadb::UP
            .find(&format!("CREATE OR REPLACE FUNCTION {function}("))
            .unwrap();
        let start = urn_sql::mariadb::UP[..create]
            .rfind("SET STATEMENT")
            .unwrap();
        let end = create + urn_sql::mariadb::UP[create..].find("\nEND;").unwrap() + 5;
        conn.execute(AssertSqlSafe(&urn_sql::mariadb::UP[start..end]))
            .await
            .unwrap();
    }
    drop(conn);
    for input in [
        "urn:example:a?=q",
        "urn:example:a?+r#f",
        "URN:Example:A",
        "urn:example:a%2c%2fb",
        "urn:isbn:978-0-395-36341-6",
        "URN:ISBN:0-395-36341-x",
        "urn:issn:0317-8471",
        "urn:nbn:DE:bvb:19-146642",
    ] {
        let urn = Urn::parse(input).unwrap();
        for (function, &rules) in functions.iter().zip(KeyRules::VERSIONS) {
            let key: String = sqlx::query_scalar(AssertSqlSafe(format!("SELECT {function}(?)")))
                .bind(input)
                .fetch_one(&db.pool)
                .await
                .unwrap();
            assert_eq!(key, urn.key_with(rules).as_str(), "{input} {rules}");
        }
    }
    db.drop().await;
}

/// The `mariadb` command-line client installs `urn sql --dialect mariadb`'s SQL as printed,
/// makes the table pattern, and a bad value it inserts gets the parser's message.
#[tokio::test]
async fn the_mariadb_client_installs_and_gets_the_parsers_message() {
    let Some(db) = Db::new("mariadb_client").await else {
        return;
    };
    if !has_mariadb_client() {
        db.drop().await;
        return;
    }
    let client = |sql: String| mariadb_client(&db.name, &sql);
    let table = UrnTable::new("client_items").unwrap();
    let out = client(format!(
        "{}\n{}",
        Dialect::MariaDb.install_sql(),
        urn_sql::mariadb::client_sql(&Dialect::MariaDb.create_table_sql(&table))
    ));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = client(
        "INSERT INTO client_items (urn) VALUES ('URN:ISBN:0-395-36341-1');\n\
         INSERT INTO client_items (urn) VALUES ('urn:example:a?b');\n"
            .into(),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "ERROR 1644 (45000) at line 2: invalid URN: '?' at byte 13 must be followed by '+' or '='"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let key: String = sqlx::query_scalar("SELECT urn_key FROM client_items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(key, "urn:isbn:0395363411");
    db.drop().await;
}

/// Whether the `mariadb` command-line client is here (it must be under `CI=true`).
fn has_mariadb_client() -> bool {
    let here = std::process::Command::new("mariadb")
        .arg("--version")
        .output()
        .is_ok();
    assert!(
        here || std::env::var("CI").map_or(true, |v| v != "true"),
        "CI=true but the mariadb client is missing"
    );
    here
}

/// Runs `sql` with the `mariadb` command-line client in `database` (with LOCAL INFILE on).
fn mariadb_client(database: &str, sql: &str) -> std::process::Output {
    use std::io::Write;
    // mysql://user[:password]@host[:port][/…]
    let url = support::mariadb_url().unwrap();
    let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
    let (login, address) = rest.split_once('@').unwrap_or(("root", rest));
    let (user, password) = login.split_once(':').unwrap_or((login, ""));
    let address = address.split('/').next().unwrap_or_default();
    let (host, port) = address.split_once(':').unwrap_or((address, "3306"));
    let mut child = std::process::Command::new("mariadb")
        .args(["-h", host, "-P", port, "-u", user, "--local-infile=1"])
        .args((!password.is_empty()).then(|| format!("-p{password}")))
        .arg(database)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sql.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The rows of `table` that are not a valid URN stored with its key: none may exist.
async fn bad_rows(db: &Db, table: &str) -> Vec<(i64, Option<String>, Option<String>)> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT id, urn, urn_key FROM {table} ORDER BY id"
    )))
    .fetch_all(&db.pool)
    .await
    .unwrap()
    .into_iter()
    .filter(|(_, urn, key): &(i64, Option<String>, Option<String>)| {
        let parsed = urn.as_deref().and_then(|u| Urn::parse(u).ok());
        parsed.map(|u| u.key().into_string()) != *key || key.is_none()
    })
    .collect()
}

/// No NULL, empty or invalid URN and no NULL key gets in through any write path or
/// `sql_mode`: `INSERT IGNORE` of no value or of NULL, `UPDATE IGNORE … = NULL`, a
/// non-strict multi-row insert of NULLs, `LOAD DATA LOCAL` with `\N` and with garbage, and a
/// value another `BEFORE` trigger writes after urn-sql's. (Revision 1's triggers let a NULL
/// through, which MariaDB then stored as `''` with a NULL key, as often as asked.)
#[tokio::test]
async fn no_write_path_stores_a_null_empty_or_invalid_urn() {
    let Some(db) = Db::new("mariadb_null").await else {
        return;
    };
    db.keyed_table("guarded").await;
    sqlx::query("INSERT INTO guarded (urn) VALUES ('urn:example:kept')")
        .execute(&db.pool)
        .await
        .unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    for statement in [
        "INSERT IGNORE INTO guarded () VALUES ()",
        "INSERT IGNORE INTO guarded (urn) VALUES (NULL)",
        "INSERT IGNORE INTO guarded (urn) VALUES (NULL), (NULL), ('urn:example:a b')",
        "UPDATE IGNORE guarded SET urn = NULL",
        "UPDATE IGNORE guarded SET urn = 'not a urn'",
        "SET STATEMENT sql_mode = '' FOR INSERT INTO guarded (urn) VALUES (NULL), (NULL)",
        "SET STATEMENT sql_mode = '' FOR INSERT INTO guarded () VALUES (), ()",
        "SET STATEMENT sql_mode = '' FOR UPDATE guarded SET urn = NULL",
    ] {
        let _ = conn.execute(AssertSqlSafe(statement)).await;
        assert_eq!(bad_rows(&db, "guarded").await, [], "after {statement}");
    }
    // A NULL is refused with MariaDB's own words for a NOT NULL column.
    let err = sqlx::query("INSERT IGNORE INTO guarded (urn) VALUES (NULL)")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert_eq!(
        failure(&err),
        ("23000".to_owned(), "Column 'urn' cannot be null".to_owned())
    );
    // Another trigger that writes the URN after urn-sql's: the CHECK on the key refuses it.
    db.pool
        .execute(
            "CREATE TRIGGER guarded_rewrite BEFORE INSERT ON guarded FOR EACH ROW \
             FOLLOWS guarded_urn_key_insert SET NEW.urn = 'rewritten, not a urn'",
        )
        .await
        .unwrap();
    let err = sqlx::query("INSERT INTO guarded (urn) VALUES ('urn:example:fine')")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("guarded_urn_key_valid"), "{err}");
    db.pool
        .execute("DROP TRIGGER guarded_rewrite")
        .await
        .unwrap();
    // LOAD DATA LOCAL, as the mariadb client sends a file: \N is NULL.
    if has_mariadb_client() {
        let file = std::env::temp_dir().join(support::schema_name("load") + ".tsv");
        std::fs::write(&file, "\\N\nurn:example:loaded\n\n not a urn\n").unwrap();
        for mode in ["", "IGNORE "] {
            let out = mariadb_client(
                &db.name,
                &format!(
                    "SET SESSION sql_mode = '';\nLOAD DATA LOCAL INFILE '{}' {mode}INTO TABLE guarded (urn);\n",
                    file.display()
                ),
            );
            assert!(!out.status.success(), "{mode}: {out:?}");
            assert_eq!(bad_rows(&db, "guarded").await, [], "LOAD DATA {mode}");
        }
        let _ = std::fs::remove_file(file);
    }
    let stored: Vec<String> = sqlx::query_scalar("SELECT urn FROM guarded ORDER BY id")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    assert_eq!(stored, ["urn:example:kept"]);
    drop(conn);
    db.drop().await;
}

/// The key is linear in the URN's length: ten valid 64 KiB URNs of `%XX` with hex letters,
/// each a new key, go in with one INSERT within a statement time of 5 seconds, keyed as the
/// parser keys them. (Revision 1 upper-cased the hex digits with REGEXP_REPLACE on utf8mb4
/// text, quadratic: ~0.9 s a URN, 8.1 s for the ten.)
#[tokio::test]
async fn long_keys_are_linear() {
    let Some(db) = Db::new("mariadb_linear").await else {
        return;
    };
    db.keyed_table("long_keys").await;
    let urns: Vec<String> = (0..10)
        .map(|i| {
            let head = format!("urn:example:{i}-");
            let tail = "%4a%bc".repeat((65_536 - head.len()) / 6);
            format!("{head}{tail}")
        })
        .collect();
    let mut insert = sqlx::QueryBuilder::new(
        "SET STATEMENT max_statement_time = 5 FOR INSERT INTO long_keys (urn) ",
    );
    insert.push_values(&urns, |mut row, urn| {
        row.push_bind(urn);
    });
    insert.build().execute(&db.pool).await.unwrap();
    let keys: Vec<(String, String)> =
        sqlx::query_as("SELECT urn, urn_key FROM long_keys ORDER BY id")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(keys.len(), 10);
    for (urn, key) in keys {
        assert_eq!(key, Urn::parse(&urn).unwrap().key().as_str());
    }
    db.drop().await;
}

/// A keyed table never exists without its triggers: a user without the TRIGGER privilege
/// gets the error and no table (revision 1 left one that took invalid URNs and duplicates of
/// them), and the same statement goes through once the privilege is granted.
#[tokio::test]
async fn a_table_is_never_left_without_its_triggers() {
    let Some(db) = Db::new("mariadb_no_trigger").await else {
        return;
    };
    let (user, options) = db.user("urn_creator").await;
    db.server
        .execute(AssertSqlSafe(format!(
            "REVOKE TRIGGER ON {}.* FROM '{user}'@'%'",
            db.name
        )))
        .await
        .unwrap();
    let mut creator = sqlx::ConnectOptions::connect(&options).await.unwrap();
    let table = UrnTable::new("made").unwrap();
    let ddl = Dialect::MariaDb.create_table_sql(&table);
    let err = creator
        .execute(AssertSqlSafe(ddl.as_str()))
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("TRIGGER command denied"), "{err}");
    let tables: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.TABLES WHERE table_schema = DATABASE() \
         AND table_name = 'made'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(tables, 0);
    let building: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.TABLES WHERE table_schema = DATABASE() \
         AND table_name = 'urn_sql_new_made'",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(building, 0, "the failed build left its table");
    db.server
        .execute(AssertSqlSafe(format!(
            "GRANT TRIGGER ON {}.* TO '{user}'@'%'",
            db.name
        )))
        .await
        .unwrap();
    let mut creator = sqlx::ConnectOptions::connect(&options).await.unwrap();
    creator.execute(AssertSqlSafe(ddl.as_str())).await.unwrap();
    let err = sqlx::query("INSERT INTO made (urn) VALUES ('urn:example:a b')")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert_eq!(
        failure(&err).1,
        "invalid URN: ' ' at byte 13 is not allowed in the NSS"
    );
    db.drop_user(&user).await;
    db.drop().await;
}

/// A refusal names the character the parser names: a raised message is utf8mb3 in MariaDB, so
/// a character above U+FFFF appears escaped as Rust's `escape_unicode` writes it (revision 1
/// showed `?`); `urn_check` returns the parser's message as it is.
#[tokio::test]
async fn refusals_name_the_character() {
    let Some(db) = Db::new("mariadb_wide").await else {
        return;
    };
    db.keyed_table("wide").await;
    for text in [
        "urn:example:a\u{1F600}b",
        "urn:example:\u{e9}t\u{e9}",
        "urn:ex\u{1D518}:y",
    ] {
        let parsed = Urn::parse(text).unwrap_err().to_string();
        let check: Option<String> = sqlx::query_scalar("SELECT urn_check(?)")
            .bind(text)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(check.as_deref(), Some(parsed.as_str()));
        let shown: String = parsed
            .chars()
            .map(|c| {
                if u32::from(c) > 0xFFFF {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        for statement in ["INSERT INTO wide (urn) VALUES (?)", "CALL urn_refuse(?)"] {
            let err = sqlx::query(statement)
                .bind(text)
                .execute(&db.pool)
                .await
                .unwrap_err();
            assert_eq!(
                failure(&err),
                ("45000".to_owned(), shown.clone()),
                "{statement}"
            );
        }
    }
    db.drop().await;
}

/// The helpers take only the key's own duplicate for "already stored", in any language of
/// MariaDB's messages: a duplicate of another unique key of the table is returned as the error
/// it is. (Revision 1's sqlx and diesel
/// helpers looked any ERROR 1062 up by key and ended in "no rows".)
#[tokio::test]
async fn only_the_keys_duplicate_means_already_stored() {
    let Some(db) = Db::new("mariadb_other_unique").await else {
        return;
    };
    let table = db.keyed_table("slotted").await;
    db.pool
        .execute(
            "ALTER TABLE slotted ADD COLUMN slot INT AS (CHAR_LENGTH(urn)) STORED, \
             ADD CONSTRAINT slotted_slot UNIQUE (slot)",
        )
        .await
        .unwrap();
    let first = insert_or_get(&db.pool, &table, &"urn:example:one".parse().unwrap())
        .await
        .unwrap();
    assert!(first.inserted);
    // Another length: only the key is a duplicate.
    let again = insert_or_get(&db.pool, &table, &"URN:EXAMPLE:one#f".parse().unwrap())
        .await
        .unwrap();
    assert_eq!((again.id, again.inserted), (first.id, false));
    // Another URN of the same length: only the slot is a duplicate.
    let err = insert_or_get(&db.pool, &table, &"urn:example:two".parse().unwrap())
        .await
        .unwrap_err();
    let (code, message) = failure(&err);
    assert_eq!(code, "23000");
    assert!(message.ends_with("for key 'slotted_slot'"), "{message}");
    // In another language of MariaDB's messages, the same. (Before, only the English message
    // was taken for "already stored".)
    use sqlx::Connection;
    let mut conn = sqlx::MySqlConnection::connect_with(&db.options)
        .await
        .unwrap();
    conn.execute("SET lc_messages = 'ja_JP'").await.unwrap();
    let again = insert_or_get(&mut conn, &table, &"URN:EXAMPLE:one#ja".parse().unwrap())
        .await
        .unwrap();
    assert_eq!((again.id, again.inserted), (first.id, false));
    let err = insert_or_get(&mut conn, &table, &"urn:example:two".parse().unwrap())
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("'slotted_slot'"), "{err}");
    drop(conn);
    db.drop().await;
}

/// What the session making a keyed table and the other users of its database do changes
/// neither the keys nor the rule that a table never exists without its triggers:
/// - a DDL session with `EMPTY_STRING_IS_NULL` (and other modes) makes a table whose keys are
///   the parser's (before, the generated key was parsed under it: `''` became NULL);
/// - another user's foreign key to the table's name (made with `foreign_key_checks` off) and
///   a trigger of the name urn-sql's takes make the DDL fail and leave no table (before, the
///   foreign key kept the table from being dropped: no triggers, and with
///   `check_constraint_checks` off it took invalid URNs);
/// - a temporary table of the name in the DDL session is refused, leaving no table (before,
///   the drop took the temporary table and left the real one without triggers);
/// - a user without the TRIGGER and DROP privileges gets the error and no table of the name.
#[tokio::test]
async fn ddl_sessions_and_other_users_leave_no_table_without_its_rules() {
    use sqlx::Connection;
    let Some(db) = Db::new("mariadb_ddl_session").await else {
        return;
    };
    let mut ddl = sqlx::MySqlConnection::connect_with(&db.options)
        .await
        .unwrap();
    ddl.execute(
        "SET sql_mode = 'EMPTY_STRING_IS_NULL,ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES'",
    )
    .await
    .unwrap();
    let moded = UrnTable::new("moded").unwrap();
    ddl.execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&moded)))
        .await
        .unwrap();
    for input in [
        "URN:ISBN:0-395-36341-1",
        "urn:ISSN:0317-847x",
        "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        "urn:example:a%2c%2fb?+r?=q#f",
        "urn:nbn:DE:bvb:19-146642",
        "urn:ietf:RFC:2141",
    ] {
        let stored = insert_or_get(&db.pool, &moded, &input.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(stored.key, Urn::parse(input).unwrap().key(), "{input}");
    }

    let (user, options) = db.user("urn_other").await;
    let mut other = sqlx::MySqlConnection::connect_with(&options).await.unwrap();
    other
        .execute(
            "SET foreign_key_checks = 0; \
             CREATE TABLE lure (id BIGINT PRIMARY KEY, victim BIGINT, \
               FOREIGN KEY (victim) REFERENCES victim (id)) ENGINE = InnoDB; \
             CREATE TRIGGER victim_urn_key_insert BEFORE INSERT ON lure FOR EACH ROW SET @x = 1",
        )
        .await
        .unwrap();
    let exists = |name: &'static str| {
        let pool = db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(
                "SELECT count(*) FROM information_schema.TABLES \
                 WHERE table_schema = DATABASE() AND table_name = ?",
            )
            .bind(name)
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    let victim = UrnTable::new("victim").unwrap();
    let err = ddl
        .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&victim)))
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("already exists"), "{err}");
    assert_eq!(
        exists("victim").await,
        0,
        "a table without its triggers was left"
    );

    ddl.execute("CREATE TEMPORARY TABLE scratch (x INT)")
        .await
        .unwrap();
    let scratch = UrnTable::new("scratch").unwrap();
    let err = ddl
        .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&scratch)))
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("already exists"), "{err}");
    assert_eq!(
        exists("scratch").await,
        0,
        "a table without its triggers was left"
    );
    ddl.execute("DROP TEMPORARY TABLE scratch").await.unwrap();
    ddl.execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&scratch)))
        .await
        .unwrap();
    let err = sqlx::query("INSERT INTO scratch (urn) VALUES ('urn:example:a b')")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert!(failure(&err).1.starts_with("invalid URN"), "{err}");

    // A user that may neither make triggers nor drop tables: the DDL fails before it builds
    // anything, naming the privilege, and leaves no table under either name. (Before, the
    // table was left without its triggers; then, a table under the building name, and the
    // message was about DROP where TRIGGER was missing.)
    let (limited, options) = db.user("urn_limited").await;
    db.server
        .execute(AssertSqlSafe(format!(
            "REVOKE TRIGGER, DROP ON {}.* FROM '{limited}'@'%'",
            db.name
        )))
        .await
        .unwrap();
    let mut conn = sqlx::MySqlConnection::connect_with(&options).await.unwrap();
    let limits = UrnTable::new("limits").unwrap();
    let err = conn
        .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&limits)))
        .await
        .unwrap_err();
    assert!(failure(&err).1.contains("DROP command denied"), "{err}");
    assert_eq!(
        exists("limits").await,
        0,
        "a table without its triggers was left"
    );
    assert_eq!(
        exists("urn_sql_new_limits").await,
        0,
        "a building table was left"
    );

    drop((ddl, other, conn));
    db.drop_user(&user).await;
    db.drop_user(&limited).await;
    db.drop().await;
}

/// No session can put a row into a keyed table, or into the table it is built as, before its
/// triggers exist: another user with only INSERT on the database, `check_constraint_checks`
/// off and a non-strict `sql_mode`, inserting invalid URNs into the building name and the
/// table's name as fast as it can while the table is made (five times), lands none. (Before,
/// the table was built without a guard under a predictable name, and such a user landed
/// keyless rows in every run; the rename carried them into the keyed table.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_session_writes_into_a_table_being_built() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let Some(db) = Db::new("mariadb_build_race").await else {
        return;
    };
    let (user, options) = db.user_with("urn_inserter", "INSERT, SELECT").await;
    let done = Arc::new(AtomicBool::new(false));
    let landed = Arc::new(AtomicUsize::new(0));
    let tries = Arc::new(AtomicUsize::new(0));
    let poller = {
        let (done, landed, tries) = (done.clone(), landed.clone(), tries.clone());
        tokio::spawn(async move {
            use sqlx::Connection;
            let mut conn = sqlx::MySqlConnection::connect_with(&options).await.unwrap();
            conn.execute("SET check_constraint_checks = 0, sql_mode = ''")
                .await
                .unwrap();
            while !done.load(Ordering::Relaxed) {
                for table in ["urn_sql_new_raced", "raced"] {
                    let insert = format!("INSERT INTO {table} (urn) VALUES ('not a urn')");
                    tries.fetch_add(1, Ordering::Relaxed);
                    if let Ok(done) = conn.execute(AssertSqlSafe(insert)).await {
                        landed.fetch_add(
                            usize::try_from(done.rows_affected()).unwrap(),
                            Ordering::Relaxed,
                        );
                    }
                }
            }
        })
    };
    let table = UrnTable::new("raced").unwrap();
    for _ in 0..5 {
        db.pool
            .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&table)))
            .await
            .unwrap();
        assert_eq!(bad_rows(&db, "raced").await, [], "a row without its rules");
        db.pool.execute("DROP TABLE raced").await.unwrap();
    }
    done.store(true, Ordering::Relaxed);
    poller.await.unwrap();
    assert!(
        tries.load(Ordering::Relaxed) > 10,
        "the other session never tried"
    );
    assert_eq!(
        landed.load(Ordering::Relaxed),
        0,
        "rows landed while the table was built"
    );
    db.drop_user(&user).await;
    db.drop().await;
}

/// No stale key on any write path, with another trigger on the table: MariaDB computes the
/// generated key of a multi-table UPDATE (a join with itself or another table, or a subquery
/// on the table) before the BEFORE UPDATE triggers run and not after, so an application's
/// trigger that rewrites the URN (`LOWER`) would leave the old spelling's key, and a hostile
/// one an invalid URN with a valid key. Such an update is refused (whether or not the session
/// checks constraints); a single-table UPDATE and every INSERT path are keyed after the
/// triggers, and go through. (Before, one URN was stored twice, and the invalid one kept its
/// key.)
#[tokio::test]
async fn no_stale_key_through_a_multi_table_update() {
    let Some(db) = Db::new("mariadb_stale_key").await else {
        return;
    };
    db.keyed_table("rewritten").await;
    db.pool
        .execute("CREATE TABLE other (id BIGINT PRIMARY KEY); INSERT INTO other VALUES (1), (2)")
        .await
        .unwrap();
    sqlx::query("INSERT INTO rewritten (urn) VALUES ('urn:example:one'), ('urn:example:two')")
        .execute(&db.pool)
        .await
        .unwrap();
    db.pool
        .execute(
            "CREATE TRIGGER rewritten_lower BEFORE UPDATE ON rewritten FOR EACH ROW \
             SET NEW.urn = LOWER(NEW.urn)",
        )
        .await
        .unwrap();
    let multi_table = [
        "UPDATE rewritten a JOIN rewritten b ON a.id = b.id SET a.urn = 'URN:EXAMPLE:ONE-A' WHERE a.id = 1",
        "UPDATE rewritten, other SET rewritten.urn = 'URN:EXAMPLE:ONE-B' WHERE rewritten.id = other.id AND other.id = 1",
        "UPDATE other JOIN rewritten ON rewritten.id = other.id SET rewritten.urn = 'URN:EXAMPLE:ONE-B' WHERE other.id = 1",
        "UPDATE rewritten SET urn = 'URN:EXAMPLE:ONE-C' WHERE id IN (SELECT id FROM rewritten WHERE id = 1)",
    ];
    let mut conn = db.pool.acquire().await.unwrap();
    let mut refused = 0;
    for checks in ["1", "0"] {
        conn.execute(AssertSqlSafe(format!(
            "SET check_constraint_checks = {checks}"
        )))
        .await
        .unwrap();
        for statement in multi_table {
            // Either refused, or keyed after the triggers (MariaDB computes the key again for
            // some plans of a multi-table UPDATE).
            let result = conn.execute(AssertSqlSafe(statement)).await;
            assert_eq!(bad_rows(&db, "rewritten").await, [], "after {statement}");
            if let Err(err) = result {
                assert!(
                    failure(&err).1.contains("multi-table UPDATE"),
                    "{statement}: {err}"
                );
                refused += 1;
            }
        }
    }
    assert!(refused >= 2, "no multi-table UPDATE was stale");
    // The single-table UPDATE is keyed after the triggers, and goes through.
    conn.execute("UPDATE rewritten SET urn = 'URN:EXAMPLE:ONE-D' WHERE id = 1")
        .await
        .unwrap();
    assert_eq!(bad_rows(&db, "rewritten").await, []);
    let key: String = sqlx::query_scalar("SELECT urn_key FROM rewritten WHERE id = 1")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(key, "urn:example:one-d");
    // A hostile trigger after urn-sql's writes an invalid URN: never stored with a key.
    db.pool
        .execute(
            "CREATE TRIGGER rewritten_hostile BEFORE UPDATE ON rewritten FOR EACH ROW \
             FOLLOWS rewritten_lower SET NEW.urn = 'not a urn'",
        )
        .await
        .unwrap();
    for checks in ["1", "0"] {
        conn.execute(AssertSqlSafe(format!(
            "SET check_constraint_checks = {checks}"
        )))
        .await
        .unwrap();
        for statement in multi_table {
            let _ = conn.execute(AssertSqlSafe(statement)).await;
            assert_eq!(bad_rows(&db, "rewritten").await, [], "after {statement}");
        }
    }
    drop(conn);
    db.drop().await;
}

/// The re-key script in the `mariadb` client: the collisions listed and refused (nothing
/// changes), moved with keep-first, the table keyed by the V2 rules after (its key column
/// marked so), and a second run changing nothing.
#[tokio::test]
async fn the_mariadb_client_runs_the_rekey_script() {
    let Some(db) = Db::new("mariadb_rekey_client").await else {
        return;
    };
    if !has_mariadb_client() {
        db.drop().await;
        return;
    }
    let table = UrnTable::new("items")
        .unwrap()
        .with_key_rules(KeyRules::V1)
        .unwrap();
    db.pool
        .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&table)))
        .await
        .unwrap();
    db.pool
        .execute(
            "INSERT INTO items (urn) VALUES ('urn:doi:10.1000/ABC'), ('urn:example:a'), \
             ('urn:doi:10.1000:abc')",
        )
        .await
        .unwrap();
    let script = |policy| {
        Dialect::MariaDb
            .rekey_sql(&table, KeyRules::V2, policy)
            .unwrap()
    };
    let out = mariadb_client(&db.name, &script(urn_sql::OnCollision::Refuse));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!out.status.success());
    assert!(
        stdout.contains("urn:doi:10.1000/abc\t1 3\turn:doi:10.1000/ABC urn:doi:10.1000:abc"),
        "{stdout}"
    );
    assert!(stderr.contains("nothing was changed"), "{stderr}");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 3);
    for _ in 0..2 {
        let out = mariadb_client(&db.name, &script(urn_sql::OnCollision::KeepFirst));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows: Vec<(i64, String)> =
            sqlx::query_as("SELECT id, CAST(urn_key AS CHAR) FROM items ORDER BY id")
                .fetch_all(&db.pool)
                .await
                .unwrap();
        assert_eq!(
            rows,
            [
                (1, "urn:doi:10.1000/abc".to_owned()),
                (2, "urn:example:a".to_owned())
            ]
        );
    }
    let moved: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, urn_sql_kept_id FROM items_urn_key_v2_collisions")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(moved, [(3, 1)]);
    // The V2 table refuses a respelling, through its triggers' check as before.
    let err = db
        .pool
        .execute("INSERT INTO items (urn) VALUES ('URN:DOI:10.1000/Abc')")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("items_urn_key_unique"), "{err}");
    db.drop().await;
}

/// The re-key script stopped after each of its steps (the `mariadb` client given the script up
/// to there) leaves a table that works under V1, and the whole script run after it finishes
/// the re-key.
#[tokio::test]
async fn the_rekey_stopped_after_any_step_goes_on() {
    let Some(db) = Db::new("mariadb_rekey_stop").await else {
        return;
    };
    if !has_mariadb_client() {
        db.drop().await;
        return;
    }
    let script_for = |table: &UrnTable| {
        Dialect::MariaDb
            .rekey_sql(table, KeyRules::V2, urn_sql::OnCollision::Refuse)
            .unwrap()
    };
    let v1 = |name: &str| {
        UrnTable::new(name)
            .unwrap()
            .with_key_rules(KeyRules::V1)
            .unwrap()
    };
    let steps = script_for(&v1("probe")).matches("\n\n-- ").count();
    assert!(steps >= 8, "{steps}");
    for stop in 1..steps {
        let name = format!("stop_{stop}");
        let table = v1(&name);
        db.pool
            .execute(AssertSqlSafe(Dialect::MariaDb.create_table_sql(&table)))
            .await
            .unwrap();
        db.pool
            .execute(AssertSqlSafe(format!(
                "INSERT INTO {name} (urn) VALUES ('urn:doi:10.1000/ABC'), ('urn:example:a')"
            )))
            .await
            .unwrap();
        let script = script_for(&table);
        let cut = script
            .match_indices("\n\n-- ")
            .nth(stop)
            .map_or(script.len(), |(at, _)| at);
        let out = mariadb_client(&db.name, &script[..cut]);
        assert!(
            out.status.success(),
            "stop {stop}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The table as it is now: V1 before the switch, V2 after it (its key column says).
        let comment: String = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT COLUMN_COMMENT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() \
             AND TABLE_NAME = '{name}' AND COLUMN_NAME = 'urn_key'"
        )))
        .fetch_one(&db.pool)
        .await
        .unwrap();
        let now = if comment.ends_with("v2") {
            UrnTable::new(&name).unwrap()
        } else {
            table.clone()
        };
        let again = insert_or_get(&db.pool, &now, &"URN:DOI:10.1000/ABC".parse().unwrap())
            .await
            .unwrap();
        assert!(!again.inserted, "stop {stop}");
        let new = insert_or_get(
            &db.pool,
            &now,
            &format!("urn:example:{stop}").parse().unwrap(),
        )
        .await
        .unwrap();
        assert!(new.inserted, "stop {stop}");
        let out = mariadb_client(&db.name, &script);
        assert!(
            out.status.success(),
            "stop {stop}, then all: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let keys: Vec<String> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT CAST(urn_key AS CHAR) FROM {name} ORDER BY id"
        )))
        .fetch_all(&db.pool)
        .await
        .unwrap();
        assert_eq!(
            keys,
            [
                "urn:doi:10.1000/abc".to_owned(),
                "urn:example:a".to_owned(),
                format!("urn:example:{stop}")
            ],
            "stop {stop}"
        );
    }
    db.drop().await;
}

/// Re-keying a V1 table to V2 with urn_sql::sqlx::rekey: the collision scenario, and online
/// under a concurrent writer.
mod rekey {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use sqlx::{AssertSqlSafe, Executor};
    use urn_sql::sqlx::{insert_or_get, rekey};
    use urn_sql::{Dialect, KeyRules, OnCollision, Urn, UrnTable};

    use super::Db;
    use super::support::rekey::*;

    impl Db {
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
        let drop = script
            .lines()
            .find_map(|line| line.strip_prefix("-- ALTER TABLE `items` DROP"))
            .map(|rest| format!("ALTER TABLE `items` DROP{rest}"))
            .expect("the retired columns' drop");
        // Run in the maintenance window, it drops them and keeps the table's guarantees: the
        // CHECK moves to the key (it failed with ERROR 1054 while it named the dropped column).
        let before = db.rows("items").await;
        db.pool.execute(AssertSqlSafe(drop)).await.unwrap();
        assert_eq!(db.rows("items").await, before);
        let columns: Vec<String> = sqlx::query_scalar(
            "SELECT CAST(column_name AS CHAR) FROM information_schema.columns \
             WHERE table_schema = DATABASE() AND table_name = 'items' ORDER BY ordinal_position",
        )
        .fetch_all(&db.pool)
        .await
        .unwrap();
        assert_eq!(
            columns,
            ["id", "urn", "urn_sha256", "urn_key", "urn_key_sha256"]
        );
        let check: String = sqlx::query_scalar(
            "SELECT CAST(check_clause AS CHAR) FROM information_schema.check_constraints \
             WHERE constraint_schema = DATABASE() AND table_name = 'items'",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(check, "`urn_key` is not null");
        let (first, ..) = before.first().unwrap();
        let stored: Urn = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT urn FROM items WHERE id = {first}"
        )))
        .fetch_one(&db.pool)
        .await
        .unwrap();
        let respelled: Urn = format!("URN:{}", &stored.as_str()[4..]).parse().unwrap();
        let got = insert_or_get(
            &db.pool,
            &table.clone().with_key_rules(KeyRules::V2).unwrap(),
            &respelled,
        )
        .await
        .unwrap();
        assert_eq!((got.id, got.inserted), (*first, false));
        db.drop().await;
    }

    async fn scalar(db: &Db, sql: &str) -> i64 {
        sqlx::query_scalar(AssertSqlSafe(sql))
            .fetch_one(&db.pool)
            .await
            .unwrap()
    }

    /// keep-first moves no row another table references, whatever the foreign key's `ON
    /// DELETE`: it refuses before changing anything, naming the constraint. (Before, InnoDB's
    /// cascade deleted the notes of the rows moved.) Once those rows point at the rows kept,
    /// the move goes through and keeps them.
    #[tokio::test]
    async fn keep_first_moves_no_row_another_table_references() {
        let Some(db) = Db::new("rekey_fk").await else {
            return;
        };
        let table = db.filled("items", &scenario_urns()).await;
        db.pool
            .execute(
                "CREATE TABLE notes (id INT PRIMARY KEY, item_id BIGINT, \
                 CONSTRAINT notes_item FOREIGN KEY (item_id) REFERENCES items (id) ON DELETE CASCADE); \
                 CREATE TABLE tags (id INT PRIMARY KEY, item_id BIGINT, \
                 CONSTRAINT tags_item FOREIGN KEY (item_id) REFERENCES items (id) ON DELETE SET NULL); \
                 INSERT INTO notes VALUES (1, 201), (2, 202), (3, 1); \
                 INSERT INTO tags VALUES (1, 204), (2, 3)",
            )
            .await
            .unwrap();
        let before = db.rows("items").await;
        let err = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`notes_item`") && err.contains("`tags_item`"),
            "{err}"
        );
        assert_eq!(db.rows("items").await, before);
        assert_eq!(scalar(&db, "SELECT COUNT(*) FROM notes").await, 3);
        assert_eq!(
            scalar(&db, "SELECT COUNT(*) FROM tags WHERE item_id IS NOT NULL").await,
            2
        );
        db.pool
            .execute(
                "UPDATE notes SET item_id = 201 WHERE item_id = 202; \
                 UPDATE tags SET item_id = 203 WHERE item_id = 204",
            )
            .await
            .unwrap();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        assert!(done.switched && done.moved == 5, "{done:?}");
        assert_eq!(scalar(&db, "SELECT COUNT(*) FROM notes").await, 3);
        db.drop().await;
    }

    /// Tables of long names (from 48 bytes, keyed tables could not be made: their triggers'
    /// names, cut to 64, were one name) are made, re-keyed with keep-first, and refuse a
    /// respelling after.
    #[tokio::test]
    async fn long_table_names_are_made_and_re_keyed() {
        let Some(db) = Db::new("rekey_long").await else {
            return;
        };
        let urns = scenario_urns();
        for len in [48, 51, 54, 63] {
            let name = format!("l{len}_{}", "x".repeat(len - 4));
            let table = db.filled(&name, &urns).await;
            let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
                .await
                .unwrap();
            assert!(done.switched && done.moved == 5, "{len}: {done:?}");
            let items = table.clone().with_key_rules(KeyRules::V2).unwrap();
            for (_, b) in PAIRS {
                let row = insert_or_get(&db.pool, &items, &b.parse().unwrap())
                    .await
                    .unwrap();
                assert!(!row.inserted, "{len}: {b}");
            }
        }
        db.drop().await;
    }

    /// A side table another user made first (she may CREATE, SELECT and INSERT) with fewer
    /// columns: keep-first refuses before moving anything (before, the moved rows' URNs were
    /// lost). A table that is not there is an error, never `switched`.
    #[tokio::test]
    async fn a_side_table_made_by_another_is_refused() {
        let Some(db) = Db::new("rekey_side").await else {
            return;
        };
        let table = db.filled("items", &scenario_urns()).await;
        db.pool
            .execute(
                "CREATE TABLE items_urn_key_v2_collisions (id BIGINT, urn_sql_kept_id BIGINT, \
                 urn_sql_new_key MEDIUMTEXT)",
            )
            .await
            .unwrap();
        let before = db.rows("items").await;
        let mut conn = db.pool.acquire().await.unwrap();
        conn.execute("SET SESSION lock_wait_timeout = 7")
            .await
            .unwrap();
        let err = rekey(&mut *conn, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("items_urn_key_v2_collisions"), "{err}");
        assert_eq!(db.rows("items").await, before);
        // The session's lock bound, as it was.
        let bound: u64 = sqlx::query_scalar("SELECT @@SESSION.lock_wait_timeout")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(bound, 7);
        drop(conn);
        let missing = v1(UrnTable::new("missing").unwrap());
        assert!(
            rekey(&db.pool, &missing, KeyRules::V2, OnCollision::Refuse)
                .await
                .is_err()
        );
        db.drop().await;
    }

    /// keep-first sees every foreign key that references the table, or moves nothing: one from
    /// a table in a database the runner has no privileges on (MariaDB's information_schema
    /// lists only tables a user may use) stops it, and so does a runner who cannot read
    /// InnoDB's own list (the PROCESS privilege). (Before: its cascade emptied the other
    /// database's table.) A side table made first with a generated column in place of one
    /// of the table's is refused too, in any `sql_mode` (before, in a non-strict one, the moved
    /// rows' URNs became what it generated).
    #[tokio::test]
    async fn keep_first_sees_every_foreign_key_and_every_column() {
        let Some(db) = Db::new("rekey_hidden").await else {
            return;
        };
        let table = db.filled("items", &scenario_urns()).await;
        let other = format!("{}_other", db.name);
        db.server
            .execute(AssertSqlSafe(format!(
                "CREATE DATABASE {other}; \
                 CREATE TABLE {other}.child (note VARCHAR(50), i BIGINT, \
                 FOREIGN KEY (i) REFERENCES {}.items (id) ON DELETE CASCADE); \
                 INSERT INTO {other}.child VALUES ('theirs', 202)",
                db.name
            )))
            .await
            .unwrap();
        let (user, options) = db.user("rk_runner").await;
        let runner = sqlx::mysql::MySqlPoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone())
            .await
            .unwrap();
        let err = rekey(&runner, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("PROCESS privilege"), "{err}");
        runner.close().await;
        db.server
            .execute(AssertSqlSafe(format!(
                "GRANT PROCESS ON *.* TO '{user}'@'%'"
            )))
            .await
            .unwrap();
        let runner = sqlx::mysql::MySqlPoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .unwrap();
        let err = rekey(&runner, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot see"), "{err}");
        let kept: i64 =
            sqlx::query_scalar(AssertSqlSafe(format!("SELECT COUNT(*) FROM {other}.child")))
                .fetch_one(&db.server)
                .await
                .unwrap();
        assert_eq!(kept, 1);
        assert_eq!(scalar(&db, "SELECT COUNT(*) FROM items").await, 210);
        runner.close().await;
        db.server
            .execute(AssertSqlSafe(format!("DROP DATABASE {other}")))
            .await
            .unwrap();
        // A side table of the table's columns, one of them generated.
        db.pool
            .execute(
                "CREATE TABLE items_urn_key_v2_collisions (id BIGINT, \
                 urn LONGTEXT CHARACTER SET utf8mb4 AS ('gone') VIRTUAL, urn_key MEDIUMTEXT, \
                 urn_key_sha256 BINARY(32), urn_sha256 BINARY(32), urn_sql_kept_id BIGINT, \
                 urn_sql_new_key MEDIUMTEXT) ENGINE=InnoDB",
            )
            .await
            .unwrap();
        let mut conn = db.pool.acquire().await.unwrap();
        conn.execute("SET SESSION sql_mode = ''").await.unwrap();
        let err = rekey(&mut *conn, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("items_urn_key_v2_collisions"), "{err}");
        assert_eq!(scalar(&db, "SELECT COUNT(*) FROM items").await, 210);
        drop(conn);
        db.drop_user(&user).await;
        db.drop().await;
    }

    /// Three writers that never pause, each writing transactions of ten inserts one after the
    /// other (the table's metadata lock is free only between two of them): the re-key's
    /// switch still gets the table (before: "could not lock … 50 tries"), and no write waits
    /// long.
    #[tokio::test]
    async fn the_switch_gets_the_table_under_writers_that_never_pause() {
        let Some(db) = Db::new("rekey_busy").await else {
            return;
        };
        let table = db.filled("items", &distinct(2_000)).await;
        let writers: Vec<Writer> = (0..3)
            .map(|w| {
                let pool = db.pool.clone();
                Writer::start(move |i| {
                    let pool = pool.clone();
                    Box::pin(async move {
                        let mut tx = pool.begin().await.unwrap();
                        for j in 0..10 {
                            sqlx::query(AssertSqlSafe(format!(
                                "INSERT INTO {} (urn) VALUES ('urn:example:busy-{w}-{i}-{j}')",
                                "items"
                            )))
                            .execute(&mut *tx)
                            .await
                            .unwrap();
                        }
                        tx.commit().await.unwrap();
                        (10, 0, 0)
                    })
                })
            })
            .collect();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse).await;
        let mut inserted = 0;
        for writer in writers {
            let report = writer.stop().await;
            assert!(report.longest < Duration::from_secs(2), "{report:?}");
            inserted += report.inserted;
        }
        assert!(done.unwrap().switched);
        check_rows(&db.rows("items").await, 2_000 + inserted);
        db.drop().await;
    }

    #[tokio::test]
    async fn online_under_a_concurrent_writer() {
        let Some(db) = Db::new("rekey_online").await else {
            return;
        };
        let rows = online_rows();
        let table = db.filled("items", &distinct(rows)).await;
        let (insert_pool, execute_pool, writing) =
            (db.pool.clone(), db.pool.clone(), table.clone());
        let writer = Writer::start(standard_write(
            Arc::new(move |urn| {
                let (pool, table) = (insert_pool.clone(), writing.clone());
                Box::pin(async move { insert_or_get(&pool, &table, &urn).await.unwrap().inserted })
            }),
            Arc::new(move |sql| {
                let pool = execute_pool.clone();
                Box::pin(async move {
                    let done = sqlx::query(AssertSqlSafe(sql))
                        .execute(&pool)
                        .await
                        .unwrap();
                    usize::try_from(done.rows_affected()).unwrap()
                })
            }),
            "items".to_owned(),
        ));
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
