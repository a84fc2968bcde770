//! Where PostgreSQL is, for every crate's database tests (the examples' tests include this
//! file too, so the rule for `CI=true` is written once).

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

/// `MARIADB_URL` if it names a MariaDB server (`mysql://…`). Without it the MariaDB tests are
/// skipped (with a note), except under `CI=true`, where a missing server is a failure.
pub fn mariadb_url() -> Option<String> {
    match std::env::var("MARIADB_URL") {
        Ok(url) if url.starts_with("mysql") || url.starts_with("mariadb") => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but MARIADB_URL does not name a MariaDB server")
        }
        _ => {
            eprintln!("MARIADB_URL is not set: skipping the MariaDB tests");
            None
        }
    }
}

/// `name` made unique to this process and moment (for schemas, tables and files), so tests can
/// run in parallel and leave nothing shared behind.
pub fn unique(name: &str) -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{name}_{}_{nanos}", std::process::id())
}
