//! The urn_pg extension (crate urn-pg) against the portable SQL and the Rust parser: the same
//! verdicts, messages and keys on every input, and a database moved from the portable SQL to
//! the extension and back without touching a table. Runs with `URN_SQL_BACKEND=urn_pg` (the
//! extension installed in the server, as `.ci/run`'s extension step does); skipped otherwise.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::str::FromStr;

use sqlx::Executor;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use urn_sql::sqlx::{insert_or_get, install};
use urn_sql::urn_core::KeyRules;
use urn_sql::{Urn, UrnKey, UrnRef, UrnTable};

/// urn-pg's way back to the portable SQL (its README documents it).
const TO_PORTABLE: &str = include_str!("../../urn-pg/sql/to-portable.sql");

/// A fresh database, dropped by [`Scratch::drop`].
struct Scratch {
    admin: PgPool,
    name: String,
    pool: PgPool,
}

impl Scratch {
    async fn new(test: &str) -> Option<Scratch> {
        Scratch::with_options(test, "").await
    }

    /// A fresh database made with `options` (`ENCODING …`).
    async fn with_options(test: &str, options: &str) -> Option<Scratch> {
        if support::backend() != support::Backend::UrnPg {
            eprintln!("URN_SQL_BACKEND is not urn_pg: skipping the extension tests");
            return None;
        }
        let url = support::postgres_url()?;
        let name = support::schema_name(test);
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        admin
            .execute(sqlx::AssertSqlSafe(format!(
                "CREATE DATABASE {name} {options}"
            )))
            .await
            .unwrap();
        let options = PgConnectOptions::from_str(&url).unwrap().database(&name);
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .unwrap();
        Some(Scratch { admin, name, pool })
    }

    async fn language(&self) -> String {
        sqlx::query_scalar(support::KEY_FUNCTION_LANGUAGE)
            .fetch_one(&self.pool)
            .await
            .unwrap()
    }

    async fn drop(self) {
        self.pool.close().await;
        self.admin
            .execute(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE {} WITH (FORCE)",
                self.name
            )))
            .await
            .unwrap();
    }
}

/// Every value the functions give for one input, as one line to compare.
const PROBE: &str = "CREATE FUNCTION probe(t text) RETURNS text LANGUAGE plpgsql AS $$
  DECLARE u urn; k urn_key; BEGIN
    BEGIN u := t::urn; EXCEPTION WHEN check_violation THEN u := NULL; END;
    BEGIN k := t::urn_key; EXCEPTION WHEN check_violation THEN k := NULL; END;
    RETURN concat_ws(' | ', u IS NOT NULL, k IS NOT NULL, urn_check(t), urn_valid(t),
      urn_key_v1(u), urn_key_v1_inline(u), urn_key_v2(u), urn_key_v2_inline(u),
      urn_rfc8141_key(u), urn_nid(u), urn_nss(u), urn_key_index(urn_key_v2(u)::urn_key));
  END $$";

/// What `probe` must say for `text`, from the Rust parser.
fn expected(text: &str) -> String {
    let flag = |b: bool| if b { "t" } else { "f" }.to_owned();
    let parsed = UrnRef::parse(text);
    let key_domain = parsed.is_ok() && UrnKey::parse_with(text, KeyRules::Rfc8141).is_ok();
    let mut fields = vec![flag(parsed.is_ok()), flag(key_domain)];
    match parsed {
        Err(e) => fields.extend([e.to_string(), flag(false)]),
        Ok(urn) => {
            let v1 = urn.key_with(KeyRules::V1).into_string();
            let key = urn.key().into_string();
            let index = if key.len() <= 2048 {
                key.clone()
            } else {
                format!("sha256:{}", sha256_hex(key.as_bytes()))
            };
            fields.extend([
                flag(true),
                v1.clone(),
                v1,
                key.clone(),
                key,
                urn.rfc8141_key().into_string(),
                urn.nid().to_owned(),
                urn.nss().to_owned(),
                index,
            ]);
        }
    }
    fields.join(" | ")
}

