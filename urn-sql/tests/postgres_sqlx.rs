//! PostgreSQL through sqlx: the shipped SQL against the Rust parser and key on every test
//! input, deduplication, concurrency, round trips and decode errors. Needs `DATABASE_URL`
//! (skipped without it, a failure under `CI=true`).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::str::FromStr;
use std::sync::Arc;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Executor, Row};
use urn_sql::sqlx::{find, insert_or_get, install};
use urn_sql::{IsbnUrn, KeyRules, Urn, UrnKey, UrnTable};

/// A pool whose connections work in a fresh schema holding urn-sql's types, and a guard that
/// drops the schema.
struct Db {
    pool: PgPool,
    admin: PgPool,
    schema: String,
}

impl Db {
    async fn new(test: &str) -> Option<Db> {
        let url = support::postgres_url()?;
        let schema = support::schema_name(test);
        let admin = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .await
            .unwrap();
        let options = PgConnectOptions::from_str(&url)
            .unwrap()
            .options([("search_path", support::search_path(&schema))]);
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .unwrap();
        install(&pool).await.unwrap();
        // Installing twice is a no-op.
        install(&pool).await.unwrap();
        let language: String = sqlx::query_scalar(support::KEY_FUNCTION_LANGUAGE)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(language, support::backend().key_function_language());
        Some(Db {
            pool,
            admin,
            schema,
        })
    }

