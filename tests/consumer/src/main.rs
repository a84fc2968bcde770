//! Does each job the READMEs show (the workspace's and the crates') with the packaged crates,
//! and checks the result. Exits non-zero at the first wrong one.
//! PostgreSQL runs when `DATABASE_URL` names a server (under `CI=true` it must).

use std::error::Error;

use serde::{Deserialize, Serialize};
use urn_core::{KeyRules, Urn, UrnRef};

type Result<T = ()> = std::result::Result<T, Box<dyn Error>>;

/// Fails with `what` unless `ok`.
fn check(ok: bool, what: &str) -> Result {
    if ok {
        Ok(())
    } else {
        Err(format!("wrong: {what}").into())
    }
}

/// Parse, compare and key URNs; `Uuid` ⇄ `urn:uuid:` (urn-core, feature `uuid`).
fn core() -> Result {
    let a: Urn = "URN:ISBN:0-395-36341-1".parse()?;
    let b = UrnRef::parse("urn:isbn:0395363411#p4")?;
    check(a.key() == b.key(), "equivalent spellings share a key")?;
    check(a.key().as_str() == "urn:isbn:0395363411", "the ISBN key")?;
    check(KeyRules::CURRENT == KeyRules::V2, "KeyRules::CURRENT")?;
    let doi: Urn = "urn:doi:10.123:ABC".parse()?;
    check(
        doi.key().as_str() == "urn:doi:10.123/abc",
        "the doi key (V2)",
    )?;
    check(
        doi.key_with(KeyRules::V1).as_str() == "urn:doi:10.123:ABC",
        "the doi key under V1",
    )?;
    let err = Urn::parse("urn:example:a%zz").err().map(|e| e.to_string());
    check(
        err.as_deref()
            == Some("invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"),
        "the parser's message",
    )?;
    let id = uuid::Uuid::parse_str("6e8bc430-9c3a-11d9-9669-0800200c9a66")?;
    let urn = Urn::from(id);
    check(urn.to_uuid() == Some(id), "Uuid round trip")?;
    Ok(())
}

/// A request body with typed fields (urn-serde).
#[derive(Debug, Serialize, Deserialize, schemars::JsonSchema)]
struct NewBook {
    id: Urn,
    isbn: Option<urn_serde::IsbnUrn>,
    see_also: Vec<Urn>,
}

/// URNs in API payloads: verbatim round trip, typed-field and syntax errors (urn-serde).
fn payloads() -> Result {
    let body = r#"{"id":"URN:EXAMPLE:b-1","isbn":"urn:isbn:0-395-36341-1","see_also":[]}"#;
    let book: NewBook = serde_json::from_str(body)?;
    check(serde_json::to_string(&book)? == body, "verbatim round trip")?;
    let wrong = r#"{"id":"urn:example:a","isbn":"urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66","see_also":[]}"#;
    let err = serde_json::from_str::<NewBook>(wrong)
        .err()
        .map(|e| e.to_string());
    check(
        err.as_deref()
            == Some(r#"expected a URN in namespace "isbn", found "uuid" at line 1 column 76"#),
        "typed-field error",
    )?;
    Ok(())
}

/// The GraphQL schema of `api()`.
struct Query;

#[async_graphql::Object]
impl Query {
    /// The key of a URN argument.
    async fn key(&self, urn: Urn) -> urn_core::UrnKey<'static> {
        urn.key().into_owned()
    }
}

