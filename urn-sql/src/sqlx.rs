//! sqlx helpers for PostgreSQL, SQLite and MariaDB (features `sqlx-postgres`, `sqlx-sqlite`,
//! `sqlx-mariadb`): [`install`], [`insert_or_get`] and [`find`] take any connection of the
//! three (`&pool`, `&mut conn`, `&mut tx`), as do [`rekey()`] and [`rekey_collisions`]; on
//! SQLite also [`register_functions`] and [`audit`].
//!
//! Column types need nothing from here: with the features on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement `Type`, `Encode` and `Decode` (and `PgHasArrayType`), so `.bind(&urn)` and
//! `row.try_get::<Urn, _>("urn")` work, as do `#[derive(sqlx::FromRow)]` structs with such
//! fields.

use std::future::Future;

use ::sqlx::{Acquire, AssertSqlSafe, Row};
use urn_core::{KeyRules, Urn, UrnKey};

use crate::protocol::{self, Client, Inserted, Plan};
use crate::rekey::{self, Collision, OnCollision, Rekeyed};
use crate::row::StoredUrn;
use crate::table::UrnTable;

mod sealed {
    /// Only the databases below implement [`Database`](super::Database).
    pub trait Sealed {}
}

/// The sqlx databases urn-sql has helpers for: `sqlx::Postgres`, `sqlx::Sqlite` and
/// `sqlx::MySql` (on MariaDB). Sealed; its methods are the helpers' implementations.
pub trait Database: ::sqlx::Database + sealed::Sealed {
    #[doc(hidden)]
    fn install_on(
        conn: &mut Self::Connection,
    ) -> impl Future<Output = Result<(), ::sqlx::Error>> + Send;

    #[doc(hidden)]
    fn insert_or_get_on<'c>(
        conn: &'c mut Self::Connection,
        table: &'c UrnTable,
        urn: &'c Urn,
    ) -> impl Future<Output = Result<StoredUrn, ::sqlx::Error>> + Send + 'c;

    #[doc(hidden)]
    fn find_on<'c>(
        conn: &'c mut Self::Connection,
        table: &'c UrnTable,
        urn: &'c Urn,
    ) -> impl Future<Output = Result<Option<StoredUrn>, ::sqlx::Error>> + Send + 'c;

    #[doc(hidden)]
    fn rekey_on<'c>(
        conn: &'c mut Self::Connection,
        table: &'c UrnTable,
        to: KeyRules,
        on_collision: OnCollision,
    ) -> impl Future<Output = Result<Rekeyed, ::sqlx::Error>> + Send + 'c;

    #[doc(hidden)]
    fn collisions_on<'c>(
        conn: &'c mut Self::Connection,
        table: &'c UrnTable,
        to: KeyRules,
    ) -> impl Future<Output = Result<Vec<Collision>, ::sqlx::Error>> + Send + 'c;
}

/// Makes what urn-sql needs in the database, and does nothing when it is there:
/// PostgreSQL: the portable install ([`postgres::UP`](crate::postgres::UP)) in one
/// transaction, which creates the domains and functions or brings an older install up to
/// date; MariaDB: the routines ([`mariadb::UP`](crate::mariadb::UP)); SQLite: nothing lives in
/// the database, so it checks that this connection has the key function and says how to
/// register it if not.
///
/// ```no_run
/// # async fn f(pool: sqlx::PgPool) -> Result<(), sqlx::Error> {
/// urn_sql::sqlx::install(&pool).await?;
/// # Ok(()) }
/// ```
pub async fn install<'a, A>(conn: A) -> Result<(), ::sqlx::Error>
where
    A: Acquire<'a>,
    A::Database: Database,
{
    let mut conn = conn.acquire().await?;
    <A::Database as Database>::install_on(&mut conn).await
}

/// Inserts `urn` into `table` unless an equivalent URN is stored, and returns the stored row
/// either way; `inserted` is true only for the call that inserted it. Concurrent callers with
/// equivalent URNs all get the same row and no error. The database computes the key.
///
/// ```no_run
/// # async fn f(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
/// let table = urn_sql::UrnTable::new("items")?;
/// let first = urn_sql::sqlx::insert_or_get(&pool, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
/// let again = urn_sql::sqlx::insert_or_get(&pool, &table, &"URN:isbn:0395363411".parse()?).await?;
/// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
/// # Ok(()) }
/// ```
pub async fn insert_or_get<'a, A>(
    conn: A,
    table: &UrnTable,
    urn: &Urn,
) -> Result<StoredUrn, ::sqlx::Error>
where
    A: Acquire<'a>,
    A::Database: Database,
{
    let mut conn = conn.acquire().await?;
    <A::Database as Database>::insert_or_get_on(&mut conn, table, urn).await
}

