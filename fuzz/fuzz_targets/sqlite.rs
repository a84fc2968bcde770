//! urn-sql's SQLite side never disagrees with the parser, in-process (bundled SQLite, the real
//! registration path): `urn_key_v2(t)` is `Urn::key()` and `urn_key_v1(t)` is
//! `Urn::key_with(KeyRules::V1)`, or each an error with the parser's message,
//! `urn_check(t)` is NULL exactly for valid URNs and otherwise that message, and the named
//! guards accept every valid URN (they may refuse less than the parser, never more).
#![no_main]

use std::cell::RefCell;

use diesel::sql_types::{Nullable, Text};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, QueryableByName, RunQueryDsl};
use libfuzzer_sys::fuzz_target;
use urn_core::{KeyRules, Urn};

#[derive(QueryableByName)]
struct Check {
    #[diesel(sql_type = Nullable<Text>)]
    message: Option<String>,
}

#[derive(QueryableByName)]
struct Key {
    #[diesel(sql_type = Text)]
    key: String,
}

thread_local! {
    static CONN: RefCell<SqliteConnection> = RefCell::new({
        urn_sql::sqlite::register_for_all_connections().expect("the SQLite functions");
        let mut conn = SqliteConnection::establish(":memory:").expect("in-memory SQLite");
        diesel::sql_query(format!(
            "CREATE TABLE guarded (urn TEXT NOT NULL {})",
            urn_sql::sqlite::urn_guards("urn").expect("a valid column name")
        ))
        .execute(&mut conn)
        .expect("guards compile");
        conn
    });
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // SQLite text ends at NUL for the C API's length-less calls; bound values keep their length,
    // but the shell and most clients cannot write NUL, so leave it to the parser's own target.
    if text.contains('\0') {
        return;
    }
    let parsed = Urn::parse(text);
    CONN.with_borrow_mut(|conn| {
        let check: Check = diesel::sql_query("SELECT urn_check(?1) AS message")
            .bind::<Text, _>(text)
            .get_result(conn)
            .expect("urn_check never errors");
        let keys: Vec<_> = KeyRules::VERSIONS
            .iter()
            .map(|&rules| {
                let function = rules.sql_function().expect("a version has a function");
                let key = diesel::sql_query(format!("SELECT {function}(?1) AS key"))
                    .bind::<Text, _>(text)
                    .get_result::<Key>(conn);
                (rules, key)
            })
            .collect();
        let guarded = diesel::sql_query("INSERT INTO guarded (urn) VALUES (?1)")
            .bind::<Text, _>(text)
            .execute(conn);
        match &parsed {
            Ok(urn) => {
                assert_eq!(check.message, None, "{text:?}");
                for (rules, key) in keys {
                    let key = key.expect("valid URN").key;
                    assert_eq!(key, urn.key_with(rules).as_str(), "{rules:?} {text:?}");
                }
                assert!(guarded.is_ok(), "guards refuse valid {text:?}: {guarded:?}");
            }
            Err(e) => {
                let message = e.to_string();
                assert_eq!(check.message.as_deref(), Some(message.as_str()), "{text:?}");
                for (rules, key) in keys {
                    let err = key.err().expect("invalid URN has no key").to_string();
                    assert!(
                        err.contains(&message),
                        "{rules:?} {text:?}: {err} vs {message}"
                    );
                }
            }
        }
        diesel::sql_query("DELETE FROM guarded")
            .execute(conn)
            .expect("delete");
    });
});
