//! `catalog`: an HTTP JSON API storing items named by URNs, deduplicating equivalent spellings.
//!
//! ```text
//! cargo run -p urn-examples --bin catalog -- [--listen 127.0.0.1:3000] [--database URL]
//! ```
//!
//! The database is `--database`, else `DATABASE_URL`, else the SQLite file `catalog.sqlite3`;
//! `postgres://…` selects PostgreSQL. The port is `--listen`, else `127.0.0.1:$PORT`, else
//! 127.0.0.1:3000. Ctrl-C (or SIGTERM) stops it after the requests in flight are answered.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

use urn_examples::{CATALOG_DATABASE, http, store::Store};

/// Where to listen and which database to use.
struct Config {
    listen: SocketAddr,
    database: String,
}

impl Config {
    fn from_args() -> Result<Config, String> {
        let port = match std::env::var("PORT") {
            Ok(p) => p
                .parse::<u16>()
                .map_err(|e| format!("PORT={p:?} is not a port number: {e}"))?,
            Err(_) => 3000,
        };
        let mut config = Config {
            listen: SocketAddr::from(([127, 0, 0, 1], port)),
            database: std::env::var("DATABASE_URL").unwrap_or_else(|_| CATALOG_DATABASE.into()),
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            match arg.as_str() {
                "--listen" => {
                    let v = value("--listen")?;
                    config.listen = v.parse().map_err(|e| {
                        format!("--listen {v:?} is not an address like 127.0.0.1:3000: {e}")
                    })?;
                }
                "--database" => config.database = value("--database")?,
                "-h" | "--help" => {
                    return Err("usage: catalog [--listen ADDR:PORT] [--database URL]".into());
                }
                other => return Err(format!("unknown argument {other:?} (try --help)")),
            }
        }
        Ok(config)
    }
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            eprintln!("catalog: cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

async fn run(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::connect(&config.database)
        .await
        .map_err(|e| format!("cannot open the database {:?}: {e}", config.database))?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let kind = match store {
        Store::Sqlite(_) => "SQLite",
        Store::Postgres(..) => "PostgreSQL",
    };
    println!(
        "catalog listening on http://{} ({kind})",
        listener.local_addr()?
    );
    std::io::stdout().flush()?;
    axum::serve(listener, http::router(store.clone()))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    store.close().await;
    println!("catalog stopped");
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::from_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("catalog: {e}");
            return ExitCode::from(2);
        }
    };
    match run(config).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("catalog: {e}");
            ExitCode::FAILURE
        }
    }
}
