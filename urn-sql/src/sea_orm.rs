//! SeaORM 2 helpers (feature `sea-orm`): [`install`], [`insert_or_get`] and [`find`] on a keyed
//! table, through any SeaORM connection or transaction, on PostgreSQL, SQLite and MariaDB.
//!
//! The column impls (`Urn`, `UrnKey<'static>`, `NsUrn<N>` as entity fields, `Vec<_>` of them
//! on PostgreSQL) live in urn-core (Rust's orphan rule); this feature turns them on. The
//! helpers run the same statements and protocol as the other clients' helpers, so concurrent
//! callers get one row whatever the client.

use sea_orm::{ConnectionTrait, DbBackend, DbErr, QueryResult, SqlErr, Statement, Value};
use urn_core::{Urn, UrnKey};

use crate::Dialect;
use crate::protocol::{self, Client, Inserted, Plan};
use crate::row::StoredUrn;
use crate::table::UrnTable;

/// The dialect of a SeaORM backend (`MySql` is MariaDB's).
fn dialect(backend: DbBackend) -> Result<Dialect, DbErr> {
    match backend {
        DbBackend::Postgres => Ok(Dialect::Postgres),
        DbBackend::Sqlite => Ok(Dialect::Sqlite),
        DbBackend::MySql => Ok(Dialect::MariaDb),
        other => Err(DbErr::Custom(format!("urn-sql has no SQL for {other:?}"))),
    }
}

/// Makes what urn-sql needs in the database, and does nothing when it is there:
///
/// - PostgreSQL: [`postgres::UP`](crate::postgres::UP), one simple-protocol message (so one
///   transaction): the domains and functions, an older install upgraded in place;
/// - MariaDB: [`mariadb::UP`](crate::mariadb::UP), the routines (MariaDB commits DDL as it
///   goes; running it again finishes an interrupted install);
/// - SQLite: nothing to create — the key function is registered in the process
///   ([`sqlite::register_for_all_connections`](crate::sqlite::register_for_all_connections),
///   before the pool opens); this checks that it is, and says so in the error otherwise.
///
/// In a `sea-orm-migration` migration, run the same SQL from `up`
/// (`manager.get_connection().execute_unprepared(urn_sql::postgres::UP)`) and
/// [`postgres::DOWN`](crate::postgres::DOWN) from `down`: SeaORM's schema builder cannot
/// express domains.
pub async fn install<C: ConnectionTrait>(db: &C) -> Result<(), DbErr> {
    let install = dialect(db.get_database_backend())?.install();
    protocol::install(&mut Conn(db), install).await
}

/// Inserts `urn` into `table` unless an equivalent URN is stored, and returns the stored row
/// either way; `inserted` is true only for the call that inserted it. The database computes
/// the key (PostgreSQL's generated column, SQLite's registered function, MariaDB's generated
/// column).
///
/// Concurrent callers with equivalent URNs all get the same row and no error under READ
/// COMMITTED (PostgreSQL's default) and on SQLite. Inside a PostgreSQL REPEATABLE READ or
/// SERIALIZABLE transaction, a spelling another transaction committed after the snapshot is a
/// serialization failure (SQLSTATE 40001): retry the transaction, as for any write there. On
/// PostgreSQL the statement's no-op `DO UPDATE` locks the stored row until the transaction
/// ends. On MariaDB, racing inserts of one key can end in InnoDB's deadlock error (1213),
/// which rolls the whole transaction back: retry it. Only a conflict on the key's own unique
/// index means "already stored": any other constraint's error is returned as it is.
///
/// ```no_run
/// # async fn f(db: sea_orm::DatabaseConnection) -> Result<(), Box<dyn std::error::Error>> {
/// let table = urn_sql::UrnTable::new("items")?;
/// let first = urn_sql::sea_orm::insert_or_get(&db, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
/// let again = urn_sql::sea_orm::insert_or_get(&db, &table, &"URN:isbn:0395363411".parse()?).await?;
/// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
/// # Ok(()) }
/// ```
pub async fn insert_or_get<C: ConnectionTrait>(
    db: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<StoredUrn, DbErr> {
    let plan = dialect(db.get_database_backend())?.plan(table);
    protocol::insert_or_get(&mut Conn(db), &plan, urn).await
}

/// Finds the row of `table` holding `urn` in any equivalent spelling: an index lookup by the
/// key.
pub async fn find<C: ConnectionTrait>(
    db: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<Option<StoredUrn>, DbErr> {
    let plan = dialect(db.get_database_backend())?.plan(table);
    protocol::find(&mut Conn(db), &plan, urn).await
}

/// One SeaORM connection running the protocol's statements.
struct Conn<'c, C>(&'c C);

/// Reads a [`StoredUrn`] from a row of the protocol's statements.
fn stored(row: &QueryResult) -> Result<StoredUrn, DbErr> {
    StoredUrn::read(
        row.try_get_by_index(0),
        row.try_get_by_index(1),
        row.try_get_by_index(2),
        row.try_get_by_index(3),
    )
}

impl<C: ConnectionTrait> Client for Conn<'_, C> {
    type Error = DbErr;

    async fn insert(&mut self, plan: &Plan, urn: &Urn) -> Inserted<DbErr> {
        let backend = self.0.get_database_backend();
        let insert = Statement::from_sql_and_values(
            backend,
            plan.insert.as_str(),
            [Value::from(urn.as_str())],
        );
        match self.0.query_one_raw(insert).await {
            Ok(Some(row)) => stored(&row).map_or_else(Inserted::Failed, Inserted::Row),
            Ok(None) => Inserted::Nothing,
            Err(e) => match e.sql_err() {
                Some(SqlErr::UniqueConstraintViolation(message))
                    if plan.conflict.is_key(&message) =>
                {
                    Inserted::Duplicate
                }
                _ => Inserted::Failed(e),
            },
        }
    }

    async fn find(&mut self, sql: &str, key: &UrnKey<'_>) -> Result<Option<StoredUrn>, DbErr> {
        let backend = self.0.get_database_backend();
        let find = Statement::from_sql_and_values(backend, sql, [Value::from(key.as_str())]);
        let row = self.0.query_one_raw(find).await?;
        row.as_ref().map(stored).transpose()
    }

    async fn execute(&mut self, sql: &str) -> Result<(), DbErr> {
        self.0.execute_unprepared(sql).await.map(drop)
    }

    fn refused(message: String) -> Option<DbErr> {
        Some(DbErr::Custom(message))
    }

    fn key_error(message: String) -> Option<DbErr> {
        Some(DbErr::Type(message))
    }

    async fn find_one(&mut self, sql: &str, key: &UrnKey<'_>) -> Result<StoredUrn, DbErr> {
        self.find(sql, key).await?.ok_or_else(|| {
            DbErr::RecordNotFound(format!(
                "{key} was neither inserted nor found (the stored row was deleted between the \
                 two statements, three times)"
            ))
        })
    }
}