/// Finds the row of `table` holding `urn` in any equivalent spelling (an index lookup by
/// key).
pub async fn find<'a, A>(
    conn: A,
    table: &UrnTable,
    urn: &Urn,
) -> Result<Option<StoredUrn>, ::sqlx::Error>
where
    A: Acquire<'a>,
    A::Database: Database,
{
    let mut conn = conn.acquire().await?;
    <A::Database as Database>::find_on(&mut conn, table, urn).await
}

/// Re-keys `table` (keyed by its [`UrnTable::key_rules`], say `KeyRules::V1`) to the next
/// version of the rules, `to`, on one connection: the steps of
/// [`Dialect::rekey_sql`](crate::Dialect::rekey_sql), run as the script runs them. First the
/// rows that the new rules make one are collected; with [`OnCollision::Refuse`] and any such
/// rows, it stops there, changing nothing, and returns them ([`Rekeyed::collisions`],
/// `switched` false). Online on PostgreSQL and (where MariaDB allows it) MariaDB; one
/// transaction on SQLite. Stopped anywhere, the table works under its rules, and calling it
/// again goes on. A table re-keyed already is left as it is (`switched`).
///
/// ```no_run
/// # async fn f(pool: sqlx::PgPool) -> Result<(), Box<dyn std::error::Error>> {
/// use urn_sql::{KeyRules, OnCollision, UrnTable};
/// let old = UrnTable::new("items")?.with_key_rules(KeyRules::V1)?;
/// let done = urn_sql::sqlx::rekey(&pool, &old, KeyRules::V2, OnCollision::Refuse).await?;
/// assert!(done.switched);
/// let items = old.with_key_rules(KeyRules::V2)?; // the table from now on
/// # Ok(()) }
/// ```
pub async fn rekey<'a, A>(
    conn: A,
    table: &UrnTable,
    to: KeyRules,
    on_collision: OnCollision,
) -> Result<Rekeyed, ::sqlx::Error>
where
    A: Acquire<'a>,
    A::Database: Database,
{
    let mut conn = conn.acquire().await?;
    <A::Database as Database>::rekey_on(&mut conn, table, to, on_collision).await
}

/// The rows of `table` that are distinct under its rules but one URN under `to`: what
/// [`rekey`] would refuse (or, with [`OnCollision::KeepFirst`], move), changing nothing.
pub async fn rekey_collisions<'a, A>(
    conn: A,
    table: &UrnTable,
    to: KeyRules,
) -> Result<Vec<Collision>, ::sqlx::Error>
where
    A: Acquire<'a>,
    A::Database: Database,
{
    let mut conn = conn.acquire().await?;
    <A::Database as Database>::collisions_on(&mut conn, table, to).await
}

/// One sqlx connection running the protocol's statements.
struct Conn<'c, C>(&'c mut C);

