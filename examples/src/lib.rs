#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod diesel_store;
pub mod http;
pub mod item;
pub mod store;

/// Where the catalogs keep their data unless `DATABASE_URL` (or `--database`) says otherwise:
/// a SQLite file in the working directory.
pub const DEFAULT_DATABASE: &str = "sqlite:catalog.sqlite3";
