//! Shared by the database tests: where the databases are, and the test inputs.
#![allow(dead_code, unreachable_pub, unused_imports)]

pub mod corpus;
mod database;
pub mod rekey;

pub use database::{mariadb_url, postgres_url};

/// A fresh schema name, unique per test and run, so tests can run in parallel and leave
/// nothing shared behind.
pub fn schema_name(test: &str) -> String {
    database::unique(&format!("urn_sql_{test}"))
}

/// Which PostgreSQL objects the database tests run against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// urn-sql's portable SQL, which each test installs into its own schema (the default).
    Portable,
    /// The urn_pg extension (crate urn-pg), created in schema `public` of `DATABASE_URL`'s
    /// database: `URN_SQL_BACKEND=urn_pg`, as `.ci/run`'s extension step sets it.
    UrnPg,
}

impl Backend {
    /// The language `urn_key_v1(urn)` must be written in under this backend, so a run cannot
    /// test the other one by mistake (see [`KEY_FUNCTION_LANGUAGE`]).
    pub fn key_function_language(self) -> &'static str {
        match self {
            Backend::Portable => "plpgsql",
            Backend::UrnPg => "c",
        }
    }
}

/// The backend named by `URN_SQL_BACKEND` (`portable` when unset).
pub fn backend() -> Backend {
    match std::env::var("URN_SQL_BACKEND").as_deref() {
        Err(_) | Ok("portable") => Backend::Portable,
        Ok("urn_pg") => Backend::UrnPg,
        Ok(other) => panic!("URN_SQL_BACKEND={other:?}: expected portable or urn_pg"),
    }
}

/// Query: the language of the `urn_key_v1(urn)` a connection sees.
pub const KEY_FUNCTION_LANGUAGE: &str = "SELECT l.lanname::text FROM pg_proc p \
     JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'urn_key_v1(urn)'::regprocedure";

/// The `search_path` of a test working in `schema`: the schema alone (the portable SQL is
/// installed into it), or the schema and then `public`, where the extension is.
pub fn search_path(schema: &str) -> String {
    match backend() {
        Backend::Portable => schema.to_owned(),
        Backend::UrnPg => format!("{schema},public"),
    }
}

/// The schema holding urn-sql's PostgreSQL objects for a test working in `schema`: the schema
/// itself (the portable SQL is installed into it), or `public`, where the extension is.
pub fn urn_schema(schema: &str) -> &str {
    match backend() {
        Backend::Portable => schema,
        Backend::UrnPg => "public",
    }
}

/// The keyed table `name` in `schema` (a test's own), whose statements name urn-sql's objects
/// where the backend has them ([`urn_schema`]).
pub fn table(name: &str, schema: &str) -> urn_sql::UrnTable {
    urn_sql::UrnTable::new(&format!("{schema}.{name}"))
        .and_then(|t| t.with_urn_schema(urn_schema(schema)))
        .unwrap()
}

/// `url` with [`search_path`] for `schema` (libpq `options`), for diesel connections.
pub fn with_search_path(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    let path = search_path(schema).replace(',', "%2C");
    format!("{url}{sep}options=-csearch_path%3D{path}")
}

/// The server's error behind a sqlx error (the PostgreSQL tests read its code and detail).
pub fn pg_error(err: &sqlx::Error) -> &sqlx::postgres::PgDatabaseError {
    err.as_database_error()
        .and_then(|e| e.try_downcast_ref())
        .unwrap_or_else(|| panic!("not a PostgreSQL error: {err}"))
}
