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

/// Insert-or-get on one connection: the insert statement, and where it returns nothing on a
/// conflict ([`UrnTable::insert_or_get_is_atomic`]), the lookup by key; a row deleted between
/// the two makes it try again (three times in all).
async fn insert_or_find<DB>(
    conn: &mut DB::Connection,
    table: &UrnTable,
    dialect: Dialect,
    urn: &Urn,
) -> Result<StoredUrn, ::sqlx::Error>
where
    DB: ::sqlx::Database,
    for<'e> &'e mut DB::Connection: ::sqlx::Executor<'e, Database = DB>,
    DB::Arguments: ::sqlx::IntoArguments<DB>,
    for<'q> Urn: ::sqlx::Encode<'q, DB> + ::sqlx::Type<DB>,
    for<'q> urn_core::UrnKey<'q>: ::sqlx::Encode<'q, DB> + ::sqlx::Type<DB>,
    usize: ::sqlx::ColumnIndex<DB::Row>,
    for<'r> i64: ::sqlx::Decode<'r, DB> + ::sqlx::Type<DB>,
    for<'r> bool: ::sqlx::Decode<'r, DB> + ::sqlx::Type<DB>,
    for<'r> Urn: ::sqlx::Decode<'r, DB>,
    for<'r> urn_core::UrnKey<'static>: ::sqlx::Decode<'r, DB>,
{
    let key = urn.key();
    for _ in 0..3 {
        let inserted = ::sqlx::query(AssertSqlSafe(table.insert_or_get_sql(dialect)))
            .bind(urn)
            .fetch_optional(&mut *conn)
            .await?;
        if let Some(row) = inserted {
            return stored(&row);
        }
        if table.insert_or_get_is_atomic(dialect) {
            break;
        }
        let existing = ::sqlx::query(AssertSqlSafe(table.find_sql(dialect)))
            .bind(&key)
            .fetch_optional(&mut *conn)
            .await?;
        if let Some(row) = existing {
            return stored(&row);
        }
    }
    Err(::sqlx::Error::RowNotFound)
}

/// PostgreSQL: the database computes the key (`urn_key_v1`), so rows written by any client
/// deduplicate the same way.
#[cfg(feature = "sqlx-postgres")]
pub mod postgres {
    use super::*;
    use ::sqlx::{Acquire, Executor, Postgres};

    /// Runs the `postgres::UP` migration in one transaction (for applications that do not run
    /// migrations some other way): it creates the domains and functions, brings an older install
    /// up to date, and does nothing when they are current.
    ///
    /// ```no_run
    /// # async fn f(pool: sqlx::PgPool) -> Result<(), sqlx::Error> {
    /// urn_sql::sqlx::postgres::install(&pool).await?;
    /// # Ok(()) }
    /// ```
    pub async fn install(pool: &::sqlx::PgPool) -> Result<(), ::sqlx::Error> {
        let mut tx = pool.begin().await?;
        // UP serialises concurrent installers itself (an advisory lock) and is idempotent.
        tx.execute(::sqlx::raw_sql(crate::postgres::UP)).await?;
        tx.commit().await
    }

