//! SQLite against a program that registers a `urn_key_v1` of its own (as Python's
//! `sqlite3.Connection.create_function` lets any program do): it can store a key that is not
//! its URN's key, and a second spelling of a stored URN, which SQLite cannot stop; the audit,
//! through each client, lists exactly those rows. And `urn_guards` takes only plain names.
#![cfg(all(
    feature = "rusqlite",
    feature = "sqlx-sqlite",
    feature = "diesel-sqlite"
))]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use urn_sql::sqlite::{AuditFinding, AuditProblem};
use urn_sql::{Dialect, UrnTable};

#[tokio::test]
async fn the_audit_finds_what_a_forging_program_wrote() {
    let dir = std::env::temp_dir().join(format!("urn-sql-audit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("audit.db");
    let table = UrnTable::new("items").unwrap();

    // This crate's connection: the parser's keys.
    let ours = Connection::open(&path).unwrap();
    urn_sql::rusqlite::register_functions(&ours).unwrap();
    ours.execute_batch(&Dialect::Sqlite.create_table_sql(&table))
        .unwrap();
    for urn in ["urn:isbn:0395363411", "urn:example:a"] {
        urn_sql::rusqlite::insert_or_get(&ours, &table, &urn.parse().unwrap()).unwrap();
    }
    assert!(urn_sql::rusqlite::audit(&ours, &table).unwrap().is_empty());

    // Another program: its urn_key_v2 lower-cases whatever it gets.
    let forger = Connection::open(&path).unwrap();
    forger
        .create_scalar_function(
            "urn_key_v2",
            1,
            FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC,
            |ctx| Ok(ctx.get::<String>(0)?.to_lowercase()),
        )
        .unwrap();
    for value in ["URN:ISBN:0-395-36341-1", "not a urn", "urn:example:b"] {
        forger
            .execute("INSERT INTO items (urn) VALUES (?1)", [value])
            .unwrap();
    }
    drop(forger);

    let expected = vec![
        AuditFinding {
            id: 3,
            urn: "URN:ISBN:0-395-36341-1".into(),
            stored_key: Some("urn:isbn:0-395-36341-1".into()),
            problem: AuditProblem::WrongKey("urn:isbn:0395363411".into()),
        },
        AuditFinding {
            id: 3,
            urn: "URN:ISBN:0-395-36341-1".into(),
            stored_key: Some("urn:isbn:0-395-36341-1".into()),
            problem: AuditProblem::SameUrnAs(1),
        },
        AuditFinding {
            id: 4,
            urn: "not a urn".into(),
            stored_key: Some("not a urn".into()),
            problem: AuditProblem::InvalidUrn("invalid URN: expected 'urn:' at byte 0".into()),
        },
    ];
    assert_eq!(urn_sql::rusqlite::audit(&ours, &table).unwrap(), expected);
    assert_eq!(
        expected[0].to_string(),
        r#"row 3: stored key "urn:isbn:0-395-36341-1" is not the key of "URN:ISBN:0-395-36341-1", which is "urn:isbn:0395363411""#
    );

    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    assert_eq!(urn_sql::sqlx::audit(&pool, &table).await.unwrap(), expected);
    pool.close().await;
    urn_sql::sqlite::register_for_all_connections().unwrap();
    let mut conn =
        <diesel::SqliteConnection as diesel::Connection>::establish(&path.display().to_string())
            .unwrap();
    assert_eq!(urn_sql::diesel::audit(&mut conn, &table).unwrap(), expected);

    // A value of another storage class in the URN column is a finding too, not an error.
    ours.execute_batch(
        "PRAGMA ignore_check_constraints = 1; \
         CREATE TABLE loose (id INTEGER PRIMARY KEY, urn, urn_key); \
         INSERT INTO loose VALUES (1, 42, NULL), (2, x'ff', 'urn:x:y'), (3, NULL, NULL)",
    )
    .unwrap();
    let loose = UrnTable::new("loose").unwrap();
    let problems: Vec<String> = urn_sql::rusqlite::audit(&ours, &loose)
        .unwrap()
        .into_iter()
        .map(|f| f.to_string())
        .collect();
    assert_eq!(
        problems,
        [
            r#"row 1: "42" is not a URN (invalid URN: expected 'urn:' at byte 0)"#,
            "row 2: \"\u{fffd}\" is not a URN (not UTF-8: invalid utf-8 sequence of 1 bytes from index 0)",
            r#"row 3: "" is not a URN (NULL)"#,
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `urn_guards` checks its column name as `UrnTable` does (it used to paste any text into the
/// CHECKs).
#[test]
fn guards_take_plain_names_only() {
    assert!(urn_sql::sqlite::urn_guards("see_also").is_ok());
    for bad in ["urn) OR 1=1 --", "\"urn\"", "a.b", ""] {
        let err = urn_sql::sqlite::urn_guards(bad).unwrap_err();
        assert!(
            err.to_string().contains("not a plain SQL identifier"),
            "{bad}"
        );
    }
}
