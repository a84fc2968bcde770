//! diesel on SQLite (bundled, always) and PostgreSQL (with `DATABASE_URL`): one struct with
//! `Urn` fields that is `Queryable`, `Selectable`, `Insertable`, `sqlx::FromRow` and serde at
//! once; the embedded migration; the helpers; arrays; decode errors.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use diesel::prelude::*;
use diesel::{PgConnection, SqliteConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use urn_sql::{Dialect, IsbnUrn, Urn, UrnKey, UrnTable};

const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

mod pg {
    diesel::table! {
        use diesel::sql_types::*;
        use urn_sql::sql_types::{Urn, UrnKey};
        things (id) {
            id -> BigInt,
            urn -> Urn,
            urn_key -> UrnKey,
            isbn -> Nullable<Urn>,
            see_also -> Array<Urn>,
        }
    }
}

mod lite {
    diesel::table! {
        things (id) {
            id -> BigInt,
            urn -> Text,
            urn_key -> Text,
            isbn -> Nullable<Text>,
        }
    }
}

/// One struct for every layer: diesel, sqlx and serde.
#[derive(
    Debug,
    Clone,
    Queryable,
    Selectable,
    Insertable,
    sqlx::FromRow,
    serde::Serialize,
    serde::Deserialize,
)]
#[diesel(table_name = pg::things)]
struct Thing {
    #[diesel(skip_insertion)]
    id: i64,
    urn: Urn,
    #[diesel(skip_insertion)]
    urn_key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
    see_also: Vec<Urn>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable, sqlx::FromRow, serde::Serialize)]
#[diesel(table_name = lite::things)]
struct LiteThing {
    #[diesel(skip_insertion)]
    id: i64,
    urn: Urn,
    #[diesel(skip_insertion)]
    urn_key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
}

fn thing(text: &str) -> Thing {
    let urn: Urn = text.parse().unwrap();
    Thing {
        id: 0,
        urn_key: urn.key().into_owned(),
        urn,
        isbn: Some("URN:ISBN:978-0-395-36341-6".parse().unwrap()),
        see_also: vec![
            "urn:ietf:rfc:8141".parse().unwrap(),
            "urn:example:x%2f".parse().unwrap(),
        ],
    }
}

