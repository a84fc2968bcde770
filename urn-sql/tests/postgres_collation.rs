//! The keyed table's key in the "C" collation: the key column and its unique index compare byte
//! for byte, and every way of reading by key still goes through the index: sqlx, diesel and
//! tokio-postgres with a `text` parameter, `ON CONFLICT` inference, joins on keys (with a table
//! of the earlier pattern too). A table of the earlier patterns moves in place with one
//! `ALTER TABLE`, which rebuilds the index and leaves the rows where they are. Runs against the
//! portable SQL, or urn_pg with `URN_SQL_BACKEND=urn_pg`. Needs `DATABASE_URL` (skipped without
//! it, a failure under `CI=true`).
#![cfg(all(
    feature = "sqlx-postgres",
    feature = "diesel-postgres",
    feature = "tokio-postgres"
))]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::str::FromStr;

use diesel::{Connection, RunQueryDsl};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{AssertSqlSafe, Executor};
use urn_sql::{Dialect, Urn};

/// The plan of `explain` (an `EXPLAIN …` statement) run by sqlx with `$1` = `key` as text.
async fn sqlx_plan(pool: &PgPool, explain: &str, key: &str) -> String {
    let lines: Vec<String> = sqlx::query_scalar(AssertSqlSafe(explain.to_owned()))
        .bind(key)
        .fetch_all(pool)
        .await
        .unwrap();
    lines.join("\n")
}