    /// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either
    /// way: concurrent callers with equivalent URNs all get the same row and no error. One
    /// atomic statement; on a [hash-partitioned](UrnTable::hash_partitioned) table, an insert
    /// that returns nothing on a conflict, then the lookup (so it takes a connection:
    /// `&pool`, `&mut conn` or `&mut tx` all do).
    ///
    /// ```no_run
    /// # async fn f(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
    /// let table = urn_sql::UrnTable::new("items")?;
    /// let first = urn_sql::sqlx::postgres::insert_or_get(&pool, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
    /// let again = urn_sql::sqlx::postgres::insert_or_get(&pool, &table, &"URN:isbn:0395363411".parse()?).await?;
    /// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
    /// # Ok(()) }
    /// ```
    pub async fn insert_or_get<'a, A>(
        conn: A,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<StoredUrn, ::sqlx::Error>
    where
        A: Acquire<'a, Database = Postgres>,
    {
        let mut conn = conn.acquire().await?;
        insert_or_find::<Postgres>(&mut conn, table, Dialect::Postgres, urn).await
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

/// SQLite: the key column is generated by the registered `urn_key_v1` function.
#[cfg(feature = "sqlx-sqlite")]
pub mod sqlite {
    use super::*;
    use ::sqlx::{Acquire, Sqlite, SqliteConnection};

    /// Registers `urn_key_v1(text)` and `urn_check(text)` on one open connection, e.g. in a
    /// pool's `after_connect` hook. [`crate::sqlite::register_functions`], called once before
    /// the pool opens, does the same for every connection of the process.
    ///
    /// ```
    /// # async fn f() -> Result<(), sqlx::Error> {
    /// let pool = sqlx::sqlite::SqlitePoolOptions::new()
    ///     .after_connect(|conn, _| Box::pin(urn_sql::sqlx::sqlite::register_functions(conn)))
    ///     .connect("sqlite::memory:")
    ///     .await?;
    /// let key: String = sqlx::query_scalar("SELECT urn_key_v1('URN:ISBN:0-395-36341-1')")
    ///     .fetch_one(&pool)
    ///     .await?;
    /// assert_eq!(key, "urn:isbn:0395363411");
    /// # Ok(()) }
    /// # tokio::runtime::Runtime::new().unwrap().block_on(f()).unwrap();
    /// ```
    #[allow(unsafe_code)]
    pub async fn register_functions(conn: &mut SqliteConnection) -> Result<(), ::sqlx::Error> {
        let mut handle = conn.lock_handle().await?;
        let db = handle.as_raw_handle().as_ptr();
        // SAFETY: the handle is locked, so `db` is an open connection no other thread uses.
        let rc = unsafe { crate::sqlite::functions::register(db) };
        if rc == 0 {
            Ok(())
        } else {
            Err(::sqlx::Error::Configuration(Box::new(
                crate::sqlite::RegisterError { code: rc },
            )))
        }
    }

    /// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either way.
    /// The connection needs the key function (see [`register_functions`]).
    pub async fn insert_or_get<'a, A>(
        conn: A,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<StoredUrn, ::sqlx::Error>
    where
        A: Acquire<'a, Database = Sqlite>,
    {
        let mut conn = conn.acquire().await?;
        insert_or_find::<Sqlite>(&mut conn, table, Dialect::Sqlite, urn).await
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

    /// Lists the rows of `table` that a correct `urn_key_v1` would not have written: an
    /// invalid URN, a key that is not the URN's, a second spelling of a stored URN (see
    /// [`Audit`](crate::sqlite::Audit) for why SQLite can hold them). Reads every row, one at a
    /// time.
    pub async fn audit<'a, A>(
        conn: A,
        table: &UrnTable,
    ) -> Result<Vec<crate::sqlite::AuditFinding>, ::sqlx::Error>
    where
        A: Acquire<'a, Database = Sqlite>,
    {
        use futures_util::TryStreamExt;
        let mut conn = conn.acquire().await?;
        let mut audit = crate::sqlite::Audit::new();
        let sql = crate::sqlite::audit_sql(table);
        let mut rows =
            ::sqlx::query_as::<_, (i64, Option<Vec<u8>>, Option<Vec<u8>>)>(AssertSqlSafe(sql))
                .fetch(&mut *conn);
        while let Some((id, urn, key)) = rows.try_next().await? {
            audit.row(id, urn.as_deref(), key.as_deref());
        }
        Ok(audit.finish())
    }
}

/// MariaDB: the key is the table's generated column (built-in functions only) and its
/// triggers refuse invalid URNs, so rows written by any client deduplicate the same way.
#[cfg(feature = "sqlx-mysql")]
pub mod mysql {
    use super::*;
    use ::sqlx::mysql::MySqlRow;
    use ::sqlx::{Acquire, Executor, MySql};

    /// Runs `mariadb::UP` on one connection (for applications that do not run migrations some
    /// other way): it creates or replaces the functions in the connection's database, refusing
    /// routines of their names that another user defined. MariaDB commits DDL as it goes, so an
    /// interrupted install is finished by running it again.
    pub async fn install<'a, A>(conn: A) -> Result<(), ::sqlx::Error>
    where
        A: Acquire<'a, Database = MySql>,
    {
        let mut conn = conn.acquire().await?;
        conn.execute(::sqlx::raw_sql(crate::mariadb::UP)).await?;
        Ok(())
    }

    /// A row of the MariaDB statements (id, urn, key), and whether this call inserted it.
    fn stored(row: &MySqlRow, inserted: bool) -> Result<StoredUrn, ::sqlx::Error> {
        Ok(StoredUrn {
            id: row.try_get(0)?,
            urn: row.try_get(1)?,
            key: row.try_get(2)?,
            inserted,
        })
    }

    /// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either way:
    /// `INSERT … RETURNING`, and on a duplicate key (ERROR 1062) the lookup by key, a locking
    /// read that sees a row another transaction has just committed. Concurrent callers with
    /// equivalent URNs all get the same row and no error.
    ///
    /// ```no_run
    /// # async fn f(pool: sqlx::MySqlPool) -> Result<(), Box<dyn std::error::Error>> {
    /// let table = urn_sql::UrnTable::new("items")?;
    /// let first = urn_sql::sqlx::mysql::insert_or_get(&pool, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
    /// let again = urn_sql::sqlx::mysql::insert_or_get(&pool, &table, &"URN:isbn:0395363411".parse()?).await?;
    /// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
    /// # Ok(()) }
    /// ```
    pub async fn insert_or_get<'a, A>(
        conn: A,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<StoredUrn, ::sqlx::Error>
    where
        A: Acquire<'a, Database = MySql>,
    {
        let mut conn = conn.acquire().await?;
        let key = urn.key();
        let insert = table.insert_or_get_sql(Dialect::MariaDb);
        let find = table.mariadb_locking_find_sql();
        // A row deleted between the two statements makes the lookup miss; try again.
        for _ in 0..3 {
            match ::sqlx::query(AssertSqlSafe(insert.as_str()))
                .bind(urn)
                .fetch_one(&mut *conn)
                .await
            {
                Ok(row) => return stored(&row, true),
                Err(e)
                    if e.as_database_error()
                        .is_some_and(|d| d.is_unique_violation()) => {}
                Err(e) => return Err(e),
            }
            let existing = ::sqlx::query(AssertSqlSafe(find.as_str()))
                .bind(&key)
                .fetch_optional(&mut *conn)
                .await?;
            if let Some(row) = existing {
                return stored(&row, false);
            }
        }
        Err(::sqlx::Error::RowNotFound)
    }

    /// Finds the row holding `urn` in any equivalent spelling (an index lookup by the key's
    /// SHA-256).
    pub async fn find<'c, E>(
        executor: E,
        table: &UrnTable,
        urn: &Urn,
    ) -> Result<Option<StoredUrn>, ::sqlx::Error>
    where
        E: Executor<'c, Database = MySql>,
    {
        let row = ::sqlx::query(AssertSqlSafe(table.find_sql(Dialect::MariaDb)))
            .bind(urn.key())
            .fetch_optional(executor)
            .await?;
        row.as_ref().map(|row| stored(row, false)).transpose()
    }
}
