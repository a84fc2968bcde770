//! rusqlite (feature `rusqlite`, bundled SQLite): round trips, NULL, a bad stored value as a
//! row-level error, the key function on a rusqlite connection, and the helpers.
#![cfg(feature = "rusqlite")]
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use rusqlite::{Connection, params};
use urn_sql::rusqlite::{find, insert_or_get, register_functions};
use urn_sql::{Dialect, IsbnUrn, Urn, UrnKey, UrnTable};

fn keyed() -> (Connection, UrnTable) {
    let conn = Connection::open_in_memory().unwrap();
    register_functions(&conn).unwrap();
    let table = UrnTable::new("items").unwrap();
    conn.execute_batch(&Dialect::Sqlite.create_table_sql(&table))
        .unwrap();
    (conn, table)
}

#[test]
fn values_round_trip_and_null_is_none() {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch("CREATE TABLE t (u TEXT, k TEXT, isbn TEXT, maybe TEXT)")
        .unwrap();
    let urn: Urn = "URN:ISBN:0-395-36341-1?=q#f".parse().unwrap();
    let isbn: IsbnUrn = "urn:isbn:0-395-36341-1".parse().unwrap();
    conn.execute(
        "INSERT INTO t VALUES (?1, ?2, ?3, ?4)",
        params![urn, urn.key(), isbn, None::<Urn>],
    )
    .unwrap();
    let (u, k, i, m): (Urn, UrnKey<'static>, IsbnUrn, Option<Urn>) = conn
        .query_row("SELECT u, k, isbn, maybe FROM t", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .unwrap();
    assert!(u.eq_text(&urn));
    assert_eq!(k.as_str(), "urn:isbn:0395363411");
    assert_eq!(i, isbn);
    assert_eq!(m, None);
}

/// A row another client wrote wrong fails that row only, naming the value and the rule.
#[test]
fn a_bad_stored_value_is_a_row_level_error() {
    let conn = Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE TABLE t (id INTEGER, u TEXT); \
         INSERT INTO t VALUES (1, 'urn:example:ok'), (2, 'urn:x:a'), (3, 'urn:example:fine')",
    )
    .unwrap();
    let mut stmt = conn.prepare("SELECT u FROM t ORDER BY id").unwrap();
    let rows: Vec<rusqlite::Result<Urn>> = stmt
        .query_map([], |r| r.get::<_, Urn>(0))
        .unwrap()
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0].as_ref().unwrap().as_str(), "urn:example:ok");
    let err = rows[1].as_ref().unwrap_err().to_string();
    assert!(
        err.contains(
            "stored value \"urn:x:a\" is not a valid URN: NID of 1 character at byte 4: it must have 2 to 32"
        ),
        "{err}"
    );
    assert_eq!(rows[2].as_ref().unwrap().as_str(), "urn:example:fine");
    let err = conn
        .query_row("SELECT 'urn:isbn:0395363412'", [], |r| {
            r.get::<_, IsbnUrn>(0)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("check digit does not match"), "{err}");
    let err = conn
        .query_row("SELECT 'URN:example:a'", [], |r| {
            r.get::<_, UrnKey<'static>>(0)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not a valid URN key"), "{err}");
}

#[test]
fn the_key_function_generates_keys_and_refuses_bad_urns() {
    let (conn, table) = keyed();
    let first = insert_or_get(&conn, &table, &"urn:ISBN:0-395-36341-1".parse().unwrap()).unwrap();
    let again = insert_or_get(&conn, &table, &"URN:isbn:0395363411#p".parse().unwrap()).unwrap();
    assert_eq!(
        (first.inserted, again.inserted, again.id),
        (true, false, first.id)
    );
    assert_eq!(first.key.as_str(), "urn:isbn:0395363411");
    let found = find(&conn, &table, &"urn:isbn:0-395-363411".parse().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(found.id, first.id);
    assert!(
        find(&conn, &table, &"urn:example:nothing".parse().unwrap())
            .unwrap()
            .is_none()
    );
    // A raw write goes through the key function too.
    let err = conn
        .execute("INSERT INTO items (urn) VALUES ('urn:example:a%zz')", [])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"),
        "{err}"
    );
    for (long, respelled) in support::corpus::long_urns() {
        let stored = insert_or_get(&conn, &table, &long.parse().unwrap()).unwrap();
        let again = insert_or_get(&conn, &table, &respelled.parse().unwrap()).unwrap();
        assert_eq!(
            (stored.inserted, again.inserted, again.id),
            (true, false, stored.id)
        );
    }
    // A connection without the function reads but cannot write.
    let path = std::env::temp_dir().join(format!("{}.db", support::schema_name("rusqlite")));
    {
        let conn = Connection::open(&path).unwrap();
        register_functions(&conn).unwrap();
        conn.execute_batch(&Dialect::Sqlite.create_table_sql(&table))
            .unwrap();
        insert_or_get(&conn, &table, &"urn:example:x".parse().unwrap()).unwrap();
    }
    let bare = Connection::open(&path).unwrap();
    let key: UrnKey<'static> = bare
        .query_row("SELECT urn_key FROM items", [], |r| r.get(0))
        .unwrap();
    assert_eq!(key.as_str(), "urn:example:x");
    let err = bare
        .execute("INSERT INTO items (urn) VALUES ('urn:example:y')", [])
        .unwrap_err()
        .to_string();
    assert!(err.contains("urn_key_v2"), "{err}");
    drop(bare);
    std::fs::remove_file(path).unwrap();
}
