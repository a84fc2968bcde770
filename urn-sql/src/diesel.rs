//! diesel helpers for PostgreSQL, SQLite and MariaDB (features `diesel-postgres`,
//! `diesel-sqlite`, `diesel-mariadb`): [`install`], [`insert_or_get`] and [`find`] take any
//! diesel connection of the three backends (`PgConnection`, `SqliteConnection`, a
//! `MysqlConnection` or a pooled one); on SQLite also [`audit`].
//!
//! Column types need nothing from here: with the features on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement `AsExpression`, `ToSql` and `FromSql` for `Text` and for the
//! [`sql_types`](urn_core::sql_types) markers of the PostgreSQL domains, so they work as
//! fields of `Queryable`, `Selectable` and `Insertable` structs.
//!
//! On SQLite, register the key function for the process before opening connections:
//!
//! ```
//! use diesel::{Connection, RunQueryDsl, sql_types::Text};
//! #[derive(diesel::QueryableByName)]
//! struct Key { #[diesel(sql_type = Text)] key: String }
//! urn_sql::sqlite::register_for_all_connections()?;
//! let mut conn = diesel::SqliteConnection::establish(":memory:")?;
//! let row: Key = diesel::sql_query("SELECT urn_key_v1('URN:EXAMPLE:a%2c') AS key").get_result(&mut conn)?;
//! assert_eq!(row.key, "urn:example:a%2C");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! On MariaDB the helpers take any connection of diesel's `Mysql` backend, so this crate links
//! no libmysqlclient (your crate's diesel `mysql` feature does).

use ::diesel::connection::LoadConnection;
use ::diesel::result::Error;
use ::diesel::sql_types::Text;
use ::diesel::{Connection, OptionalExtension, QueryResult, RunQueryDsl};
use urn_core::{Urn, UrnKey};

use crate::protocol::{self, Client, Inserted, Plan};
use crate::row::StoredUrn;
use crate::table::UrnTable;

mod sealed {
    /// Only the backends below implement [`Backend`](super::Backend).
    pub trait Sealed {}
}

/// The diesel backends urn-sql has helpers for: `Pg`, `Sqlite` and `Mysql` (on MariaDB).
/// Sealed; its methods are the helpers' implementations.
pub trait Backend: ::diesel::backend::Backend + sealed::Sealed {
    #[doc(hidden)]
    fn install_on<C>(conn: &mut C) -> QueryResult<()>
    where
        C: Connection<Backend = Self> + LoadConnection;

    #[doc(hidden)]
    fn insert_or_get_on<C>(conn: &mut C, table: &UrnTable, urn: &Urn) -> QueryResult<StoredUrn>
    where
        C: Connection<Backend = Self> + LoadConnection;

    #[doc(hidden)]
    fn find_on<C>(conn: &mut C, table: &UrnTable, urn: &Urn) -> QueryResult<Option<StoredUrn>>
    where
        C: Connection<Backend = Self> + LoadConnection;
}

/// Makes what urn-sql needs in the database, and does nothing when it is there, as a diesel
/// migration would: PostgreSQL: the portable install
/// ([`postgres::UP`](crate::postgres::UP)), one batch and so one transaction; MariaDB: the
/// routines ([`mariadb::UP`](crate::mariadb::UP)); SQLite: nothing lives in the database, so
/// it checks that the connection has the key function.
pub fn install<C>(conn: &mut C) -> QueryResult<()>
where
    C: Connection + LoadConnection,
    C::Backend: Backend,
{
    C::Backend::install_on(conn)
}

