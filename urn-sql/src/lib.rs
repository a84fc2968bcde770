#![doc = include_str!("../README.md")]
// Unsafe code is denied everywhere except the SQLite function bindings (FFI), which say why
// they are sound.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(
    feature = "diesel-postgres",
    feature = "diesel-sqlite",
    feature = "diesel-mysql"
))]
pub mod diesel;
pub mod mariadb;
pub mod postgres;
#[cfg(feature = "rusqlite")]
pub mod rusqlite;
#[cfg(feature = "sea-orm")]
pub mod sea_orm;
pub mod sqlite;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mysql"
))]
pub mod sqlx;
mod stored;
mod table;
#[cfg(feature = "postgres")]
pub mod tokio_postgres;

pub use stored::StoredUrn;
pub use table::{Dialect, IdentifierError, UrnTable};
// The urn-core items a storage user needs, by name (each is urn-core's own type, whose column
// impls live in urn-core behind the features this crate turns on): the column types, the typed
// namespaces, the key rules a stored key follows, the error a bad value carries.
/// diesel's SQL types for the PostgreSQL `urn` and `urn_key` domains (features
/// `diesel-postgres`, `diesel-sqlite`).
#[cfg(any(
    feature = "diesel-postgres",
    feature = "diesel-sqlite",
    feature = "diesel-mysql"
))]
pub use urn_core::sql_types;
pub use urn_core::{
    ExampleUrn, IetfUrn, IsbnUrn, IssnUrn, KeyRules, LexUrn, MpegUrn, Namespace, NbnUrn, NsUrn,
    OgcUrn, OidUrn, ParseError, Urn, UrnKey, UrnRef, UuidUrn, ns,
};

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
        Dialect::MariaDb => mariadb::ddl(),
    }
}