#[test]
fn postgres_with_diesel() {
    let Some(url) = support::postgres_url() else {
        return;
    };
    let schema = support::schema_name("diesel");
    let mut admin = PgConnection::establish(&url).unwrap();
    diesel::sql_query(format!("CREATE SCHEMA {schema}"))
        .execute(&mut admin)
        .unwrap();
    let mut conn = PgConnection::establish(&support::with_search_path(&url, &schema)).unwrap();
    conn.run_pending_migrations(PG_MIGRATIONS).unwrap();
    #[derive(QueryableByName)]
    struct Language {
        #[diesel(sql_type = diesel::sql_types::Text)]
        lanname: String,
    }
    let language: Language = diesel::sql_query(support::KEY_FUNCTION_LANGUAGE)
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(language.lanname, support::backend().key_function_language());
    diesel::sql_query(
        "CREATE TABLE things (
           id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           urn urn NOT NULL,
           urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED NOT NULL,
           isbn urn,
           see_also urn[] NOT NULL DEFAULT '{}')",
    )
    .execute(&mut conn)
    .unwrap();
    diesel::sql_query(
        "CREATE UNIQUE INDEX things_urn_key_unique ON things (urn_key_index(urn_key))",
    )
    .execute(&mut conn)
    .unwrap();

    let first = thing("urn:example:a%2cb?=x");
    let stored: Thing = diesel::insert_into(pg::things::table)
        .values(&first)
        .returning(Thing::as_returning())
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(stored.urn_key.as_str(), "urn:example:a%2Cb");
    assert!(stored.see_also[1].eq_text(&first.see_also[1]));
    // An equivalent spelling conflicts on the generated key's unique index: nothing inserted.
    let n = diesel::insert_into(pg::things::table)
        .values(&thing("URN:EXAMPLE:a%2Cb#f"))
        .on_conflict_do_nothing()
        .execute(&mut conn)
        .unwrap();
    assert_eq!(n, 0);
    // Lookup by the key of any spelling, through the typed column.
    let probe: Urn = "urn:Example:a%2CB".parse().unwrap();
    let found: Option<Thing> = pg::things::table
        .filter(pg::things::urn_key.eq(probe.key()))
        .select(Thing::as_select())
        .first(&mut conn)
        .optional()
        .unwrap();
    assert!(found.is_none(), "the NSS is case-sensitive");
    let probe: Urn = "urn:Example:a%2cb".parse().unwrap();
    let found: Thing = pg::things::table
        .filter(pg::things::urn_key.eq(probe.key()))
        .select(Thing::as_select())
        .first(&mut conn)
        .unwrap();
    assert_eq!(found.id, stored.id);
    let json = serde_json::to_value(&found).unwrap();
    assert_eq!(json["urn"], "urn:example:a%2cb?=x");

    // The helpers.
    let table = support::table("things", &schema);
    let got =
        urn_sql::diesel::insert_or_get(&mut conn, &table, &"URN:example:a%2cb".parse().unwrap())
            .unwrap();
    assert_eq!((got.id, got.inserted), (stored.id, false));
    let got =
        urn_sql::diesel::insert_or_get(&mut conn, &table, &"urn:example:new".parse().unwrap())
            .unwrap();
    assert!(got.inserted);
    let found =
        urn_sql::diesel::find(&mut conn, &table, &"URN:EXAMPLE:new#x".parse().unwrap()).unwrap();
    assert_eq!(found.unwrap().id, got.id);

    // A bad stored value is an error, not a panic.
    let err = diesel::sql_query("SELECT 'urn:isbn:0-395-36341-2'::text AS urn")
        .load::<IsbnRow>(&mut conn)
        .unwrap_err();
    assert!(err.to_string().contains(r#"stored value "urn:isbn:0-395-36341-2" is not a valid isbn URN: the check digit does not match (byte 21)"#), "{err}");

    // Several threads, each with its own connection, insert-or-get equivalent spellings.
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let url = support::with_search_path(&url, &schema);
            let table = table.clone();
            std::thread::spawn(move || {
                let mut conn = PgConnection::establish(&url).unwrap();
                let text = if i % 2 == 0 {
                    "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"
                } else {
                    "urn:UUID:f81d4fae-7dec-11d0-a765-00a0c91e6bf6?+r"
                };
                urn_sql::diesel::insert_or_get(&mut conn, &table, &text.parse().unwrap()).unwrap()
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(results.iter().all(|r| r.id == results[0].id));
    assert_eq!(results.iter().filter(|r| r.inserted).count(), 1);

    match support::backend() {
        // The table still uses the domains.
        support::Backend::Portable => {
            conn.revert_all_migrations(PG_MIGRATIONS).unwrap_err();
        }
        // The migration made nothing there, so reverting it removes nothing.
        support::Backend::UrnPg => {
            conn.revert_all_migrations(PG_MIGRATIONS).unwrap();
            diesel::sql_query("SELECT 'urn:example:a'::urn")
                .execute(&mut conn)
                .unwrap();
        }
    }
    diesel::sql_query(format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&mut admin)
        .unwrap();
}

#[derive(QueryableByName, Debug)]
struct UrnRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    #[allow(dead_code)]
    urn: Urn,
}

#[derive(QueryableByName, Debug)]
struct IsbnRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    #[allow(dead_code)]
    urn: IsbnUrn,
}

#[test]
fn sqlite_with_diesel() {
    for path in [
        ":memory:".to_owned(),
        std::env::temp_dir()
            .join(format!("urn-sql-diesel-{}.db", std::process::id()))
            .display()
            .to_string(),
    ] {
        let _ = std::fs::remove_file(&path);
        // Registers urn_key_v1 (the generated key column calls it), then connects.
        urn_sql::sqlite::register_for_all_connections().unwrap();
        let mut conn = SqliteConnection::establish(&path).unwrap();
        let table = UrnTable::new("things").unwrap();
        let ddl = Dialect::Sqlite
            .create_table_sql(&table)
            .replace("\n);", ",\n  \"isbn\" TEXT\n);");
        diesel::sql_query(ddl).execute(&mut conn).unwrap();
        let urn: Urn = "URN:LEX:IT:Stato:Legge:2003-09-21;456".parse().unwrap();
        let row = LiteThing {
            id: 0,
            urn_key: urn.key().into_owned(),
            urn: urn.clone(),
            isbn: None,
        };
        diesel::insert_into(lite::things::table)
            .values(&row)
            .execute(&mut conn)
            .unwrap();
        let stored: LiteThing = lite::things::table
            .filter(lite::things::urn_key.eq(urn.key()))
            .select(LiteThing::as_select())
            .first(&mut conn)
            .unwrap();
        assert_eq!(
            stored.urn_key.as_str(),
            "urn:lex:it:stato:legge:2003-09-21;456"
        );
        let again: Urn = "urn:lex:it:stato:legge:2003-09-21;456#art1"
            .parse()
            .unwrap();
        let n = diesel::insert_into(lite::things::table)
            .values(&LiteThing {
                id: 0,
                urn_key: again.key().into_owned(),
                urn: again.clone(),
                isbn: None,
            })
            .on_conflict(lite::things::urn_key)
            .do_nothing()
            .execute(&mut conn)
            .unwrap();
        assert_eq!(n, 0);
        let got = urn_sql::diesel::insert_or_get(&mut conn, &table, &again).unwrap();
        assert_eq!((got.id, got.inserted), (stored.id, false));
        let got = urn_sql::diesel::insert_or_get(
            &mut conn,
            &table,
            &"urn:isbn:0-395-36341-1".parse().unwrap(),
        )
        .unwrap();
        assert!(got.inserted);
        let found =
            urn_sql::diesel::find(&mut conn, &table, &"URN:ISBN:0395363411".parse().unwrap())
                .unwrap()
                .unwrap();
        assert_eq!(found.id, got.id);
        // A row another client writes gets its key from the same function ...
        diesel::sql_query(
            "INSERT INTO things (urn) VALUES ('URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6')",
        )
        .execute(&mut conn)
        .unwrap();
        let key: UrnKey<'static> = lite::things::table
            .select(lite::things::urn_key)
            .order(lite::things::id.desc())
            .first(&mut conn)
            .unwrap();
        assert_eq!(
            key.as_str(),
            "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
        );
        // ... and a corrupt row in a table without the generated key is a row-level error:
        // load_iter yields the other rows.
        diesel::sql_query("CREATE TABLE loose (id INTEGER PRIMARY KEY, urn TEXT NOT NULL)")
            .execute(&mut conn)
            .unwrap();
        diesel::sql_query(
            "INSERT INTO loose (urn) VALUES ('urn:ex:a'), ('urn:x:bad'), ('urn:ex:c')",
        )
        .execute(&mut conn)
        .unwrap();
        let rows: Vec<QueryResult<UrnRow>> = diesel::sql_query("SELECT urn FROM loose ORDER BY id")
            .load_iter::<UrnRow, diesel::connection::DefaultLoadingMode>(&mut conn)
            .unwrap()
            .collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].is_ok() && rows[2].is_ok());
        assert!(
            rows[1]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains(r#"stored value "urn:x:bad""#)
        );
        // A corrupted value (written around the guards' reach is impossible, so use a raw select).
        let err = diesel::sql_query("SELECT 'urn:isbn:12' AS urn")
            .load::<IsbnRow>(&mut conn)
            .unwrap_err();
        assert!(
            err.to_string()
                .contains(r#"stored value "urn:isbn:12" is not a valid isbn URN"#),
            "{err}"
        );
        if path != ":memory:" {
            drop(conn);
            std::fs::remove_file(&path).unwrap();
        }
    }
}
