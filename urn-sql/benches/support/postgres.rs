//! Shared by the PostgreSQL benches: a pool on one database (apart from `mod.rs`, which
//! urn-datafusion's bench includes without sqlx).

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

/// A one-connection pool on `database` of the server at `url`, with `search_path` set.
pub(crate) async fn pg_pool(url: &str, database: &str, search_path: &str) -> PgPool {
    let options = PgConnectOptions::from_str(url)
        .unwrap()
        .database(database)
        .options([("search_path", search_path)]);
    PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap()
}