/// Inserts `urn` into `table` unless an equivalent URN is stored, and returns the stored row
/// either way; `inserted` is true only for the call that inserted it. Concurrent callers with
/// equivalent URNs all get the same row and no error.
///
/// ```
/// use diesel::Connection;
/// use diesel::connection::SimpleConnection;
/// urn_sql::sqlite::register_for_all_connections()?;
/// let mut conn = diesel::SqliteConnection::establish(":memory:")?;
/// let table = urn_sql::UrnTable::new("items")?;
/// conn.batch_execute(&urn_sql::Dialect::Sqlite.create_table_sql(&table))?;
/// let first = urn_sql::diesel::insert_or_get(&mut conn, &table, &"urn:ISBN:0-395-36341-1".parse()?)?;
/// let again = urn_sql::diesel::insert_or_get(&mut conn, &table, &"URN:isbn:0395363411".parse()?)?;
/// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn insert_or_get<C>(conn: &mut C, table: &UrnTable, urn: &Urn) -> QueryResult<StoredUrn>
where
    C: Connection + LoadConnection,
    C::Backend: Backend,
{
    C::Backend::insert_or_get_on(conn, table, urn)
}

/// Finds the row of `table` holding `urn` in any equivalent spelling (an index lookup by
/// key).
pub fn find<C>(conn: &mut C, table: &UrnTable, urn: &Urn) -> QueryResult<Option<StoredUrn>>
where
    C: Connection + LoadConnection,
    C::Backend: Backend,
{
    C::Backend::find_on(conn, table, urn)
}

/// Runs the plan's insert: `returning`, whose `RETURNING` gives the row (PostgreSQL, SQLite),
/// or `then_read` ([`insert_then_read`]).
macro_rules! insert {
    (returning, $conn:expr, $plan:expr, $urn:expr) => {
        match ::diesel::sql_query($plan.insert.as_str())
            .bind::<Text, _>($urn)
            .get_result::<StoredUrn>($conn)
            .optional()
        {
            Ok(Some(row)) => Inserted::Row(row),
            Ok(None) => Inserted::Nothing,
            Err(e) => Inserted::Failed(e),
        }
    };
    (then_read, $conn:expr, $plan:expr, $urn:expr) => {
        insert_then_read($conn, $plan, $urn)
    };
}

/// The helpers for one diesel backend: a connection wrapper running the protocol's statements
/// (`$insert` runs the plan's insert), and the database module whose SQL it runs.
macro_rules! backend {
    ($feature:literal, $backend:ty, $conn:ident, $dialect:expr, $insert:ident) => {
        /// One connection of this backend running the protocol's statements (each ready at
        /// once).
        #[cfg(feature = $feature)]
        struct $conn<'c, C>(&'c mut C);

        #[cfg(feature = $feature)]
        impl sealed::Sealed for $backend {}

        #[cfg(feature = $feature)]
        impl<C> Client for $conn<'_, C>
        where
            C: Connection<Backend = $backend> + LoadConnection,
        {
            type Error = Error;

            async fn insert(&mut self, plan: &Plan, urn: &Urn) -> Inserted<Error> {
                insert!($insert, &mut *self.0, plan, urn)
            }

            async fn find(
                &mut self,
                sql: &str,
                key: &UrnKey<'_>,
            ) -> QueryResult<Option<StoredUrn>> {
                ::diesel::sql_query(sql)
                    .bind::<Text, _>(key)
                    .get_result::<StoredUrn>(&mut *self.0)
                    .optional()
            }

            async fn execute(&mut self, sql: &str) -> QueryResult<()> {
                self.0.batch_execute(sql)
            }

            fn refused(message: String) -> Option<Error> {
                Some(Error::QueryBuilderError(message.into()))
            }

            fn key_error(message: String) -> Option<Error> {
                Some(Error::DeserializationError(message.into()))
            }

            async fn find_one(&mut self, sql: &str, key: &UrnKey<'_>) -> QueryResult<StoredUrn> {
                ::diesel::sql_query(sql)
                    .bind::<Text, _>(key)
                    .get_result::<StoredUrn>(&mut *self.0)
            }
        }

        #[cfg(feature = $feature)]
        impl Backend for $backend {
            fn install_on<C>(conn: &mut C) -> QueryResult<()>
            where
                C: Connection<Backend = Self> + LoadConnection,
            {
                protocol::run_blocking(protocol::install(&mut $conn(conn), $dialect.install()))
            }

            fn insert_or_get_on<C>(
                conn: &mut C,
                table: &UrnTable,
                urn: &Urn,
            ) -> QueryResult<StoredUrn>
            where
                C: Connection<Backend = Self> + LoadConnection,
            {
                let plan = $dialect.plan(table);
                protocol::run_blocking(protocol::insert_or_get(&mut $conn(conn), &plan, urn))
            }

            fn find_on<C>(
                conn: &mut C,
                table: &UrnTable,
                urn: &Urn,
            ) -> QueryResult<Option<StoredUrn>>
            where
                C: Connection<Backend = Self> + LoadConnection,
            {
                let plan = $dialect.plan(table);
                protocol::run_blocking(protocol::find(&mut $conn(conn), &plan, urn))
            }
        }
    };
}

