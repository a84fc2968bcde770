//! Postgres and SQLite column types (sqlx, diesel) keyed on the canonical URN key, plus the SQL that enforces it (filled by the urn-sql issue).
#![forbid(unsafe_code)]

pub use urn_core::*;
