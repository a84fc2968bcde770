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
use urn_sql::sqlx::sqlite::{find, insert_or_get};
use urn_sql::{Dialect, IsbnUrn, Urn, UrnKey, UrnTable};

async fn memory() -> SqlitePool {
    // One connection: every connection to `:memory:` is its own database.
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
        .unwrap()
}

async fn file(dir: &std::path::Path) -> SqlitePool {
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

#[tokio::test]
async fn guards_accept_every_valid_urn_and_key() {
    let pool = memory().await;
    let table = UrnTable::new("items").unwrap();
    pool.execute(sqlx::AssertSqlSafe(table.create_sql(Dialect::Sqlite)))
        .await
        .unwrap();
    let mut inputs: Vec<String> = Vec::new();
    for s in include_str!("../../testdata/rfc-examples.jsonl")
        .lines()
        .chain(include_str!("../../testdata/peer-vectors.jsonl").lines())
    {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        inputs.push(v["input"].as_str().unwrap().to_owned());
    }
    let mut valid = 0;
    let mut tx = pool.begin().await.unwrap();
    for input in &inputs {
        let Ok(urn) = Urn::parse(input) else { continue };
        valid += 1;
        insert_or_get(&mut *tx, &table, &urn)
            .await
            .unwrap_or_else(|e| panic!("{input}: {e}"));
    }
    tx.commit().await.unwrap();
    assert!(valid > 50);
    // Gross mistakes from other clients are refused by the database itself.
    for (urn, key) in [
        ("http://example.com", "urn:ex:a"),
        ("urn:x:a", "urn:x:a"),
        ("urn:ex:a b", "urn:ex:a b"),
        ("urn:ex:a%zz", "urn:ex:a%zz"),
        ("urn:ex:ok", "URN:ex:ok"),
        ("urn:ex:ok%2c", "urn:ex:ok%2c"),
        ("urn:ex:ok2", "urn:ex:ok2#f"),
        ("urn:ex:ok3", "urn:other:ok3"),
    ] {
        let err = sqlx::query("INSERT INTO items (urn, urn_key) VALUES (?1, ?2)")
            .bind(urn)
            .bind(key)
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("CHECK constraint failed"),
            "{urn} {key}: {err}"
        );
    }
}

async fn dedup_on(pool: &SqlitePool) {
    let table = UrnTable::new("items").unwrap();
    pool.execute(sqlx::AssertSqlSafe(table.create_sql(Dialect::Sqlite)))
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
    pool.execute(sqlx::AssertSqlSafe(table.create_sql(Dialect::Sqlite)))
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
}
