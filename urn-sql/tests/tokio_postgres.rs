//! tokio-postgres (feature `postgres`) against the real PostgreSQL: parameters and columns of
//! the `urn`/`urn_key` domains and `text`, arrays, NULL, a bad stored value as a row-level
//! error, the helpers, and eight connections racing to insert equivalent spellings.
#![cfg(feature = "tokio-postgres")]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use tokio_postgres::{Client, NoTls};
use urn_sql::tokio_postgres::{find, insert_or_get, install};
use urn_sql::{IsbnUrn, Urn, UrnKey};

/// A client whose `search_path` is a fresh schema, with the urn SQL installed (twice: the
/// second run is a no-op).
async fn client(test: &str) -> Option<(Client, String)> {
    let url = support::postgres_url()?;
    let schema = support::schema_name(test);
    let client = connect(&url, None).await;
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    client
        .batch_execute(&format!(
            "SET search_path = {}",
            support::search_path(&schema)
        ))
        .await
        .unwrap();
    install(&client).await.unwrap();
    install(&client).await.unwrap();
    let language: String = client
        .query_one(support::KEY_FUNCTION_LANGUAGE, &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(language, support::backend().key_function_language());
    Some((client, schema))
}

async fn connect(url: &str, schema: Option<&str>) -> Client {
    let mut config: tokio_postgres::Config = url.parse().unwrap();
    if let Some(schema) = schema {
        config.options(format!("-csearch_path={}", support::search_path(schema)));
    }
    let (client, connection) = config.connect(NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}

async fn drop_schema(client: &Client, schema: &str) {
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}

#[tokio::test]
async fn values_round_trip_through_domains_text_arrays_and_null() {
    let Some((client, schema)) = client("tp_round_trip").await else {
        return;
    };
    client
        .batch_execute(
            "CREATE TABLE t (u urn, k urn_key, plain text, isbn text, list urn[], maybe urn)",
        )
        .await
        .unwrap();
    let urn: Urn = "URN:ISBN:0-395-36341-1?=q#f".parse().unwrap();
    let isbn: IsbnUrn = "urn:isbn:0-395-36341-1".parse().unwrap();
    let list: Vec<Urn> = vec!["urn:example:a".parse().unwrap(), urn.clone()];
    client
        .execute(
            "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)",
            &[&urn, &urn.key(), &urn, &isbn, &list, &None::<Urn>],
        )
        .await
        .unwrap();
    let row = client
        .query_one("SELECT u, k, plain, isbn, list, maybe FROM t", &[])
        .await
        .unwrap();
    let (u, k, plain): (Urn, UrnKey<'static>, Urn) = (row.get(0), row.get(1), row.get(2));
    assert!(u.eq_text(&urn) && plain.eq_text(&urn));
    assert_eq!(k.as_str(), "urn:isbn:0395363411");
    assert_eq!(row.get::<_, IsbnUrn>(3), isbn);
    assert_eq!(row.get::<_, Vec<Urn>>(4), list);
    assert_eq!(row.get::<_, Option<Urn>>(5), None);
    // The domain refuses what the parser refuses, naming the rule.
    let err = client
        .execute("INSERT INTO t (plain) VALUES ($1)", &[&"urn:x:a"])
        .await;
    assert!(err.is_ok(), "a text column takes any text");
    let err = client
        .execute("INSERT INTO t (u) VALUES ($1::text)", &[&"urn:x:a"])
        .await
        .unwrap_err();
    let db = err.as_db_error().unwrap();
    assert_eq!(db.code().code(), "23514", "{db:?}");
    // The parser's message, the constraint named in the detail (both backends) and, from the
    // portable SQL, in the error's constraint field.
    assert_eq!(
        db.message(),
        "invalid URN: NID of 1 character at byte 4: it must have 2 to 32"
    );
    assert_eq!(
        db.detail(),
        Some(r#"value for domain urn violates check constraint "urn_syntax""#)
    );
    if support::backend() == support::Backend::Portable {
        assert_eq!(db.constraint(), Some("urn_syntax"), "{db:?}");
    }
    drop_schema(&client, &schema).await;
}

/// A row another client wrote wrong is an error for that row only, with the value and the rule.
#[tokio::test]
async fn a_bad_stored_value_is_a_row_level_error() {
    let Some((client, schema)) = client("tp_bad_value").await else {
        return;
    };
    client
        .batch_execute(
            "CREATE TABLE t (id int, u text); \
             INSERT INTO t VALUES (1, 'urn:example:ok'), (2, 'urn:x:a'), (3, 'urn:isbn:0395363412')",
        )
        .await
        .unwrap();
    let rows = client
        .query("SELECT u FROM t ORDER BY id", &[])
        .await
        .unwrap();
    assert_eq!(
        rows[0].try_get::<_, Urn>(0).unwrap().as_str(),
        "urn:example:ok"
    );
    let err = rows[1].try_get::<_, Urn>(0).unwrap_err();
    let source = std::error::Error::source(&err).unwrap().to_string();
    assert_eq!(
        source,
        "stored value \"urn:x:a\" is not a valid URN: NID of 1 character at byte 4: it must have 2 to 32"
    );
    assert!(rows[2].try_get::<_, Urn>(0).is_ok());
    let err = rows[2].try_get::<_, IsbnUrn>(0).unwrap_err();
    let source = std::error::Error::source(&err).unwrap().to_string();
    assert!(source.contains("check digit does not match"), "{source}");
    assert!(rows[0].try_get::<_, UrnKey<'static>>(0).is_ok());
    drop_schema(&client, &schema).await;
}

#[tokio::test]
async fn helpers_store_each_key_once_and_find_any_spelling() {
    let Some((client, schema)) = client("tp_helpers").await else {
        return;
    };
    for table in [
        support::table("items", &schema),
        support::table("parts", &schema)
            .hash_partitioned(4)
            .unwrap(),
    ] {
        client
            .batch_execute(&urn_sql::Dialect::Postgres.create_table_sql(&table))
            .await
            .unwrap();
        let first = insert_or_get(&client, &table, &"urn:ISBN:0-395-36341-1".parse().unwrap())
            .await
            .unwrap();
        let again = insert_or_get(&client, &table, &"URN:isbn:0395363411#p".parse().unwrap())
            .await
            .unwrap();
        assert_eq!(
            (first.inserted, again.inserted, again.id),
            (true, false, first.id)
        );
        assert_eq!(again.urn.as_str(), "urn:ISBN:0-395-36341-1");
        let found = find(&client, &table, &"urn:isbn:0-395-363411".parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found.id, first.id);
        assert!(
            find(&client, &table, &"urn:isbn:9780395363416".parse().unwrap())
                .await
                .unwrap()
                .is_none()
        );
        for (long, respelled) in support::corpus::long_urns() {
            let stored = insert_or_get(&client, &table, &long.parse().unwrap())
                .await
                .unwrap();
            let again = insert_or_get(&client, &table, &respelled.parse().unwrap())
                .await
                .unwrap();
            assert_eq!(
                (stored.inserted, again.inserted, again.id),
                (true, false, stored.id)
            );
        }
    }
    drop_schema(&client, &schema).await;
}

/// Eight connections insert the same 40 keys in different spellings at once: one row per key,
/// and every caller gets that row's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_connections_racing_store_each_key_once() {
    let Some((client, schema)) = client("tp_race").await else {
        return;
    };
    let table = support::table("items", &schema);
    client
        .batch_execute(&urn_sql::Dialect::Postgres.create_table_sql(&table))
        .await
        .unwrap();
    let url = support::postgres_url().unwrap();
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let (url, schema, table) = (url.clone(), schema.clone(), table.clone());
        tasks.push(tokio::spawn(async move {
            let client = connect(&url, Some(&schema)).await;
            let mut ids = Vec::new();
            for i in 0..40 {
                let spelling = if worker % 2 == 0 {
                    format!("urn:example:item-{i}%2c?+w{worker}")
                } else {
                    format!("URN:EXAMPLE:item-{i}%2C#w{worker}")
                };
                let row = insert_or_get(&client, &table, &spelling.parse().unwrap())
                    .await
                    .unwrap();
                ids.push((i, row.id, row.inserted));
            }
            ids
        }));
    }
    let mut by_key = std::collections::HashMap::new();
    let mut inserted = 0;
    for task in tasks {
        for (i, id, was_inserted) in task.await.unwrap() {
            assert_eq!(*by_key.entry(i).or_insert(id), id, "key {i}");
            inserted += usize::from(was_inserted);
        }
    }
    assert_eq!(inserted, 40, "each key inserted exactly once");
    let count: i64 = client
        .query_one("SELECT count(*) FROM items", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 40);
    drop_schema(&client, &schema).await;
}
