//! `diesel_catalog`: the catalog's storage job from the command line, through diesel.
//!
//! ```text
//! diesel_catalog [--database URL] add '{"urn": "URN:ISBN:0-395-36341-1", "title": "…"}'
//! diesel_catalog [--database URL] get urn:isbn:0395363411
//! diesel_catalog [--database URL] list
//! ```
//!
//! The database is `--database`, else `DATABASE_URL`, else the SQLite file
//! `diesel_catalog.sqlite3`.
//! `add` prints `created` or `existing` and the stored item as JSON; `get` prints the item
//! (exit 1 when there is none); `list` prints one item per line. An invalid item exits with 2
//! and names the field and byte.

use std::process::ExitCode;

use urn_core::Urn;
use urn_examples::DIESEL_CATALOG_DATABASE;
use urn_examples::diesel_store::DieselStore;
use urn_examples::item::{Item, NewItem};

const USAGE: &str = "usage: diesel_catalog [--database URL] (add JSON | get URN | list)";

/// What went wrong, and the exit code that says so.
struct Failure(u8, String);

fn item_json(item: &Item) -> Result<String, Failure> {
    serde_json::to_string(item).map_err(|e| Failure(1, format!("cannot print the item: {e}")))
}

fn run(args: &[String]) -> Result<(), Failure> {
    let (database, command) = match args {
        [flag, url, rest @ ..] if flag == "--database" => (url.clone(), rest),
        rest => (
            std::env::var("DATABASE_URL").unwrap_or_else(|_| DIESEL_CATALOG_DATABASE.into()),
            rest,
        ),
    };
    let open = || {
        DieselStore::open(&database)
            .map_err(|e| Failure(1, format!("cannot open the database {database:?}: {e}")))
    };
    let db_error = |e: diesel::result::Error| Failure(1, format!("database error: {e}"));
    match command {
        [cmd, json] if cmd == "add" => {
            // The parser's message already names the byte; add the field it is in.
            let new = NewItem::from_json(json.as_bytes()).map_err(|e| match e.field {
                Some(field) => Failure(2, format!("{field}: {}", e.error)),
                None => Failure(2, e.error),
            })?;
            let (item, created) = open()?.insert_or_get(&new).map_err(db_error)?;
            let verdict = if created { "created" } else { "existing" };
            println!("{verdict} {}", item_json(&item)?);
            Ok(())
        }
        [cmd, text] if cmd == "get" => {
            let urn = Urn::parse(text).map_err(|e| Failure(2, e.to_string()))?;
            match open()?.find(&urn).map_err(db_error)? {
                Some(item) => {
                    println!("{}", item_json(&item)?);
                    Ok(())
                }
                None => Err(Failure(
                    1,
                    format!("no item is named {urn} or an equivalent URN"),
                )),
            }
        }
        [cmd] if cmd == "list" => {
            for item in open()?.list().map_err(db_error)? {
                println!("{}", item_json(&item)?);
            }
            Ok(())
        }
        _ => Err(Failure(2, USAGE.into())),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(code, message)) => {
            eprintln!("diesel_catalog: {message}");
            ExitCode::from(code)
        }
    }
}
