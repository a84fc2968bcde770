//! Shared by the database tests: where the databases are, and the test inputs.
#![allow(dead_code, unreachable_pub, unused_imports)]

pub mod corpus;
mod database;

pub use database::postgres_url;

/// A fresh schema name, unique per test and run, so tests can run in parallel and leave
/// nothing shared behind.
pub fn schema_name(test: &str) -> String {
    database::unique(&format!("urn_sql_{test}"))
}

/// `url` with `search_path` set to `schema` (libpq `options`), for diesel connections.
pub fn with_search_path(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-csearch_path%3D{schema}")
}