/// GraphQL scalars (urn-serde, `async-graphql`) and a URN in an axum path as written
/// (urn-serde, `axum`).
async fn api() -> Result {
    let schema = async_graphql::Schema::new(
        Query,
        async_graphql::EmptyMutation,
        async_graphql::EmptySubscription,
    );
    let ok = schema
        .execute(r#"{ key(urn: "URN:ISBN:0-395-36341-1") }"#)
        .await;
    check(
        ok.data.into_json()? == serde_json::json!({"key": "urn:isbn:0395363411"}),
        "GraphQL key",
    )?;
    let bad = schema.execute(r#"{ key(urn: "urn:example:a%zz") }"#).await;
    check(
        bad.errors.first().map(|e| e.message.as_str())
            == Some(
                r#"Failed to parse "Urn": invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"#,
            ),
        "GraphQL error",
    )?;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    async fn item(urn_serde::axum::UrnPath(urn): urn_serde::axum::UrnPath) -> String {
        urn.to_string()
    }
    let app = axum::Router::new().route("/items/{*urn}", axum::routing::get(item));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move { axum::serve(listener, app).await });
    for (target, expected) in [
        ("/items/urn:example:a%2Fb", "200 OK"),
        ("/items/urn:example:a%zz", "422 Unprocessable"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(addr).await?;
        let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        let mut response = String::new();
        stream.read_to_string(&mut response).await?;
        check(response.contains(expected), target)?;
        if expected == "200 OK" {
            check(
                response.ends_with("\r\n\r\nurn:example:a%2Fb"),
                "the URN as written",
            )?;
        } else {
            check(
                response.contains("application/problem+json"),
                "a problem body",
            )?;
        }
    }
    Ok(())
}

/// A keyed SQLite table through SeaORM (urn-sql, `sea-orm`).
mod book {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "books")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub urn: urn_sql::Urn,
        pub urn_key: urn_sql::UrnKey<'static>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// SeaORM on SQLite: entity fields, the database's key, `on_conflict` and the helpers.
async fn sea_orm() -> Result {
    use sea_orm::{ConnectionTrait, EntityTrait, Set, TryInsertResult};
    urn_sql::sqlite::register_for_all_connections()?;
    let path = std::env::temp_dir().join(format!("urn-consumer-{}.sqlite3", std::process::id()));
    let db = sea_orm::Database::connect(format!("sqlite://{}?mode=rwc", path.display())).await?;
    urn_sql::sea_orm::install(&db).await?;
    let table = urn_sql::UrnTable::new("books")?;
    db.execute_unprepared(&urn_sql::Dialect::Sqlite.create_table_sql(&table))
        .await?;
    let add = |urn: &str| -> Result<book::ActiveModel> {
        Ok(book::ActiveModel {
            urn: Set(urn.parse()?),
            ..Default::default()
        })
    };
    let hobbit = book::Entity::insert(add("URN:ISBN:0-395-36341-1")?)
        .exec_with_returning(&db)
        .await?;
    check(
        hobbit.urn_key.as_str() == "urn:isbn:0395363411",
        "SeaORM key",
    )?;
    let conflict = sea_orm::sea_query::OnConflict::column(book::Column::UrnKey)
        .do_nothing()
        .to_owned();
    let again = book::Entity::insert(add("urn:isbn:0395363411")?)
        .on_conflict(conflict)
        .try_insert()
        .exec(&db)
        .await?;
    check(
        matches!(again, TryInsertResult::Conflicted),
        "SeaORM on_conflict",
    )?;
    let got = urn_sql::sea_orm::insert_or_get(&db, &table, &"urn:ISBN:0395363411".parse()?).await?;
    check(got.id == hobbit.id && !got.inserted, "SeaORM insert_or_get")?;
    db.close().await?;
    std::fs::remove_file(path)?;
    Ok(())
}

/// JSON Schema for URN fields, and validation with the parser's messages (urn-schema).
fn schema() -> Result {
    let schema = serde_json::to_value(schemars::schema_for!(NewBook))?;
    check(
        schema["properties"]["id"]["pattern"] == urn_schema::urn_core::patterns::URN,
        "the field's pattern",
    )?;
    let validator = urn_schema::Validator::new(&schema)?;
    let payload =
        serde_json::json!({"id": "urn:example:a", "isbn": null, "see_also": ["urn:example:a b"]});
    let problems: Vec<String> = match validator.validate(&payload) {
        Ok(()) => Vec::new(),
        Err(problems) => problems.iter().map(ToString::to_string).collect(),
    };
    check(
        problems == ["/see_also/0: invalid URN: ' ' at byte 13 is not allowed in the NSS"],
        &format!("validation problems {problems:?}"),
    )?;
    Ok(())
}

/// SQLite through rusqlite and sqlx: one row for two spellings, found by a third (urn-sql).
async fn sqlite() -> Result {
    let table = urn_sql::UrnTable::new("items")?;
    let first: Urn = "urn:ISBN:0-395-36341-1".parse()?;
    let again: Urn = "URN:isbn:0395363411?=x".parse()?;
    let third: Urn = "urn:isbn:0-395-363411".parse()?;

    let conn = rusqlite::Connection::open_in_memory()?;
    urn_sql::rusqlite::register_functions(&conn)?;
    conn.execute_batch(&urn_sql::Dialect::Sqlite.create_table_sql(&table))?;
    let a = urn_sql::rusqlite::insert_or_get(&conn, &table, &first)?;
    let b = urn_sql::rusqlite::insert_or_get(&conn, &table, &again)?;
    check(
        a.inserted && !b.inserted && a.id == b.id,
        "rusqlite: one row",
    )?;
    let found = urn_sql::rusqlite::find(&conn, &table, &third)?;
    check(
        found.map(|row| row.id) == Some(a.id),
        "rusqlite: found by another spelling",
    )?;
    let err = conn
        .execute("INSERT INTO items (urn) VALUES ('urn:example:a%zz')", [])
        .err()
        .map(|e| e.to_string());
    check(
        err.as_deref()
            == Some("invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"),
        &format!("rusqlite: the parser's message, got {err:?}"),
    )?;

    urn_sql::sqlite::register_for_all_connections()?;
    let pool = sqlx::sqlite::SqlitePoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(
        urn_sql::Dialect::Sqlite.create_table_sql(&table),
    ))
    .execute(&pool)
    .await?;
    let a = urn_sql::sqlx::insert_or_get(&pool, &table, &first).await?;
    let b = urn_sql::sqlx::insert_or_get(&pool, &table, &again).await?;
    check(
        a.inserted && !b.inserted && a.id == b.id,
        "sqlx SQLite: one row",
    )?;
    Ok(())
}

/// PostgreSQL through sqlx: the portable SQL, the table pattern, one row for two spellings,
/// and the parser's message from the domain (urn-sql).
async fn postgres() -> Result {
    let Some(url) = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        if std::env::var("CI").as_deref() == Ok("true") {
            return Err("DATABASE_URL is not set (CI=true)".into());
        }
        println!("skip: PostgreSQL (no DATABASE_URL)");
        return Ok(());
    };
    let schema = format!("urn_consumer_{}", std::process::id());
    let admin = sqlx::PgPool::connect(&url).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await?;
    let options: sqlx::postgres::PgConnectOptions = url.parse()?;
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(2)
        .connect_with(options.options([("search_path", schema.as_str())]))
        .await?;
    let outcome = async {
        urn_sql::sqlx::install(&pool).await?;
        // The table and urn-sql's objects in the schema of this run.
        let table = urn_sql::UrnTable::new(&format!("{schema}.items"))?.with_urn_schema(&schema)?;
        sqlx::raw_sql(sqlx::AssertSqlSafe(
            urn_sql::Dialect::Postgres.create_table_sql(&table),
        ))
        .execute(&pool)
        .await?;
        let a =
            urn_sql::sqlx::insert_or_get(&pool, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
        let b =
            urn_sql::sqlx::insert_or_get(&pool, &table, &"URN:isbn:0395363411".parse()?).await?;
        check(
            a.inserted && !b.inserted && a.id == b.id,
            "PostgreSQL: one row",
        )?;
        let err = sqlx::query("INSERT INTO items (urn) VALUES ('urn:example:a%zz')")
            .execute(&pool)
            .await
            .err()
            .and_then(|e| {
                e.as_database_error()
                    .map(|d| (d.code().map(|c| c.into_owned()), d.message().to_owned()))
            });
        check(
            err == Some((
                Some("23514".to_owned()),
                "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"
                    .to_owned(),
            )),
            &format!("PostgreSQL: the parser's message, got {err:?}"),
        )?;
        Result::Ok(())
    }
    .await;
    pool.close().await;
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .execute(&admin)
        .await?;
    outcome
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result {
    core()?;
    println!("ok: parse, compare and key URNs (urn-core, uuid)");
    payloads()?;
    println!("ok: URNs in API payloads (urn-serde)");
    schema()?;
    println!("ok: JSON Schema and validation (urn-schema)");
    api().await?;
    println!("ok: GraphQL scalars and the axum path extractor (urn-serde)");
    sqlite().await?;
    println!("ok: SQLite through rusqlite and sqlx (urn-sql)");
    sea_orm().await?;
    println!("ok: SQLite through SeaORM (urn-sql)");
    postgres().await?;
    println!("ok: PostgreSQL through sqlx (urn-sql)");
    Ok(())
}
