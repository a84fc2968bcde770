#![doc = include_str!("../README.md")]
// Unsafe code is denied everywhere except the SQLite function bindings (FFI), which say why
// they are sound.
#![deny(unsafe_code)]

#[cfg(any(feature = "diesel-postgres", feature = "diesel-sqlite"))]
pub mod diesel;
pub mod postgres;
#[cfg(feature = "rusqlite")]
pub mod rusqlite;
pub mod sqlite;
#[cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite"))]
pub mod sqlx;
mod stored;
mod table;
#[cfg(feature = "postgres")]
pub mod tokio_postgres;

pub use stored::StoredUrn;
pub use table::{Dialect, IdentifierError, UrnTable};
/// urn-core's types, so `urn_sql::Urn` is the same type as `urn_core::Urn`.
pub use urn_core::*;

/// The DDL `urn sql --dialect …` prints for `dialect`.
///
/// ```
/// assert!(urn_sql::ddl(urn_sql::Dialect::Postgres).contains("CREATE OR REPLACE FUNCTION urn_key_v1(u urn)"));
/// assert!(urn_sql::ddl(urn_sql::Dialect::Sqlite).contains("CREATE TABLE \"items\""));
/// ```
pub fn ddl(dialect: Dialect) -> String {
    match dialect {
        Dialect::Postgres => postgres::ddl(),
        Dialect::Sqlite => sqlite::ddl(),
    }
}