/// The helpers for one sqlx database: its connection type and the database module whose SQL
/// it runs.
macro_rules! database {
    ($feature:literal, $db:ty, $conn:ty, $dialect:expr) => {
        #[cfg(feature = $feature)]
        impl sealed::Sealed for $db {}

        #[cfg(feature = $feature)]
        impl Conn<'_, $conn> {
            /// Reads a [`StoredUrn`] from a row of the protocol's statements.
            fn stored(row: &<$db as ::sqlx::Database>::Row) -> Result<StoredUrn, ::sqlx::Error> {
                StoredUrn::read(
                    row.try_get(0),
                    row.try_get(1),
                    row.try_get(2),
                    row.try_get(3),
                )
            }
        }

        #[cfg(feature = $feature)]
        impl Client for Conn<'_, $conn> {
            type Error = ::sqlx::Error;

            async fn insert(&mut self, plan: &Plan, urn: &Urn) -> Inserted<::sqlx::Error> {
                let row = ::sqlx::query(AssertSqlSafe(plan.insert.as_str()))
                    .bind(urn)
                    .fetch_optional(&mut *self.0)
                    .await;
                match row {
                    Ok(Some(row)) => {
                        Self::stored(&row).map_or_else(Inserted::Failed, Inserted::Row)
                    }
                    Ok(None) => Inserted::Nothing,
                    Err(e)
                        if e.as_database_error().is_some_and(|d| {
                            d.is_unique_violation() && plan.conflict.is_key(d.message())
                        }) =>
                    {
                        Inserted::Duplicate
                    }
                    Err(e) => Inserted::Failed(e),
                }
            }

            async fn find(
                &mut self,
                sql: &str,
                key: &UrnKey<'_>,
            ) -> Result<Option<StoredUrn>, ::sqlx::Error> {
                let row = ::sqlx::query(AssertSqlSafe(sql))
                    .bind(key)
                    .fetch_optional(&mut *self.0)
                    .await?;
                row.as_ref().map(Self::stored).transpose()
            }

            async fn execute(&mut self, sql: &str) -> Result<(), ::sqlx::Error> {
                use ::sqlx::Executor;
                self.0
                    .execute(::sqlx::raw_sql(AssertSqlSafe(sql)))
                    .await
                    .map(drop)
            }

            fn refused(message: String) -> Option<::sqlx::Error> {
                Some(::sqlx::Error::Configuration(message.into()))
            }

            fn key_error(message: String) -> Option<::sqlx::Error> {
                Some(::sqlx::Error::ColumnDecode {
                    index: "urn_key".into(),
                    source: message.into(),
                })
            }

            async fn find_one(
                &mut self,
                sql: &str,
                key: &UrnKey<'_>,
            ) -> Result<StoredUrn, ::sqlx::Error> {
                let row = ::sqlx::query(AssertSqlSafe(sql))
                    .bind(key)
                    .fetch_one(&mut *self.0)
                    .await?;
                Self::stored(&row)
            }
        }

        #[cfg(feature = $feature)]
        impl Database for $db {
            async fn install_on(conn: &mut $conn) -> Result<(), ::sqlx::Error> {
                protocol::install(&mut Conn(conn), $dialect.install()).await
            }

            async fn insert_or_get_on<'c>(
                conn: &'c mut $conn,
                table: &'c UrnTable,
                urn: &'c Urn,
            ) -> Result<StoredUrn, ::sqlx::Error> {
                let plan = $dialect.plan(table);
                protocol::insert_or_get(&mut Conn(conn), &plan, urn).await
            }

            async fn find_on<'c>(
                conn: &'c mut $conn,
                table: &'c UrnTable,
                urn: &'c Urn,
            ) -> Result<Option<StoredUrn>, ::sqlx::Error> {
                let plan = $dialect.plan(table);
                protocol::find(&mut Conn(conn), &plan, urn).await
            }

            async fn rekey_on<'c>(
                conn: &'c mut $conn,
                table: &'c UrnTable,
                to: KeyRules,
                on_collision: OnCollision,
            ) -> Result<Rekeyed, ::sqlx::Error> {
                let plan = $dialect.rekey_plan(table, to, on_collision);
                rekey::run(&mut Conn(conn), plan, table, on_collision, false).await
            }

            async fn collisions_on<'c>(
                conn: &'c mut $conn,
                table: &'c UrnTable,
                to: KeyRules,
            ) -> Result<Vec<Collision>, ::sqlx::Error> {
                let plan = $dialect.rekey_plan(table, to, OnCollision::Refuse);
                rekey::run(&mut Conn(conn), plan, table, OnCollision::Refuse, true)
                    .await
                    .map(|r| r.collisions)
            }
        }

        #[cfg(feature = $feature)]
        impl rekey::Runner for Conn<'_, $conn> {
            type Error = ::sqlx::Error;

            async fn execute(&mut self, sql: &str) -> Result<(), ::sqlx::Error> {
                <Self as Client>::execute(self, sql).await
            }

            async fn texts(
                &mut self,
                sql: &str,
            ) -> Result<Vec<(String, String, String)>, ::sqlx::Error> {
                let rows = ::sqlx::raw_sql(AssertSqlSafe(sql))
                    .fetch_all(&mut *self.0)
                    .await?;
                rows.iter()
                    .map(|row| Ok((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?)))
                    .collect()
            }

            async fn flag(&mut self, sql: &str) -> Result<bool, ::sqlx::Error> {
                let rows = ::sqlx::raw_sql(AssertSqlSafe(sql))
                    .fetch_all(&mut *self.0)
                    .await?;
                let Some(row) = rows.first() else {
                    return Err(::sqlx::Error::RowNotFound);
                };
                row.try_get::<bool, _>(0)
                    .or_else(|_| row.try_get::<i64, _>(0).map(|n| n != 0))
            }

            async fn count(&mut self, sql: &str) -> Result<u64, ::sqlx::Error> {
                let rows = ::sqlx::raw_sql(AssertSqlSafe(sql))
                    .fetch_all(&mut *self.0)
                    .await?;
                let Some(row) = rows.first() else {
                    return Err(::sqlx::Error::RowNotFound);
                };
                let n: i64 = row.try_get(0)?;
                u64::try_from(n).map_err(|e| ::sqlx::Error::Decode(Box::new(e)))
            }

            fn error(error: crate::RekeyError) -> ::sqlx::Error {
                ::sqlx::Error::Configuration(error.into())
            }
        }
    };
}

