//! SeaORM 2 helpers (feature `sea-orm`): install the SQL, insert-or-get and find on a keyed
//! table, through any SeaORM connection or transaction, on PostgreSQL, SQLite and MariaDB.
//!
//! The column impls (`Urn`, `UrnKey<'static>`, `NsUrn<N>` as entity fields, `Vec<_>` of them
//! on PostgreSQL) live in urn-core (Rust's orphan rule); this feature turns them on. The helpers
//! run the same statements as the sqlx and diesel helpers ([`UrnTable::insert_or_get_sql`],
//! [`UrnTable::find_sql`]), so concurrent callers get one row whatever the client.

use sea_orm::{ConnectionTrait, DbBackend, DbErr, QueryResult, SqlErr, Statement, Value};
use urn_core::Urn;

use crate::{Dialect, StoredUrn, UrnTable};

/// The urn-sql dialect of a SeaORM backend (`MySql` is MariaDB's).
fn dialect(backend: DbBackend) -> Result<Dialect, DbErr> {
    match backend {
        DbBackend::Postgres => Ok(Dialect::Postgres),
        DbBackend::Sqlite => Ok(Dialect::Sqlite),
        DbBackend::MySql => Ok(Dialect::MariaDb),
        other => Err(DbErr::Custom(format!("urn-sql has no SQL for {other:?}"))),
    }
}

/// Installs urn-sql's SQL through SeaORM, as the backend needs it, and does nothing when it is
/// current:
///
/// - PostgreSQL: [`postgres::UP`](crate::postgres::UP), one simple-protocol message (so one
///   transaction): the domains and functions, an older install upgraded in place;
/// - MariaDB: [`mariadb::UP`](crate::mariadb::UP), the stored functions (MariaDB commits DDL as
///   it goes; running it again finishes an interrupted install);
/// - SQLite: nothing to create — the key function is registered in the process
///   ([`sqlite::register_functions`](crate::sqlite::register_functions), before the pool
///   opens); this checks that it is, and says so in the error otherwise.
///
/// In a `sea-orm-migration` migration, run the same SQL from `up`
/// (`manager.get_connection().execute_unprepared(urn_sql::postgres::UP)`) and
/// [`postgres::DOWN`](crate::postgres::DOWN) from `down`: SeaORM's schema builder cannot
/// express domains.
pub async fn install<C: ConnectionTrait>(db: &C) -> Result<(), DbErr> {
    match dialect(db.get_database_backend())? {
        Dialect::Postgres => db.execute_unprepared(crate::postgres::UP).await.map(drop),
        Dialect::MariaDb => db.execute_unprepared(crate::mariadb::UP).await.map(drop),
        Dialect::Sqlite => {
            let probe =
                Statement::from_string(DbBackend::Sqlite, "SELECT urn_key_v1('urn:example:probe')");
            db.query_one_raw(probe).await.map(drop).map_err(|e| {
                DbErr::Custom(format!(
                    "urn_key_v1 is not registered on this SQLite connection ({e}): call \
                     urn_sql::sqlite::register_functions() before opening the database"
                ))
            })
        }
    }
}

/// A row of the helpers' statements (id, urn, key), and whether this call inserted it.
fn stored(row: &QueryResult, inserted: bool) -> Result<StoredUrn, DbErr> {
    Ok(StoredUrn {
        id: row.try_get_by_index(0)?,
        urn: row.try_get_by_index(1)?,
        key: row.try_get_by_index(2)?,
        inserted,
    })
}

/// Inserts `urn` into `table` unless an equivalent URN is stored, and returns the stored row
/// either way; `inserted` is true only for the call that inserted it. The database computes
/// the key (PostgreSQL's generated column, SQLite's registered function, MariaDB's generated
/// column); an invalid URN cannot reach it, being a `Urn`.
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
    let backend = db.get_database_backend();
    let dialect = dialect(backend)?;
    let insert = Statement::from_sql_and_values(
        backend,
        table.insert_or_get_sql(dialect),
        [Value::from(urn.as_str())],
    );
    if table.insert_or_get_is_atomic(dialect) {
        let row = db
            .query_one_raw(insert)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("the insert-or-get returned no row".into()))?;
        let inserted = row.try_get_by_index(3)?;
        return stored(&row, inserted);
    }
    let find = match dialect {
        Dialect::MariaDb => table.mariadb_locking_find_sql(),
        _ => table.find_sql(dialect),
    };
    let find = Statement::from_sql_and_values(backend, find, [Value::from(urn.key().as_str())]);
    // MariaDB names the violated key in ERROR 1062's message: `… for key 'items_urn_key_unique'`.
    let key_index = format!("'{}'", table.unique_index_name().trim_matches('"'));
    // A row deleted between the two statements makes the lookup miss; try again.
    for _ in 0..3 {
        match db.query_one_raw(insert.clone()).await {
            Ok(Some(row)) => return stored(&row, true),
            // SQLite and a partitioned PostgreSQL table: DO NOTHING returned no row.
            Ok(None) => {}
            // MariaDB: ERROR 1062 on the key's index (and no other).
            Err(e)
                if dialect == Dialect::MariaDb
                    && matches!(e.sql_err(),
                        Some(SqlErr::UniqueConstraintViolation(message)) if message.contains(&key_index)) =>
                {}
            Err(e) => return Err(e),
        }
        if let Some(row) = db.query_one_raw(find.clone()).await? {
            return stored(&row, false);
        }
    }
    Err(DbErr::RecordNotFound(format!(
        "{urn} was neither inserted nor found (deleted between the two statements three times)"
    )))
}

/// Finds the row of `table` holding `urn` in any equivalent spelling: an index lookup by the
/// key.
pub async fn find<C: ConnectionTrait>(
    db: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<Option<StoredUrn>, DbErr> {
    let backend = db.get_database_backend();
    let find = Statement::from_sql_and_values(
        backend,
        table.find_sql(dialect(backend)?),
        [Value::from(urn.key().as_str())],
    );
    db.query_one_raw(find)
        .await?
        .map(|row| stored(&row, false))
        .transpose()
}
