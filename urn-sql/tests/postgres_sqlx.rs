//! PostgreSQL through sqlx: the shipped SQL against the Rust parser and key on every test
//! input, deduplication, concurrency, round trips and decode errors. Needs `DATABASE_URL`
//! (skipped without it, a failure under `CI=true`).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::str::FromStr;
use std::sync::Arc;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Executor, Row};
use urn_sql::sqlx::postgres::{find, insert_or_get, install};
use urn_sql::{IsbnUrn, Urn, UrnKey, UrnTable};

/// A pool whose connections work in a fresh schema holding urn-sql's types, and a guard that
/// drops the schema.
struct Db {
    pool: PgPool,
    admin: PgPool,
    schema: String,
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
            .execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .await
            .unwrap();
        let options = PgConnectOptions::from_str(&url)
            .unwrap()
            .options([("search_path", schema.as_str())]);
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .unwrap();
        install(&pool).await.unwrap();
        // Installing twice is a no-op.
        install(&pool).await.unwrap();
        Some(Db {
            pool,
            admin,
            schema,
        })
    }

    async fn drop_schema(self) {
        self.pool.close().await;
        self.admin
            .execute(sqlx::AssertSqlSafe(format!(
                "DROP SCHEMA {} CASCADE",
                self.schema
            )))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn domain_and_key_function_agree_with_the_parser_on_every_input() {
    let Some(db) = Db::new("differential").await else {
        return;
    };
    db.pool
        .execute(
            "CREATE FUNCTION try_urn(t text) RETURNS boolean LANGUAGE plpgsql AS \
             $$ BEGIN PERFORM t::urn; RETURN true; \
             EXCEPTION WHEN check_violation THEN RETURN false; END $$",
        )
        .await
        .unwrap();
    let mut inputs = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    // PostgreSQL text cannot hold NUL; such inputs are invalid URNs anyway.
    inputs.retain(|s| !s.contains('\0'));
    let rows = sqlx::query(
        "SELECT x, try_urn(x) AS valid, \
                CASE WHEN try_urn(x) THEN urn_key_v1(x) END AS key \
         FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
    )
    .bind(&inputs)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), inputs.len());
    let mut disagreements = Vec::new();
    let mut valid = 0;
    for (input, row) in inputs.iter().zip(&rows) {
        let sql_valid: bool = row.get("valid");
        let sql_key: Option<String> = row.get("key");
        let rust = Urn::parse(input).ok();
        if rust.is_some() != sql_valid {
            disagreements.push(format!(
                "{input:?}: parser {} domain {sql_valid}",
                rust.is_some()
            ));
        }
        if let Some(urn) = rust {
            valid += 1;
            if sql_key.as_deref() != Some(urn.key().as_str()) {
                disagreements.push(format!(
                    "{input:?}: key {:?} vs urn_key_v1 {sql_key:?}",
                    urn.key().as_str()
                ));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(
        valid > 3000 && inputs.len() - valid > 3000,
        "{valid} valid of {}",
        inputs.len()
    );

    // The key domain accepts every key (the key function's output is canonical).
    let keys: Vec<String> = inputs
        .iter()
        .filter_map(|s| Urn::parse(s).ok())
        .map(|u| u.key().into_string())
        .collect();
    let checked: i64 =
        sqlx::query_scalar("SELECT count(k::urn_key) FROM unnest($1::text[]) AS t(k)")
            .bind(&keys)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(checked as usize, keys.len());
    for bad in ["URN:ex:a", "urn:ex:a%2c", "urn:ex:a#f", "urn:ex:a?+r"] {
        let err = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT '{bad}'::urn_key")))
            .execute(&db.pool)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("urn_key_canonical"),
            "{bad}: {err}"
        );
    }
    db.drop_schema().await;
}

#[tokio::test]
async fn key_function_is_immune_to_a_turkish_collation() {
    let Some(db) = Db::new("turkish").await else {
        return;
    };
    let has_icu: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'tr-TR-x-icu')",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    if has_icu {
        let key: String = sqlx::query_scalar(
            "SELECT urn_key_v1(('URN:ISBN:0-8044-2957-X' COLLATE \"tr-TR-x-icu\")::urn)",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(key, "urn:isbn:080442957X");
        let key: String = sqlx::query_scalar(
            "SELECT urn_key_v1(('urn:LEX:IT:I%2c' COLLATE \"tr-TR-x-icu\")::urn)",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(key, "urn:lex:it:i%2C");
    }
    db.drop_schema().await;
}

#[tokio::test]
async fn equivalent_spellings_are_stored_once_and_found_by_any() {
    let Some(db) = Db::new("dedup").await else {
        return;
    };
    let table = UrnTable::new("items").unwrap();
    db.pool
        .execute(sqlx::AssertSqlSafe(
            table.create_sql(urn_sql::Dialect::Postgres),
        ))
        .await
        .unwrap();
    let spellings = [
        "urn:isbn:0-395-36341-1",
        "URN:ISBN:0395363411?+x",
        "urn:Isbn:0-395-363411#p",
    ];
    let mut ids = Vec::new();
    for (i, text) in spellings.iter().enumerate() {
        let stored = insert_or_get(&db.pool, &table, &text.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(stored.inserted, i == 0, "{text}");
        assert_eq!(
            stored.urn.as_str(),
            spellings[0],
            "the first spelling is kept"
        );
        assert_eq!(stored.key.as_str(), "urn:isbn:0395363411");
        ids.push(stored.id);
    }
    assert!(ids.iter().all(|id| *id == ids[0]));
    for text in spellings {
        let found = find(&db.pool, &table, &text.parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found.id, ids[0]);
    }
    assert!(
        find(&db.pool, &table, &"urn:isbn:0-8044-2957-X".parse().unwrap())
            .await
            .unwrap()
            .is_none()
    );
    // The database enforces it without Rust: a plain INSERT of another spelling fails,
    // and so does text that is not a URN.
    let err = db
        .pool
        .execute("INSERT INTO items (urn) VALUES ('urn:ISBN:0-395-36341-1#x')")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("items_urn_key_key"), "{err}");
    let err = db
        .pool
        .execute("INSERT INTO items (urn) VALUES ('urn:isbn:0 395')")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("urn_syntax"), "{err}");
    // Lookup from SQL alone uses the unique index.
    let plan: Vec<String> = sqlx::query_scalar(
        "EXPLAIN SELECT id FROM items WHERE urn_key = urn_key_v1('URN:ISBN:0395363411')",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert!(plan.join("\n").contains("items_urn_key_key"), "{plan:?}");
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
    db.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_insert_or_get_yields_one_row_and_one_id() {
    let Some(db) = Db::new("concurrent").await else {
        return;
    };
    let table = Arc::new(UrnTable::new("items").unwrap());
    db.pool
        .execute(sqlx::AssertSqlSafe(
            table.create_sql(urn_sql::Dialect::Postgres),
        ))
        .await
        .unwrap();
    for round in 0..10 {
        let barrier = Arc::new(tokio::sync::Barrier::new(8));
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let (pool, table, barrier) = (db.pool.clone(), table.clone(), barrier.clone());
                let text = match i % 3 {
                    0 => format!("urn:example:item-{round}%2c"),
                    1 => format!("URN:EXAMPLE:item-{round}%2C?=q"),
                    _ => format!("urn:Example:item-{round}%2c#{i}"),
                };
                tokio::spawn(async move {
                    let urn: Urn = text.parse().unwrap();
                    barrier.wait().await;
                    insert_or_get(&pool, &table, &urn).await
                })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap().expect("no error reaches the caller"));
        }
        assert!(
            results.iter().all(|r| r.id == results[0].id),
            "round {round}: {results:?}"
        );
        assert_eq!(
            results.iter().filter(|r| r.inserted).count(),
            1,
            "round {round}"
        );
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 10);
    db.drop_schema().await;
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
struct Thing {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
    see_also: Vec<Urn>,
}

#[tokio::test]
async fn values_round_trip_and_bad_stored_values_are_decode_errors() {
    let Some(db) = Db::new("roundtrip").await else {
        return;
    };
    db.pool
        .execute(
            "CREATE TABLE things (
               id       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
               urn      urn     NOT NULL,
               urn_key  urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE,
               isbn     urn,
               see_also urn[]   NOT NULL DEFAULT '{}',
               loose    text)",
        )
        .await
        .unwrap();
    let urn: Urn = "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?=v#top"
        .parse()
        .unwrap();
    let see_also: Vec<Urn> = vec![
        "urn:ietf:rfc:2141".parse().unwrap(),
        "urn:example:a%2fb".parse().unwrap(),
    ];
    let isbn: IsbnUrn = "urn:isbn:978-0-395-36341-6".parse().unwrap();
    let thing: Thing = sqlx::query_as(
        "INSERT INTO things (urn, isbn, see_also) VALUES ($1, $2, $3) RETURNING id, urn, urn_key, isbn, see_also",
    )
    .bind(&urn)
    .bind(Some(&isbn))
    .bind(&see_also)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert!(thing.urn.eq_text(&urn));
    assert_eq!(
        thing.urn_key.as_str(),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
    assert!(thing.isbn.as_ref().unwrap().eq_text(&isbn));
    assert_eq!(thing.see_also.len(), 2);
    assert!(thing.see_also[1].eq_text(&see_also[1]));
    // NULL <-> None, and the struct serialises for an API response.
    let none: Option<Urn> = sqlx::query_scalar("SELECT NULL::urn")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(none.is_none());
    let json = serde_json::to_string(&thing).unwrap();
    assert!(
        json.contains(r#""urn":"URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?=v#top""#),
        "{json}"
    );
    // A key binds and decodes on its own; arrays of domain values decode as Vec<Urn>.
    let key: UrnKey<'static> = sqlx::query_scalar("SELECT $1::urn_key")
        .bind(urn.key())
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(key, urn.key());
    let arr: Vec<Urn> = sqlx::query_scalar("SELECT ARRAY['urn:a1:x', 'URN:B2:y']::urn[]")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(arr.len(), 2);

    // Bad stored values: decode errors naming the value and the rule, never a panic.
    db.pool
        .execute("UPDATE things SET loose = 'urn:x:too-short-nid'")
        .await
        .unwrap();
    let err = sqlx::query_scalar::<_, Urn>("SELECT loose FROM things")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(
            r#"stored value "urn:x:too-short-nid" is not a valid URN: NID of 1 character at byte 4"#
        ),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, UrnKey<'static>>(
        "SELECT 'urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'::text",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("is not a valid URN key: not a canonical URN key"),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, IsbnUrn>("SELECT 'urn:issn:1046-8188'::urn")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(
            r#"is not a valid "isbn" URN: expected a URN in namespace "isbn", found "issn""#
        ),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, Vec<Urn>>("SELECT ARRAY['urn:ok:x', 'nope']")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(err.to_string().contains(r#"stored value "nope""#), "{err}");
    db.drop_schema().await;
}
