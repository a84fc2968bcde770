//! `sqlx_macros`: urn-sql's table pattern through sqlx's compile-time checked macros
//! (`query!`, `query_as!`), the recipe of the urn-sql README. The queries are checked against
//! PostgreSQL when the example is built; the check's results are committed in `examples/.sqlx`
//! (`SQLX_OFFLINE=true` in `.cargo/config.toml`), so building needs no database.
//!
//! Run: `DATABASE_URL=postgres://… cargo run -p urn-examples --bin sqlx_macros`. It works in a
//! schema of its own (`urn_sqlx_macros`), created and filled on each run.
//!
//! To regenerate `.sqlx` after changing a query: install urn-sql's SQL and the table in a schema
//! named `urn_sqlx_macros`, then build with the database online:
//! `SQLX_OFFLINE=false SQLX_OFFLINE_DIR=examples/.sqlx DATABASE_URL='postgres://…?options=-csearch_path%3Durn_sqlx_macros' cargo build -p urn-examples --bin sqlx_macros`.
#![forbid(unsafe_code)]

use sqlx::Executor;
use sqlx::postgres::PgPoolOptions;
use urn_sql::{Urn, UrnKey, UrnTable};

/// A row of `items`, as `query_as!` builds it.
#[derive(Debug)]
struct Item {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("DATABASE_URL").map_err(|_| "set DATABASE_URL=postgres://…")?;
    let admin = PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await?;
    admin
        .execute("DROP SCHEMA IF EXISTS urn_sqlx_macros CASCADE; CREATE SCHEMA urn_sqlx_macros")
        .await?;
    admin.close().await;
    let options = url
        .parse::<sqlx::postgres::PgConnectOptions>()?
        .options([("search_path", "urn_sqlx_macros")]);
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect_with(options)
        .await?;
    urn_sql::sqlx::install(&pool).await?;
    // The statements name urn-sql's objects in the schema it was installed into.
    let table = UrnTable::new("urn_sqlx_macros.items")?.with_urn_schema("urn_sqlx_macros")?;
    pool.execute(sqlx::AssertSqlSafe(
        urn_sql::Dialect::Postgres.create_table_sql(&table),
    ))
    .await?;

    for text in ["urn:isbn:0-395-36341-1", "URN:ISBN:0395363411?+resolver"] {
        let urn: Urn = text.parse()?;
        // Domain columns: name the Rust type in the alias ("urn: Urn"); the generated key is
        // never NULL ("urn_key!"); bind a Urn with `as _` (sqlx does not know the domain's OID).
        let item = sqlx::query_as!(
            Item,
            r#"INSERT INTO items AS stored (urn) VALUES ($1)
               ON CONFLICT ((urn_sqlx_macros.urn_key_index(urn_key))) DO UPDATE SET urn = stored.urn
               RETURNING id, urn AS "urn: Urn", urn_key AS "urn_key!: UrnKey<'static>""#,
            urn as _
        )
        .fetch_one(&pool)
        .await?;
        println!(
            "{text:<32} -> row {} {} ({})",
            item.id, item.urn, item.urn_key
        );
    }
    let probe = Urn::from(urn_core::urn!("urn:ISBN:0-395-36341-1#p4"));
    let found = sqlx::query_as!(
        Item,
        r#"SELECT id, urn AS "urn: Urn", urn_key AS "urn_key!: UrnKey<'static>"
           FROM items WHERE urn_sqlx_macros.urn_key_index(urn_key)
             OPERATOR(pg_catalog.=) urn_sqlx_macros.urn_key_index($1::urn_sqlx_macros.urn_key)"#,
        probe.key() as _
    )
    .fetch_optional(&pool)
    .await?
    .ok_or("not found")?;
    println!("{probe} finds row {} ({})", found.id, found.urn_key);
    let count = sqlx::query_scalar!(r#"SELECT count(*) AS "count!" FROM items"#)
        .fetch_one(&pool)
        .await?;
    println!("{count} row(s)");
    pool.close().await;
    Ok(())
}