/// The extension, the portable SQL and the parser agree on the test vectors, the generated
/// corpus, long URNs and 100,000 proptest strings: domain verdicts (`urn` and `urn_key`),
/// `urn_check`, `urn_valid`, every key (V1 and V2, function and inline), `urn_nid`, `urn_nss` and `urn_key_index`.
#[tokio::test]
async fn extension_portable_sql_and_parser_agree_on_every_input() {
    let Some(native) = Scratch::new("urn_pg_native").await else {
        return;
    };
    let portable = Scratch::new("urn_pg_portable").await.unwrap();
    native
        .pool
        .execute("CREATE EXTENSION urn_pg")
        .await
        .unwrap();
    install(&portable.pool).await.unwrap();
    assert_eq!(native.language().await, "c");
    assert_eq!(portable.language().await, "plpgsql");
    for db in [&native, &portable] {
        db.pool.execute(PROBE).await.unwrap();
    }

    let mut inputs = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    for (text, respelled) in support::corpus::long_urns() {
        inputs.push(text.clone());
        inputs.push(respelled);
        inputs.push(text.replacen("urn:example:x", "urn:example:x ", 1));
    }
    inputs.extend(support::corpus::proptest_strings(100_000));
    // Keys are inputs too: the urn_key domain must take exactly the canonical ones.
    let keys: Vec<String> = inputs
        .iter()
        .filter_map(|s| Urn::parse(s).ok())
        .flat_map(|u| [u.key().into_string(), u.rfc8141_key().into_string()])
        .collect();
    inputs.extend(keys);
    // PostgreSQL text cannot hold NUL.
    inputs.retain(|s| !s.contains('\0'));

    let mut disagreements = Vec::new();
    let mut valid = 0;
    for chunk in inputs.chunks(20_000) {
        let query = "SELECT probe(x) FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i";
        let (from_native, from_portable) = tokio::join!(
            sqlx::query_scalar::<_, String>(query)
                .bind(chunk)
                .fetch_all(&native.pool),
            sqlx::query_scalar::<_, String>(query)
                .bind(chunk)
                .fetch_all(&portable.pool),
        );
        let (from_native, from_portable) = (from_native.unwrap(), from_portable.unwrap());
        assert_eq!(from_native.len(), chunk.len());
        for ((text, native), portable) in chunk.iter().zip(&from_native).zip(&from_portable) {
            let rust = expected(text);
            valid += usize::from(rust.starts_with("t |"));
            if *native != rust || *portable != rust {
                disagreements.push(format!(
                    "{text:?}\n  parser   {rust}\n  urn_pg   {native}\n  portable {portable}"
                ));
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, the first:\n{}",
        disagreements.len(),
        disagreements
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        valid > 40_000 && inputs.len() - valid > 40_000,
        "{valid} valid of {}",
        inputs.len()
    );
    native.drop().await;
    portable.drop().await;
}

/// The extension's domain errors carry the parser's message, name the domain and constraint,
/// and keep the portable domains' SQLSTATE (check_violation).
#[tokio::test]
async fn domain_errors_carry_the_parser_message() {
    let Some(db) = Scratch::new("urn_pg_errors").await else {
        return;
    };
    db.pool.execute("CREATE EXTENSION urn_pg").await.unwrap();
    for (value, cast, expected, detail) in [
        (
            "urn:example:a%zz",
            "urn",
            "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits",
            r#"value for domain urn violates check constraint "urn_syntax""#,
        ),
        (
            "urn:EXAMPLE:a",
            "urn_key",
            "invalid URN: not a canonical URN key: byte 4 differs from the key",
            r#"value for domain urn_key violates check constraint "urn_key_canonical""#,
        ),
        (
            "urn:example:a?=q",
            "urn_key",
            "invalid URN: a URN key has no r-, q- or f-component, but one starts at byte 13",
            r#"value for domain urn_key violates check constraint "urn_key_canonical""#,
        ),
    ] {
        let err = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT $1::{cast}")))
            .bind(value)
            .execute(&db.pool)
            .await
            .unwrap_err();
        let pg = support::pg_error(&err);
        assert_eq!(
            (pg.code(), pg.message(), pg.detail()),
            ("23514", expected, Some(detail))
        );
    }
    // A value stored before the check (NOT VALID) is refused by the functions too, with the
    // parser's message, instead of being given a wrong key.
    db.pool
        .execute(
            "CREATE TABLE legacy (u urn); \
             ALTER DOMAIN urn DROP CONSTRAINT urn_syntax; \
             INSERT INTO legacy VALUES ('not a urn'); \
             ALTER DOMAIN urn ADD CONSTRAINT urn_syntax CHECK (urn_domain_check(VALUE)) NOT VALID",
        )
        .await
        .unwrap();
    let err = sqlx::query("SELECT urn_key_v1(u) FROM legacy")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid URN: expected 'urn:' at byte 0"),
        "{err}"
    );
    db.drop().await;
}

/// In a database whose encoding is not UTF-8, text that is not UTF-8 reaches the functions as
/// bytes: an invalid URN with a message naming the byte, never a conversion panic.
#[tokio::test]
async fn a_latin1_database_gets_messages_not_panics() {
    let Some(db) = Scratch::with_options(
        "urn_pg_latin1",
        "ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
    )
    .await
    else {
        return;
    };
    db.pool.execute("CREATE EXTENSION urn_pg").await.unwrap();
    // The client sends UTF-8; the server stores 'é' as the one byte 0xE9.
    let (check, valid, key): (Option<String>, bool, String) =
        sqlx::query_as("SELECT urn_check($1), urn_valid($1), urn_key_v1($2)")
            .bind("urn:example:caf\u{e9}")
            .bind("URN:Example:caf%c3%a9")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    // urn-core's one diagnosis of bytes that are not UTF-8.
    let not_utf8 = urn_sql::urn_core::ParseError::not_utf8(15).to_string();
    assert_eq!(
        (check.as_deref(), valid, key.as_str()),
        (Some(not_utf8.as_str()), false, "urn:example:caf%C3%A9")
    );
    let err = sqlx::query("SELECT $1::urn")
        .bind("urn:ex\u{e9}:a")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(&urn_sql::urn_core::ParseError::not_utf8(6).to_string()),
        "{err}"
    );
    db.drop().await;
}

