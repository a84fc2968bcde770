//! Trait implementations for other crates' traits, one file per integration, each behind
//! its feature. They live here because Rust's orphan rule allows them nowhere else.

#[cfg(feature = "arbitrary")]
mod arbitrary;
#[cfg(feature = "async-graphql")]
mod async_graphql;
#[cfg(feature = "diesel")]
pub(crate) mod diesel;
#[cfg(feature = "rusqlite")]
mod rusqlite;
#[cfg(any(feature = "schemars", feature = "utoipa"))]
mod schema_text;
#[cfg(feature = "schemars")]
mod schemars;
#[cfg(feature = "sea-orm")]
mod sea_orm;
#[cfg(feature = "serde")]
pub(crate) mod serde;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mariadb"
))]
mod sqlx;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mariadb",
    feature = "diesel",
    feature = "rusqlite",
    feature = "tokio-postgres",
    feature = "sea-orm"
))]
mod stored_value;
#[cfg(feature = "tokio-postgres")]
mod tokio_postgres;
#[cfg(any(feature = "schemars", feature = "utoipa", feature = "async-graphql"))]
mod type_name;
#[cfg(feature = "utoipa")]
mod utoipa;
