//! sqlx helpers: install the PostgreSQL schema, insert-or-get by key, find by any equivalent
//! spelling (features `sqlx-postgres`, `sqlx-sqlite`).
//!
//! Column types need nothing from here: with the features on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement `Type`, `Encode` and `Decode` (and `PgHasArrayType`), so `.bind(&urn)` and
//! `row.try_get::<Urn, _>("urn")` work, as do `#[derive(sqlx::FromRow)]` structs with such
//! fields.

use ::sqlx::{AssertSqlSafe, Row};
use urn_core::Urn;

use crate::{Dialect, StoredUrn, UrnTable};

/// Reads a [`StoredUrn`] from a row of the helpers' statements.
fn stored<'r, R>(row: &'r R) -> Result<StoredUrn, ::sqlx::Error>
where
    R: Row,
    usize: ::sqlx::ColumnIndex<R>,
    i64: ::sqlx::Decode<'r, R::Database> + ::sqlx::Type<R::Database>,
    bool: ::sqlx::Decode<'r, R::Database> + ::sqlx::Type<R::Database>,
    Urn: ::sqlx::Decode<'r, R::Database> + ::sqlx::Type<R::Database>,
    urn_core::UrnKey<'static>: ::sqlx::Decode<'r, R::Database> + ::sqlx::Type<R::Database>,
{
    Ok(StoredUrn {
        id: row.try_get(0)?,
        urn: row.try_get(1)?,
        key: row.try_get(2)?,
        inserted: row.try_get(3)?,
    })
}

/// PostgreSQL: the database computes the key (`urn_key_v1`), so rows written by any client
/// deduplicate the same way.
#[cfg(feature = "sqlx-postgres")]
pub mod postgres {
    use super::*;
    use ::sqlx::{Executor, Postgres};

    /// Creates the `urn` and `urn_key` domains and `urn_key_v1` unless the domain `urn` already
    /// exists, in one transaction (the `postgres::UP` migration, for applications that do not run
    /// migrations some other way).
    ///
    /// ```no_run
    /// # async fn f(pool: sqlx::PgPool) -> Result<(), sqlx::Error> {
    /// urn_sql::sqlx::postgres::install(&pool).await?;
    /// # Ok(()) }
    /// ```
    pub async fn install(pool: &::sqlx::PgPool) -> Result<(), ::sqlx::Error> {
        let mut tx = pool.begin().await?;
        // Serialises concurrent installers.
        ::sqlx::query("SELECT pg_advisory_xact_lock(8141)")
            .execute(&mut *tx)
            .await?;
        let exists: bool = ::sqlx::query_scalar("SELECT to_regtype('urn') IS NOT NULL")
            .fetch_one(&mut *tx)
            .await?;
        if !exists {
            tx.execute(::sqlx::raw_sql(crate::postgres::UP)).await?;
        }
        tx.commit().await
    }

    /// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either
    /// way, in one statement: concurrent callers with equivalent URNs all get the same row and
    /// no error.
    ///
    /// ```no_run
    /// # async fn f(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
    /// let table = urn_sql::UrnTable::new("items")?;
    /// let first = urn_sql::sqlx::postgres::insert_or_get(&pool, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
    /// let again = urn_sql::sqlx::postgres::insert_or_get(&pool, &table, &"URN:isbn:0395363411".parse()?).await?;
    /// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
    /// # Ok(()) }
    /// ```
    pub async fn insert_or_get<'c, E>(
        executor: E,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<StoredUrn, ::sqlx::Error>
    where
        E: Executor<'c, Database = Postgres>,
    {
        let row = ::sqlx::query(AssertSqlSafe(table.insert_or_get_sql(Dialect::Postgres)))
            .bind(urn)
            .fetch_one(executor)
            .await?;
        stored(&row)
    }

    /// Finds the row holding `urn` in any equivalent spelling (an index lookup by key).
    pub async fn find<'c, E>(
        executor: E,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<Option<StoredUrn>, ::sqlx::Error>
    where
        E: Executor<'c, Database = Postgres>,
    {
        let row = ::sqlx::query(AssertSqlSafe(table.find_sql(Dialect::Postgres)))
            .bind(urn.key())
            .fetch_optional(executor)
            .await?;
        row.as_ref().map(stored).transpose()
    }
}

/// SQLite: the key is computed here, in Rust, and written next to the URN.
#[cfg(feature = "sqlx-sqlite")]
pub mod sqlite {
    use super::*;
    use ::sqlx::{Acquire, Sqlite};

    /// Inserts `urn` (with its key) unless an equivalent URN is stored, and returns the
    /// stored row either way.
    pub async fn insert_or_get<'a, A>(
        conn: A,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<StoredUrn, ::sqlx::Error>
    where
        A: Acquire<'a, Database = Sqlite>,
    {
        let mut conn = conn.acquire().await?;
        let key = urn.key();
        // A row deleted between the two statements would make the lookup miss; try again.
        for _ in 0..3 {
            let inserted = ::sqlx::query(AssertSqlSafe(table.insert_or_get_sql(Dialect::Sqlite)))
                .bind(urn)
                .bind(&key)
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(row) = inserted {
                return stored(&row);
            }
            let existing = ::sqlx::query(AssertSqlSafe(table.find_sql(Dialect::Sqlite)))
                .bind(&key)
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(row) = existing {
                return stored(&row);
            }
        }
        Err(::sqlx::Error::RowNotFound)
    }

    /// Finds the row holding `urn` in any equivalent spelling (an index lookup by key).
    pub async fn find<'a, A>(
        conn: A,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<Option<StoredUrn>, ::sqlx::Error>
    where
        A: Acquire<'a, Database = Sqlite>,
    {
        let mut conn = conn.acquire().await?;
        let row = ::sqlx::query(AssertSqlSafe(table.find_sql(Dialect::Sqlite)))
            .bind(urn.key())
            .fetch_optional(&mut *conn)
            .await?;
        row.as_ref().map(stored).transpose()
    }
}