/// Rows of `table` in id order: (id, urn, urn_key).
async fn rows(pool: &PgPool, table: &str) -> Vec<(i64, String, String)> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, urn::text, urn_key::text FROM {table} ORDER BY id"
    )))
    .fetch_all(pool)
    .await
    .unwrap()
}

/// What must hold on both sides of a move: every stored key (and, partitioned, every stored
/// index value) is what the functions compute now, the unique indexes hold exactly their
/// recomputed entries (amcheck), and another spelling of a stored URN finds its row.
async fn check_tables(pool: &PgPool, tables: &[(&str, UrnTable)], urns: &[Urn]) {
    for (name, table) in tables {
        let stale_index = if *name == "parted" {
            " OR urn_key_index IS DISTINCT FROM urn_key_index(urn_key)"
        } else {
            ""
        };
        let function = table.key_rules().sql_function().unwrap();
        let stale: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT count(*) FROM {name} WHERE urn_key IS DISTINCT FROM {function}(urn){stale_index}"
        )))
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(stale, 0, "{name}: stored values differ from the functions'");
        let before = rows(pool, name).await;
        for urn in urns {
            let mut respelled = format!("URN:{}", &urn.as_str()[4..]);
            if respelled.len() < 60_000 {
                respelled.push_str("?=moved");
            }
            let got = insert_or_get(pool, table, &respelled.parse().unwrap())
                .await
                .unwrap();
            assert!(!got.inserted, "{name}: {respelled} was inserted again");
        }
        assert_eq!(rows(pool, name).await, before);
    }
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT i.indexrelid::regclass::text FROM pg_index i \
         JOIN pg_class c ON c.oid = i.indrelid \
         WHERE i.indisunique AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(indexes.len() > tables.len(), "{indexes:?}");
    for index in indexes {
        sqlx::query("SELECT bt_index_check($1::regclass, true)")
            .bind(&index)
            .execute(pool)
            .await
            .unwrap_or_else(|e| panic!("{index}: {e}"));
    }
}

