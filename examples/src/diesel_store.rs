//! The catalog's storage through diesel, on the same tables and migrations as the sqlx
//! [`Store`](crate::store::Store): SQLite (key written from Rust) or PostgreSQL (key generated
//! by the database), both deduplicating on the unique key column.

use diesel::prelude::*;
use diesel::{PgConnection, SqliteConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use urn_core::{Urn, UrnKey};
use urn_serde::IsbnUrn;
use urn_sql::UrnTable;

use crate::item::{Item, NewItem};

/// urn-sql's PostgreSQL migration (domains `urn`, `urn_key`, function `urn_key_v1`).
const URN_TYPES: EmbeddedMigrations = embed_migrations!("../urn-sql/migrations/postgres");
/// The items table on PostgreSQL.
const PG_ITEMS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
/// The items table on SQLite.
const SQLITE_ITEMS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// The PostgreSQL table: URN columns use urn-sql's domain types.
mod pg {
    diesel::table! {
        use diesel::sql_types::*;
        use urn_core::sql_types::Urn;
        items (id) {
            id -> BigInt,
            urn -> Urn,
            urn_key -> Text,
            title -> Text,
            isbn -> Nullable<Urn>,
            see_also -> Array<Urn>,
        }
    }
}

/// The SQLite table: text columns; `see_also` holds a JSON array.
mod lite {
    diesel::table! {
        items (id) {
            id -> BigInt,
            urn -> Text,
            urn_key -> Text,
            title -> Text,
            isbn -> Nullable<Text>,
            see_also -> Text,
        }
    }
}

/// A PostgreSQL row; decoding checks every URN (a bad stored value is an error).
#[derive(Queryable, Selectable)]
#[diesel(table_name = pg::items, check_for_backend(diesel::pg::Pg))]
struct PgRow {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
    title: String,
    isbn: Option<IsbnUrn>,
    see_also: Vec<Urn>,
}

impl From<PgRow> for Item {
    fn from(row: PgRow) -> Item {
        Item {
            id: row.id,
            urn: row.urn,
            key: row.urn_key,
            title: row.title,
            isbn: row.isbn,
            see_also: row.see_also,
        }
    }
}

/// A SQLite row; `see_also` is decoded from JSON (through urn-serde, so it is checked too).
#[derive(Queryable, Selectable)]
#[diesel(table_name = lite::items, check_for_backend(diesel::sqlite::Sqlite))]
struct LiteRow {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
    title: String,
    isbn: Option<IsbnUrn>,
    see_also: String,
}

impl TryFrom<LiteRow> for Item {
    type Error = diesel::result::Error;
    fn try_from(row: LiteRow) -> QueryResult<Item> {
        let see_also = serde_json::from_str(&row.see_also).map_err(|e| {
            diesel::result::Error::DeserializationError(
                format!(
                    "stored see_also {:?} is not a JSON array of URNs: {e}",
                    row.see_also
                )
                .into(),
            )
        })?;
        Ok(Item {
            id: row.id,
            urn: row.urn,
            key: row.urn_key,
            title: row.title,
            isbn: row.isbn,
            see_also,
        })
    }
}

/// A connected, migrated catalog database for diesel.
pub enum DieselStore {
    /// A SQLite database file.
    Sqlite(SqliteConnection),
    /// A PostgreSQL database, and its keyed table (named with the schema urn-sql's migration
    /// installed into).
    Postgres(PgConnection, Box<UrnTable>),
}

/// Connecting or migrating failed.
pub type OpenError = Box<dyn std::error::Error + Send + Sync>;

impl DieselStore {
    /// Opens `url` (`postgres://…`, or a SQLite path, optionally written `sqlite:path`) and
    /// runs the pending migrations.
    pub fn open(url: &str) -> Result<DieselStore, OpenError> {
        if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let mut conn = PgConnection::establish(url)?;
            conn.run_pending_migrations(URN_TYPES)?;
            conn.run_pending_migrations(PG_ITEMS)?;
            // urn-sql's migration installs into the current schema: the helpers' statements
            // name its objects there.
            let schema: String = diesel::select(diesel::dsl::sql::<diesel::sql_types::Text>(
                "pg_catalog.current_schema()",
            ))
            .get_result(&mut conn)?;
            let table = UrnTable::new(&format!("{schema}.items"))?.with_urn_schema(&schema)?;
            Ok(DieselStore::Postgres(conn, Box::new(table)))
        } else {
            let path = url
                .strip_prefix("sqlite://")
                .or_else(|| url.strip_prefix("sqlite:"));
            // Registers urn_key_v1, which the generated key column calls.
            urn_sql::sqlite::register_for_all_connections()?;
            let mut conn = SqliteConnection::establish(path.unwrap_or(url))?;
            conn.run_pending_migrations(SQLITE_ITEMS)?;
            Ok(DieselStore::Sqlite(conn))
        }
    }

    /// Stores `item` unless an item with an equivalent URN exists; returns the stored item
    /// and whether this call created it.
    pub fn insert_or_get(&mut self, item: &NewItem) -> QueryResult<(Item, bool)> {
        let inserted = match self {
            DieselStore::Postgres(conn, _) => diesel::insert_into(pg::items::table)
                .values((
                    pg::items::urn.eq(&item.urn),
                    pg::items::title.eq(&item.title),
                    pg::items::isbn.eq(&item.isbn),
                    pg::items::see_also.eq(&item.see_also),
                ))
                // The unique index is on urn_key_index(urn_key), an expression, which diesel's
                // on_conflict(column) cannot name; any conflict is that one here.
                .on_conflict_do_nothing()
                .returning(PgRow::as_returning())
                .get_result(conn)
                .optional()?
                .map(Item::from),
            DieselStore::Sqlite(conn) => diesel::insert_into(lite::items::table)
                .values((
                    lite::items::urn.eq(&item.urn),
                    lite::items::title.eq(&item.title),
                    lite::items::isbn.eq(&item.isbn),
                    lite::items::see_also.eq(json_array(&item.see_also)?),
                ))
                .on_conflict(lite::items::urn_key)
                .do_nothing()
                .returning(LiteRow::as_returning())
                .get_result(conn)
                .optional()?
                .map(Item::try_from)
                .transpose()?,
        };
        match inserted {
            Some(item) => Ok((item, true)),
            None => self
                .find(&item.urn)?
                .map(|item| (item, false))
                .ok_or(diesel::result::Error::NotFound),
        }
    }

    /// The item whose URN is equivalent to `urn`, if any.
    pub fn find(&mut self, urn: &Urn) -> QueryResult<Option<Item>> {
        match self {
            // urn-sql's lookup by key (the unique index), then the row by its id.
            DieselStore::Postgres(conn, table) => match urn_sql::diesel::find(conn, table, urn)? {
                Some(stored) => Ok(Some(Item::from(
                    pg::items::table
                        .find(stored.id)
                        .select(PgRow::as_select())
                        .first(conn)?,
                ))),
                None => Ok(None),
            },
            DieselStore::Sqlite(conn) => lite::items::table
                .filter(lite::items::urn_key.eq(urn.key()))
                .select(LiteRow::as_select())
                .first(conn)
                .optional()?
                .map(Item::try_from)
                .transpose(),
        }
    }

    /// Every item, in insertion order.
    pub fn list(&mut self) -> QueryResult<Vec<Item>> {
        match self {
            DieselStore::Postgres(conn, _) => Ok(pg::items::table
                .order(pg::items::id)
                .select(PgRow::as_select())
                .load(conn)?
                .into_iter()
                .map(Item::from)
                .collect()),
            DieselStore::Sqlite(conn) => lite::items::table
                .order(lite::items::id)
                .select(LiteRow::as_select())
                .load(conn)?
                .into_iter()
                .map(Item::try_from)
                .collect(),
        }
    }
}

fn json_array(urns: &[Urn]) -> QueryResult<String> {
    serde_json::to_string(urns).map_err(|e| diesel::result::Error::SerializationError(e.into()))
}
