//! `UrnRef` binds wherever `Urn` does: as a sqlx parameter (and, borrowed from the row, as a
//! sqlx column) on SQLite and PostgreSQL, as a diesel expression on both, as a tokio-postgres
//! and rusqlite parameter. A zero-copy parse goes to the database without an owned copy.
#![cfg(all(
    feature = "sqlx-sqlite",
    feature = "sqlx-postgres",
    feature = "diesel-sqlite",
    feature = "diesel-postgres",
    feature = "rusqlite",
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

use diesel::prelude::*;
use sqlx::Row;
use urn_sql::{Urn, UrnRef};

const TEXT: &str = "URN:ISBN:0-395-36341-1?=x";

#[tokio::test]
async fn sqlx_sqlite_binds_and_borrows_urn_ref() {
    let pool = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
    let view = UrnRef::parse(TEXT).unwrap();
    let row = sqlx::query("SELECT ?1 AS urn, ?2 AS urns")
        .bind(view)
        .bind(view)
        .fetch_one(&pool)
        .await
        .unwrap();
    let back: UrnRef<'_> = row.try_get("urn").unwrap();
    assert!(back.eq_text(&view));
    // Borrowed from the row: the text is the row's own, not a copy made by the decoder.
    let raw: &str = row.try_get("urn").unwrap();
    assert!(std::ptr::eq(back.as_str(), raw));
    let owned: Urn = row.try_get("urns").unwrap();
    assert_eq!(owned, view);
    let err = sqlx::query("SELECT 'urn:x:y' AS urn")
        .fetch_one(&pool)
        .await
        .unwrap()
        .try_get::<UrnRef<'_>, _>("urn")
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"stored value "urn:x:y" is not a valid URN: NID of 1 character"#),
        "{err}"
    );
}

#[tokio::test]
async fn sqlx_postgres_binds_and_borrows_urn_ref() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let view = UrnRef::parse(TEXT).unwrap();
    let list = [view, UrnRef::parse("urn:example:b").unwrap()];
    let row = sqlx::query("SELECT $1::text AS urn, $2::text[] AS urns")
        .bind(view)
        .bind(&list[..])
        .fetch_one(&pool)
        .await
        .unwrap();
    let back: UrnRef<'_> = row.try_get("urn").unwrap();
    assert!(back.eq_text(&view));
    let urns: Vec<Urn> = row.try_get("urns").unwrap();
    assert_eq!(urns.len(), 2);
    assert_eq!(urns[0], view);
    let err = sqlx::query("SELECT 'urn:example:a b'::text AS urn")
        .fetch_one(&pool)
        .await
        .unwrap()
        .try_get::<UrnRef<'_>, _>("urn")
        .unwrap_err();
    assert!(
        err.to_string().contains("is not allowed in the NSS"),
        "{err}"
    );
}

diesel::table! {
    things (id) {
        id -> Integer,
        urn -> Text,
    }
}

#[test]
fn diesel_binds_urn_ref_on_sqlite() {
    let mut conn = diesel::SqliteConnection::establish(":memory:").unwrap();
    diesel::sql_query("CREATE TABLE things (id INTEGER PRIMARY KEY, urn TEXT NOT NULL)")
        .execute(&mut conn)
        .unwrap();
    let view = UrnRef::parse(TEXT).unwrap();
    diesel::insert_into(things::table)
        .values((things::id.eq(1), things::urn.eq(view)))
        .execute(&mut conn)
        .unwrap();
    let found: Urn = things::table
        .filter(things::urn.eq(&view))
        .select(things::urn)
        .get_result::<Urn>(&mut conn)
        .unwrap();
    assert!(found.eq_text(&Urn::from(view)));
}

#[test]
fn diesel_binds_urn_ref_to_the_postgres_domain() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let mut conn = diesel::PgConnection::establish(&url).unwrap();
    let view = UrnRef::parse(TEXT).unwrap();
    // Through the `urn` SQL type marker: a bind typed as the domain, checked by the server
    // where the domain exists, plain text here.
    #[derive(QueryableByName)]
    struct Echo {
        #[diesel(sql_type = diesel::sql_types::Text)]
        urn: String,
    }
    let echo: Echo = diesel::sql_query("SELECT $1::text AS urn")
        .bind::<diesel::sql_types::Text, _>(view)
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(echo.urn, TEXT);
    let _: diesel::dsl::AsExprOf<UrnRef<'_>, urn_sql::sql_types::Urn> =
        diesel::IntoSql::into_sql::<urn_sql::sql_types::Urn>(view);
}

#[test]
fn rusqlite_binds_urn_ref() {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    let view = UrnRef::parse(TEXT).unwrap();
    let back: String = conn
        .query_row("SELECT ?1", [view], |row| row.get(0))
        .unwrap();
    assert_eq!(back, TEXT);
}

#[tokio::test]
async fn tokio_postgres_binds_urn_ref() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let view = UrnRef::parse(TEXT).unwrap();
    let row = client.query_one("SELECT $1::text", &[&view]).await.unwrap();
    assert_eq!(row.get::<_, Urn>(0), view);
}

/// Every known namespace's typed alias is re-exported here (typed columns): the list below
/// names each alias through this crate, and must cover urn-core's table.
#[test]
fn every_typed_alias_is_reexported() {
    fn nid<N: urn_sql::Namespace>(_: Option<urn_sql::NsUrn<N>>) -> &'static str {
        N::NID
    }
    // Each row of urn-core's namespace table names its alias under urn_sql (a compile error
    // for one urn_sql does not re-export).
    macro_rules! here {
        ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
            [$(nid(None::<urn_sql::$alias>)),*]
        };
    }
    let here = urn_core::known_namespaces!(here);
    let table: Vec<&str> = urn_core::KnownNamespace::ALL
        .iter()
        .map(|ns| ns.nid())
        .collect();
    assert_eq!(here.to_vec(), table);
}
