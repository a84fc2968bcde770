//! SQLite (bundled) through sqlx, in memory and on a file: guards, deduplication, concurrency
//! through a pool, round trips, decode errors.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::str::FromStr;
use std::sync::Arc;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
use sqlx::{Executor, Row};
use urn_sql::sqlx::{find, insert_or_get};
use urn_sql::{Dialect, IsbnUrn, KeyRules, Urn, UrnKey, UrnTable};

mod support;

async fn memory() -> SqlitePool {
    // Every connection this process opens from here on has urn_key_v1 and urn_check.
    urn_sql::sqlite::register_for_all_connections().unwrap();
    // One connection: every connection to `:memory:` is its own database.
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap()
}

async fn file(dir: &std::path::Path) -> SqlitePool {
    urn_sql::sqlite::register_for_all_connections().unwrap();
    let options = SqliteConnectOptions::from_str(&format!("sqlite://{}/urns.db", dir.display()))
        .unwrap()
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
        .busy_timeout(std::time::Duration::from_secs(30));
    SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("urn-sql-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The key function and urn_check inside SQLite agree with the parser on every corpus input
/// (the length edges and the long random URNs included), and the named guards accept every
/// valid URN.
#[tokio::test]
async fn functions_and_guards_agree_with_the_parser_on_every_input() {
    let pool = memory().await;
    pool.execute(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE guarded (urn TEXT NOT NULL {})",
        urn_sql::sqlite::urn_guards("urn").unwrap()
    )))
    .await
    .unwrap();
    let mut inputs = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    let mut disagreements = Vec::new();
    let mut valid = 0;
    let mut tx = pool.begin().await.unwrap();
    for input in &inputs {
        let check: Option<String> = sqlx::query_scalar("SELECT urn_check(?1)")
            .bind(input)
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        let (key_v1, key) = (
            sqlx::query_scalar::<_, String>("SELECT urn_key_v1(?1)")
                .bind(input)
                .fetch_one(&mut *tx)
                .await,
            sqlx::query_scalar::<_, String>("SELECT urn_key_v2(?1)")
                .bind(input)
                .fetch_one(&mut *tx)
                .await,
        );
        match Urn::parse(input) {
            Ok(urn) => {
                valid += 1;
                if check.is_some()
                    || key.as_deref().ok() != Some(urn.key_with(KeyRules::V2).as_str())
                    || key_v1.as_deref().ok() != Some(urn.key_with(KeyRules::V1).as_str())
                {
                    disagreements.push(format!("{input:?}: {check:?} {key_v1:?} {key:?}"));
                }
                if let Err(e) = sqlx::query("INSERT INTO guarded (urn) VALUES (?1)")
                    .bind(input)
                    .execute(&mut *tx)
                    .await
                {
                    disagreements.push(format!("{input:?}: a guard refuses it: {e}"));
                }
            }
            Err(e) => {
                let message = e.to_string();
                let key_error = key.map_err(|e| e.to_string()).err().unwrap_or_default();
                let v1_error = key_v1.map_err(|e| e.to_string()).err().unwrap_or_default();
                if check.as_deref() != Some(message.as_str())
                    || !key_error.contains(&message)
                    || !v1_error.contains(&message)
                {
                    disagreements.push(format!("{input:?}: {message} / {check:?} / {key_error}"));
                }
            }
        }
    }
    tx.commit().await.unwrap();
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(valid > 3000, "{valid}");
}

