//! diesel helpers: insert-or-get by key, find by any equivalent spelling (features
//! `diesel-postgres`, `diesel-sqlite`), and the embedded PostgreSQL migration.
//!
//! Column types need nothing from here: with the features on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement `AsExpression`, `ToSql` and `FromSql` for `Text` and for the
//! [`sql_types`](urn_core::sql_types) markers of the PostgreSQL domains, so they work as
//! fields of `Queryable`, `Selectable` and `Insertable` structs.

use ::diesel::QueryResult;
use ::diesel::RunQueryDsl;
use ::diesel::sql_types::Text;
use urn_core::Urn;

use crate::{Dialect, StoredUrn, UrnTable};

/// PostgreSQL: the database computes the key (`urn_key_v1`).
#[cfg(feature = "diesel-postgres")]
pub mod postgres {
    use super::*;
    use ::diesel::PgConnection;

    /// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either
    /// way, in one statement (see [`UrnTable::insert_or_get_sql`]).
    pub fn insert_or_get(
        conn: &mut PgConnection,
        table: &UrnTable,
        urn: &Urn,
    ) -> QueryResult<StoredUrn> {
        ::diesel::sql_query(table.insert_or_get_sql(Dialect::Postgres))
            .bind::<Text, _>(urn)
            .get_result(conn)
    }

    /// Finds the row holding `urn` in any equivalent spelling.
    pub fn find(
        conn: &mut PgConnection,
        table: &UrnTable,
        urn: &Urn,
    ) -> QueryResult<Option<StoredUrn>> {
        use ::diesel::OptionalExtension;
        ::diesel::sql_query(table.find_sql(Dialect::Postgres))
            .bind::<Text, _>(urn.key())
            .get_result(conn)
            .optional()
    }
}

/// SQLite: the key is computed here, in Rust, and written next to the URN.
#[cfg(feature = "diesel-sqlite")]
pub mod sqlite {
    use super::*;
    use ::diesel::SqliteConnection;

    /// Inserts `urn` (with its key) unless an equivalent URN is stored, and returns the
    /// stored row either way (both statements in one immediate transaction).
    pub fn insert_or_get(
        conn: &mut SqliteConnection,
        table: &UrnTable,
        urn: &Urn,
    ) -> QueryResult<StoredUrn> {
        let key = urn.key();
        conn.immediate_transaction(|conn| {
            let inserted: Vec<StoredUrn> =
                ::diesel::sql_query(table.insert_or_get_sql(Dialect::Sqlite))
                    .bind::<Text, _>(urn)
                    .bind::<Text, _>(&key)
                    .load(conn)?;
            match inserted.into_iter().next() {
                Some(row) => Ok(row),
                None => ::diesel::sql_query(table.find_sql(Dialect::Sqlite))
                    .bind::<Text, _>(&key)
                    .get_result(conn),
            }
        })
    }

    /// Finds the row holding `urn` in any equivalent spelling.
    pub fn find(
        conn: &mut SqliteConnection,
        table: &UrnTable,
        urn: &Urn,
    ) -> QueryResult<Option<StoredUrn>> {
        use ::diesel::OptionalExtension;
        ::diesel::sql_query(table.find_sql(Dialect::Sqlite))
            .bind::<Text, _>(urn.key())
            .get_result(conn)
            .optional()
    }
}
