//! diesel SQL types for the PostgreSQL domains that urn-sql creates (on SQLite, MySQL and
//! MariaDB both are text).
//!
//! Use them in `table!` when the column is declared with the domain (`urn urn NOT NULL`), so
//! diesel binds parameters with the domain's type; `Text` works as well, since PostgreSQL
//! reports domain columns as their base type. `diesel print-schema` with
//! `pg_domains_as_custom_types` can import them (see urn-sql's README).
//!
//! Their own module: the types and the diesel impls both name them, and they name nothing.

/// The PostgreSQL domain `urn` (RFC 8141 syntax CHECK); text on SQLite, MySQL and MariaDB.
///
/// ```
/// diesel::table! {
///     use diesel::sql_types::*;
///     use urn_core::sql_types::{Urn, UrnKey};
///     items (id) {
///         id -> BigInt,
///         urn -> Urn,
///         urn_key -> UrnKey,
///     }
/// }
/// ```
#[derive(
    Clone, Copy, Debug, Default, diesel::sql_types::SqlType, diesel::query_builder::QueryId,
)]
#[cfg_attr(feature = "diesel-postgres", diesel(postgres_type(name = "urn")))]
#[cfg_attr(feature = "diesel-sqlite", diesel(sqlite_type(name = "Text")))]
#[cfg_attr(feature = "diesel-mariadb", diesel(mysql_type(name = "String")))]
pub struct Urn;

/// The PostgreSQL domain `urn_key` (canonical key CHECK); text on SQLite, MySQL and MariaDB.
#[derive(
    Clone, Copy, Debug, Default, diesel::sql_types::SqlType, diesel::query_builder::QueryId,
)]
#[cfg_attr(feature = "diesel-postgres", diesel(postgres_type(name = "urn_key")))]
#[cfg_attr(feature = "diesel-sqlite", diesel(sqlite_type(name = "Text")))]
#[cfg_attr(feature = "diesel-mariadb", diesel(mysql_type(name = "String")))]
pub struct UrnKey;
