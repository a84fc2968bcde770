#![doc = include_str!("../README.md")]
//!
//! # Where each concern lives
//!
//! Bottom up, each layer using only those below it: [`UrnTable`] holds checked names only; one
//! module per database ([`postgres`], [`sqlite`], [`mariadb`]) owns all of that database's SQL
//! (install, create, insert-or-get, find, audit), the key functions rendered from urn-core's
//! key-rule table; one insert-or-get protocol (the statement, the conflict, the retry, what
//! `inserted` means) is written once, inside; the client modules (`sqlx`, `diesel`,
//! `sea_orm`, `tokio_postgres`, `rusqlite`) are thin and alike: `install`,
//! `insert_or_get`, `find` (and on SQLite `audit` in `sqlx`, `diesel` and `rusqlite`,
//! `register_functions` in `sqlx` and `rusqlite`; `sqlx` also has `rekey`), each taking the
//! client's connection first. [`Dialect`] hands the statements to code that runs them itself.
// Unsafe code is denied everywhere except the SQLite function bindings (FFI), which say why
// they are sound.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Items only the sqlx helpers use (the re-key's run on a connection): compiled with any of the
/// sqlx features, so a build without them (the loadable extension's) has no dead code.
macro_rules! for_the_sqlx_helpers {
    ($($item:item)*) => {
        $(
            #[cfg(any(feature = "sqlx-postgres", feature = "sqlx-sqlite", feature = "sqlx-mariadb"))]
            $item
        )*
    };
}

mod dialect;
mod message;
mod protocol;
mod rekey;
mod row;
mod rule_sql;
mod table;

pub mod mariadb;
pub mod postgres;
pub mod sqlite;

#[cfg(any(
    feature = "diesel-postgres",
    feature = "diesel-sqlite",
    feature = "diesel-mariadb"
))]
pub mod diesel;
#[cfg(feature = "rusqlite")]
pub mod rusqlite;
#[cfg(feature = "sea-orm")]
pub mod sea_orm;
for_the_sqlx_helpers! {
    pub mod sqlx;
}
#[cfg(feature = "tokio-postgres")]
pub mod tokio_postgres;

/// The guide pages (`docs/`), whose Rust blocks are compiled and run as doc tests.
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../docs/postgresql.md")]
    struct PostgreSql;
    #[doc = include_str!("../docs/partitioning.md")]
    struct Partitioning;
    #[doc = include_str!("../docs/sqlite.md")]
    struct Sqlite;
    #[doc = include_str!("../docs/mariadb.md")]
    struct MariaDb;
    #[doc = include_str!("../docs/security.md")]
    struct Security;
    #[doc = include_str!("../docs/rekey.md")]
    struct Rekey;
}

pub use dialect::Dialect;
pub use rekey::{Collision, OnCollision, RekeyError, Rekeyed};
pub use row::StoredUrn;
pub use table::{IdentifierError, UnversionedKeyRules, UrnTable};
// urn-core whole, and its prelude at the root: the same names in every sibling crate (the
// column impls of these types live in urn-core, behind the features this crate turns on).
pub use urn_core;
pub use urn_core::prelude::*;
/// diesel's SQL types for the PostgreSQL `urn` and `urn_key` domains, for `table!`.
#[cfg(any(
    feature = "diesel-postgres",
    feature = "diesel-sqlite",
    feature = "diesel-mariadb"
))]
pub use urn_core::sql_types;
