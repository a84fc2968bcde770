#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod diesel_store;
pub mod http;
pub mod item;
pub mod store;

/// Where `catalog` keeps its data unless `DATABASE_URL` (or `--database`) says otherwise: a
/// SQLite file in the working directory.
pub const CATALOG_DATABASE: &str = "sqlite:catalog.sqlite3";

/// Where `diesel_catalog` keeps its data unless told otherwise: a file of its own, because each
/// program records its migrations in its own table (sqlx's and diesel's), so the second would
/// find the first one's table and fail.
pub const DIESEL_CATALOG_DATABASE: &str = "sqlite:diesel_catalog.sqlite3";

/// The repository's README, whose Rust blocks are compiled and run as
/// this crate's doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct RepositoryReadme;