/// The collation of the first column of index `index`.
async fn index_collation(pool: &PgPool, index: &str) -> String {
    sqlx::query_scalar(
        "SELECT c.collname::text FROM pg_index i JOIN pg_collation c ON c.oid = i.indcollation[0] \
         WHERE i.indexrelid = $1::regclass",
    )
    .bind(index)
    .fetch_one(pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn the_key_is_compared_byte_for_byte_and_read_through_the_index() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let schema = support::schema_name("collation");
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
        .max_connections(2)
        .connect_with(options)
        .await
        .unwrap();
    urn_sql::sqlx::install(&pool).await.unwrap();
    let table = support::table("items", &schema);
    pool.execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
        .await
        .unwrap();
    // An earlier pattern's table (the key in the database's collation), for the join and the
    // move below.
    pool.execute(
        "CREATE TABLE earlier (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, \
           urn urn NOT NULL, \
           urn_key text GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL); \
         CREATE UNIQUE INDEX earlier_urn_key_unique ON earlier (urn_key_index(urn_key)); \
         CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public",
    )
    .await
    .unwrap();
    for name in ["items", "earlier"] {
        pool.execute(AssertSqlSafe(format!(
            "INSERT INTO {name} (urn) SELECT 'urn:example:Item-' || i FROM generate_series(1, 20000) i; \
             ANALYZE {name}"
        )))
        .await
        .unwrap();
    }
    assert_eq!(index_collation(&pool, "items_urn_key_unique").await, "C");
    let key = "urn:example:Item-777";

    // sqlx: the helpers' lookup, and the same with a plain text parameter.
    let find = format!("EXPLAIN {}", Dialect::Postgres.find_sql(&table));
    assert!(
        sqlx_plan(&pool, &find, key)
            .await
            .contains("Index Scan using items_urn_key_unique")
    );
    let plain = "EXPLAIN SELECT id FROM items WHERE urn_key_index(urn_key) = urn_key_index($1)";
    assert!(
        sqlx_plan(&pool, plain, key)
            .await
            .contains("Index Scan using items_urn_key_unique")
    );
    let found = urn_sql::sqlx::find(
        &pool,
        &table,
        &Urn::parse("URN:example:Item-777#x").unwrap(),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(found.key.as_str(), key);
    // ON CONFLICT infers the index, and insert-or-get meets the stored row.
    let insert = format!("EXPLAIN {}", Dialect::Postgres.insert_or_get_sql(&table));
    assert!(
        sqlx_plan(&pool, &insert, "urn:example:Item-777")
            .await
            .contains("Conflict Arbiter Indexes: items_urn_key_unique")
    );
    let again =
        urn_sql::sqlx::insert_or_get(&pool, &table, &"URN:EXAMPLE:Item-777".parse().unwrap())
            .await
            .unwrap();
    assert_eq!((again.id, again.inserted), (found.id, false));
    // A join on keys, with a table of the earlier pattern (the key in the database's
    // collation): no collation conflict, and the index is used for the lookups.
    let join = "EXPLAIN SELECT count(*) FROM earlier e JOIN items i \
                ON urn_key_index(i.urn_key) = urn_key_index(e.urn_key) WHERE e.urn_key = $1";
    let mut conn = pool.acquire().await.unwrap();
    conn.execute("SET enable_hashjoin = off; SET enable_mergejoin = off")
        .await
        .unwrap();
    let lines: Vec<String> = sqlx::query_scalar(join)
        .bind(key)
        .fetch_all(&mut *conn)
        .await
        .unwrap();
    assert!(
        lines
            .join("\n")
            .contains("Index Scan using items_urn_key_unique"),
        "{lines:#?}"
    );
    let matched: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM earlier e JOIN items i ON urn_key_index(i.urn_key) = urn_key_index(e.urn_key)",
    )
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    assert_eq!(matched, 20_000);
    drop(conn);

    // diesel: the filter its DSL writes, `urn_key_index("items"."urn_key") = urn_key_index($1)`.
    #[derive(diesel::QueryableByName)]
    struct Plan {
        #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
        line: String,
    }
    let mut diesel_conn =
        diesel::PgConnection::establish(&support::with_search_path(&url, &schema)).unwrap();
    let plan: Vec<Plan> = diesel::sql_query(
        "EXPLAIN SELECT \"items\".\"id\" FROM \"items\" \
         WHERE urn_key_index(\"items\".\"urn_key\") = urn_key_index($1)",
    )
    .bind::<diesel::sql_types::Text, _>(key)
    .load(&mut diesel_conn)
    .unwrap();
    let plan: Vec<String> = plan.into_iter().map(|p| p.line).collect();
    assert!(
        plan.join("\n")
            .contains("Index Scan using items_urn_key_unique"),
        "{plan:?}"
    );

    // tokio-postgres, with a text parameter.
    let mut config = tokio_postgres::Config::from_str(&url).unwrap();
    config.options(format!("-csearch_path={}", support::search_path(&schema)));
    let (client, connection) = config.connect(tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let rows = client
        .query(
            "EXPLAIN SELECT id FROM items WHERE urn_key_index(urn_key) = urn_key_index($1::text)",
            &[&key],
        )
        .await
        .unwrap();
    let plan: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert!(
        plan.join("\n")
            .contains("Index Scan using items_urn_key_unique"),
        "{plan:?}"
    );
    drop(client);

    // The earlier table moves in place: the rows stay (same file), the index is rebuilt in
    // "C", keys are unchanged, amcheck passes and lookups use it.
    let file = |pool: PgPool| async move {
        sqlx::query_scalar::<_, i64>("SELECT pg_relation_filenode('earlier')::bigint")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    let before = file(pool.clone()).await;
    pool.execute("ALTER TABLE earlier ALTER COLUMN urn_key TYPE text COLLATE \"C\"")
        .await
        .unwrap();
    assert_eq!(
        file(pool.clone()).await,
        before,
        "the table was not rewritten"
    );
    assert_eq!(index_collation(&pool, "earlier_urn_key_unique").await, "C");
    sqlx::query("SELECT public.bt_index_check('earlier_urn_key_unique'::regclass, true)")
        .execute(&pool)
        .await
        .unwrap();
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT urn::text, urn_key FROM earlier ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 20_000);
    for (urn, stored) in &rows {
        assert_eq!(stored, Urn::parse(urn).unwrap().key().as_str());
    }
    let earlier = support::table("earlier", &schema);
    let explain = format!("EXPLAIN {}", Dialect::Postgres.find_sql(&earlier));
    assert!(
        sqlx_plan(&pool, &explain, key)
            .await
            .contains("earlier_urn_key_unique")
    );
    pool.close().await;
    admin
        .execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .unwrap();
}
