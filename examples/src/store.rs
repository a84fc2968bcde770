//! The catalog's storage through sqlx: a SQLite file (no setup) or PostgreSQL, with the
//! migrations applied on connect. Equivalent spellings of a URN are one item: PostgreSQL
//! computes the key in a generated column (`urn_key_v1`, from urn-sql), SQLite stores the key
//! the registered urn_key_v1 function generates; a UNIQUE index on it does the rest.

use std::borrow::Cow;
use std::str::FromStr;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions, SqliteRow};
use sqlx::types::Json;
use sqlx::{AssertSqlSafe, Row, SqlSafeStr};
use urn_core::Urn;
use urn_sql::UrnTable;

use crate::item::{Item, NewItem};

/// The catalog table on SQLite (also a diesel migration, see [`crate::diesel_store`]).
pub const SQLITE_ITEMS: &str =
    include_str!("../migrations/sqlite/2026-11-23-000001_catalog_items/up.sql");

/// The catalog table on PostgreSQL; it needs urn-sql's domains and key function first.
pub const POSTGRES_ITEMS: &str =
    include_str!("../migrations/postgres/2026-11-23-000001_catalog_items/up.sql");

/// The migration versions, as diesel derives them from the directory names (so both tools
/// number the same migration alike).
const URN_TYPES_VERSION: i64 = 20261123000000;
const ITEMS_VERSION: i64 = 20261123000001;

/// A connected, migrated catalog database.
#[derive(Clone, Debug)]
pub enum Store {
    /// A SQLite database file (created if missing).
    Sqlite(SqlitePool),
    /// A PostgreSQL database, and its keyed table (named with the schema urn-sql's migration
    /// installed into).
    Postgres(PgPool, Box<UrnTable>),
}

/// The migrations for PostgreSQL: urn-sql's types, then the items table.
fn postgres_migrator() -> Migrator {
    Migrator::with_migrations(vec![
        migration(URN_TYPES_VERSION, "urn_types", urn_sql::postgres::UP),
        migration(ITEMS_VERSION, "catalog_items", POSTGRES_ITEMS),
    ])
}

fn migration(version: i64, description: &'static str, sql: &'static str) -> Migration {
    Migration::new(
        version,
        Cow::Borrowed(description),
        MigrationType::Simple,
        AssertSqlSafe(sql).into_sql_str(),
        false,
    )
}

/// Statements for PostgreSQL: the key comes from the generated column; the lookup by key is
/// urn-sql's ([`urn_sql::sqlx::find`]), whose statement names no object through the search_path.
mod pg_sql {
    /// The unique index is on an expression of the key; the only other unique index is the
    /// generated id's, so any conflict is the key's (naming the expression here would resolve
    /// its function through the search_path).
    pub(super) const INSERT: &str = "INSERT INTO items (urn, title, isbn, see_also) \
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING \
         RETURNING id, urn, urn_key, title, isbn, see_also";
    pub(super) const BY_ID: &str =
        "SELECT id, urn, urn_key, title, isbn, see_also FROM items WHERE id = $1";
}

/// Statements for SQLite: the key is bound by the application.
mod lite_sql {
    pub(super) const INSERT: &str = "INSERT INTO items (urn, title, isbn, see_also) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (urn_key) DO NOTHING \
         RETURNING id, urn, urn_key, title, isbn, see_also";
    pub(super) const FIND: &str =
        "SELECT id, urn, urn_key, title, isbn, see_also FROM items WHERE urn_key = ?1";
}

fn pg_item(row: &PgRow) -> Result<Item, sqlx::Error> {
    Ok(Item {
        id: row.try_get("id")?,
        urn: row.try_get("urn")?,
        key: row.try_get("urn_key")?,
        title: row.try_get("title")?,
        isbn: row.try_get("isbn")?,
        see_also: row.try_get("see_also")?,
    })
}

fn lite_item(row: &SqliteRow) -> Result<Item, sqlx::Error> {
    let Json(see_also) = row.try_get("see_also")?;
    Ok(Item {
        id: row.try_get("id")?,
        urn: row.try_get("urn")?,
        key: row.try_get("urn_key")?,
        title: row.try_get("title")?,
        isbn: row.try_get("isbn")?,
        see_also,
    })
}

