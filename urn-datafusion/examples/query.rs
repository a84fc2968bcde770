//! Runs one SQL query over CSV and Parquet files with the URN functions registered, and prints
//! the result as CSV (a header row, then the rows) on stdout.
//!
//! ```sh
//! cargo run --release --manifest-path urn-datafusion/Cargo.toml --example query -- \
//!     --table books=books.parquet \
//!     "SELECT count(*) AS rows, count(DISTINCT urn_key_v2(urn)) AS distinct_urns FROM books"
//! ```
//!
//! `--table name=path` registers a `.csv` file (a header row, RFC 4180 quoting) or a
//! `.parquet` file as `name`; repeat it for more tables. `--ballista` runs the same query on a
//! standalone Ballista cluster (scheduler and executor in this process, on localhost) whose
//! executors have the functions registered. Errors go to stderr, with a non-zero exit.
//!
//! The query may only read: DDL (`CREATE EXTERNAL TABLE`, which can open any file), DML
//! (`INSERT`, `COPY … TO`, which write files) and statements (`SET`, transactions) are refused
//! (DataFusion's `SQLOptions`), unless `--allow-writes` is given.

use std::io::Write;
use std::process::ExitCode;

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use datafusion::arrow::csv::WriterBuilder;
use datafusion::error::Result;
use datafusion::execution::SessionStateBuilder;
use datafusion::execution::context::SQLOptions;
use datafusion::prelude::{CsvReadOptions, ParquetReadOptions, SessionConfig, SessionContext};

/// What the command line asks for.
struct Request {
    tables: Vec<(String, String)>,
    ballista: bool,
    /// Whether DDL, DML and statements may run (`--allow-writes`).
    allow_writes: bool,
    sql: String,
}

const USAGE: &str =
    "usage: query [--ballista] [--allow-writes] --table NAME=PATH.csv|PATH.parquet ... \"SQL\"";

/// Reads the command line, or says what is wrong with it.
fn parse_args(mut args: impl Iterator<Item = String>) -> std::result::Result<Request, String> {
    let mut tables = Vec::new();
    let mut ballista = false;
    let mut allow_writes = false;
    let mut sql = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ballista" => ballista = true,
            "--allow-writes" => allow_writes = true,
            "--table" => {
                let spec = args.next().ok_or("--table needs NAME=PATH")?;
                let (name, path) = spec
                    .split_once('=')
                    .filter(|(name, path)| !name.is_empty() && !path.is_empty())
                    .ok_or_else(|| format!("--table {spec:?}: expected NAME=PATH"))?;
                if !(path.ends_with(".csv") || path.ends_with(".parquet")) {
                    return Err(format!(
                        "--table {spec:?}: the file must end in .csv or .parquet"
                    ));
                }
                tables.push((name.to_owned(), path.to_owned()));
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ if sql.is_some() => return Err("give one SQL query".to_owned()),
            _ => sql = Some(arg),
        }
    }
    let sql = sql.ok_or("no SQL query given")?;
    Ok(Request {
        tables,
        ballista,
        allow_writes,
        sql,
    })
}

/// A context with the URN functions: in this process, or on a standalone Ballista cluster
/// whose scheduler and executors get the same functions from the session state.
async fn context(ballista: bool) -> Result<SessionContext> {
    let mut ctx = if ballista {
        let mut state = SessionStateBuilder::new()
            .with_default_features()
            .with_config(SessionConfig::new_with_ballista())
            .build();
        // The scheduler and the executors take their functions from this state.
        urn_datafusion::register_all(&mut state)?;
        SessionContext::standalone_with_state(state).await?
    } else {
        SessionContext::new()
    };
    // The client plans the query: Ballista's client context starts from Ballista's own set of
    // functions, so they are registered here too.
    urn_datafusion::register_all(&mut ctx)?;
    Ok(ctx)
}

/// Registers the tables, runs the query and writes its result as CSV to `out`.
async fn run(request: &Request, out: &mut dyn Write) -> Result<()> {
    let ctx = context(request.ballista).await?;
    for (name, path) in &request.tables {
        if path.ends_with(".csv") {
            ctx.register_csv(name, path, CsvReadOptions::new().has_header(true))
                .await?;
        } else {
            ctx.register_parquet(name, path, ParquetReadOptions::default())
                .await?;
        }
    }
    // Read-only unless asked: a query can otherwise create tables over any file, write files
    // (COPY … TO) or change the session's settings.
    let options = SQLOptions::new()
        .with_allow_ddl(request.allow_writes)
        .with_allow_dml(request.allow_writes)
        .with_allow_statements(request.allow_writes);
    let frame = ctx.sql_with_options(&request.sql, options).await?;
    let schema = frame.schema().as_arrow().clone();
    let batches = frame.collect().await?;
    let mut writer = WriterBuilder::new().with_header(true).build(out);
    if batches.is_empty() {
        // No rows: the header alone.
        let empty = datafusion::arrow::record_batch::RecordBatch::new_empty(schema.into());
        writer.write(&empty)?;
    }
    for batch in &batches {
        writer.write(batch)?;
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let request = match parse_args(std::env::args().skip(1)) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("query: {message}");
            if message != USAGE {
                eprintln!("{USAGE}");
            }
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(&request, &mut out).await {
        Ok(()) => match out.flush() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("query: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("query: {}", e.find_root());
            ExitCode::FAILURE
        }
    }
}