database!(
    "sqlx-postgres",
    ::sqlx::Postgres,
    ::sqlx::PgConnection,
    crate::Dialect::Postgres
);
database!(
    "sqlx-mariadb",
    ::sqlx::MySql,
    ::sqlx::MySqlConnection,
    crate::Dialect::MariaDb
);
database!(
    "sqlx-sqlite",
    ::sqlx::Sqlite,
    ::sqlx::SqliteConnection,
    crate::Dialect::Sqlite
);

/// SQLite: registers urn-sql's SQLite functions (`urn_check(text)` and the key function of each
/// key version) on one open connection, e.g. in
/// a pool's `after_connect` hook. [`sqlite::register_for_all_connections`], called once before
/// the pool opens, does the same for every connection of the process.
///
/// [`sqlite::register_for_all_connections`]: crate::sqlite::register_for_all_connections
///
/// ```
/// # async fn f() -> Result<(), sqlx::Error> {
/// let pool = sqlx::sqlite::SqlitePoolOptions::new()
///     .after_connect(|conn, _| Box::pin(urn_sql::sqlx::register_functions(conn)))
///     .connect("sqlite::memory:")
///     .await?;
/// let key: String = sqlx::query_scalar("SELECT urn_key_v1('URN:ISBN:0-395-36341-1')")
///     .fetch_one(&pool)
///     .await?;
/// assert_eq!(key, "urn:isbn:0395363411");
/// # Ok(()) }
/// # tokio::runtime::Runtime::new().unwrap().block_on(f()).unwrap();
/// ```
#[cfg(feature = "sqlx-sqlite")]
#[allow(unsafe_code)]
pub async fn register_functions(conn: &mut ::sqlx::SqliteConnection) -> Result<(), ::sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    // SAFETY: the handle is locked, so `db` is an open connection no other thread uses.
    unsafe { crate::sqlite::register_on_handle(db) }
        .map_err(|e| ::sqlx::Error::Configuration(Box::new(e)))
}

/// SQLite: lists the rows of `table` that a correct key function of its rules (`urn_key_v2`,
/// `urn_key_v1`) would not have written: an
/// invalid URN, a key that is not the URN's, a second spelling of a stored URN (see
/// [`AuditFinding`](crate::sqlite::AuditFinding) for why SQLite can hold them). Reads every
/// row, one at a time.
#[cfg(feature = "sqlx-sqlite")]
pub async fn audit<'a, A>(
    conn: A,
    table: &UrnTable,
) -> Result<Vec<crate::sqlite::AuditFinding>, ::sqlx::Error>
where
    A: Acquire<'a, Database = ::sqlx::Sqlite>,
{
    use futures_util::TryStreamExt;
    let mut conn = conn.acquire().await?;
    let mut audit = crate::sqlite::Audit::new(table.key_rules());
    let sql = crate::sqlite::audit_sql(table);
    let mut rows =
        ::sqlx::query_as::<_, (i64, Option<Vec<u8>>, Option<Vec<u8>>)>(AssertSqlSafe(sql))
            .fetch(&mut *conn);
    while let Some((id, urn, key)) = rows.try_next().await? {
        audit.row(id, urn.as_deref(), key.as_deref());
    }
    Ok(audit.finish())
}