    async fn drop_schema(self) {
        self.pool.close().await;
        self.admin
            .execute(sqlx::AssertSqlSafe(format!(
                "DROP SCHEMA {} CASCADE",
                self.schema
            )))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn domain_and_key_function_agree_with_the_parser_on_every_input() {
    let Some(db) = Db::new("differential").await else {
        return;
    };
    db.pool
        .execute(
            "CREATE FUNCTION try_urn(t text) RETURNS boolean LANGUAGE plpgsql AS \
             $$ BEGIN PERFORM t::urn; RETURN true; \
             EXCEPTION WHEN check_violation THEN RETURN false; END $$",
        )
        .await
        .unwrap();
    let mut inputs = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    inputs.extend(support::corpus::proptest_strings(30_000));
    // PostgreSQL text cannot hold NUL; such inputs are invalid URNs anyway.
    inputs.retain(|s| !s.contains('\0'));
    let rows = sqlx::query(
        "SELECT x, try_urn(x) AS valid, urn_check(x) AS message, \
                CASE WHEN try_urn(x) THEN urn_key_v1(x) END AS key_v1, \
                CASE WHEN try_urn(x) THEN urn_key_v1_inline(x::urn) END AS inline_key_v1, \
                CASE WHEN try_urn(x) THEN urn_key_v2(x) END AS key_v2, \
                CASE WHEN try_urn(x) THEN urn_key_v2_inline(x::urn) END AS inline_key_v2 \
         FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
    )
    .bind(&inputs)
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), inputs.len());
    let mut disagreements = Vec::new();
    let mut valid = 0;
    for (input, row) in inputs.iter().zip(&rows) {
        let sql_valid: bool = row.get("valid");
        let keys: Vec<(KeyRules, Option<String>)> = KeyRules::VERSIONS
            .iter()
            .map(|&rules| {
                let key: Option<String> = row.get(format!("key_{rules}").as_str());
                let inline: Option<String> = row.get(format!("inline_key_{rules}").as_str());
                if inline != key {
                    disagreements.push(format!(
                        "{input:?}: urn_key_{rules} {key:?} urn_key_{rules}_inline {inline:?}"
                    ));
                }
                (rules, key)
            })
            .collect();
        let message: Option<String> = row.get("message");
        let rust_message = Urn::parse(input).err().map(|e| e.to_string());
        if message != rust_message {
            disagreements.push(format!(
                "{input:?}: parser {rust_message:?} urn_check {message:?}"
            ));
        }
        let rust = Urn::parse(input).ok();
        if rust.is_some() != sql_valid {
            disagreements.push(format!(
                "{input:?}: parser {} domain {sql_valid}",
                rust.is_some()
            ));
        }
        if let Some(urn) = rust {
            valid += 1;
            for (rules, sql_key) in keys {
                let key = urn.key_with(rules);
                if sql_key.as_deref() != Some(key.as_str()) {
                    disagreements.push(format!(
                        "{input:?}: key {:?} vs urn_key_{rules} {sql_key:?}",
                        key.as_str()
                    ));
                }
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(
        valid > 3000 && inputs.len() - valid > 3000,
        "{valid} valid of {}",
        inputs.len()
    );

    // The key domain accepts every key (the key function's output is canonical).
    let keys: Vec<String> = inputs
        .iter()
        .filter_map(|s| Urn::parse(s).ok())
        .map(|u| u.key().into_string())
        .collect();
    let checked: i64 =
        sqlx::query_scalar("SELECT count(k::urn_key) FROM unnest($1::text[]) AS t(k)")
            .bind(&keys)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(checked as usize, keys.len());
    for bad in ["URN:ex:a", "urn:ex:a%2c", "urn:ex:a#f", "urn:ex:a?+r"] {
        let err = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT '{bad}'::urn_key")))
            .execute(&db.pool)
            .await
            .unwrap_err();
        assert!(names_constraint(&err, "urn_key_canonical"), "{bad}: {err}");
    }
    db.drop_schema().await;
}

/// Whether a domain error names `constraint`: in its message (PostgreSQL's own CHECK failure)
/// or in its detail (the portable SQL's and the extension's errors, whose message is the
/// parser's).
fn names_constraint(err: &sqlx::Error, constraint: &str) -> bool {
    let pg = support::pg_error(err);
    let phrase = format!(r#"violates check constraint "{constraint}""#);
    pg.code() == "23514"
        && (pg.message().contains(&phrase) || pg.detail().is_some_and(|d| d.contains(&phrase)))
}

/// What a cast of `t` to `domain` raises, as one line: `ok` when it passes, otherwise the
/// SQLSTATE, message, detail and constraint name.
const DOMAIN_PROBE: &str = "CREATE FUNCTION domain_probe(t text, domain text) RETURNS text
  LANGUAGE plpgsql AS $$
  DECLARE m text; d text; c text; s text;
  BEGIN
    IF domain = 'urn' THEN PERFORM t::urn; ELSE PERFORM t::urn_key; END IF;
    RETURN 'ok';
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, d = PG_EXCEPTION_DETAIL,
                            c = CONSTRAINT_NAME;
    RETURN concat_ws(' | ', s, m, d, nullif(c, ''));
  END $$";

/// A value the `urn_key` domain refuses: why, as urn_pg says it (the parser's message, a
/// component, or the first byte that differs from the RFC 8141 section 3 key).
fn key_problem(text: &str) -> Option<String> {
    match urn_core::UrnRef::parse(text) {
        Err(e) => Some(e.to_string()),
        Ok(urn) if urn.rfc8141_key().as_str() == text => None,
        Ok(_) => Some(
            UrnKey::parse_with(text, urn_core::KeyRules::Rfc8141)
                .err()
                .map_or_else(|| "not a key".to_owned(), |e| e.to_string()),
        ),
    }
}

/// Every value the `urn` and `urn_key` domains refuse, from any client, raises the parser's
/// message (rule and byte) with SQLSTATE 23514 and the constraint named in the detail (and,
/// from the portable SQL, in the error's constraint field); every valid one passes. On every
/// corpus input and every key of one, for both backends.
#[tokio::test]
async fn domain_errors_carry_the_parser_message() {
    let Some(db) = Db::new("domain_errors").await else {
        return;
    };
    db.pool.execute(DOMAIN_PROBE).await.unwrap();
    let constraints: Vec<String> = sqlx::query_scalar(
        "SELECT conname::text FROM pg_constraint \
         WHERE contypid IN ('urn'::regtype, 'urn_key'::regtype) ORDER BY conname",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert_eq!(constraints, ["urn_key_canonical", "urn_syntax"]);
    let mut inputs = support::corpus::vector_inputs();
    inputs.extend(support::corpus::generated_inputs());
    inputs.retain(|s| !s.contains('\0'));
    let keys: Vec<String> = inputs
        .iter()
        .filter_map(|s| Urn::parse(s).ok())
        .flat_map(|u| [u.key().into_string(), u.rfc8141_key().into_string()])
        .collect();
    inputs.extend(keys);
    // The constraint field is the portable SQL's addition (urn_pg names it in the detail only).
    let field = |name: &str| match support::backend() {
        support::Backend::Portable => format!(" | {name}"),
        support::Backend::UrnPg => String::new(),
    };
    let expect = |domain: &str, problem: Option<String>| match problem {
        None => "ok".to_owned(),
        Some(message) => {
            let name = if domain == "urn" {
                "urn_syntax"
            } else {
                "urn_key_canonical"
            };
            format!(
                "23514 | {message} | value for domain {domain} violates check constraint \"{name}\"{}",
                field(name)
            )
        }
    };
    let mut wrong = Vec::new();
    let (mut refused, mut passed) = (0, 0);
    for chunk in inputs.chunks(10_000) {
        let rows = sqlx::query(
            "SELECT domain_probe(x, 'urn'), domain_probe(x, 'urn_key') \
             FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
        )
        .bind(chunk)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        for (input, row) in chunk.iter().zip(&rows) {
            let urn = expect("urn", Urn::parse(input).err().map(|e| e.to_string()));
            let key = expect("urn_key", key_problem(input));
            for (got, want) in [
                (row.get::<String, _>(0), urn),
                (row.get::<String, _>(1), key),
            ] {
                if want == "ok" {
                    passed += 1;
                } else {
                    refused += 1;
                }
                if got != want {
                    wrong.push(format!("{input:?}\n  got  {got}\n  want {want}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong, the first:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        refused > 10_000 && passed > 10_000,
        "{refused} refused, {passed} passed"
    );
    // What psql shows for the issue's example: the parser's message first.
    let err = sqlx::query("SELECT 'urn:example:a%zz'::urn")
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert_eq!(
        support::pg_error(&err).message(),
        "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"
    );
    assert!(names_constraint(&err, "urn_syntax"), "{err}");
    db.drop_schema().await;
}

#[tokio::test]
async fn key_function_is_immune_to_a_turkish_collation() {
    let Some(db) = Db::new("turkish").await else {
        return;
    };
    let has_icu: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'tr-TR-x-icu')",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    if has_icu {
        let key: String = sqlx::query_scalar(
            "SELECT urn_key_v1(('URN:ISBN:0-8044-2957-X' COLLATE \"tr-TR-x-icu\")::urn)",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(key, "urn:isbn:080442957X");
        let key: String = sqlx::query_scalar(
            "SELECT urn_key_v1(('urn:LEX:IT:I%2c' COLLATE \"tr-TR-x-icu\")::urn)",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap();
        assert_eq!(key, "urn:lex:it:i%2C");
    }
    db.drop_schema().await;
}

#[tokio::test]
async fn equivalent_spellings_are_stored_once_and_found_by_any() {
    let Some(db) = Db::new("dedup").await else {
        return;
    };
    let table = support::table("items", &db.schema);
    db.pool
        .execute(sqlx::AssertSqlSafe(
            urn_sql::Dialect::Postgres.create_table_sql(&table),
        ))
        .await
        .unwrap();
    let spellings = [
        "urn:isbn:0-395-36341-1",
        "URN:ISBN:0395363411?+x",
        "urn:Isbn:0-395-363411#p",
    ];
    let mut ids = Vec::new();
    for (i, text) in spellings.iter().enumerate() {
        let stored = insert_or_get(&db.pool, &table, &text.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(stored.inserted, i == 0, "{text}");
        assert_eq!(
            stored.urn.as_str(),
            spellings[0],
            "the first spelling is kept"
        );
        assert_eq!(stored.key.as_str(), "urn:isbn:0395363411");
        ids.push(stored.id);
    }
    assert!(ids.iter().all(|id| *id == ids[0]));
    for text in spellings {
        let found = find(&db.pool, &table, &text.parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found.id, ids[0]);
    }
    assert!(
        find(&db.pool, &table, &"urn:isbn:0-8044-2957-X".parse().unwrap())
            .await
            .unwrap()
            .is_none()
    );
    // The database enforces it without Rust: a plain INSERT of another spelling fails,
    // and so does text that is not a URN.
    let err = db
        .pool
        .execute("INSERT INTO items (urn) VALUES ('urn:ISBN:0-395-36341-1#x')")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("items_urn_key_unique"), "{err}");
    let err = db
        .pool
        .execute("INSERT INTO items (urn) VALUES ('urn:isbn:0 395')")
        .await
        .unwrap_err();
    assert!(names_constraint(&err, "urn_syntax"), "{err}");
    assert_eq!(
        support::pg_error(&err).message(),
        "invalid URN: ' ' at byte 10 is not allowed in the NSS"
    );
    // Lookup from SQL alone uses the unique index.
    let plan: Vec<String> = sqlx::query_scalar(
        "EXPLAIN SELECT id FROM items WHERE urn_key_index(urn_key) \
         = urn_key_index(urn_key_v1('URN:ISBN:0395363411')::urn_key)",
    )
    .fetch_all(&db.pool)
    .await
    .unwrap();
    assert!(plan.join("\n").contains("items_urn_key_unique"), "{plan:?}");
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
    db.drop_schema().await;
}

/// Eight tasks insert four spellings of the same URN at once, ten times: one row, one id, one
/// `inserted`, no error.
async fn concurrent_insert_or_get_on(db: &Db, table: UrnTable) {
    let table = Arc::new(table);
    db.pool
        .execute(sqlx::AssertSqlSafe(
            urn_sql::Dialect::Postgres.create_table_sql(&table),
        ))
        .await
        .unwrap();
    for round in 0..10 {
        let barrier = Arc::new(tokio::sync::Barrier::new(8));
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let (pool, table, barrier) = (db.pool.clone(), table.clone(), barrier.clone());
                let text = match i % 3 {
                    0 => format!("urn:example:item-{round}%2c"),
                    1 => format!("URN:EXAMPLE:item-{round}%2C?=q"),
                    _ => format!("urn:Example:item-{round}%2c#{i}"),
                };
                tokio::spawn(async move {
                    let urn: Urn = text.parse().unwrap();
                    barrier.wait().await;
                    insert_or_get(&pool, &table, &urn).await
                })
            })
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap().expect("no error reaches the caller"));
        }
        assert!(
            results.iter().all(|r| r.id == results[0].id),
            "round {round}: {results:?}"
        );
        assert_eq!(
            results.iter().filter(|r| r.inserted).count(),
            1,
            "round {round}"
        );
    }
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(count, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_insert_or_get_yields_one_row_and_one_id() {
    let Some(db) = Db::new("concurrent").await else {
        return;
    };
    concurrent_insert_or_get_on(&db, support::table("items", &db.schema)).await;
    db.drop_schema().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_insert_or_get_on_a_hash_partitioned_table() {
    let Some(db) = Db::new("partitioned_concurrent").await else {
        return;
    };
    let table = support::table("items", &db.schema)
        .hash_partitioned(4)
        .unwrap();
    concurrent_insert_or_get_on(&db, table).await;
    // The rows spread over the partitions by key.
    let partitions: i64 = sqlx::query_scalar("SELECT count(DISTINCT tableoid) FROM items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(partitions > 1, "{partitions}");
    db.drop_schema().await;
}

/// URNs of any length the domain allows (random, incompressible: 2,600 to 60,000 bytes) are
/// inserted, deduplicated and found by any spelling, in the plain and the partitioned layout;
/// a UNIQUE btree on the key itself refuses the longer ones (the hole this closes).
#[tokio::test]
async fn long_urns_are_stored_once_and_found_by_any_spelling() {
    let Some(db) = Db::new("long").await else {
        return;
    };
    let plain = support::table("items", &db.schema);
    let partitioned = support::table("parts", &db.schema)
        .hash_partitioned(4)
        .unwrap();
    for (name, table) in [("items", &plain), ("parts", &partitioned)] {
        db.pool
            .execute(sqlx::AssertSqlSafe(
                urn_sql::Dialect::Postgres.create_table_sql(table),
            ))
            .await
            .unwrap();
        for (text, respelled) in support::corpus::long_urns() {
            let (urn, other): (Urn, Urn) = (text.parse().unwrap(), respelled.parse().unwrap());
            let first = insert_or_get(&db.pool, table, &urn)
                .await
                .unwrap_or_else(|e| panic!("{} bytes: {e}", text.len()));
            assert!(first.inserted);
            let again = insert_or_get(&db.pool, table, &other).await.unwrap();
            assert_eq!((again.id, again.inserted), (first.id, false));
            assert_eq!(again.key, urn.key());
            for spelling in [&urn, &other] {
                let found = find(&db.pool, table, spelling).await.unwrap().unwrap();
                assert_eq!(found.id, first.id);
            }
            // A plain INSERT of the other spelling, as psql or COPY would write it, is refused.
            let err = sqlx::query(sqlx::AssertSqlSafe(format!(
                "INSERT INTO {name} (urn) VALUES ($1)"
            )))
            .bind(&respelled)
            .execute(&db.pool)
            .await;
            if name == "items" {
                let err = err.unwrap_err().to_string();
                assert!(err.contains("items_urn_key_unique"), "{err}");
            } else {
                // The partitioned layout needs its index column; without it the row is refused.
                assert!(err.is_err());
            }
        }
    }
    // The old design: UNIQUE on the key itself cannot hold an incompressible 2,800-byte key.
    db.pool
        .execute(
            "CREATE TABLE old (urn urn NOT NULL, \
             urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE)",
        )
        .await
        .unwrap();
    let (long, _) = &support::corpus::long_urns()[1];
    let err = sqlx::query("INSERT INTO old (urn) VALUES ($1)")
        .bind(long)
        .execute(&db.pool)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("index row size"), "{err}");
    db.drop_schema().await;
}

/// `urn_key_index` is the key up to 2,048 bytes and `sha256:` plus the hex digest of the key's
/// UTF-8 bytes beyond, whatever the session's client encoding; and it is inlined into the
/// expressions that use it (a function call per inserted row cost ~2.5 us).
#[tokio::test]
async fn urn_key_index_is_the_key_or_its_digest_and_is_inlined() {
    let Some(db) = Db::new("key_index").await else {
        return;
    };
    let mut conn = db.pool.acquire().await.unwrap();
    conn.execute("SET client_encoding = 'LATIN1'")
        .await
        .unwrap();
    for (text, _) in support::corpus::long_urns()
        .into_iter()
        .chain([("urn:example:short".to_owned(), String::new())])
    {
        let key = text.parse::<Urn>().unwrap().key().as_str().to_owned();
        let (index, expected): (String, String) = sqlx::query_as(
            "SELECT urn_key_index($1::urn_key), \
                    CASE WHEN octet_length($1) <= 2048 THEN $1 \
                         ELSE 'sha256:' || encode(sha256(convert_to($1, 'UTF8')), 'hex') END",
        )
        .bind(&key)
        .fetch_one(&mut *conn)
        .await
        .unwrap();
        assert_eq!(index, expected, "{} bytes", key.len());
    }
    if support::backend() == support::Backend::UrnPg {
        // Native code: nothing to inline, and the digest above is computed in Rust.
        drop(conn);
        db.drop_schema().await;
        return;
    }
    conn.execute("CREATE TABLE inlined (urn_key urn_key)")
        .await
        .unwrap();
    let plan: Vec<String> =
        sqlx::query_scalar("EXPLAIN VERBOSE SELECT urn_key_index(urn_key) FROM inlined")
            .fetch_all(&mut *conn)
            .await
            .unwrap();
    let plan = plan.join("\n");
    assert!(!plan.contains("urn_key_index("), "not inlined:\n{plan}");
    assert!(plan.contains("sha256"), "{plan}");
    drop(conn);
    db.drop_schema().await;
}

/// The partitioned layout deduplicates like the plain one, finds by any spelling, and refuses
/// an index column that is not its key's.
#[tokio::test]
async fn hash_partitioned_table_stores_equivalent_spellings_once() {
    let Some(db) = Db::new("partitioned").await else {
        return;
    };
    let table = support::table("items", &db.schema)
        .hash_partitioned(8)
        .unwrap();
    db.pool
        .execute(sqlx::AssertSqlSafe(
            urn_sql::Dialect::Postgres.create_table_sql(&table),
        ))
        .await
        .unwrap();
    let spellings = ["urn:isbn:0-395-36341-1", "URN:ISBN:0395363411?+x"];
    let first = insert_or_get(&db.pool, &table, &spellings[0].parse().unwrap())
        .await
        .unwrap();
    let again = insert_or_get(&db.pool, &table, &spellings[1].parse().unwrap())
        .await
        .unwrap();
    assert_eq!(
        (first.inserted, again.inserted, again.id),
        (true, false, first.id)
    );
    let found = find(&db.pool, &table, &"urn:isbn:0395363411#p".parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.id, first.id);
    let err = db
        .pool
        .execute("INSERT INTO items (urn, urn_key_index) VALUES ('urn:example:a', 'urn:example:b')")
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("items_urn_key_index_matches"),
        "{err}"
    );
    db.drop_schema().await;
}

/// `urn sql --dialect postgres | psql -v ON_ERROR_STOP=1` (what the README says): a second run
/// is a no-op that succeeds, and a run that fails half way leaves nothing behind.
#[tokio::test]
async fn the_shipped_sql_is_idempotent_and_transactional_under_psql() {
    let Some(db) = Db::new("psql").await else {
        return;
    };
    let Some(url) = support::postgres_url() else {
        return;
    };
    let url = support::with_search_path(&url, &db.schema);
    // psql as a script runs it (`ON_ERROR_STOP=1`), or as a session that goes on after an
    // error, rolling back only the failed statement (`ON_ERROR_ROLLBACK=on`).
    let psql_with = |sql: String, variable: &str| {
        use std::io::Write;
        let mut child = std::process::Command::new("psql")
            .args(["-X", "-q", "-v", variable, &url])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("psql is installed (.ci/run installs postgresql-client)");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(sql.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let psql = |sql: String| psql_with(sql, "ON_ERROR_STOP=1");
    // Db::new installed it already (twice); two more runs through psql are no-ops.
    for _ in 0..2 {
        let out = psql(urn_sql::Dialect::Postgres.install_sql());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Where the extension owns the objects, the one thing said is that it does.
        let stderr = String::from_utf8_lossy(&out.stderr);
        match support::backend() {
            support::Backend::Portable => assert!(stderr.is_empty(), "{stderr}"),
            support::Backend::UrnPg => assert!(
                stderr.lines().all(|l| l
                    .contains("NOTICE:  urn-sql: the urn_pg extension provides the URN domains")),
                "{stderr}"
            ),
        }
    }
    // In a fresh schema, a run that fails before COMMIT leaves no domain behind.
    db.pool
        .execute("CREATE SCHEMA IF NOT EXISTS psql_failed")
        .await
        .unwrap();
    let failing =
        urn_sql::Dialect::Postgres
            .install_sql()
            .replacen("COMMIT;", "SELECT 1 / 0;\nCOMMIT;", 1);
    let out = psql(format!("SET search_path = psql_failed;\n{failing}"));
    assert_eq!(out.status.code(), Some(3), "psql stops on the error");
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_type WHERE typnamespace = 'psql_failed'::regnamespace",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(left, 0);
    db.pool
        .execute("DROP SCHEMA psql_failed CASCADE")
        .await
        .unwrap();

    // `urn sql --table` (create_table_script): the table and its index are one statement, so
    // a failure half way (here the unique index's name taken by another relation) leaves no
    // table without its index, whether psql stops or goes on.
    let table = support::table("books", &db.schema);
    db.pool
        .execute(sqlx::AssertSqlSafe(format!(
            "CREATE TABLE {0}.squat (x int); CREATE INDEX books_urn_key_unique ON {0}.squat (x)",
            db.schema
        )))
        .await
        .unwrap();
    // (Before, psql made the table and stopped at the index, or, going on after the error,
    // committed the table without it.)
    for (variable, status) in [("ON_ERROR_STOP=1", 3), ("ON_ERROR_ROLLBACK=on", 0)] {
        let out = psql_with(
            urn_sql::Dialect::Postgres.create_table_script(&table),
            variable,
        );
        assert_eq!(out.status.code(), Some(status), "{variable}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("\"books_urn_key_unique\" already exists"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let books: Option<String> = sqlx::query_scalar("SELECT to_regclass($1)::text")
            .bind(format!("{}.books", db.schema))
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!(books, None, "{variable}: a table was left behind");
    }
    db.pool
        .execute(sqlx::AssertSqlSafe(format!(
            "DROP TABLE {}.squat",
            db.schema
        )))
        .await
        .unwrap();
    let out = psql(urn_sql::Dialect::Postgres.create_table_script(&table));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db.drop_schema().await;
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
struct Thing {
    id: i64,
    urn: Urn,
    urn_key: UrnKey<'static>,
    isbn: Option<IsbnUrn>,
    see_also: Vec<Urn>,
}

#[tokio::test]
async fn values_round_trip_and_bad_stored_values_are_decode_errors() {
    let Some(db) = Db::new("roundtrip").await else {
        return;
    };
    db.pool
        .execute(
            "CREATE TABLE things (
               id       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
               urn      urn     NOT NULL,
               urn_key  urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE,
               isbn     urn,
               see_also urn[]   NOT NULL DEFAULT '{}',
               loose    text)",
        )
        .await
        .unwrap();
    let urn: Urn = "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?=v#top"
        .parse()
        .unwrap();
    let see_also: Vec<Urn> = vec![
        "urn:ietf:rfc:2141".parse().unwrap(),
        "urn:example:a%2fb".parse().unwrap(),
    ];
    let isbn: IsbnUrn = "urn:isbn:978-0-395-36341-6".parse().unwrap();
    let thing: Thing = sqlx::query_as(
        "INSERT INTO things (urn, isbn, see_also) VALUES ($1, $2, $3) RETURNING id, urn, urn_key, isbn, see_also",
    )
    .bind(&urn)
    .bind(Some(&isbn))
    .bind(&see_also)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert!(thing.urn.eq_text(&urn));
    assert_eq!(
        thing.urn_key.as_str(),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"
    );
    assert!(thing.isbn.as_ref().unwrap().eq_text(&isbn));
    assert_eq!(thing.see_also.len(), 2);
    assert!(thing.see_also[1].eq_text(&see_also[1]));
    // NULL <-> None, and the struct serialises for an API response.
    let none: Option<Urn> = sqlx::query_scalar("SELECT NULL::urn")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert!(none.is_none());
    let json = serde_json::to_string(&thing).unwrap();
    assert!(
        json.contains(r#""urn":"URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6?=v#top""#),
        "{json}"
    );
    // A key binds and decodes on its own; arrays of domain values decode as Vec<Urn>.
    let key: UrnKey<'static> = sqlx::query_scalar("SELECT $1::urn_key")
        .bind(urn.key())
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(key, urn.key());
    let arr: Vec<Urn> = sqlx::query_scalar("SELECT ARRAY['urn:a1:x', 'URN:B2:y']::urn[]")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(arr.len(), 2);

    // Bad stored values: decode errors naming the value and the rule, never a panic.
    db.pool
        .execute("UPDATE things SET loose = 'urn:x:too-short-nid'")
        .await
        .unwrap();
    let err = sqlx::query_scalar::<_, Urn>("SELECT loose FROM things")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(
            r#"stored value "urn:x:too-short-nid" is not a valid URN: NID of 1 character at byte 4"#
        ),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, UrnKey<'static>>(
        "SELECT 'urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6'::text",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("is not a valid URN key: not a canonical URN key"),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, IsbnUrn>("SELECT 'urn:issn:1046-8188'::urn")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains(
            r#"is not a valid isbn URN: expected a URN in namespace "isbn", found "issn""#
        ),
        "{err}"
    );
    let err = sqlx::query_scalar::<_, Vec<Urn>>("SELECT ARRAY['urn:ok:x', 'nope']")
        .fetch_one(&db.pool)
        .await
        .unwrap_err();
    assert!(err.to_string().contains(r#"stored value "nope""#), "{err}");
    db.drop_schema().await;
}

/// The SQL objects as urn-sql installed them in earlier revisions (from git history), for the
/// upgrade test: revision 2 (six named CHECKs on the `urn` domain), revision 3 (one CHECK
/// each, names resolved through the search_path, quadratic %XX loops) and revision 4 (no V2
/// key functions).
const URN_SQL_2: &str = include_str!("fixtures/urn-sql-2-up.sql");
const URN_SQL_3: &str = include_str!("fixtures/urn-sql-3-up.sql");
const URN_SQL_4: &str = include_str!("fixtures/urn-sql-4-up.sql");

/// `install` brings an older install up to date in place: a database holding revision 2, 3 or
/// 4 with a keyed table of revision 2's pattern (`urn_key` domain column) and array columns of
/// both domains gets this revision's constraints and functions; every stored key stays what
/// the parser says, the unique index passes amcheck, and equivalent spellings still meet the
/// stored rows. A revision 1 install (older constraints, another version comment) is upgraded
/// too.
#[tokio::test]
async fn install_upgrades_an_older_install() {
    let Some(db) = Db::new("upgrade").await else {
        return;
    };
    if support::backend() == support::Backend::UrnPg {
        // The extension's objects are not install's to upgrade: Db::new checked that install
        // leaves them native.
        db.drop_schema().await;
        return;
    }
    for (revision, sql) in [
        ("urn-sql 2:", URN_SQL_2),
        ("urn-sql 3:", URN_SQL_3),
        ("urn-sql 4:", URN_SQL_4),
    ] {
        upgrade_from(&db, revision, sql).await;
    }

    // Revision 1: the version comment of the first release, before the named constraints.
    db.pool
        .execute(
            "ALTER DOMAIN urn DROP CONSTRAINT urn_syntax; \
             COMMENT ON DOMAIN urn IS 'urn-sql 1: RFC 8141 URN'",
        )
        .await
        .unwrap();
    install(&db.pool).await.unwrap();
    let restored: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM pg_constraint WHERE contypid = to_regtype('urn') \
         AND conname = 'urn_syntax' AND convalidated",
    )
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(restored, 1);
    db.drop_schema().await;
}

/// Installs `sql` (an earlier revision, whose domain comment starts with `revision`) in a new
/// schema, fills a keyed table, installs this revision over it and checks every stored key.
async fn upgrade_from(db: &Db, revision: &str, sql: &str) {
    let url = support::postgres_url().unwrap();
    let schema = support::schema_name("upgrade_old");
    db.admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .await
        .unwrap();
    let options = PgConnectOptions::from_str(&url)
        .unwrap()
        .options([("search_path", schema.as_str())]);
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect_with(options)
        .await
        .unwrap();
    // The old revision and a table of revision 2's pattern, filled with the corpus's valid
    // URNs.
    pool.execute(sqlx::AssertSqlSafe(format!("BEGIN; {sql} COMMIT;")))
        .await
        .unwrap();
    pool.execute(
        "CREATE TABLE items (
           id      bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           urn     urn     NOT NULL,
           urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED NOT NULL,
           see_also urn[] NOT NULL DEFAULT '{}',
           keys    urn_key[]);
         CREATE UNIQUE INDEX items_urn_key_unique ON items (urn_key_index(urn_key));
         CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public",
    )
    .await
    .unwrap();
    let mut urns: Vec<Urn> = support::corpus::vector_inputs()
        .into_iter()
        .chain(support::corpus::generated_inputs())
        .filter_map(|s| Urn::parse(&s).ok())
        .collect();
    let mut seen = std::collections::HashSet::new();
    urns.retain(|u| seen.insert(u.key().into_string()));
    let texts: Vec<&str> = urns.iter().map(Urn::as_str).collect();
    // Array columns of the domains too: PostgreSQL cannot re-check those in place, so an
    // upgrade that re-adds a domain's constraint must not ask it to.
    sqlx::query(
        "INSERT INTO items (urn, see_also, keys) \
         SELECT u, ARRAY[u]::urn[], ARRAY[urn_key_v1(u)]::urn_key[] FROM unnest($1::text[]) u",
    )
    .bind(&texts)
    .execute(&pool)
    .await
    .unwrap();
    let version = |pool: PgPool| async move {
        sqlx::query_scalar::<_, String>("SELECT obj_description('urn'::regtype, 'pg_type')")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert!(version(pool.clone()).await.starts_with(revision));

    install(&pool).await.unwrap();

    assert!(version(pool.clone()).await.starts_with("urn-sql 5:"));
    let constraints: Vec<String> = sqlx::query_scalar(
        "SELECT conname::text FROM pg_constraint \
         WHERE contypid IN ('urn'::regtype, 'urn_key'::regtype) ORDER BY conname",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(constraints, ["urn_key_canonical", "urn_syntax"]);
    // Every stored key is the parser's (V1: the old install's tables are V1 tables), and the
    // new function computes the same one.
    let rows: Vec<(String, String, String)> =
        sqlx::query_as("SELECT urn::text, urn_key::text, urn_key_v1(urn) FROM items ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), urns.len());
    for (urn, stored, now) in &rows {
        let key = Urn::parse(urn)
            .unwrap()
            .key_with(KeyRules::V1)
            .into_string();
        assert_eq!((stored, now), (&key, &key), "{urn}");
    }
    sqlx::query("SELECT public.bt_index_check('items_urn_key_unique'::regclass, true)")
        .execute(&pool)
        .await
        .unwrap();
    // The old table (a V1 table) takes new rows through the new functions, and refuses
    // respellings.
    let table = UrnTable::new(&format!("{schema}.items"))
        .unwrap()
        .with_urn_schema(&schema)
        .unwrap()
        .with_key_rules(KeyRules::V1)
        .unwrap();
    for urn in urns.iter().take(200) {
        let respelled = format!(
            "{}#again",
            urn.as_str().to_uppercase().replacen("URN:", "urn:", 1)
        );
        let Ok(respelled) = Urn::parse(&respelled) else {
            continue;
        };
        if respelled.key_with(KeyRules::V1) != urn.key_with(KeyRules::V1) {
            continue;
        }
        let row = insert_or_get(&pool, &table, &respelled).await.unwrap();
        assert!(!row.inserted, "{respelled}");
    }
    let fresh = insert_or_get(
        &pool,
        &table,
        &"urn:example:after-the-upgrade".parse().unwrap(),
    )
    .await
    .unwrap();
    assert!(fresh.inserted);
    pool.close().await;
    db.admin
        .execute(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .unwrap();
}

/// The functions work whatever the session's search_path: a restore (pg_dump sets it to '')
/// computes generated keys, and the domains' failure paths find their helpers.
#[tokio::test]
async fn the_functions_work_without_their_schema_on_the_search_path() {
    let Some(db) = Db::new("search_path").await else {
        return;
    };
    if support::backend() == support::Backend::UrnPg {
        // The extension's objects live in its own schema and call no SQL.
        db.drop_schema().await;
        return;
    }
    let url = support::postgres_url().unwrap();
    let options = PgConnectOptions::from_str(&url)
        .unwrap()
        .options([("search_path", "pg_catalog")]);
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    let s = &db.schema;
    pool.execute(sqlx::AssertSqlSafe(format!(
        "CREATE TABLE {s}.items (
           id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
           urn     {s}.urn NOT NULL,
           urn_key text GENERATED ALWAYS AS ({s}.urn_key_v1(urn)) STORED NOT NULL);
         CREATE UNIQUE INDEX ON {s}.items ({s}.urn_key_index(urn_key));
         INSERT INTO {s}.items (urn) VALUES ('URN:Example:a%2fb%2c'), ('urn:ISBN:0-395-36341-1'),
           ('urn:issn:2434561x'), ('urn:LEX:IT:a%2c')"
    )))
    .await
    .unwrap();
    let keys: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT urn_key FROM {s}.items ORDER BY id"
    )))
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        keys,
        [
            "urn:example:a%2Fb%2C",
            "urn:isbn:0395363411",
            "urn:issn:2434-561X",
            "urn:lex:it:a%2C"
        ]
    );
    for (sql, message) in [
        (
            format!("SELECT 'urn:example:a%zz'::{s}.urn"),
            "invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits",
        ),
        (
            format!("SELECT 'URN:example:a'::{s}.urn_key"),
            "invalid URN: not a canonical URN key: byte 0 differs from the key",
        ),
        (format!("SELECT {s}.urn_check('urn:x y:a')"), ""),
    ] {
        match sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .execute(&pool)
            .await
        {
            Err(err) => assert_eq!(support::pg_error(&err).message(), message, "{sql}"),
            Ok(_) => assert!(message.is_empty(), "{sql} passed"),
        }
    }
    let check: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT {s}.urn_check('urn:x y:a')"
    )))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        check.as_deref(),
        Some("invalid URN: ' ' at byte 5 is not allowed in the NID")
    );
    let valid: bool = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT {s}.urn_valid('urn:ab:c')"
    )))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert!(valid);
    pool.close().await;
    db.drop_schema().await;
}

/// Re-keying a V1 table to V2 (urn_sql::sqlx::rekey, and the psql script stopped after every
/// step): collisions listed first and refused or moved whole, no row lost or doubled, the table
/// working under V1 until the switch and under V2 after it, a second run a no-op; and online,
/// under a concurrent writer that inserts, updates and deletes.
mod rekey {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use sqlx::{AssertSqlSafe, Executor};
    use urn_sql::sqlx::{insert_or_get, rekey};
    use urn_sql::{Dialect, KeyRules, OnCollision, Urn, UrnTable};

    use super::support::rekey::*;
    use super::{Db, support};

    impl Db {
        fn table(&self, name: &str) -> UrnTable {
            support::table(name, &self.schema)
        }

        /// A V1 table holding `urns`.
        async fn filled(&self, name: &str, urns: &[Urn]) -> UrnTable {
            let table = v1(self.table(name));
            self.pool
                .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
                .await
                .unwrap();
            let texts: Vec<&str> = urns.iter().map(Urn::as_str).collect();
            sqlx::query(AssertSqlSafe(format!(
                "INSERT INTO {}.{name} (urn) SELECT unnest($1::text[])",
                self.schema
            )))
            .bind(&texts)
            .execute(&self.pool)
            .await
            .unwrap();
            table
        }

        async fn rows(&self, name: &str) -> Vec<(i64, String, String)> {
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT id, urn::text, urn_key FROM {}.{name} ORDER BY id",
                self.schema
            )))
            .fetch_all(&self.pool)
            .await
            .unwrap()
        }

        /// Runs `script` in psql; returns its exit code and stderr.
        fn psql(&self, script: &str) -> (Option<i32>, String) {
            use std::io::Write;
            let url = support::postgres_url().unwrap();
            let url = format!(
                "{url}{}options=-csearch_path%3D{}",
                if url.contains('?') { '&' } else { '?' },
                support::search_path(&self.schema).replace(',', "%2C")
            );
            let mut child = std::process::Command::new("psql")
                .args(["-X", "-q", &url])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("psql is installed (.ci/run installs postgresql-client)");
            let mut stdin = child.stdin.take().unwrap();
            let script = script.to_owned();
            let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
            let out = child.wait_with_output().unwrap();
            writer.join().unwrap().unwrap();
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        }
    }