impl Store {
    /// Connects to `url` (`sqlite:path`, `sqlite::memory:`, or `postgres://…`) and applies
    /// the catalog's migrations.
    pub async fn connect(url: &str) -> Result<Store, sqlx::Error> {
        if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let pool = PgPoolOptions::new().max_connections(8).connect(url).await?;
            postgres_migrator().run(&pool).await?;
            // urn-sql's migration installs into the current schema: urn-sql's statements name
            // its objects there, never through the search_path.
            let schema: String = sqlx::query_scalar("SELECT pg_catalog.current_schema()")
                .fetch_one(&pool)
                .await?;
            let table = UrnTable::new(&format!("{schema}.items"))
                .and_then(|table| table.with_urn_schema(&schema))
                .map_err(|e| sqlx::Error::Configuration(e.into()))?;
            Ok(Store::Postgres(pool, Box::new(table)))
        } else if url.starts_with("sqlite:") {
            // The generated key column calls urn_key_v1: every connection needs it.
            urn_sql::sqlite::register_for_all_connections()
                .map_err(|e| sqlx::Error::Configuration(e.into()))?;
            let options = SqliteConnectOptions::from_str(url)?.create_if_missing(true);
            // An in-memory database lives as long as its one connection.
            let max = if url.contains(":memory:") { 1 } else { 4 };
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .connect_with(options)
                .await?;
            let migrator = Migrator::with_migrations(vec![migration(
                ITEMS_VERSION,
                "catalog_items",
                SQLITE_ITEMS,
            )]);
            migrator.run(&pool).await?;
            Ok(Store::Sqlite(pool))
        } else {
            Err(sqlx::Error::Configuration(
                format!("unsupported database URL {url:?}: use sqlite:PATH or postgres://…").into(),
            ))
        }
    }

    /// Stores `item` unless an item with an equivalent URN exists; returns the stored item
    /// and whether this call created it. Concurrent callers with equivalent URNs get the same
    /// item.
    pub async fn insert_or_get(&self, item: &NewItem) -> Result<(Item, bool), sqlx::Error> {
        // ON CONFLICT DO NOTHING waits for a concurrent insert of the same key to commit, so
        // the lookup that follows a skipped insert sees its row.
        match self {
            Store::Postgres(pool, _) => {
                let inserted = sqlx::query(pg_sql::INSERT)
                    .bind(&item.urn)
                    .bind(&item.title)
                    .bind(&item.isbn)
                    .bind(&item.see_also)
                    .fetch_optional(pool)
                    .await?;
                if let Some(row) = inserted {
                    return Ok((pg_item(&row)?, true));
                }
            }
            Store::Sqlite(pool) => {
                let inserted = sqlx::query(lite_sql::INSERT)
                    .bind(&item.urn)
                    .bind(&item.title)
                    .bind(&item.isbn)
                    .bind(Json(&item.see_also))
                    .fetch_optional(pool)
                    .await?;
                if let Some(row) = inserted {
                    return Ok((lite_item(&row)?, true));
                }
            }
        }
        let existing = self.find(&item.urn).await?;
        existing
            .map(|item| (item, false))
            .ok_or(sqlx::Error::RowNotFound)
    }

    /// The item whose URN is equivalent to `urn`, if any (a lookup on the unique key).
    pub async fn find(&self, urn: &Urn) -> Result<Option<Item>, sqlx::Error> {
        match self {
            Store::Postgres(pool, table) => match urn_sql::sqlx::find(pool, table, urn).await? {
                Some(stored) => pg_item(
                    &sqlx::query(pg_sql::BY_ID)
                        .bind(stored.id)
                        .fetch_one(pool)
                        .await?,
                )
                .map(Some),
                None => Ok(None),
            },
            Store::Sqlite(pool) => sqlx::query(lite_sql::FIND)
                .bind(urn.key())
                .fetch_optional(pool)
                .await?
                .as_ref()
                .map(lite_item)
                .transpose(),
        }
    }

    /// Closes the pool, waiting for connections in use to be returned.
    pub async fn close(&self) {
        match self {
            Store::Postgres(pool, _) => pool.close().await,
            Store::Sqlite(pool) => pool.close().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SQLite migration starts with urn-sql's keyed table verbatim, so it cannot drift.
    #[test]
    fn sqlite_migration_uses_the_urn_sql_table() {
        let table =
            urn_sql::Dialect::Sqlite.create_table_sql(&urn_sql::UrnTable::new("items").unwrap());
        let columns = table.trim_end().trim_end_matches(");").trim_end();
        assert!(SQLITE_ITEMS.contains(&format!("{columns},\n")), "{columns}");
        assert!(POSTGRES_ITEMS.contains(
            "COLLATE \"C\" GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL"
        ));
        assert!(POSTGRES_ITEMS.contains("ON items ((urn_key_index(urn_key)) COLLATE \"C\")"));
    }
}