/// A database with tables made under the portable SQL moves to the extension (CREATE
/// EXTENSION adopts the objects in place) and back (urn-pg's sql/to-portable.sql, the portable
/// migration, DROP EXTENSION), keeping every row, key and index entry.
#[tokio::test]
async fn a_database_moves_to_the_extension_and_back_without_rekeying() {
    let Some(db) = Scratch::new("urn_pg_move").await else {
        return;
    };
    install(&db.pool).await.unwrap();
    db.pool.execute("CREATE EXTENSION amcheck").await.unwrap();
    let tables = [
        ("items", UrnTable::new("items").unwrap()),
        (
            "parted",
            UrnTable::new("parted")
                .unwrap()
                .hash_partitioned(4)
                .unwrap(),
        ),
    ];
    for (_, table) in &tables {
        db.pool
            .execute(sqlx::AssertSqlSafe(
                urn_sql::Dialect::Postgres.create_table_sql(table),
            ))
            .await
            .unwrap();
    }
    // Valid URNs of every kind, long ones included, one per key.
    let mut urns: Vec<Urn> = support::corpus::vector_inputs()
        .into_iter()
        .chain(support::corpus::generated_inputs())
        .chain(support::corpus::proptest_strings(2_000))
        .filter_map(|s| s.parse().ok())
        .collect();
    urns.sort_by(|a, b| a.key().cmp(&b.key()));
    urns.dedup_by(|a, b| a.key() == b.key());
    let (before, after) = urns.split_at(urns.len() / 2);
    for (_, table) in &tables {
        for urn in before {
            insert_or_get(&db.pool, table, urn).await.unwrap();
        }
    }
    // Arrays of the domains, which PostgreSQL cannot re-check when a domain's constraint is
    // replaced: both moves must still go through.
    let lists = "SELECT see_also::text, keys::text FROM links ORDER BY id";
    db.pool
        .execute(
            "CREATE TABLE links (id int GENERATED ALWAYS AS IDENTITY, see_also urn[] NOT NULL, \
             keys urn_key[] NOT NULL); \
             INSERT INTO links (see_also, keys) SELECT ARRAY[urn], ARRAY[urn_key::urn_key] \
             FROM items",
        )
        .await
        .unwrap();
    let links: Vec<(String, String)> = sqlx::query_as(lists).fetch_all(&db.pool).await.unwrap();
    let snapshot = rows(&db.pool, "items").await;
    check_tables(&db.pool, &tables, before).await;

    // Portable -> extension.
    db.pool.execute("CREATE EXTENSION urn_pg").await.unwrap();
    assert_eq!(db.language().await, "c");
    assert_eq!(rows(&db.pool, "items").await, snapshot);
    check_tables(&db.pool, &tables, before).await;
    for (_, table) in &tables {
        for urn in after {
            assert!(insert_or_get(&db.pool, table, urn).await.unwrap().inserted);
        }
    }
    check_tables(&db.pool, &tables, &urns).await;
    let snapshot = rows(&db.pool, "items").await;

    // Extension -> portable, in one transaction.
    let mut tx = db.pool.begin().await.unwrap();
    tx.execute(sqlx::raw_sql(TO_PORTABLE)).await.unwrap();
    tx.execute(sqlx::raw_sql(urn_sql::postgres::UP))
        .await
        .unwrap();
    tx.execute("DROP EXTENSION urn_pg").await.unwrap();
    tx.commit().await.unwrap();
    assert_eq!(db.language().await, "plpgsql");
    let leftovers: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_proc WHERE proname LIKE 'urn%' \
         AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(leftovers, 0, "native functions left behind");
    assert_eq!(rows(&db.pool, "items").await, snapshot);
    check_tables(&db.pool, &tables, &urns).await;
    let lists_now: Vec<(String, String)> = sqlx::query_as(lists).fetch_all(&db.pool).await.unwrap();
    assert_eq!(lists_now, links);
    db.drop().await;
}

/// Lower-case hex SHA-256, for the expected `urn_key_index` of long keys (computed by
/// coreutils, not by the code under test).
fn sha256_hex(bytes: &[u8]) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sha256sum (coreutils)");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}
