//! End-to-end: the `diesel_catalog` binary on a SQLite file and (with `DATABASE_URL`) on
//! PostgreSQL: add, dedup, lookup by equivalent spellings, list, errors and exit codes.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::process::Command;

use serde_json::{Value, json};

/// Runs `diesel_catalog --database DB ARGS…`: exit code, stdout, stderr.
fn run(database: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_diesel_catalog"))
        .args(["--database", database])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `add`: the verdict word and the item.
fn add(database: &str, item: &Value) -> (String, Value) {
    let (code, out, err) = run(database, &["add", &item.to_string()]);
    assert_eq!(code, 0, "{err}");
    let (verdict, json) = out.trim_end().split_once(' ').unwrap();
    (verdict.to_owned(), serde_json::from_str(json).unwrap())
}

fn exercise(database: &str) {
    let (verdict, first) = add(
        database,
        &json!({"urn": "URN:ISBN:0-395-36341-1", "title": "The Hobbit",
                "isbn": "urn:isbn:0395363411", "see_also": ["urn:ietf:rfc:8141"]}),
    );
    assert_eq!(verdict, "created");
    assert_eq!(first["key"], "urn:isbn:0395363411");
    let (verdict, again) = add(
        database,
        &json!({"urn": "urn:isbn:0395363411#x", "title": "copy"}),
    );
    assert_eq!((verdict.as_str(), &again), ("existing", &first));

    let (verdict, second) = add(database, &json!({"urn": "urn:example:a%2cb", "title": "B"}));
    assert_eq!(verdict, "created");
    for spelling in ["urn:isbn:0-395-36341-1?=x", "urn:ISBN:0395363411"] {
        let (code, out, err) = run(database, &["get", spelling]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), first);
    }
    let (code, out, _) = run(database, &["get", "URN:EXAMPLE:a%2Cb"]);
    assert_eq!(
        (code, serde_json::from_str::<Value>(&out).unwrap()),
        (0, second.clone())
    );

    let (code, out, _) = run(database, &["list"]);
    assert_eq!(code, 0);
    let items: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items, vec![first, second]);

    let (code, _, err) = run(database, &["get", "urn:example:A%2Cb"]);
    assert_eq!(code, 1);
    assert!(err.contains("no item is named urn:example:A%2Cb"), "{err}");
    let (code, _, err) = run(
        database,
        &[
            "add",
            r#"{"urn": "urn:example:c", "title": "C", "see_also": ["urn:ok:1", "urn:bad"]}"#,
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "diesel_catalog: see_also[1]: invalid URN: the NID must be followed by ':' (byte 7)"
    );
    let (code, _, err) = run(
        database,
        &[
            "add",
            r#"{"urn": "urn:example:c", "title": "C", "isbn": "urn:isbn:12"}"#,
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with("diesel_catalog: isbn: invalid isbn URN"),
        "{err}"
    );
    let (code, _, err) = run(database, &["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("usage"), "{err}");
    // The refused items left nothing behind.
    let (_, out, _) = run(database, &["list"]);
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn diesel_catalog_on_sqlite_file() {
    let db = support::TempDb::new("diesel_catalog");
    exercise(&db.path.display().to_string());
}

#[test]
fn diesel_catalog_on_postgres() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let schema = support::PgSchema::create(&url, "diesel_catalog");
    exercise(&schema.url);
}

/// The examples README's commands, one program after the other in one directory with their defaults:
/// `catalog` (which makes `catalog.sqlite3` and listens), then `diesel_catalog add`, `get` and
/// `list` (which use `diesel_catalog.sqlite3`: with one file, the second program failed on the
/// first one's table).
#[test]
fn catalog_then_diesel_catalog_with_the_readmes_commands() {
    let dir = std::env::temp_dir().join(format!("urn-examples-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut catalog = Command::new(env!("CARGO_BIN_EXE_catalog"))
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env_remove("DATABASE_URL")
        .current_dir(&dir)
        .spawn()
        .unwrap();
    let listening = (0..300).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    catalog.kill().unwrap();
    catalog.wait().unwrap();
    assert!(listening, "catalog did not start");
    assert!(dir.join("catalog.sqlite3").exists());
    let readme = include_str!("../README.md");
    let commands: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("cargo run -p urn-examples --bin diesel_catalog -- "))
        .collect();
    assert_eq!(commands.len(), 3);
    let mut outputs = Vec::new();
    for command in commands {
        let command = command.split("   #").next().unwrap().trim_end();
        let (verb, argument) = command.split_once(' ').unwrap_or((command, ""));
        let argument = argument.trim_matches('\'');
        let mut args = vec![verb];
        if !argument.is_empty() {
            args.push(argument);
        }
        let out = Command::new(env!("CARGO_BIN_EXE_diesel_catalog"))
            .args(&args)
            .env_remove("DATABASE_URL")
            .current_dir(&dir)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {stderr}");
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    assert!(outputs[0].starts_with("created "), "{}", outputs[0]);
    assert!(
        outputs[1].contains("\"urn\":\"URN:ISBN:0-395-36341-1\""),
        "{}",
        outputs[1]
    );
    assert_eq!(outputs[2].lines().count(), 1);
    assert!(dir.join("diesel_catalog.sqlite3").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