backend!(
    "diesel-postgres",
    ::diesel::pg::Pg,
    PgConn,
    crate::Dialect::Postgres,
    returning
);
backend!(
    "diesel-sqlite",
    ::diesel::sqlite::Sqlite,
    SqliteConn,
    crate::Dialect::Sqlite,
    returning
);
backend!(
    "diesel-mariadb",
    ::diesel::mysql::Mysql,
    MysqlConn,
    crate::Dialect::MariaDb,
    then_read
);

/// MariaDB: a plain `INSERT`, then the row by `LAST_INSERT_ID()` (diesel cannot read a
/// prepared `INSERT … RETURNING` from libmariadb, which announces no columns for it); no row
/// when another session deleted it in between. A duplicate of the table's key is
/// [`Inserted::Duplicate`]; a duplicate of any other unique key is the caller's error.
#[cfg(feature = "diesel-mariadb")]
fn insert_then_read<C>(conn: &mut C, plan: &Plan, urn: &Urn) -> Inserted<Error>
where
    C: Connection<Backend = ::diesel::mysql::Mysql> + LoadConnection,
{
    use ::diesel::result::DatabaseErrorKind;
    let Some((insert, read)) = &plan.insert_then_read else {
        return Inserted::Failed(Error::QueryBuilderError(
            "no insert without RETURNING for this table".into(),
        ));
    };
    match ::diesel::sql_query(insert.as_str())
        .bind::<Text, _>(urn)
        .execute(conn)
    {
        Ok(_) => match ::diesel::sql_query(read.as_str())
            .get_result::<StoredUrn>(conn)
            .optional()
        {
            Ok(Some(row)) => Inserted::Row(row),
            Ok(None) => Inserted::Nothing,
            Err(e) => Inserted::Failed(e),
        },
        Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info))
            if plan.conflict.is_key(info.message()) =>
        {
            Inserted::Duplicate
        }
        Err(e) => Inserted::Failed(e),
    }
}

/// SQLite: lists the rows of `table` that a correct key function of its rules (`urn_key_v2`,
/// `urn_key_v1`) would not have written: an
/// invalid URN, a key that is not the URN's, a second spelling of a stored URN (see
/// [`AuditFinding`](crate::sqlite::AuditFinding) for why SQLite can hold them). Reads every
/// row, one at a time.
#[cfg(feature = "diesel-sqlite")]
pub fn audit<C>(conn: &mut C, table: &UrnTable) -> QueryResult<Vec<crate::sqlite::AuditFinding>>
where
    C: Connection<Backend = ::diesel::sqlite::Sqlite> + LoadConnection,
{
    use ::diesel::sql_types::{BigInt, Binary, Nullable};
    /// One row of the audit's query.
    #[derive(::diesel::QueryableByName)]
    struct AuditRow {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = Nullable<Binary>)]
        urn: Option<Vec<u8>>,
        #[diesel(sql_type = Nullable<Binary>)]
        urn_key: Option<Vec<u8>>,
    }
    let rows = ::diesel::sql_query(crate::sqlite::audit_sql(table))
        .load_iter::<AuditRow, ::diesel::connection::DefaultLoadingMode>(conn)?;
    crate::sqlite::Audit::of_rows(
        table.key_rules(),
        rows.map(|row| row.map(|r| (r.id, r.urn, r.urn_key))),
    )
}
