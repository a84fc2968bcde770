//! Shared by the database tests: where the databases are, and the test inputs.
#![allow(dead_code, unreachable_pub)]

pub mod corpus;

/// `DATABASE_URL` if it names a PostgreSQL server. Without it the PostgreSQL tests are skipped
/// (with a note), except under `CI=true`, where a missing database is a failure.
pub fn postgres_url() -> Option<String> {
    match std::env::var("DATABASE_URL") {
        Ok(url) if url.starts_with("postgres") => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but DATABASE_URL does not name a PostgreSQL database")
        }
        _ => {
            eprintln!("DATABASE_URL is not set: skipping the PostgreSQL tests");
            None
        }
    }
}

/// A fresh schema name, unique per test and run, so tests can run in parallel and leave
/// nothing shared behind.
pub fn schema_name(test: &str) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("urn_sql_{test}_{}_{nanos}", std::process::id())
}

/// `url` with `search_path` set to `schema` (libpq `options`), for diesel connections.
pub fn with_search_path(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options=-csearch_path%3D{schema}")
}