/// The holes of the app-written key: any client could store a key that is not its URN's key
/// (and one upper-case uuid key made every read of the table fail). The key is generated now.
#[tokio::test]
async fn no_client_can_store_a_key_that_is_not_its_urns_key() {
    let pool = memory().await;
    let table = UrnTable::new("items").unwrap();
    pool.execute(sqlx::AssertSqlSafe(
        Dialect::Sqlite.create_table_sql(&table),
    ))
    .await
    .unwrap();
    for (urn, key) in [
        ("urn:example:a", "urn:example:b"),
        (
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        ),
    ] {
        let err = sqlx::query("INSERT INTO items (urn, urn_key) VALUES (?1, ?2)")
            .bind(urn)
            .bind(key)
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains(r#"cannot INSERT into generated column "urn_key""#),
            "{err}"
        );
    }
    // A plain insert, as the sqlite3 shell would write it, stores the right key ...
    let key: String = sqlx::query_scalar(
        "INSERT INTO items (urn) VALUES ('URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6') \
         RETURNING urn_key",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(key, "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    // ... and a second spelling is refused by the UNIQUE key; so is an update of the key.
    let err = pool
        .execute(
            "INSERT INTO items (urn) VALUES ('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6#x')",
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("UNIQUE constraint failed: items.urn_key"),
        "{err}"
    );
    let err = pool
        .execute("UPDATE items SET urn_key = 'urn:example:b'")
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"cannot UPDATE generated column "urn_key""#),
        "{err}"
    );
    // An invalid URN (or one over the length limit) is refused with the parser's message.
    let too_long = format!("urn:example:{}", "a".repeat(65_536 - 11));
    for (value, message) in [
        (
            "urn:example:a%zz",
            "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits",
        ),
        (
            "http://example.com",
            "invalid URN: expected 'urn:' at byte 0",
        ),
        (too_long.as_str(), "65536"),
    ] {
        let err = sqlx::query("INSERT INTO items (urn) VALUES (?1)")
            .bind(value)
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(err.to_string().contains(message), "{err}");
    }
}

/// Each guard is a named constraint, so an error says which rule broke.
#[tokio::test]
async fn guards_name_the_broken_rule() {
    let pool = memory().await;
    pool.execute(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE see_also (urn TEXT NOT NULL {})",
        urn_sql::sqlite::urn_guards("urn").unwrap()
    )))
    .await
    .unwrap();
    let too_long = format!("urn:example:{}", "a".repeat(65_536 - 11));
    for (value, rule) in [
        ("http://example.com", "urn_scheme"),
        ("urn:x:a", "urn_nid"),
        ("urn:-x:a", "urn_nid"),
        ("urn:ex:a b", "urn_characters"),
        ("urn:ex:a#b#c", "urn_characters"),
        ("urn:ex:a%zz", "urn_percent_encoding"),
        ("urn:ex:a%2", "urn_percent_encoding"),
        ("urn:ex:/a", "urn_components"),
        ("urn:ex:", "urn_components"),
        ("urn:ex:a?b", "urn_components"),
        (too_long.as_str(), "urn_length"),
    ] {
        let err = sqlx::query("INSERT INTO see_also (urn) VALUES (?1)")
            .bind(value)
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("CHECK constraint failed: {rule}")),
            "{value}: {err}"
        );
    }
}

/// URNs of any length the parser accepts (random, incompressible) are stored once and found by
/// any spelling.
#[tokio::test]
async fn long_urns_are_stored_once_and_found_by_any_spelling() {
    let pool = memory().await;
    let table = UrnTable::new("items").unwrap();
    pool.execute(sqlx::AssertSqlSafe(
        Dialect::Sqlite.create_table_sql(&table),
    ))
    .await
    .unwrap();
    for (text, respelled) in support::corpus::long_urns() {
        let (urn, other): (Urn, Urn) = (text.parse().unwrap(), respelled.parse().unwrap());
        let first = insert_or_get(&pool, &table, &urn).await.unwrap();
        assert!(first.inserted, "{}", text.len());
        let again = insert_or_get(&pool, &table, &other).await.unwrap();
        assert_eq!((again.id, again.inserted), (first.id, false));
        assert_eq!(again.key, urn.key());
        for spelling in [&urn, &other] {
            let found = find(&pool, &table, spelling).await.unwrap().unwrap();
            assert_eq!(found.id, first.id);
        }
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 4);
}