    #[tokio::test]
    async fn collisions_first_then_keep_first_then_v2() {
        let Some(db) = Db::new("rekey").await else {
            return;
        };
        let urns = scenario_urns();
        let table = db.filled("items", &urns).await;
        // The psql script refuses the collisions, naming how many, and changes nothing.
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let (code, err) = db.psql(&script);
        assert_ne!(code, Some(0));
        assert!(err.contains("5 groups of rows"), "{err}");
        collisions_scenario(
            &db.pool,
            &table,
            urns.len(),
            async || db.rows("items").await,
            async || {
                sqlx::query_as(AssertSqlSafe(format!(
                    "SELECT id, urn::text, urn_sql_kept_id \
                     FROM {}.items_urn_key_v2_collisions ORDER BY id",
                    db.schema
                )))
                .fetch_all(&db.pool)
                .await
                .unwrap()
            },
        )
        .await;
        // The key column cannot be written around the trigger.
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE {}.items SET urn_key = 'urn:x:forged'",
            db.schema
        )))
        .execute(&db.pool)
        .await
        .unwrap();
        check_rows(&db.rows("items").await, urns.len() - PAIRS.len() + 2);
        // Again, by the script: nothing to do.
        let (code, err) = db.psql(&script);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("nothing to do"), "{err}");
        db.drop_schema().await;
    }

    /// The psql script stopped after each of its steps leaves a table that works under V1
    /// (respellings meet their rows, new URNs go in), and the whole script run after it
    /// finishes the re-key; so does a backfill cancelled midway.
    #[tokio::test]
    async fn stopped_after_any_step_the_table_works_and_the_rekey_goes_on() {
        let Some(db) = Db::new("rekey_stop").await else {
            return;
        };
        let urns = distinct(30_000);
        let probe = v1(db.table("probe"));
        let script = Dialect::Postgres
            .rekey_sql(&probe, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let steps = script.matches("\n-- ").count();
        assert!(steps >= 12, "{steps}");
        for stop in 1..steps {
            let name = format!("stop_{stop}");
            let table = db.filled(&name, &urns[..200]).await;
            let script = Dialect::Postgres
                .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
                .unwrap();
            // The script up to (not including) step `stop + 1`.
            let cut = script
                .match_indices("\n-- ")
                .nth(stop)
                .map_or(script.len(), |(at, _)| at);
            let (code, err) = db.psql(&script[..cut]);
            assert_eq!(code, Some(0), "stop {stop}: {err}");
            let row = insert_or_get(
                &db.pool,
                &table,
                &urns[0].as_str().to_ascii_lowercase().parse().unwrap(),
            )
            .await
            .unwrap();
            assert!(!row.inserted, "stop {stop}");
            let new = insert_or_get(
                &db.pool,
                &table,
                &format!("urn:example:after-{stop}").parse().unwrap(),
            )
            .await
            .unwrap();
            assert!(new.inserted, "stop {stop}");
            let (code, err) = db.psql(&script);
            assert_eq!(code, Some(0), "stop {stop}, then all: {err}");
            check_rows(&db.rows(&name).await, 201);
        }
        // A backfill cancelled midway (statement_timeout), then the whole script.
        let table = db.filled("cancelled", &urns).await;
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::Refuse)
            .unwrap();
        let (code, err) = db.psql(&format!("SET statement_timeout = '150ms';\n{script}"));
        assert_ne!(code, Some(0));
        assert!(err.contains("statement timeout"), "{err}");
        let (code, err) = db.psql(&script);
        assert_eq!(code, Some(0), "{err}");
        check_rows(&db.rows("cancelled").await, urns.len());
        db.drop_schema().await;
    }

    /// `SELECT count(*)` of `sql` (a `FROM …` clause).
    async fn count(db: &Db, from: &str) -> i64 {
        sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {from}")))
            .fetch_one(&db.pool)
            .await
            .unwrap()
    }

    /// keep-first moves no row that another table references, whatever the foreign key's
    /// `ON DELETE`: it refuses before changing anything, naming each constraint. (Before, a
    /// CASCADE key lost the notes of the rows moved, a SET NULL key lost their tags.) Once
    /// those rows point at the rows kept, the move goes through and keeps them.
    #[tokio::test]
    async fn keep_first_moves_no_row_another_table_references() {
        let Some(db) = Db::new("rekey_fk").await else {
            return;
        };
        let s = &db.schema;
        let table = db.filled("items", &scenario_urns()).await;
        // Ids 201 to 210 are the pairs: keep-first keeps 201, 203, … and moves 202, 204, ….
        db.pool
            .execute(AssertSqlSafe(format!(
                "CREATE TABLE {s}.notes (id int PRIMARY KEY, item_id bigint REFERENCES {s}.items ON DELETE CASCADE); \
                 CREATE TABLE {s}.tags (id int PRIMARY KEY, item_id bigint REFERENCES {s}.items ON DELETE SET NULL); \
                 CREATE TABLE {s}.links (id int PRIMARY KEY, item_id bigint REFERENCES {s}.items); \
                 INSERT INTO {s}.notes VALUES (1, 201), (2, 202), (3, 1); \
                 INSERT INTO {s}.tags VALUES (1, 204), (2, 3); \
                 INSERT INTO {s}.links VALUES (1, 206)"
            )))
            .await
            .unwrap();
        let before = db.rows("items").await;
        let err = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        let e = support::pg_error(&err);
        assert_eq!(e.code(), "23503", "{err}");
        for constraint in [
            "notes_item_id_fkey",
            "tags_item_id_fkey",
            "links_item_id_fkey",
        ] {
            assert!(e.message().contains(constraint), "{err}");
        }
        assert_eq!(db.rows("items").await, before);
        assert_eq!(count(&db, &format!("{s}.notes")).await, 3);
        assert_eq!(
            count(&db, &format!("{s}.tags WHERE item_id IS NOT NULL")).await,
            2
        );
        db.pool
            .execute(AssertSqlSafe(format!(
                "UPDATE {s}.notes SET item_id = 201 WHERE item_id = 202; \
                 UPDATE {s}.tags SET item_id = 203 WHERE item_id = 204; \
                 UPDATE {s}.links SET item_id = 205 WHERE item_id = 206"
            )))
            .await
            .unwrap();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        assert!(done.switched && done.moved == 5, "{done:?}");
        assert_eq!(count(&db, &format!("{s}.notes")).await, 3);
        assert_eq!(
            count(&db, &format!("{s}.tags WHERE item_id IS NOT NULL")).await,
            2
        );
        db.drop_schema().await;
    }

    /// Table names of 51 to 63 bytes, whose derived names PostgreSQL cut to 63: the side table
    /// and the new index were one name (51 to 53: the switch renamed the side table into the
    /// index's place and the table had no unique index; from 54 the re-key never finished).
    /// Each is re-keyed with keep-first and refuses a respelling after.
    #[tokio::test]
    async fn long_table_names_keep_their_unique_index() {
        let Some(db) = Db::new("rekey_long").await else {
            return;
        };
        let urns = scenario_urns();
        for len in [51, 52, 53, 54, 63] {
            let name = format!("l{len}_{}", "x".repeat(len - 4));
            let table = db.filled(&name, &urns).await;
            let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::KeepFirst)
                .await
                .unwrap();
            assert!(done.switched && done.moved == 5, "{len}: {done:?}");
            let items = table.clone().with_key_rules(KeyRules::V2).unwrap();
            for (_, b) in PAIRS {
                let row = insert_or_get(&db.pool, &items, &b.parse().unwrap())
                    .await
                    .unwrap();
                assert!(!row.inserted, "{len}: {b}");
            }
            let unique: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
                "SELECT count(*) FROM pg_index WHERE indrelid = '{}.{name}'::regclass AND indisunique",
                db.schema
            )))
            .fetch_one(&db.pool)
            .await
            .unwrap();
            assert_eq!(unique, 2, "{len}");
        }
        db.drop_schema().await;
    }

    /// The backfill walks the rows in id order, not the range of ids: ids of ±9.2e18 (a writer
    /// may choose them) are two rows, not 1.8e15 batches.
    #[tokio::test]
    async fn the_backfill_walks_rows_whatever_their_ids() {
        let Some(db) = Db::new("rekey_ids").await else {
            return;
        };
        let table = db.filled("items", &distinct(20)).await;
        db.pool
            .execute(AssertSqlSafe(format!(
                "INSERT INTO {}.items (id, urn) OVERRIDING SYSTEM VALUE \
                 VALUES (-9200000000000000000, 'urn:example:low'), (9200000000000000000, 'urn:example:high')",
                db.schema
            )))
            .await
            .unwrap();
        let mut conn = db.pool.acquire().await.unwrap();
        conn.execute("SET statement_timeout = '20s'").await.unwrap();
        let done = rekey(&mut *conn, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched);
        conn.execute("RESET statement_timeout").await.unwrap();
        drop(conn);
        check_rows(&db.rows("items").await, 22);
        db.drop_schema().await;
    }

    /// What depends on the key column (a view someone made; the switch drops the column) is
    /// named before anything changes, not at the switch on every run. A table that is not
    /// there is an error, never `switched`.
    #[tokio::test]
    async fn the_re_key_refuses_what_it_cannot_finish_before_changing_anything() {
        let Some(db) = Db::new("rekey_depends").await else {
            return;
        };
        let s = &db.schema;
        let table = db.filled("items", &distinct(20)).await;
        db.pool
            .execute(AssertSqlSafe(format!(
                "CREATE VIEW {s}.item_keys AS SELECT urn_key FROM {s}.items"
            )))
            .await
            .unwrap();
        let err = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err();
        let e = support::pg_error(&err);
        assert_eq!(e.code(), "2BP01", "{err}");
        assert!(e.message().contains("item_keys"), "{err}");
        let new_column = format!(
            "pg_attribute WHERE attrelid = '{s}.items'::regclass AND attname = 'urn_key_v2'"
        );
        assert_eq!(count(&db, &new_column).await, 0);
        db.pool
            .execute(AssertSqlSafe(format!("DROP VIEW {s}.item_keys")))
            .await
            .unwrap();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched);
        let missing = v1(db.table("missing"));
        let err = rekey(&db.pool, &missing, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err();
        assert_eq!(support::pg_error(&err).code(), "42P01", "{err}");
        db.drop_schema().await;
    }

    /// A writer between the listing and the move: a collision's first row deleted, another's
    /// second row respelled into a URN of its own. Neither row that no longer collides moves;
    /// the others do. (Before, both moved: one out of a table that then had no row of it.)
    #[tokio::test]
    async fn a_row_that_no_longer_collides_stays() {
        let Some(db) = Db::new("rekey_writer").await else {
            return;
        };
        let s = &db.schema;
        let table = db.filled("items", &scenario_urns()).await;
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::KeepFirst)
            .unwrap();
        let at = script.find("\n-- keep-first: the later rows").unwrap();
        let (code, err) = db.psql(&format!(
            "{}\nDELETE FROM {s}.items WHERE id = 201;\n\
             UPDATE {s}.items SET urn = 'urn:doi:10.1093/other' WHERE id = 204;\n{}",
            &script[..at],
            &script[at..]
        ));
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("3 rows moved"), "{err}");
        let moved: Vec<i64> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT id FROM {s}.items_urn_key_v2_collisions ORDER BY id"
        )))
        .fetch_all(&db.pool)
        .await
        .unwrap();
        assert_eq!(moved, [206, 208, 210]);
        let rows = db.rows("items").await;
        for id in [202, 203, 204] {
            assert!(rows.iter().any(|r| r.0 == id), "row {id}");
        }
        check_rows(&rows, 210 - 1 - 3);
        db.drop_schema().await;
    }

    /// Every lock wait has a bound: a transaction that holds an old snapshot keeps the index
    /// build waiting, and the re-key stops at the session's `lock_timeout` with an error that
    /// names the table (PostgreSQL's names none), and leaves the connection as it was; then it
    /// goes on.
    #[tokio::test]
    async fn a_lock_wait_is_bounded_and_names_the_table() {
        let Some(db) = Db::new("rekey_lock").await else {
            return;
        };
        let s = &db.schema;
        let table = db.filled("items", &distinct(50)).await;
        let mut holder = db.pool.acquire().await.unwrap();
        // (A snapshot, and no lock on the table: the steps that lock it go through.)
        holder
            .execute("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1")
            .await
            .unwrap();
        let mut conn = db.pool.acquire().await.unwrap();
        conn.execute("SET lock_timeout = '1s'").await.unwrap();
        let err = rekey(&mut *conn, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("{s}.items")) && err.contains("lock_timeout"),
            "{err}"
        );
        let timeout: String = sqlx::query_scalar("SELECT current_setting('lock_timeout')")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(timeout, "1s");
        holder.execute("COMMIT").await.unwrap();
        // (The re-key's own bound from here: other tests' transactions hold snapshots too.)
        conn.execute("RESET lock_timeout").await.unwrap();
        let done = rekey(&mut *conn, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched);
        drop((conn, holder));
        db.drop_schema().await;
    }

    /// Online: a writer inserts, updates and deletes all along; every write goes through,
    /// none waits long, and the rows at the end are the rows written.
    #[tokio::test]
    async fn online_under_a_concurrent_writer() {
        let Some(db) = Db::new("rekey_online").await else {
            return;
        };
        let rows = online_rows();
        let table = db.filled("items", &distinct(rows)).await;
        let (insert_pool, execute_pool, writing) =
            (db.pool.clone(), db.pool.clone(), table.clone());
        let writer = Writer::start(standard_write(
            Arc::new(move |urn| {
                let (pool, table) = (insert_pool.clone(), writing.clone());
                Box::pin(async move { insert_or_get(&pool, &table, &urn).await.unwrap().inserted })
            }),
            Arc::new(move |sql| {
                let pool = execute_pool.clone();
                Box::pin(async move {
                    let done = sqlx::query(AssertSqlSafe(sql))
                        .execute(&pool)
                        .await
                        .unwrap();
                    usize::try_from(done.rows_affected()).unwrap()
                })
            }),
            format!("{}.items", db.schema),
        ));
        let started = Instant::now();
        let done = rekey(&db.pool, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        let took = started.elapsed();
        let report = writer.stop().await;
        assert!(done.switched);
        check_rows(&db.rows("items").await, report.rows(rows));
        eprintln!("postgres, {rows} rows: re-key {took:?}; writer {report:?}");
        assert!(report.longest < Duration::from_secs(2), "{report:?}");
        db.drop_schema().await;
    }
}
