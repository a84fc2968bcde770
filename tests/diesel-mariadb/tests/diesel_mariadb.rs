//! urn-sql with diesel's `MysqlConnection` on the real MariaDB: the install, round trips of
//! `Urn`, `UrnKey`, `IsbnUrn` and NULL through `Text` and the `sql_types` markers, the helpers
//! on the keyed table (spellings meet one row; no key can be forged; an invalid URN gets the
//! parser's message), and a stored value
//! that is not a URN as an error of its row. Needs `MARIADB_URL` (skipped without it, a failure
//! under `CI=true`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::{Nullable, Text};
use urn_sql::{Dialect, IsbnUrn, Urn, UrnKey, UrnTable};

fn url() -> Option<String> {
    match std::env::var("MARIADB_URL") {
        Ok(url) if url.starts_with("mysql") => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but MARIADB_URL does not name a MariaDB server")
        }
        _ => {
            eprintln!("MARIADB_URL is not set: skipping");
            None
        }
    }
}

diesel::table! {
    use diesel::sql_types::*;
    values (id) {
        id -> BigInt,
        u -> urn_sql::sql_types::Urn,
        k -> Text,
        isbn -> Nullable<Text>,
    }
}

#[derive(Queryable, Selectable, Insertable, Debug)]
#[diesel(table_name = values)]
struct Value {
    #[diesel(skip_insertion)]
    id: i64,
    u: Urn,
    k: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
}

#[derive(QueryableByName, Debug)]
struct Stored {
    #[diesel(sql_type = Nullable<Text>)]
    urn: Option<Urn>,
}

#[test]
fn diesel_on_mariadb() {
    let Some(url) = url() else {
        return;
    };
    let name = format!("urn_diesel_{}", std::process::id());
    let mut server = MysqlConnection::establish(&url).unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut server)
        .unwrap();
    let base = url.trim_end_matches('/');
    let mut conn = MysqlConnection::establish(&format!("{base}/{name}")).unwrap();
    urn_sql::diesel::install(&mut conn).unwrap();
    urn_sql::diesel::install(&mut conn).unwrap();

    // Round trips, NULL included.
    diesel::sql_query(
        "CREATE TABLE `values` (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, u TEXT NOT NULL, \
         k TEXT NOT NULL, isbn TEXT) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin",
    )
    .execute(&mut conn)
    .unwrap();
    let urn: Urn = "URN:ISBN:0-395-36341-1#p".parse().unwrap();
    let rows = [
        Value {
            id: 0,
            u: urn.clone(),
            k: urn.key().into_owned(),
            isbn: Some("urn:isbn:0-395-36341-1".parse().unwrap()),
        },
        Value {
            id: 0,
            u: "urn:example:a".parse().unwrap(),
            k: "urn:example:a".parse().unwrap(),
            isbn: None,
        },
    ];
    diesel::insert_into(values::table)
        .values(&rows)
        .execute(&mut conn)
        .unwrap();
    let back: Vec<Value> = values::table
        .select(Value::as_select())
        .order(values::id)
        .load(&mut conn)
        .unwrap();
    assert!(back[0].u.eq_text(&urn));
    assert_eq!(back[0].k.as_str(), "urn:isbn:0395363411");
    assert_eq!(back[1].isbn, None);
    assert!(back[0].id < back[1].id);
    let found: Vec<i64> = values::table
        .filter(values::u.eq(&urn))
        .select(values::id)
        .load(&mut conn)
        .unwrap();
    assert_eq!(found.len(), 1);

    // A bad stored value is an error of its row, with the parser's message.
    let err = diesel::sql_query("SELECT 'urn:example:a%zz' AS urn")
        .load::<Stored>(&mut conn)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("must be followed by two hex digits"),
        "{err}"
    );
    let null: Vec<Stored> = diesel::sql_query("SELECT NULL AS urn")
        .load(&mut conn)
        .unwrap();
    assert!(null[0].urn.is_none());

    // The keyed table through the helpers.
    let table = UrnTable::new("items").unwrap();
    conn.batch_execute(&Dialect::MariaDb.create_table_sql(&table))
        .unwrap();
    let first = urn_sql::diesel::insert_or_get(
        &mut conn,
        &table,
        &"urn:isbn:0-395-36341-1".parse().unwrap(),
    )
    .unwrap();
    let again = urn_sql::diesel::insert_or_get(
        &mut conn,
        &table,
        &"URN:ISBN:0395363411?=x".parse().unwrap(),
    )
    .unwrap();
    assert_eq!(
        (first.inserted, again.inserted, again.id),
        (true, false, first.id)
    );
    let found = urn_sql::diesel::find(&mut conn, &table, &"urn:isbn:0395363411#f".parse().unwrap())
        .unwrap();
    assert_eq!(found.map(|f| f.id), Some(first.id));
    // The key is generated: a strict session cannot write it (ERROR 1906), any other has its
    // value ignored.
    let forge = "INSERT INTO items (urn, urn_key) VALUES ('urn:example:b', 'urn:forged:b')";
    let err = diesel::sql_query(forge).execute(&mut conn).unwrap_err();
    assert!(
        err.to_string().contains("generated column 'urn_key'"),
        "{err}"
    );
    conn.batch_execute("SET SESSION sql_mode = ''").unwrap();
    diesel::sql_query(forge).execute(&mut conn).unwrap();
    #[derive(QueryableByName)]
    struct Key {
        #[diesel(sql_type = Text)]
        urn_key: UrnKey<'static>,
    }
    let key: Key = diesel::sql_query("SELECT urn_key FROM items WHERE urn = 'urn:example:b'")
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(key.urn_key.as_str(), "urn:example:b");
    // An invalid URN: the parser's message, through diesel's error.
    let err = diesel::sql_query("INSERT INTO items (urn) VALUES ('urn:example:a%zz')")
        .execute(&mut conn)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"
    );

    // Only the key's own duplicate means "already stored": a duplicate of another unique key
    // of the table is the error it is. (Revision 1's helper looked any ERROR 1062 up by key and
    // ended in NotFound.)
    conn.batch_execute(
        "SET SESSION sql_mode = DEFAULT; ALTER TABLE items \
         ADD COLUMN slot INT AS (CHAR_LENGTH(urn)) STORED, ADD CONSTRAINT items_slot UNIQUE (slot)",
    )
    .unwrap();
    let err = urn_sql::diesel::insert_or_get(&mut conn, &table, &"urn:example:c".parse().unwrap())
        .unwrap_err();
    assert!(err.to_string().ends_with("for key 'items_slot'"), "{err}");
    let again = urn_sql::diesel::insert_or_get(
        &mut conn,
        &table,
        &"URN:ISBN:0395363411#other-length".parse().unwrap(),
    )
    .unwrap();
    assert_eq!((again.id, again.inserted), (first.id, false));

    diesel::sql_query(format!("DROP DATABASE {name}"))
        .execute(&mut server)
        .unwrap();
}