async fn dedup_on(pool: &SqlitePool) {
    let table = UrnTable::new("items").unwrap();
    pool.execute(sqlx::AssertSqlSafe(
        Dialect::Sqlite.create_table_sql(&table),
    ))
    .await
    .unwrap();
    let spellings = [
        "urn:example:a%2cb",
        "URN:EXAMPLE:a%2Cb?+r",
        "urn:Example:a%2cb#f",
    ];
    let mut ids = Vec::new();
    for (i, text) in spellings.iter().enumerate() {
        let stored = insert_or_get(pool, &table, &text.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(stored.inserted, i == 0);
        assert_eq!(stored.urn.as_str(), spellings[0]);
        ids.push(stored.id);
    }
    assert!(ids.iter().all(|id| *id == ids[0]));
    for text in spellings {
        assert_eq!(
            find(pool, &table, &text.parse().unwrap())
                .await
                .unwrap()
                .unwrap()
                .id,
            ids[0]
        );
    }
    assert!(
        find(pool, &table, &"urn:example:a,b".parse().unwrap())
            .await
            .unwrap()
            .is_none()
    );
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn equivalent_spellings_are_stored_once_in_memory() {
    dedup_on(&memory().await).await;
}

#[tokio::test]
async fn equivalent_spellings_are_stored_once_on_a_file() {
    let dir = temp_dir("dedup");
    dedup_on(&file(&dir).await).await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_insert_or_get_yields_one_row_and_one_id() {
    let dir = temp_dir("concurrent");
    let pool = file(&dir).await;
    let table = Arc::new(UrnTable::new("items").unwrap());
    pool.execute(sqlx::AssertSqlSafe(
        Dialect::Sqlite.create_table_sql(&table),
    ))
    .await
    .unwrap();
    for round in 0..5 {
        let barrier = Arc::new(tokio::sync::Barrier::new(8));
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let (pool, table, barrier) = (pool.clone(), table.clone(), barrier.clone());
                let text = if i % 2 == 0 {
                    format!("urn:isbn:0-395-36341-1?+{round}")
                } else {
                    format!("URN:ISBN:0395363411#{i}")
                };
                tokio::spawn(async move {
                    barrier.wait().await;
                    insert_or_get(&pool, &table, &text.parse().unwrap()).await
                })
            })
            .collect();
        let mut results = Vec::new();
        for t in tasks {
            results.push(t.await.unwrap().expect("no error reaches the caller"));
        }
        assert!(results.iter().all(|r| r.id == results[0].id));
        assert_eq!(
            results.iter().filter(|r| r.inserted).count(),
            usize::from(round == 0)
        );
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
    pool.close().await;
    std::fs::remove_dir_all(dir).unwrap();
}

#[derive(Debug, sqlx::FromRow)]
struct Thing {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
}

#[tokio::test]
async fn values_round_trip_and_bad_stored_values_are_decode_errors() {
    let pool = memory().await;
    pool.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, urn_key TEXT NOT NULL UNIQUE, isbn TEXT)")
        .await
        .unwrap();
    let urn: Urn = "URN:ISSN:2434-561x?=q".parse().unwrap();
    let isbn: IsbnUrn = "urn:isbn:0-8044-2957-X".parse().unwrap();
    sqlx::query("INSERT INTO things (urn, urn_key, isbn) VALUES (?1, ?2, ?3), (?4, ?5, NULL)")
        .bind(&urn)
        .bind(urn.key())
        .bind(Some(&isbn))
        .bind(Urn::parse("urn:example:b").unwrap())
        .bind(Urn::parse("urn:example:b").unwrap().key())
        .execute(&pool)
        .await
        .unwrap();
    let things: Vec<Thing> =
        sqlx::query_as("SELECT id, urn, urn_key, isbn FROM things ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(things[0].urn.eq_text(&urn));
    assert_eq!(things[0].urn_key.as_str(), "urn:issn:2434-561X");
    assert!(things[0].isbn.as_ref().unwrap().eq_text(&isbn));
    assert!(things[1].isbn.is_none());
    assert!(things[1].id > things[0].id);

    pool.execute(
        "UPDATE things SET urn = 'urn:example:a b', urn_key = 'urn:example:B%2c' WHERE id = 2",
    )
    .await
    .unwrap();
    let row = sqlx::query("SELECT urn, urn_key FROM things WHERE id = 2")
        .fetch_one(&pool)
        .await
        .unwrap();
    let err = row.try_get::<Urn, _>("urn").unwrap_err();
    assert!(err.to_string().contains(r#"stored value "urn:example:a b" is not a valid URN: ' ' at byte 13 is not allowed in the NSS"#), "{err}");
    let err = row.try_get::<UrnKey<'static>, _>("urn_key").unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"stored value "urn:example:B%2c" is not a valid URN key"#),
        "{err}"
    );

    // One corrupt row is a row-level error: the stream yields the other rows.
    use futures_util::StreamExt;
    pool.execute("INSERT INTO things (urn, urn_key) VALUES ('urn:example:c', 'urn:example:c')")
        .await
        .unwrap();
    let rows: Vec<Result<Thing, sqlx::Error>> =
        sqlx::query_as("SELECT id, urn, urn_key, isbn FROM things ORDER BY id")
            .fetch(&pool)
            .collect()
            .await;
    assert_eq!(rows.len(), 3);
    assert!(rows[0].is_ok() && rows[2].is_ok());
    let err = rows[1].as_ref().unwrap_err().to_string();
    assert!(err.contains(r#"stored value "urn:example:a b""#), "{err}");
}

/// Re-keying a V1 table to V2 with urn_sql::sqlx::rekey: the collision scenario, and a table
/// the re-key must refuse.
mod rekey {
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};
    use sqlx::{AssertSqlSafe, Executor};
    use std::str::FromStr;
    use urn_sql::sqlx::rekey;
    use urn_sql::{Dialect, KeyRules, OnCollision, UrnTable};

    use super::support::rekey::*;

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

    /// A pool of one connection to a database in memory, with sqlx's defaults (foreign keys
    /// on), holding a V1 table `items` of `urns`.
    async fn v1_items(urns: &[urn_sql::Urn]) -> (SqlitePool, UrnTable) {
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
        for urn in urns {
            sqlx::query("INSERT INTO items (urn) VALUES (?1)")
                .bind(urn.as_str())
                .execute(&pool)
                .await
                .unwrap();
        }
        (pool, table)
    }

    async fn scalar(pool: &SqlitePool, sql: &str) -> i64 {
        sqlx::query_scalar(AssertSqlSafe(sql))
            .fetch_one(pool)
            .await
            .unwrap()
    }

    /// The tables that reference `items`: notes (ON DELETE CASCADE) of rows 1, 2, 3, tags
    /// (ON DELETE SET NULL) of rows 4 and `tagged`.
    async fn children(pool: &SqlitePool, tagged: i64) {
        pool.execute(AssertSqlSafe(format!(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, item_id INTEGER REFERENCES items ON DELETE CASCADE); \
             CREATE TABLE tags (id INTEGER PRIMARY KEY, item_id INTEGER REFERENCES items ON DELETE SET NULL); \
             INSERT INTO notes (item_id) VALUES (1), (2), (3); \
             INSERT INTO tags (item_id) VALUES (4), ({tagged})"
        )))
        .await
        .unwrap();
    }

    /// With foreign keys on (sqlx's default), the re-key follows SQLite's procedure: nothing
    /// fires when the old table goes. (Before: dropping it deleted its rows first, and the
    /// notes cascaded away and the tags were nulled, with `switched: true`.) The connection's
    /// `foreign_keys` is on again after.
    #[tokio::test]
    async fn foreign_keys_on_lose_no_referencing_row() {
        let (pool, table) = v1_items(&distinct(20)).await;
        children(&pool, 5).await;
        let done = rekey(&pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched);
        assert_eq!(scalar(&pool, "SELECT count(*) FROM notes").await, 3);
        assert_eq!(
            scalar(&pool, "SELECT count(*) FROM tags WHERE item_id IS NOT NULL").await,
            2
        );
        assert_eq!(scalar(&pool, "PRAGMA foreign_keys").await, 1);
        assert_eq!(
            scalar(&pool, "SELECT count(*) FROM pragma_foreign_key_check").await,
            0
        );
    }

    /// keep-first moves no row another table references: the re-key refuses, naming the
    /// referencing table and columns, and nothing changes.
    #[tokio::test]
    async fn keep_first_moves_no_row_another_table_references() {
        let urns = scenario_urns();
        let (pool, table) = v1_items(&urns).await;
        // Rows 201 to 210 are the pairs: 202 moves.
        children(&pool, 202).await;
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("tags (item_id)"), "{err}");
        assert_eq!(scalar(&pool, "SELECT count(*) FROM items").await, 210);
        assert_eq!(
            scalar(&pool, "SELECT count(*) FROM tags WHERE item_id = 202").await,
            1
        );
        let kept: String = sqlx::query_scalar("SELECT sql FROM sqlite_schema WHERE name = 'items'")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert!(kept.contains("urn_key_v1("), "{kept}");
        assert_eq!(scalar(&pool, "PRAGMA foreign_keys").await, 1);
        pool.execute("UPDATE tags SET item_id = 201 WHERE item_id = 202")
            .await
            .unwrap();
        let done = rekey(&pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        assert!(done.switched && done.moved == 5, "{done:?}");
        assert_eq!(scalar(&pool, "SELECT count(*) FROM notes").await, 3);
    }

    /// A side table that is there already is refused, before anything changes (before: one
    /// left from elsewhere made keep-first delete a row that collided with nothing). A table
    /// that is not there is an error, never `switched`.
    #[tokio::test]
    async fn what_is_not_the_re_keys_own_is_refused() {
        let (pool, table) = v1_items(&scenario_urns()).await;
        pool.execute(
            "CREATE TABLE items_urn_key_v2_collisions (id INTEGER, urn TEXT, urn_key TEXT, \
             urn_sql_kept_id INTEGER, urn_sql_new_key TEXT); \
             INSERT INTO items_urn_key_v2_collisions VALUES (7, 'urn:x:y', 'urn:x:y', 201, 'urn:x:y')",
        )
        .await
        .unwrap();
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("items_urn_key_v2_collisions"), "{err}");
        assert_eq!(scalar(&pool, "SELECT count(*) FROM items").await, 210);
        let missing = v1(UrnTable::new("missing").unwrap());
        assert!(
            rekey(&pool, &missing, KeyRules::V2, OnCollision::Refuse)
                .await
                .is_err()
        );
    }

    /// SQLite's names are case-insensitive, and so are the re-key's guards: a foreign key
    /// that names the table `ITEMS` stops a keep-first move of a row it references, and a
    /// trigger made `ON ITEMS` is seen (before: the one was left pointing at a moved row, the
    /// other dropped with the table). A table whose definition is not urn-sql's (here
    /// AUTOINCREMENT, which the rebuild would lose and with it the ids it never gives again)
    /// is refused; so is one in an attached database whose columns are not the pattern's,
    /// whatever `main` holds under the same name.
    #[tokio::test]
    async fn the_guards_read_names_and_definitions_as_sqlite_does() {
        let (pool, table) = v1_items(&scenario_urns()).await;
        pool.execute(
            "CREATE TABLE child (note TEXT, item INTEGER REFERENCES ITEMS (id) ON DELETE CASCADE); \
             INSERT INTO child VALUES ('refs row 202', 202)",
        )
        .await
        .unwrap();
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("child (item)"), "{err}");
        assert_eq!(scalar(&pool, "SELECT count(*) FROM items").await, 210);
        pool.execute(
            "DROP TABLE child; CREATE TRIGGER tg AFTER INSERT ON ITEMS BEGIN SELECT 1; END",
        )
        .await
        .unwrap();
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("triggers of its own"), "{err}");
        pool.execute("DROP TRIGGER tg").await.unwrap();
        // AUTOINCREMENT, which urn-sql's table has not.
        let sql: String = sqlx::query_scalar("SELECT sql FROM sqlite_schema WHERE name = 'items'")
            .fetch_one(&pool)
            .await
            .unwrap();
        pool.execute(AssertSqlSafe(format!(
            "ALTER TABLE items RENAME TO old_items; {}; INSERT INTO items (id, urn) SELECT id, urn FROM old_items; DROP TABLE old_items",
            sql.replace("INTEGER PRIMARY KEY", "INTEGER PRIMARY KEY AUTOINCREMENT")
        )))
        .await
        .unwrap();
        let err = rekey(&pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("not defined as urn-sql makes"), "{err}");
        // An attached database's table with a column of its own, `main`'s without.
        let dir = super::temp_dir("rekey_attached");
        pool.execute(AssertSqlSafe(format!(
            "ATTACH DATABASE '{}' AS aux; \
             CREATE TABLE aux.\"items\" (\"id\" INTEGER PRIMARY KEY, \"urn\" TEXT NOT NULL, \
             \"urn_key\" TEXT NOT NULL GENERATED ALWAYS AS (urn_key_v1(\"urn\")) STORED UNIQUE, note TEXT)",
            dir.join("aux.db").display()
        )))
        .await
        .unwrap();
        let attached = v1(UrnTable::new("aux.items").unwrap());
        let err = rekey(&pool, &attached, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("columns other than"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
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
