//! The PostgreSQL install against the roles it shares a database with (SECURITY.md's threat
//! model). Each test makes its own database, where `public` is what it is in a real one, and
//! its own roles: an administrator who installs, an attacker who may create objects in
//! `public` (PostgreSQL 14's default), a writer with the default search_path. Runs against the
//! portable SQL, or the urn_pg extension with `URN_SQL_BACKEND=urn_pg`. Needs `DATABASE_URL`
//! (skipped without it, a failure under `CI=true`).
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::collections::BTreeSet;
use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgConnection, PgPoolOptions};
use sqlx::{AssertSqlSafe, Connection, Executor, PgPool};
use support::Backend;
use urn_sql::sqlx::{find, insert_or_get};
use urn_sql::{Dialect, StoredUrn, Urn, UrnTable};

/// urn_pg's install script: its SQL-bodied objects are held to the same rules.
const URN_PG_SQL: &str = include_str!("../../urn-pg/sql/urn_pg.sql");

/// A database of its own for one test, with roles of its own; dropped (roles too) by
/// [`Scratch::drop`].
struct Scratch {
    name: String,
    server: PgPool,
    options: PgConnectOptions,
    roles: Vec<String>,
}

impl Scratch {
    /// A new database holding urn-sql's objects in `public`: the portable SQL installed by the
    /// administrator (the connecting superuser), or `CREATE EXTENSION urn_pg`.
    async fn new(test: &str) -> Option<Scratch> {
        let url = support::postgres_url()?;
        let name = support::schema_name(test);
        let server = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        server
            .execute(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .unwrap();
        let options = PgConnectOptions::from_str(&url).unwrap().database(&name);
        Some(Scratch {
            name,
            server,
            options,
            roles: Vec::new(),
        })
    }

    /// Installs urn-sql's objects as the administrator.
    async fn install(&self) {
        let mut admin = self.admin().await;
        match support::backend() {
            Backend::Portable => run_up(&mut admin).await.unwrap(),
            Backend::UrnPg => {
                admin.execute("CREATE EXTENSION urn_pg").await.unwrap();
            }
        }
    }

    /// A connection as the administrator (the superuser of `DATABASE_URL`).
    async fn admin(&self) -> PgConnection {
        PgConnection::connect_with(&self.options).await.unwrap()
    }

    /// A new role (NOLOGIN; connections take it with SET ROLE), with USAGE on `public`, and
    /// CREATE there too when `create` says so.
    async fn role(&mut self, what: &str, create: bool) -> String {
        let role = support::schema_name(what);
        let mut admin = self.admin().await;
        admin
            .execute(AssertSqlSafe(format!(
                "CREATE ROLE {role} NOLOGIN; GRANT USAGE ON SCHEMA public TO {role};{}",
                if create {
                    format!(" GRANT CREATE ON SCHEMA public TO {role};")
                } else {
                    String::new()
                }
            )))
            .await
            .unwrap();
        self.roles.push(role.clone());
        role
    }

    /// A connection acting as `role`, with the server's default search_path.
    async fn as_role(&self, role: &str) -> PgConnection {
        let mut conn = self.admin().await;
        conn.execute(AssertSqlSafe(format!("SET ROLE {role}")))
            .await
            .unwrap();
        conn
    }

    async fn drop(self) {
        self.server
            .execute(AssertSqlSafe(format!(
                "DROP DATABASE {} WITH (FORCE)",
                self.name
            )))
            .await
            .unwrap();
        for role in &self.roles {
            self.server
                .execute(AssertSqlSafe(format!("DROP ROLE {role}")))
                .await
                .unwrap();
        }
    }
}

/// Installs urn-sql's objects into the existing schema `urn_sql` as the administrator (the
/// portable SQL with that schema first on `admin`'s search_path, or `CREATE EXTENSION urn_pg
/// SCHEMA urn_sql`).
async fn install_into_urn_sql(admin: &mut PgConnection) {
    match support::backend() {
        Backend::Portable => {
            admin.execute("SET search_path = urn_sql").await.unwrap();
            run_up(admin).await.unwrap();
        }
        Backend::UrnPg => {
            admin
                .execute("CREATE EXTENSION urn_pg SCHEMA urn_sql")
                .await
                .unwrap();
        }
    }
}

/// Runs the portable install in one transaction on `conn` (as `install` does on a pool).
async fn run_up(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    let mut tx = conn.begin().await?;
    tx.execute(sqlx::raw_sql(urn_sql::postgres::UP)).await?;
    tx.commit().await
}

/// The names written as function calls and the operators in `sql`, outside comments and
/// quoted literals. Dollar-quoted text is read as code: it holds the functions' bodies and the
/// domains' CHECKs. A name after a `.` counts by itself (`pg_catalog.lower(` is `lower`).
fn calls_and_operators(sql: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    const OPERATOR_CHARS: &[u8] = b"+-*/<>=~!@#%^&|?";
    let b = sql.as_bytes();
    let (mut calls, mut operators) = (BTreeSet::new(), BTreeSet::new());
    let mut i = 0;
    // Skips a quoted literal starting at `i` (its opening quote), E'' literals with escapes.
    let skip_literal = |mut i: usize, escapes: bool| {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' if escapes => i += 2,
                b'\'' if b.get(i + 1) == Some(&b'\'') => i += 2,
                b'\'' => return i + 1,
                _ => i += 1,
            }
        }
        i
    };
    while i < b.len() {
        let c = b[i];
        if c == b'-' && b.get(i + 1) == Some(&b'-') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'\'' {
            i = skip_literal(i, false);
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            i += 1;
        } else if c == b'$' {
            // A dollar-quote tag ($fn$, $$), or a parameter ($1): skipped either way.
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if b.get(i) == Some(&b'$') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = sql[start..i].to_ascii_lowercase();
            if b.get(i) == Some(&b'\'') {
                // E'...', x'...', b'...': a literal with a prefix.
                i = skip_literal(i, word == "e");
                continue;
            }
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if b.get(j) == Some(&b'(') {
                calls.insert(word);
            }
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
        } else if OPERATOR_CHARS.contains(&c) {
            let start = i;
            while i < b.len()
                && OPERATOR_CHARS.contains(&b[i])
                && !(b[i] == b'-' && b.get(i + 1) == Some(&b'-'))
            {
                i += 1;
            }
            operators.insert(sql[start..i].to_owned());
        } else {
            i += 1;
        }
    }
    // Constructs that apply operators the text does not spell.
    let lower = sql.to_ascii_lowercase();
    let implied = [
        (" in (", "="),
        ("case ", "="),
        ("is distinct from", "="),
        ("not in (", "<>"),
        ("between", ">="),
        ("between", "<="),
    ];
    for (construct, operator) in implied {
        if lower.contains(construct) {
            operators.insert(operator.to_owned());
        }
    }
    (calls, operators)
}

/// Every SQL text the database runs for urn-sql: the install (portable and urn_pg), the tables'
/// DDL and the helpers' statements.
fn all_sql() -> String {
    let plain = UrnTable::new("items").unwrap();
    let parted = UrnTable::new("parted")
        .unwrap()
        .hash_partitioned(2)
        .unwrap();
    let mut sql = format!("{}\n{URN_PG_SQL}\n", urn_sql::postgres::UP);
    for table in [&plain, &parted] {
        sql.push_str(&Dialect::Postgres.create_table_sql(table));
        sql.push_str(&Dialect::Postgres.insert_or_get_sql(table));
        sql.push_str(&Dialect::Postgres.find_sql(table));
    }
    sql
}

/// The table the planted objects write to when they run, readable and writable by anyone.
const PLANTED_CALLS: &str = "CREATE SCHEMA audit; GRANT USAGE ON SCHEMA audit TO PUBLIC; \
     CREATE TABLE audit.planted_calls (call text, by_role name); \
     GRANT SELECT, INSERT ON audit.planted_calls TO PUBLIC";

/// The statements with which `attacker` plants, in `public`, a function for each built-in the
/// SQL calls and an operator for each operator it writes, taking the domains `urn` and
/// `urn_key` (and for operators, every pair of the types the SQL's operands have that
/// pg_catalog has no exact operator for). Each logs its call with the role running it to
/// `audit.planted_calls`, then does what the built-in does, so nothing else changes.
async fn plants(conn: &mut PgConnection) -> Vec<String> {
    let (calls, operators) = calls_and_operators(&all_sql());
    let mut statements = Vec::new();
    // Functions: every pg_catalog overload with a text parameter, with the domains instead.
    let overloads: Vec<(String, Vec<String>, String)> = sqlx::query_as(
        "SELECT p.proname::text, array_agg(format_type(t.oid, NULL) ORDER BY a.n), \
                format_type(p.prorettype, NULL) \
         FROM pg_proc p, unnest(p.proargtypes) WITH ORDINALITY AS a(typ, n) \
         JOIN pg_type t ON t.oid = a.typ \
         WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY($1) \
           AND p.prokind = 'f' AND NOT p.proretset AND p.provariadic = 0 \
           AND (SELECT typtype FROM pg_type WHERE oid = p.prorettype) <> 'p' \
         GROUP BY p.oid HAVING bool_and(t.typtype <> 'p') AND bool_or(t.oid = 'text'::regtype)",
    )
    .bind(calls.iter().cloned().collect::<Vec<_>>())
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let mut planted = BTreeSet::new();
    for (name, args, returns) in &overloads {
        for domain in ["urn", "urn_key"] {
            let params: Vec<String> = args
                .iter()
                .map(|a| {
                    if a == "text" {
                        domain.to_owned()
                    } else {
                        a.clone()
                    }
                })
                .collect();
            if !planted.insert((name.clone(), params.clone())) {
                continue;
            }
            // The domains live in public; built-in types are named as format_type names them.
            let declared: Vec<String> = params
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if t.starts_with("urn") {
                        format!("a{i} public.{t}")
                    } else {
                        format!("a{i} {t}")
                    }
                })
                .collect();
            let passed: Vec<String> = params
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if t == domain {
                        format!("a{i}::text")
                    } else {
                        format!("a{i}")
                    }
                })
                .collect();
            statements.push(format!(
                "CREATE FUNCTION public.{q}({decl}) RETURNS {returns} LANGUAGE plpgsql AS $p$ \
                 BEGIN INSERT INTO audit.planted_calls VALUES ('{name}({sig})', current_user); \
                 RETURN pg_catalog.{q}({pass}); END $p$",
                q = quote(name),
                decl = declared.join(", "),
                sig = params.join(", "),
                pass = passed.join(", "),
            ));
        }
    }
    // Operators: each pair of operand types in which a domain stands, or that pg_catalog
    // resolves only through a cast.
    let types = ["urn", "urn_key", "text", "integer", "bigint", "boolean"];
    let base = |t: &str| if t.starts_with("urn") { "text" } else { t }.to_owned();
    let mut n = 0;
    for op in &operators {
        for left in types {
            for right in types {
                let exact: bool = sqlx::query_scalar(
                    "SELECT EXISTS (SELECT FROM pg_operator WHERE oprname = $1 \
                     AND oprnamespace = 'pg_catalog'::regnamespace \
                     AND oprleft = $2::regtype AND oprright = $3::regtype)",
                )
                .bind(op)
                .bind(left)
                .bind(right)
                .fetch_one(&mut *conn)
                .await
                .unwrap_or(true);
                if exact && !left.starts_with("urn") && !right.starts_with("urn") {
                    continue;
                }
                let probe = format!(
                    "SELECT format_type(pg_typeof(NULL::{} OPERATOR(pg_catalog.{op}) NULL::{}), NULL)",
                    base(left),
                    base(right)
                );
                let Ok(returns) = sqlx::query_scalar::<_, String>(AssertSqlSafe(probe))
                    .fetch_one(&mut *conn)
                    .await
                else {
                    continue;
                };
                n += 1;
                let domain_type = |t: &str| {
                    if t.starts_with("urn") {
                        format!("public.{t}")
                    } else {
                        t.to_owned()
                    }
                };
                statements.push(format!(
                    "CREATE FUNCTION public.planted_operator_{n}(a {l}, b {r}) RETURNS {returns} \
                     LANGUAGE plpgsql AS $p$ BEGIN \
                     INSERT INTO audit.planted_calls VALUES ('{left} {op} {right}', current_user); \
                     RETURN a::{lb} OPERATOR(pg_catalog.{op}) b::{rb}; END $p$; \
                     CREATE OPERATOR public.{op} (LEFTARG = {l}, RIGHTARG = {r}, \
                     FUNCTION = public.planted_operator_{n})",
                    l = domain_type(left),
                    r = domain_type(right),
                    lb = base(left),
                    rb = base(right),
                ));
            }
        }
    }
    statements
}

/// Makes the keyed tables (name, table) and grants `writer` reading and writing them.
async fn make_tables(admin: &mut PgConnection, tables: &[(&str, &UrnTable)], writer: &str) {
    for (name, table) in tables {
        admin
            .execute(AssertSqlSafe(format!(
                "{} GRANT SELECT, INSERT, UPDATE ON {name} TO {writer};",
                Dialect::Postgres.create_table_sql(table),
            )))
            .await
            .unwrap();
    }
}

/// `name` double-quoted where SQL needs it (`left`, `right` are keywords).
fn quote(name: &str) -> String {
    format!("\"{name}\"")
}

/// The objects that urn-sql's SQL-bodied functions and the domains' constraints are bound to
/// (functions, operators, types, collations), other than pg_catalog's and those owned by
/// `owner` in `public`: described, for an assertion that there are none.
const FOREIGN_BINDINGS: &str = "\
    WITH ours AS ( \
      SELECT 'pg_proc'::regclass AS classid, oid AS objid FROM pg_proc \
       WHERE pronamespace = 'public'::regnamespace AND proname LIKE 'urn\\_%' \
      UNION ALL \
      SELECT 'pg_constraint'::regclass, c.oid FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid \
       WHERE t.typnamespace = 'public'::regnamespace AND t.typname IN ('urn', 'urn_key')), \
    refs AS ( \
      SELECT d.classid, d.objid, d.refclassid, d.refobjid, \
        CASE d.refclassid \
          WHEN 'pg_proc'::regclass THEN (SELECT ARRAY[pronamespace, proowner] FROM pg_proc WHERE oid = d.refobjid) \
          WHEN 'pg_operator'::regclass THEN (SELECT ARRAY[oprnamespace, oprowner] FROM pg_operator WHERE oid = d.refobjid) \
          WHEN 'pg_type'::regclass THEN (SELECT ARRAY[typnamespace, typowner] FROM pg_type WHERE oid = d.refobjid) \
          WHEN 'pg_collation'::regclass THEN (SELECT ARRAY[collnamespace, collowner] FROM pg_collation WHERE oid = d.refobjid) \
        END AS place \
      FROM pg_depend d JOIN ours USING (classid, objid) \
      WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass, 'pg_collation'::regclass)) \
    SELECT pg_describe_object(classid, objid, 0) || ' -> ' || pg_describe_object(refclassid, refobjid, 0) \
    FROM refs \
    WHERE place[1] <> 'pg_catalog'::regnamespace \
      AND NOT (place[1] = 'public'::regnamespace AND place[2] = $1::regrole) \
    ORDER BY 1";

/// A connection's SQL error: SQLSTATE and message.
fn pg_failure(err: &sqlx::Error) -> (String, String) {
    let e = support::pg_error(err);
    (e.code().to_owned(), e.message().to_owned())
}

/// The test's URNs: the vectors' and the generated corpus's valid URNs, one per key, each with
/// two other spellings of it (upper-case scheme and NID; an f-component added).
fn spelling_groups(limit: usize) -> Vec<(Urn, Vec<String>)> {
    let mut seen = BTreeSet::new();
    support::corpus::vector_inputs()
        .into_iter()
        .chain(support::corpus::generated_inputs())
        .filter_map(|s| Urn::parse(&s).ok())
        .filter(|u| u.as_str().len() < 2_000 && seen.insert(u.key().into_string()))
        .take(limit)
        .map(|u| {
            let (nid, rest) = (
                u.nid().to_ascii_uppercase(),
                &u.as_str()[5 + u.nid().len()..],
            );
            let upper = format!("URN:{nid}:{rest}");
            let with_f = if u.f_component().is_some() {
                u.as_str().to_owned()
            } else {
                format!("{}#planted-test", u.as_str())
            };
            (u, vec![upper, with_f])
        })
        .collect()
}

/// CVE-2018-1058, tried on urn-sql: an attacker who may create objects in `public` plants a
/// same-named function or operator for the domains for every built-in and operator the SQL
/// uses (the list is read from the SQL text, so a new call is covered), the administrator
/// installs again (an upgrade, an application start), and a writer with the default
/// search_path writes equivalent spellings through the helpers, a literal INSERT (as psql
/// would) and COPY, and invalid values. No planted code runs, every key is the parser's, one
/// row per key, errors are the parser's; no SQL-bodied function or constraint is bound to an
/// object outside pg_catalog and urn-sql's own. Then the attacker adds overloads of urn-sql's
/// own function names (text parameters): the helpers, casting their arguments, never call
/// them, and the next install refuses to run, naming the first and its owner.
#[tokio::test]
async fn planted_functions_and_operators_never_run() {
    let Some(mut db) = Scratch::new("planted").await else {
        return;
    };
    db.install().await;
    let attacker = db.role("urn_attacker", true).await;
    let writer = db.role("urn_writer", false).await;
    let mut admin = db.admin().await;
    admin.execute(PLANTED_CALLS).await.unwrap();

    let mut conn = db.as_role(&attacker).await;
    let statements = plants(&mut conn).await;
    assert!(statements.len() > 100, "{} plants", statements.len());
    for statement in &statements {
        conn.execute(AssertSqlSafe(statement.as_str()))
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
    }
    // The administrator installs again over the planted objects (binding anything it binds
    // now), then makes the tables.
    run_up(&mut admin).await.unwrap();
    let plain = UrnTable::new("items").unwrap();
    let parted = UrnTable::new("parted")
        .unwrap()
        .hash_partitioned(4)
        .unwrap();
    make_tables(
        &mut admin,
        &[("items", &plain), ("parted", &parted)],
        &writer,
    )
    .await;

    // The writer: every spelling through insert_or_get and find, literal INSERTs and COPY.
    let mut conn = db.as_role(&writer).await;
    let groups = spelling_groups(300);
    for table in [&plain, &parted] {
        for (urn, others) in &groups {
            let first = insert_or_get(&mut conn, table, urn).await.unwrap();
            assert!(first.inserted, "{urn}");
            for other in others {
                let again = insert_or_get(&mut conn, table, &other.parse().unwrap())
                    .await
                    .unwrap();
                assert_eq!((again.id, again.inserted), (first.id, false), "{other}");
                let found = find(&mut conn, table, &other.parse().unwrap())
                    .await
                    .unwrap()
                    .unwrap();
                assert_eq!(found.id, first.id, "{other}");
            }
        }
    }
    for (urn, others) in groups.iter().take(50) {
        let literal = others[0].replace('\'', "''");
        conn.execute(AssertSqlSafe(format!(
            "INSERT INTO items (urn) VALUES ('{literal}') ON CONFLICT DO NOTHING"
        )))
        .await
        .unwrap_or_else(|e| panic!("{urn}: {e}"));
    }
    let mut copy = conn
        .copy_in_raw("COPY items (urn) FROM STDIN")
        .await
        .unwrap();
    copy.send(b"urn:example:copied-after-planting\n".as_slice())
        .await
        .unwrap();
    copy.finish().await.unwrap();
    for (text, constraint) in [
        ("urn:example:a%zz", "urn_syntax"),
        ("URN:ISBN:0-395-36341-1", "urn_key_canonical"),
    ] {
        let domain = if constraint == "urn_syntax" {
            "urn"
        } else {
            "urn_key"
        };
        let err = sqlx::query(AssertSqlSafe(format!("SELECT $1::text::{domain}")))
            .bind(text)
            .execute(&mut conn)
            .await
            .unwrap_err();
        let expected = if domain == "urn" {
            Urn::parse(text).unwrap_err().to_string()
        } else {
            urn_sql::UrnKey::parse(text).unwrap_err().to_string()
        };
        assert_eq!(pg_failure(&err), ("23514".to_owned(), expected), "{text}");
    }

    // Nothing planted ran; every stored key is the parser's, once.
    let ran: Vec<(String, String)> =
        sqlx::query_as("SELECT call, by_role::text FROM audit.planted_calls ORDER BY 1")
            .fetch_all(&mut admin)
            .await
            .unwrap();
    assert!(ran.is_empty(), "planted code ran: {ran:?}");
    for table in ["items", "parted"] {
        let rows: Vec<(String, String)> = sqlx::query_as(AssertSqlSafe(format!(
            "SELECT urn::text, urn_key FROM {table} ORDER BY id"
        )))
        .fetch_all(&mut admin)
        .await
        .unwrap();
        let keys: BTreeSet<&str> = rows.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(keys.len(), rows.len(), "{table}: one row per key");
        for (urn, key) in &rows {
            assert_eq!(
                key,
                Urn::parse(urn).unwrap().key().as_str(),
                "{table}: {urn}"
            );
        }
    }
    let admin_role: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    let foreign: Vec<String> = sqlx::query_scalar(FOREIGN_BINDINGS)
        .bind(&admin_role)
        .fetch_all(&mut admin)
        .await
        .unwrap();
    assert!(foreign.is_empty(), "bound to planted objects: {foreign:#?}");

    // Overloads of urn-sql's own names, taking text: the helpers cast, so never reach them.
    let mut conn = db.as_role(&attacker).await;
    for (name, params) in [
        ("urn_key_v1", "text"),
        ("urn_key_v1_inline", "text"),
        ("urn_key_index", "varchar"),
        ("urn_nid", "text"),
        ("urn_rfc8141_key", "text"),
    ] {
        conn.execute(AssertSqlSafe(format!(
            "CREATE FUNCTION public.{name}(a {params}) RETURNS text LANGUAGE plpgsql AS $p$ \
             BEGIN INSERT INTO audit.planted_calls VALUES ('{name}({params})', current_user); \
             RETURN 'urn:planted:x'; END $p$"
        )))
        .await
        .unwrap();
    }
    let mut conn = db.as_role(&writer).await;
    for table in [&plain, &parted] {
        for (urn, others) in groups.iter().take(20) {
            let again = insert_or_get(&mut conn, table, &others[1].parse().unwrap())
                .await
                .unwrap();
            assert!(!again.inserted, "{urn}");
            assert!(find(&mut conn, table, urn).await.unwrap().is_some());
        }
    }
    let ran: i64 = sqlx::query_scalar("SELECT count(*) FROM audit.planted_calls")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert_eq!(ran, 0);
    if support::backend() == Backend::Portable {
        let err = run_up(&mut admin).await.unwrap_err();
        let (code, message) = pg_failure(&err);
        assert_eq!(code, "42501", "{message}");
        assert!(
            message.contains("function public.urn_key_index(character varying) is owned by")
                && message.contains(&attacker),
            "{message}"
        );
    }
    drop(admin);
    db.drop().await;
}

/// The installer relies on nothing it did not make: a domain `urn` another role made (with
/// urn-sql's comment, and no CHECK) or a function of the install's names another role owns
/// stops it, naming the object and its owner; a type of that name that is no domain over text
/// stops it too. (Revision 3 adopted the domain and accepted `'not a urn at all'::urn`.) With
/// urn_pg, `CREATE EXTENSION` refuses the same domain.
#[tokio::test]
async fn the_installer_refuses_objects_another_role_made() {
    let Some(mut db) = Scratch::new("refuses").await else {
        return;
    };
    let attacker = db.role("urn_attacker", true).await;
    let mut conn = db.as_role(&attacker).await;
    conn.execute(
        "CREATE DOMAIN public.urn AS text; \
         COMMENT ON DOMAIN public.urn IS 'urn-sql 3: RFC 8141 URN, at most 65536 bytes'",
    )
    .await
    .unwrap();
    let mut admin = db.admin().await;
    let outcome = match support::backend() {
        Backend::Portable => run_up(&mut admin).await,
        Backend::UrnPg => admin.execute("CREATE EXTENSION urn_pg").await.map(|_| ()),
    };
    let (code, message) = pg_failure(&outcome.unwrap_err());
    assert_eq!(code, "42501", "{message}");
    assert!(
        message.contains("type public.urn is owned by") && message.contains(&attacker),
        "{message}"
    );
    conn.execute("DROP DOMAIN public.urn").await.unwrap();

    if support::backend() == Backend::Portable {
        conn.execute(
            "CREATE FUNCTION public.urn_check(v text) RETURNS text LANGUAGE sql RETURN NULL",
        )
        .await
        .unwrap();
        let (code, message) = pg_failure(&run_up(&mut admin).await.unwrap_err());
        assert_eq!(code, "42501", "{message}");
        assert!(
            message.contains("function public.urn_check(text) is owned by")
                && message.contains(&attacker),
            "{message}"
        );
        conn.execute("DROP FUNCTION public.urn_check(text)")
            .await
            .unwrap();
        // A type of the name that the administrator made, but no domain over text.
        admin
            .execute("CREATE DOMAIN urn_key AS varchar")
            .await
            .unwrap();
        let (code, message) = pg_failure(&run_up(&mut admin).await.unwrap_err());
        assert_eq!(code, "42809", "{message}");
        assert!(message.contains("type public.urn_key"), "{message}");
        admin.execute("DROP DOMAIN urn_key").await.unwrap();
        run_up(&mut admin).await.unwrap();
        let err = sqlx::query("SELECT 'not a urn at all'::urn")
            .execute(&mut admin)
            .await
            .unwrap_err();
        assert_eq!(pg_failure(&err).0, "23514");
    }
    drop((conn, admin));
    db.drop().await;
}

/// The domains' constraints are kept only when they are this revision's by their bound
/// expression, not by the comment: an install made while a planted `strpos(text, text)` came
/// first on the installer's search_path (revision 3 bound its CHECK to it) is replaced, and so
/// is a constraint someone added; then no constraint refers to a planted object, and checking
/// a value calls none.
#[tokio::test]
async fn constraints_are_checked_by_what_they_are_bound_to() {
    let Some(mut db) = Scratch::new("constraints").await else {
        return;
    };
    if support::backend() == Backend::UrnPg {
        db.drop().await;
        return;
    }
    let attacker = db.role("urn_attacker", true).await;
    let mut admin = db.admin().await;
    admin.execute(PLANTED_CALLS).await.unwrap();
    let mut conn = db.as_role(&attacker).await;
    conn.execute(
        "CREATE FUNCTION public.strpos(a text, b text) RETURNS integer LANGUAGE plpgsql AS $p$ \
         BEGIN INSERT INTO audit.planted_calls VALUES ('strpos(text, text)', current_user); \
         RETURN pg_catalog.strpos(a, b); END $p$",
    )
    .await
    .unwrap();
    // Revision 3, installed with public ahead of pg_catalog: its CHECK binds that strpos.
    let revision3 = include_str!("fixtures/urn-sql-3-up.sql");
    admin
        .execute(AssertSqlSafe(format!(
            "BEGIN; SET LOCAL search_path = public, pg_catalog; {revision3} COMMIT;"
        )))
        .await
        .unwrap();
    let admin_role: String = sqlx::query_scalar("SELECT current_user::text")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    let foreign: Vec<String> = sqlx::query_scalar(FOREIGN_BINDINGS)
        .bind(&admin_role)
        .fetch_all(&mut admin)
        .await
        .unwrap();
    assert!(
        foreign.iter().any(|f| f.contains("strpos")),
        "the setup should bind the planted strpos: {foreign:?}"
    );
    admin
        .execute("ALTER DOMAIN urn_key ADD CONSTRAINT added_by_hand CHECK (true)")
        .await
        .unwrap();

    run_up(&mut admin).await.unwrap();

    let foreign: Vec<String> = sqlx::query_scalar(FOREIGN_BINDINGS)
        .bind(&admin_role)
        .fetch_all(&mut admin)
        .await
        .unwrap();
    assert!(foreign.is_empty(), "{foreign:#?}");
    let constraints: Vec<String> = sqlx::query_scalar(
        "SELECT conname::text FROM pg_constraint \
         WHERE contypid IN ('urn'::regtype, 'urn_key'::regtype) ORDER BY 1",
    )
    .fetch_all(&mut admin)
    .await
    .unwrap();
    assert_eq!(constraints, ["urn_key_canonical", "urn_syntax"]);
    admin
        .execute("SELECT 'urn:example:a%2Cb'::urn, 'urn:example:a'::urn_key")
        .await
        .unwrap();
    let ran: i64 = sqlx::query_scalar("SELECT count(*) FROM audit.planted_calls")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert_eq!(ran, 0);
    drop((conn, admin));
    db.drop().await;
}

/// What a session can set does not change an answer or an error: each function and both
/// domains, on valid and invalid input (a backslash, quotes, a tab, non-ASCII), give the same
/// value or the same SQLSTATE and message under `standard_conforming_strings = off` (revision
/// 3 failed with 42601), an empty or pg_catalog-only search_path, PL/pgSQL's extra checks and
/// other client settings; and the portable install made under such settings behaves the same.
#[tokio::test]
async fn session_settings_change_no_answer() {
    let Some(db) = Scratch::new("settings").await else {
        return;
    };
    db.install().await;
    let inputs = [
        "URN:ISBN:0-395-36341-1",
        "urn:example:a%2c%2fb%3A?+r?=q#f",
        "urn:ISSN:0317-847x",
        "urn:example:a\\b",
        "urn:example:a'b",
        "urn:example:a\"b",
        "urn:example:a\tb",
        "urn:example:caf\u{e9}",
        "urn:example:a%zz",
        "URN:example:A",
        "urn:example:a?b",
    ];
    let expressions = [
        "public.urn_check($1)",
        "public.urn_valid($1)::text",
        "public.urn_key_v1($1::public.urn)",
        "public.urn_key_v2($1::public.urn)",
        "public.urn_rfc8141_key($1::public.urn)",
        "public.urn_nid($1::public.urn) || ' ' || public.urn_nss($1::public.urn)",
        "public.urn_key_index(public.urn_key_v1($1::public.urn))",
        "$1::public.urn_key::text",
    ];
    let mut admin = db.admin().await;
    admin
        .execute(
            "CREATE TABLE public.keyed (urn public.urn NOT NULL, \
             urn_key text GENERATED ALWAYS AS (public.urn_key_v2_inline(urn)) STORED NOT NULL)",
        )
        .await
        .unwrap();
    let answers = |settings: &'static str| {
        let options = db.options.clone();
        async move {
            let mut conn = PgConnection::connect_with(&options).await.unwrap();
            conn.execute(AssertSqlSafe(settings)).await.unwrap();
            let mut out = Vec::new();
            for input in inputs {
                for expression in expressions {
                    let got = sqlx::query_scalar::<_, Option<String>>(AssertSqlSafe(format!(
                        "SELECT {expression}"
                    )))
                    .bind(input)
                    .fetch_one(&mut conn)
                    .await
                    .map_err(|e| pg_failure(&e));
                    out.push((input, expression, got));
                }
                let stored = sqlx::query_scalar::<_, String>(
                    "INSERT INTO public.keyed (urn) VALUES ($1) RETURNING urn_key",
                )
                .bind(input)
                .fetch_one(&mut conn)
                .await
                .map_err(|e| pg_failure(&e));
                out.push((input, "stored key", stored.map(Some)));
            }
            conn.execute("DELETE FROM public.keyed").await.unwrap();
            out
        }
    };
    let baseline = answers("SELECT 1").await;
    // The baseline is the parser's.
    for (input, expression, got) in &baseline {
        if *expression == "public.urn_check($1)" {
            let parsed = Urn::parse(input).err().map(|e| e.to_string());
            assert_eq!(got, &Ok(parsed), "{input}");
        }
    }
    for settings in [
        "SET standard_conforming_strings = off",
        "SET standard_conforming_strings = off; SET escape_string_warning = off; \
         SET backslash_quote = on",
        "SET search_path = ''",
        "SET search_path = pg_catalog",
        "SET plpgsql.extra_errors = 'all'; SET plpgsql.extra_warnings = 'all'",
        "SET plpgsql.variable_conflict = use_column",
        "SET transform_null_equals = on; SET array_nulls = off",
        "SET DateStyle = 'SQL, DMY'; SET IntervalStyle = sql_standard; \
         SET bytea_output = escape; SET extra_float_digits = -15",
        "SET client_min_messages = error; SET check_function_bodies = off",
    ] {
        let got = answers(settings).await;
        assert_eq!(got, baseline, "under {settings}");
    }
    if support::backend() == Backend::Portable {
        // The install itself under such settings: the same answers after it.
        let mut conn = db.admin().await;
        conn.execute(
            "SET standard_conforming_strings = off; SET check_function_bodies = off; \
             SET plpgsql.extra_errors = 'all'",
        )
        .await
        .unwrap();
        conn.execute("DROP TABLE public.keyed").await.unwrap();
        conn.execute(AssertSqlSafe(urn_sql::postgres::DOWN))
            .await
            .unwrap();
        run_up(&mut conn).await.unwrap();
        drop(conn);
        admin
            .execute(
                "CREATE TABLE public.keyed (urn public.urn NOT NULL, urn_key text \
                 GENERATED ALWAYS AS (public.urn_key_v2_inline(urn)) STORED NOT NULL)",
            )
            .await
            .unwrap();
        assert_eq!(
            answers("SELECT 1").await,
            baseline,
            "installed under settings"
        );
    }
    drop(admin);
    db.drop().await;
}

/// Every function and both domains' refusal paths are linear: valid URNs of 8 KiB and of the
/// 64 KiB policy made of `%XX`, of plain characters and with long r-, q- and f-components, and
/// refused values whose fault is at the end, get the parser's answers within a statement
/// timeout of 5 seconds (a guard against a return of the quadratic loops, which took 18 to 28
/// seconds on 64 KiB; the benchmark `extension` measures the times).
#[tokio::test]
async fn long_inputs_are_answered_in_linear_time() {
    let Some(db) = Scratch::new("linear").await else {
        return;
    };
    db.install().await;
    let mut conn = db.admin().await;
    conn.execute("SET statement_timeout = '5s'").await.unwrap();
    for (_, _, text) in bench_support::long_inputs() {
        let parsed = Urn::parse(&text);
        let check: Option<String> = sqlx::query_scalar("SELECT urn_check($1)")
            .bind(&text)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(check, parsed.as_ref().err().map(ToString::to_string));
        match &parsed {
            Ok(urn) => {
                let row: (String, String, String, String) = sqlx::query_as(
                    "SELECT urn_key_v2($1::urn), urn_rfc8141_key($1::urn), \
                     urn_nss($1::urn), urn_key_v2_inline(u) FROM (SELECT $1::urn AS u) s",
                )
                .bind(&text)
                .fetch_one(&mut conn)
                .await
                .unwrap();
                let key = urn.key().into_string();
                assert_eq!(
                    row,
                    (
                        key.clone(),
                        urn.rfc8141_key().into_string(),
                        urn.nss().to_owned(),
                        key
                    )
                );
                // The urn_key domain's refusal path on a long valid URN that is no key.
                if urn.as_str() != urn.key().as_str() {
                    let err = sqlx::query("SELECT $1::text::urn_key")
                        .bind(&text)
                        .execute(&mut conn)
                        .await
                        .unwrap_err();
                    let expected = urn_sql::UrnKey::parse(&text).unwrap_err().to_string();
                    assert_eq!(pg_failure(&err), ("23514".to_owned(), expected));
                }
            }
            Err(e) => {
                let err = sqlx::query("SELECT $1::text::urn")
                    .bind(&text)
                    .execute(&mut conn)
                    .await
                    .unwrap_err();
                assert_eq!(pg_failure(&err), ("23514".to_owned(), e.to_string()));
            }
        }
    }
    drop(conn);
    db.drop().await;
}

/// The long inputs of the `extension` bench (8 KiB and 65,536 bytes of each shape).
#[path = "../benches/support/mod.rs"]
mod bench_support;

/// A hash-partitioned table's ids come from its identity column alone: a client cannot choose
/// one (refused), a role granted INSERT on the URN columns only cannot even with OVERRIDING
/// SYSTEM VALUE, and where a writer does write an id of its choosing (the table's owner, with
/// OVERRIDING SYSTEM VALUE), `inserted` is still true only for the call that inserted the row:
/// here the writer takes the id the sequence gives next, which made revision 3's
/// `id = lastval()` report `inserted` for a row that existed.
#[tokio::test]
async fn partitioned_ids_and_inserted_cannot_be_forged() {
    let Some(mut db) = Scratch::new("partitioned").await else {
        return;
    };
    db.install().await;
    let writer = db.role("urn_writer", false).await;
    let mut admin = db.admin().await;
    let table = UrnTable::new("parted")
        .unwrap()
        .hash_partitioned(4)
        .unwrap();
    admin
        .execute(AssertSqlSafe(format!(
            "{} GRANT SELECT, INSERT (urn, urn_key_index), UPDATE (urn) ON parted TO {writer}; \
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {writer};",
            Dialect::Postgres.create_table_sql(&table)
        )))
        .await
        .unwrap();
    // The next id, taken by hand with a spelling of the URN inserted below.
    let next: i64 =
        sqlx::query_scalar("SELECT nextval(pg_get_serial_sequence('parted', 'id')) + 1")
            .fetch_one(&mut admin)
            .await
            .unwrap();
    let chosen = format!(
        "INSERT INTO parted (id, urn, urn_key_index) VALUES ({next}, 'URN:ISBN:0-395-36341-1', \
         urn_key_index(urn_key_v1('URN:ISBN:0-395-36341-1'::urn)))"
    );
    let err = admin
        .execute(AssertSqlSafe(chosen.as_str()))
        .await
        .unwrap_err();
    assert_eq!(
        pg_failure(&err).0,
        "428C9",
        "an id of the client's choosing"
    );
    let overriding = chosen.replace(") VALUES", ") OVERRIDING SYSTEM VALUE VALUES");
    let mut conn = db.as_role(&writer).await;
    let err = conn
        .execute(AssertSqlSafe(overriding.as_str()))
        .await
        .unwrap_err();
    assert_eq!(pg_failure(&err).0, "42501", "no INSERT privilege on id");
    admin
        .execute(AssertSqlSafe(overriding.as_str()))
        .await
        .unwrap();

    let got = insert_or_get(&mut conn, &table, &"urn:isbn:0395363411".parse().unwrap())
        .await
        .unwrap();
    assert_eq!((got.id, got.inserted), (next, false));
    let fresh = insert_or_get(
        &mut conn,
        &table,
        &"urn:isbn:0-8044-2957-X".parse().unwrap(),
    )
    .await
    .unwrap();
    assert!(fresh.inserted);
    assert_ne!(fresh.id, next);
    drop((conn, admin));
    db.drop().await;
}

/// What a co-tenant plants in `public` against statements that would resolve urn-sql's names
/// through the search_path: functions and types of urn-sql's names and signatures (each logs
/// its call and returns a wrong key), `=` for the operand types the statements compare
/// (`xid = integer` saying every row version is new, `text = text` saying every pair is
/// equal), and a case-insensitive collation named "C".
const CO_TENANT_PLANTS: &str = "\
    CREATE FUNCTION public.planted(what text) RETURNS text LANGUAGE plpgsql AS $p$ \
      BEGIN INSERT INTO audit.planted_calls VALUES (what, current_user); RETURN 'urn:planted:x'; END $p$; \
    CREATE DOMAIN public.urn AS text; \
    CREATE DOMAIN public.urn_key AS text; \
    CREATE FUNCTION public.urn_key_index(k text) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_index(text)'); \
    CREATE FUNCTION public.urn_key_index(k public.urn_key) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_index(urn_key)'); \
    CREATE FUNCTION public.urn_key_v1(u public.urn) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_v1(urn)'); \
    CREATE FUNCTION public.urn_key_v1_inline(u public.urn) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_v1_inline(urn)'); \
    CREATE FUNCTION public.urn_key_v2(u public.urn) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_v2(urn)'); \
    CREATE FUNCTION public.urn_key_v2_inline(u public.urn) RETURNS text LANGUAGE sql IMMUTABLE \
      RETURN public.planted('urn_key_v2_inline(urn)'); \
    CREATE FUNCTION public.planted_xid_eq(a xid, b integer) RETURNS boolean LANGUAGE sql IMMUTABLE \
      RETURN public.planted('xid = integer') IS NOT NULL; \
    CREATE OPERATOR public.= (LEFTARG = xid, RIGHTARG = integer, FUNCTION = public.planted_xid_eq); \
    CREATE FUNCTION public.planted_text_eq(a text, b text) RETURNS boolean LANGUAGE sql IMMUTABLE \
      RETURN public.planted('text = text') IS NOT NULL; \
    CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = text, FUNCTION = public.planted_text_eq); \
    CREATE COLLATION public.\"C\" (provider = icu, locale = 'und-u-ks-level2', deterministic = false)";

/// Every statement urn-sql hands out (a keyed table's DDL, plain and hash-partitioned, and the
/// helpers' insert-or-get and lookup) names urn-sql's objects in the schema it was installed
/// into and PostgreSQL's in `pg_catalog`: with urn-sql in schema `urn_sql` and a co-tenant's
/// schema ahead of it and of an explicit `pg_catalog` on the search_path of the
/// administrator who makes the tables and of the writer, nothing the co-tenant planted runs
/// or is bound, `inserted` is right, two spellings stay one row, and two URNs that differ in
/// case stay two rows. (Before, the index bound the co-tenant's function, insert-or-get failed
/// or called it, and a planted collation made two URNs one key.)
#[tokio::test]
async fn statements_resolve_no_name_through_the_search_path() {
    let Some(mut db) = Scratch::new("search_path").await else {
        return;
    };
    let co_tenant = db.role("urn_co_tenant", true).await;
    let writer = db.role("urn_writer", false).await;
    let mut admin = db.admin().await;
    admin.execute(PLANTED_CALLS).await.unwrap();
    admin
        .execute(AssertSqlSafe(format!(
            "CREATE SCHEMA urn_sql; GRANT USAGE ON SCHEMA urn_sql TO {writer}"
        )))
        .await
        .unwrap();
    install_into_urn_sql(&mut admin).await;
    let mut conn = db.as_role(&co_tenant).await;
    conn.execute(CO_TENANT_PLANTS).await.unwrap();
    drop(conn);

    let hijacked = "SET search_path = public, pg_catalog, urn_sql";
    admin.execute(hijacked).await.unwrap();
    let plain = UrnTable::new("items")
        .unwrap()
        .with_urn_schema("urn_sql")
        .unwrap();
    let parted = UrnTable::new("parted")
        .unwrap()
        .with_urn_schema("urn_sql")
        .unwrap()
        .hash_partitioned(4)
        .unwrap();
    make_tables(
        &mut admin,
        &[("items", &plain), ("parted", &parted)],
        &writer,
    )
    .await;
    let mut conn = db.as_role(&writer).await;
    conn.execute(hijacked).await.unwrap();
    let groups = spelling_groups(100);
    for table in [&plain, &parted] {
        for (urn, others) in &groups {
            let first = insert_or_get(&mut conn, table, urn).await.unwrap();
            assert!(first.inserted, "{urn}");
            assert_eq!(first.key, urn.key());
            for other in others {
                let other: Urn = other.parse().unwrap();
                let again = insert_or_get(&mut conn, table, &other).await.unwrap();
                assert_eq!((again.id, again.inserted), (first.id, false), "{other}");
                let found = find(&mut conn, table, &other).await.unwrap().unwrap();
                assert_eq!(found.id, first.id, "{other}");
            }
        }
        // URNs that differ in the NSS's case are two URNs (RFC 8141 section 3).
        let upper = insert_or_get(
            &mut conn,
            table,
            &"urn:example:Planted-Case".parse().unwrap(),
        )
        .await
        .unwrap();
        let lower = insert_or_get(
            &mut conn,
            table,
            &"urn:example:planted-case".parse().unwrap(),
        )
        .await
        .unwrap();
        assert!(upper.inserted && lower.inserted);
        assert_ne!(upper.id, lower.id);
    }
    drop(conn);

    let ran: Vec<(String, String)> =
        sqlx::query_as("SELECT call, by_role::text FROM audit.planted_calls ORDER BY 1")
            .fetch_all(&mut admin)
            .await
            .unwrap();
    assert!(ran.is_empty(), "planted code ran: {ran:?}");
    // What the tables' generated keys, indexes and CHECKs are bound to: only pg_catalog's and
    // urn_sql's objects.
    let bound: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT pg_describe_object(d.refclassid, d.refobjid, 0) \
         FROM pg_depend d \
         WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_type'::regclass, \
                                'pg_operator'::regclass, 'pg_collation'::regclass) \
           AND (d.objid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace) \
                OR d.objid IN (SELECT oid FROM pg_attrdef) \
                OR d.objid IN (SELECT oid FROM pg_constraint \
                               WHERE connamespace = 'public'::regnamespace)) \
           AND COALESCE((SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid), \
                        (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid), \
                        (SELECT oprnamespace FROM pg_operator WHERE oid = d.refobjid), \
                        (SELECT collnamespace FROM pg_collation WHERE oid = d.refobjid)) \
               NOT IN ('pg_catalog'::regnamespace, 'urn_sql'::regnamespace) \
         ORDER BY 1",
    )
    .fetch_all(&mut admin)
    .await
    .unwrap();
    assert!(
        bound.is_empty(),
        "bound to the co-tenant's objects: {bound:?}"
    );
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT urn::text, urn_key FROM items ORDER BY id")
            .fetch_all(&mut admin)
            .await
            .unwrap();
    assert_eq!(rows.len(), groups.len() + 2);
    for (urn, key) in &rows {
        assert_eq!(key, Urn::parse(urn).unwrap().key().as_str(), "{urn}");
    }
    drop(admin);
    db.drop().await;
}

/// A table named without a schema is `public`'s in every statement urn-sql writes for
/// PostgreSQL, never the search_path's: a co-tenant's tables of the same names, in the
/// co-tenant's schema ahead of `public` on the writer's search_path, neither take the writer's
/// URNs nor answer its lookups. (Before, the statements left the table's name to the
/// search_path: the lookups returned the co-tenant's forged rows.)
#[tokio::test]
async fn table_names_resolve_through_no_search_path() {
    let Some(mut db) = Scratch::new("table_name").await else {
        return;
    };
    db.install().await;
    let co_tenant = db.role("urn_co_tenant", false).await;
    let writer = db.role("urn_writer", false).await;
    let mut admin = db.admin().await;
    admin
        .execute(AssertSqlSafe(format!(
            "CREATE SCHEMA lure AUTHORIZATION {co_tenant}; GRANT USAGE ON SCHEMA lure TO {writer}"
        )))
        .await
        .unwrap();
    let plain = UrnTable::new("items").unwrap();
    let parted = UrnTable::new("parted")
        .unwrap()
        .hash_partitioned(2)
        .unwrap();
    make_tables(
        &mut admin,
        &[("items", &plain), ("parted", &parted)],
        &writer,
    )
    .await;
    let mut conn = db.as_role(&co_tenant).await;
    for name in ["items", "parted"] {
        conn.execute(AssertSqlSafe(format!(
            "CREATE TABLE lure.{name} (id bigint, urn text, urn_key text, urn_key_index text); \
             INSERT INTO lure.{name} VALUES \
               (-1, 'urn:example:lured', 'urn:example:lured', 'urn:example:lured'); \
             GRANT SELECT, INSERT, UPDATE ON lure.{name} TO PUBLIC"
        )))
        .await
        .unwrap();
    }
    drop(conn);

    let mut conn = db.as_role(&writer).await;
    conn.execute("SET search_path = lure, public")
        .await
        .unwrap();
    let lured: Urn = "urn:example:lured".parse().unwrap();
    for (name, table) in [("items", &plain), ("parted", &parted)] {
        let found = find(&mut conn, table, &lured).await;
        assert!(
            matches!(found, Ok(None)),
            "{name}: the lookup read another table: {found:?}"
        );
        let stored = insert_or_get(&mut conn, table, &lured).await.unwrap();
        assert!(stored.inserted && stored.id > 0, "{name}: {stored:?}");
        let counts: (i64, i64) = sqlx::query_as(AssertSqlSafe(format!(
            "SELECT (SELECT count(*) FROM public.{name}), (SELECT count(*) FROM lure.{name})"
        )))
        .fetch_one(&mut admin)
        .await
        .unwrap();
        assert_eq!(
            counts,
            (1, 1),
            "{name}: rows in public's and the lure's table"
        );
    }
    drop((conn, admin));
    db.drop().await;
}

/// A table's CREATE refuses urn-sql objects that are not where its statements name them, or
/// that a role other than a trusted one owns: with urn-sql installed in schema `urn_sql` and
/// the table's urn schema left at `public`, where a co-tenant planted objects of urn-sql's
/// names, nothing is made and the error names each object and its owner. (Before, the table
/// was made with its key, its index and its column's domain bound to the co-tenant's objects.)
#[tokio::test]
async fn tables_refuse_urn_objects_of_another_role() {
    let Some(mut db) = Scratch::new("foreign_objects").await else {
        return;
    };
    let co_tenant = db.role("urn_co_tenant", true).await;
    let mut admin = db.admin().await;
    admin.execute(PLANTED_CALLS).await.unwrap();
    admin.execute("CREATE SCHEMA urn_sql").await.unwrap();
    install_into_urn_sql(&mut admin).await;
    let mut conn = db.as_role(&co_tenant).await;
    conn.execute(CO_TENANT_PLANTS).await.unwrap();
    drop(conn);

    // The urn schema left at public: refused, with every object and its owner named.
    let table = UrnTable::new("urn_sql.items").unwrap();
    let err = admin
        .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
        .await
        .unwrap_err();
    let (code, message) = pg_failure(&err);
    assert_eq!(code, "42501", "{message}");
    for object in [
        "\"public\".urn",
        "\"public\".urn_key",
        "\"public\".urn_key_v2(\"public\".urn)",
        "\"public\".urn_key_v2_inline(\"public\".urn)",
        "\"public\".urn_key_index(pg_catalog.text)",
        "\"public\".urn_key_index(\"public\".urn_key)",
    ] {
        assert!(
            message.contains(&format!("{object} (owner {co_tenant})")),
            "{object} in {message}"
        );
    }
    // A schema without urn-sql: every object missing.
    let nowhere = UrnTable::new("urn_sql.items")
        .and_then(|t| t.with_urn_schema("audit"))
        .unwrap();
    let err = admin
        .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&nowhere)))
        .await
        .unwrap_err();
    let (code, message) = pg_failure(&err);
    assert_eq!(code, "42501", "{message}");
    assert_eq!(message.matches("(missing)").count(), 6, "{message}");
    let made: Option<String> = sqlx::query_scalar("SELECT to_regclass('urn_sql.items')::text")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert_eq!(made, None);
    let ran: i64 = sqlx::query_scalar("SELECT count(*) FROM audit.planted_calls")
        .fetch_one(&mut admin)
        .await
        .unwrap();
    assert_eq!(ran, 0, "planted code ran");
    // Named where urn-sql is, the table is made.
    let table = table.with_urn_schema("urn_sql").unwrap();
    admin
        .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
        .await
        .unwrap();
    drop(admin);
    db.drop().await;
}

/// Where the caller names no schema, nothing is found by default: the statements of a table
/// given without its schema, or without urn-sql's (`with_urn_schema`), take `public` for it and
/// check first, as the DDL does, that what they name there is owned by a superuser, the
/// current role or the schema's owner. An application that installed urn-sql into `urn_sql`
/// and made its table as `app.items`, but whose writer names `items`, or leaves urn-sql's
/// schema out, gets SQLSTATE 42501 naming the co-tenant's objects, and neither writes into the
/// co-tenant's `public.items` nor runs its `public.urn_key_index`. (Before, both went through:
/// the row went to the co-tenant's table, and its functions ran as the writer.) And the
/// install refuses a schema that neither the installing role nor a superuser owns.
#[tokio::test]
async fn unnamed_schemas_are_checked_before_use() {
    let Some(mut db) = Scratch::new("unnamed_schema").await else {
        return;
    };
    let co_tenant = db.role("urn_co_tenant", true).await;
    let writer = db.role("urn_writer", false).await;
    let mut admin = db.admin().await;
    admin.execute(PLANTED_CALLS).await.unwrap();
    admin
        .execute(AssertSqlSafe(format!(
            "CREATE SCHEMA urn_sql; GRANT USAGE ON SCHEMA urn_sql TO {writer}; \
             CREATE SCHEMA app; GRANT USAGE ON SCHEMA app TO {writer}"
        )))
        .await
        .unwrap();
    install_into_urn_sql(&mut admin).await;
    let named = UrnTable::new("app.items")
        .and_then(|t| t.with_urn_schema("urn_sql"))
        .unwrap();
    make_tables(&mut admin, &[("app.items", &named)], &writer).await;
    let mut conn = db.as_role(&co_tenant).await;
    conn.execute(CO_TENANT_PLANTS).await.unwrap();
    conn.execute(
        "CREATE TABLE public.items (id bigint GENERATED ALWAYS AS IDENTITY, urn public.urn, \
           urn_key text DEFAULT 'urn:planted:x'); \
         CREATE UNIQUE INDEX ON public.items ((public.urn_key_index(urn_key))); \
         GRANT ALL ON public.items TO PUBLIC",
    )
    .await
    .unwrap();
    drop(conn);

    let mut conn = db.as_role(&writer).await;
    let urn: Urn = "urn:example:private".parse().unwrap();
    let no_table_schema = UrnTable::new("items")
        .and_then(|t| t.with_urn_schema("urn_sql"))
        .unwrap();
    let no_urn_schema = UrnTable::new("app.items").unwrap();
    for (what, table, object) in [
        (
            "the table's schema",
            &no_table_schema,
            "\"public\".\"items\"",
        ),
        (
            "urn-sql's schema",
            &no_urn_schema,
            "\"public\".urn_key_index(pg_catalog.text)",
        ),
    ] {
        for err in [
            insert_or_get(&mut conn, table, &urn).await.unwrap_err(),
            find(&mut conn, table, &urn).await.unwrap_err(),
        ] {
            let (code, message) = pg_failure(&err);
            assert_eq!(code, "42501", "without {what}: {message}");
            assert!(
                message.contains(&format!("{object} (owner {co_tenant})")),
                "without {what}: {message}"
            );
        }
    }
    let (planted, lured): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM audit.planted_calls), (SELECT count(*) FROM public.items)",
    )
    .fetch_one(&mut admin)
    .await
    .unwrap();
    assert_eq!(
        (planted, lured),
        (0, 0),
        "the co-tenant's code ran or got a row"
    );
    // Named, nothing is checked, and the row goes where it belongs.
    let stored = insert_or_get(&mut conn, &named, &urn).await.unwrap();
    assert!(stored.inserted);
    assert_eq!(
        find(&mut conn, &named, &urn).await.unwrap(),
        Some(StoredUrn {
            inserted: false,
            ..stored
        })
    );
    drop(conn);

    // The install refuses a schema of the co-tenant's, even for a superuser.
    admin
        .execute(AssertSqlSafe(format!(
            "CREATE SCHEMA theirs AUTHORIZATION {co_tenant}"
        )))
        .await
        .unwrap();
    let err = match support::backend() {
        Backend::Portable => {
            admin.execute("SET search_path = theirs").await.unwrap();
            run_up(&mut admin).await.unwrap_err()
        }
        Backend::UrnPg => {
            // (An extension is installed once per database: the one in public goes first.)
            admin
                .execute("DROP EXTENSION urn_pg CASCADE")
                .await
                .unwrap();
            admin
                .execute("CREATE EXTENSION urn_pg SCHEMA theirs")
                .await
                .unwrap_err()
        }
    };
    let (code, message) = pg_failure(&err);
    assert_eq!(code, "42501", "{message}");
    assert!(
        message.contains(&format!("its owner {co_tenant} is neither")),
        "{message}"
    );
    drop(admin);
    db.drop().await;
}

/// The re-key against the roles it shares a database with (issue #52): it runs as the table's
/// owner whoever starts it, makes its objects new or refuses a name another role took first,
/// binds no function of another role, and re-keys a table named without a schema only when
/// that is the runner's one table of the name. Each attempt on a planted object fails before
/// anything changes, and no planted code runs.
mod rekey {
    use sqlx::Row;
    use urn_sql::sqlx::rekey;
    use urn_sql::{KeyRules, OnCollision};

    use super::support::rekey::scenario_urns;
    use super::*;

    /// The planted code's calls, as (what, role).
    async fn planted_calls(admin: &mut PgConnection) -> Vec<(String, String)> {
        sqlx::query_as("SELECT call, by_role::text FROM audit.planted_calls ORDER BY 1")
            .fetch_all(admin)
            .await
            .unwrap()
    }

    /// A function of `role`'s, `public.<name>(<args>)` returning `returns`, that logs its call
    /// (`what`) and returns `value`.
    fn planted_function(name: &str, args: &str, returns: &str, value: &str) -> String {
        format!(
            "CREATE FUNCTION public.{name}({args}) RETURNS {returns} LANGUAGE plpgsql AS $f$ \
             BEGIN INSERT INTO audit.planted_calls VALUES ('{name}', current_user); \
             RETURN {value}; END $f$"
        )
    }

    /// A V1 table `name` of the re-key scenario's URNs, urn-sql's objects in `urn_schema`,
    /// made by the administrator and given to `owner`.
    async fn v1_table(
        admin: &mut PgConnection,
        name: &str,
        urn_schema: &str,
        owner: &str,
    ) -> UrnTable {
        let table = UrnTable::new(name)
            .and_then(|t| t.with_urn_schema(urn_schema))
            .unwrap()
            .with_key_rules(KeyRules::V1)
            .unwrap();
        admin
            .execute(AssertSqlSafe(Dialect::Postgres.create_table_sql(&table)))
            .await
            .unwrap();
        let urns: Vec<String> = scenario_urns()
            .iter()
            .map(|u| u.as_str().to_owned())
            .collect();
        sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO {name} (urn) SELECT unnest($1::text[])"
        )))
        .bind(&urns)
        .execute(&mut *admin)
        .await
        .unwrap();
        admin
            .execute(AssertSqlSafe(format!(
                "ALTER TABLE {name} OWNER TO {owner}"
            )))
            .await
            .unwrap();
        table
    }

    async fn count(admin: &mut PgConnection, name: &str) -> i64 {
        sqlx::query_scalar(AssertSqlSafe(format!("SELECT count(*) FROM {name}")))
            .fetch_one(admin)
            .await
            .unwrap()
    }

    /// A superuser who re-keys another role's table does it as that role: what the re-key makes
    /// (the trigger function, the side table) is the owner's, and the connection is the
    /// superuser's again after, its `lock_timeout` as it was.
    #[tokio::test]
    async fn a_superuser_rekeys_as_the_tables_owner() {
        let Some(mut db) = Scratch::new("rekey_owner").await else {
            return;
        };
        db.install().await;
        let alice = db.role("urn_alice", false).await;
        let mut admin = db.admin().await;
        admin
            .execute(AssertSqlSafe(format!(
                "CREATE SCHEMA app AUTHORIZATION {alice}; SET lock_timeout = '7s'"
            )))
            .await
            .unwrap();
        let table = v1_table(&mut admin, "app.items", "public", &alice).await;
        let done = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        assert!(done.switched && done.moved == 5, "{done:?}");
        let owners: Vec<String> = sqlx::query_scalar(
            "SELECT pg_get_userbyid(proowner)::text FROM pg_proc WHERE proname = 'items_urn_key_v2' \
             UNION ALL SELECT pg_get_userbyid(relowner)::text FROM pg_class \
             WHERE oid = 'app.items_urn_key_v2_collisions'::regclass",
        )
        .fetch_all(&mut admin)
        .await
        .unwrap();
        assert_eq!(owners, [alice.clone(), alice.clone()]);
        let row = sqlx::query(
            "SELECT current_user::text, session_user::text, current_setting('lock_timeout')",
        )
        .fetch_one(&mut admin)
        .await
        .unwrap();
        let (current, session, timeout): (String, String, String) =
            (row.get(0), row.get(1), row.get(2));
        assert_eq!((current, timeout.as_str()), (session, "7s"));
        drop(admin);
        db.drop().await;
    }

    /// Objects another role made first under the names the re-key makes, and a trigger another
    /// role put on the table: each stops the re-key, naming it, before anything changes; none
    /// of their code runs. (Before: keep-first adopted a planted side table, whose trigger ran
    /// as the superuser who re-keyed and dropped the moved rows; a planted trigger function was
    /// kept and ran in every insert; a relation under the new index's name left the table
    /// without a unique index.)
    #[tokio::test]
    async fn objects_another_role_made_first_are_refused() {
        let Some(mut db) = Scratch::new("rekey_planted").await else {
            return;
        };
        db.install().await;
        let alice = db.role("urn_alice", true).await;
        let attacker = db.role("urn_attacker", true).await;
        let mut admin = db.admin().await;
        admin.execute(PLANTED_CALLS).await.unwrap();
        let table = v1_table(&mut admin, "public.items", "public", &alice).await;
        let initial = count(&mut admin, "public.items").await;
        let mut theirs = db.as_role(&attacker).await;
        let logging_trigger = planted_function("planted_trigger", "", "trigger", "NEW");
        theirs
            .execute(AssertSqlSafe(logging_trigger))
            .await
            .unwrap();
        let plants = [
            (
                "CREATE TABLE public.items_urn_key_v2_collisions (id bigint, urn text, \
                 urn_key text, urn_sql_kept_id bigint, urn_sql_new_key text); \
                 CREATE TRIGGER planted BEFORE INSERT ON public.items_urn_key_v2_collisions \
                 FOR EACH ROW EXECUTE FUNCTION public.planted_trigger()"
                    .to_owned(),
                "items_urn_key_v2_collisions",
                "DROP TABLE public.items_urn_key_v2_collisions",
            ),
            (
                planted_function("items_urn_key_v2", "", "trigger", "NEW"),
                "function \"public\".\"items_urn_key_v2\"()",
                "DROP FUNCTION public.items_urn_key_v2()",
            ),
            (
                "CREATE TABLE public.items_urn_key_v2_unique (x int)".to_owned(),
                "items_urn_key_v2_unique",
                "DROP TABLE public.items_urn_key_v2_unique",
            ),
        ];
        for (plant, named, undo) in &plants {
            theirs.execute(AssertSqlSafe(plant.clone())).await.unwrap();
            let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
                .await
                .unwrap_err();
            let (_, message) = pg_failure(&err);
            assert!(message.contains(named), "{named}: {message}");
            assert_eq!(count(&mut admin, "public.items").await, initial, "{named}");
            theirs.execute(*undo).await.unwrap();
        }
        // A trigger on the table whose function another role owns (she has TRIGGER on it).
        admin
            .execute(AssertSqlSafe(format!(
                "GRANT TRIGGER ON public.items TO {attacker}"
            )))
            .await
            .unwrap();
        theirs
            .execute(
                "CREATE TRIGGER planted AFTER UPDATE ON public.items \
                 FOR EACH ROW EXECUTE FUNCTION public.planted_trigger()",
            )
            .await
            .unwrap();
        let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        let (code, message) = pg_failure(&err);
        assert_eq!(code, "42501", "{message}");
        assert!(message.contains("planted_trigger()"), "{message}");
        assert_eq!(planted_calls(&mut admin).await, []);
        admin
            .execute("DROP TRIGGER planted ON public.items")
            .await
            .unwrap();
        // Then, nothing planted: it goes through.
        let done = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        assert!(done.switched && done.moved == 5, "{done:?}");
        assert_eq!(planted_calls(&mut admin).await, []);
        drop((admin, theirs));
        db.drop().await;
    }

    /// urn-sql installed in its own schema and the re-key told nothing of it: the functions it
    /// would bind into the trigger, the CHECK and the index are `public`'s, which a co-tenant
    /// planted. It refuses (42501), naming them, before anything changes. (Before: her
    /// functions ran as the re-keyer and then as every writer.)
    #[tokio::test]
    async fn functions_of_another_role_are_never_bound() {
        let Some(mut db) = Scratch::new("rekey_bound").await else {
            return;
        };
        let attacker = db.role("urn_attacker", true).await;
        let mut admin = db.admin().await;
        admin.execute(PLANTED_CALLS).await.unwrap();
        admin.execute("CREATE SCHEMA urn_sql").await.unwrap();
        install_into_urn_sql(&mut admin).await;
        admin.execute("RESET search_path").await.unwrap();
        let table = v1_table(&mut admin, "public.items", "urn_sql", "CURRENT_USER").await;
        let mut theirs = db.as_role(&attacker).await;
        for (name, args, returns, value) in [
            ("urn_key_v2", "u text", "text", "lower(u)"),
            ("urn_key_v2_inline", "u text", "text", "lower(u)"),
            ("urn_key_index", "k text", "text", "k"),
        ] {
            theirs
                .execute(AssertSqlSafe(planted_function(name, args, returns, value)))
                .await
                .unwrap();
        }
        let told_nothing = UrnTable::new("public.items")
            .unwrap()
            .with_key_rules(KeyRules::V1)
            .unwrap();
        let err = rekey(&mut admin, &told_nothing, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err();
        let (code, message) = pg_failure(&err);
        assert_eq!(code, "42501", "{message}");
        assert!(message.contains("\"public\".urn_key_v2"), "{message}");
        assert_eq!(planted_calls(&mut admin).await, []);
        // Told where urn-sql is, it goes on (no collisions: the pairs' second rows go first).
        admin
            .execute("DELETE FROM public.items WHERE id % 2 = 0 AND id > 200")
            .await
            .unwrap();
        let done = rekey(&mut admin, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched, "{done:?}");
        assert_eq!(planted_calls(&mut admin).await, []);
        drop((admin, theirs));
        db.drop().await;
    }

    /// The URL of the scratch database, for psql.
    fn url_of(db: &Scratch) -> String {
        let url = support::postgres_url().unwrap();
        let (server, _) = url.rsplit_once('/').unwrap();
        format!("{server}/{}", db.name)
    }

    /// Runs `script` in psql on the scratch database; its exit code and stderr.
    fn psql(db: &Scratch, script: &str) -> (Option<i32>, String) {
        use std::io::Write;
        let mut child = std::process::Command::new("psql")
            .args(["-X", "-q", &url_of(db)])
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

    /// An operator of another role for an expression the re-key's own code writes (`*` of
    /// numeric and integer, in a lock retry's sleep), and a trigger on the table whose
    /// function another role keeps in a schema of her own: neither runs. (Before: the
    /// operator ran as the table's owner in each retry; the trigger ran in the backfill,
    /// its schema's owner taken for trusted.)
    #[tokio::test]
    async fn operators_and_triggers_of_other_roles_never_run() {
        let Some(mut db) = Scratch::new("rekey_operators").await else {
            return;
        };
        db.install().await;
        let alice = db.role("urn_alice", true).await;
        let attacker = db.role("urn_attacker", true).await;
        let mut admin = db.admin().await;
        admin.execute(PLANTED_CALLS).await.unwrap();
        admin
            .execute(AssertSqlSafe(format!(
                "GRANT CREATE ON DATABASE {} TO {attacker}",
                db.name
            )))
            .await
            .unwrap();
        let table = v1_table(&mut admin, "public.items", "public", &alice).await;
        let mut theirs = db.as_role(&attacker).await;
        theirs
            .execute(AssertSqlSafe(format!(
                "{}; CREATE OPERATOR public.* (FUNCTION = public.times, LEFTARG = numeric, RIGHTARG = integer)",
                planted_function("times", "a numeric, b integer", "numeric", "a OPERATOR(pg_catalog.*) b")
            )))
            .await
            .unwrap();
        // A reader holds the table for a moment: a lock try of the re-key times out.
        let mut holder = db.admin().await;
        holder
            .execute("BEGIN; LOCK TABLE public.items IN ACCESS SHARE MODE")
            .await
            .unwrap();
        let release = tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(400)).await;
            holder.execute("COMMIT").await.unwrap();
            holder
        });
        let done = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap();
        drop(release.await.unwrap());
        assert!(done.switched, "{done:?}");
        assert_eq!(planted_calls(&mut admin).await, []);
        // A second table, and a trigger on it in a schema of the attacker's own.
        let table = v1_table(&mut admin, "public.things", "public", &alice).await;
        admin
            .execute(AssertSqlSafe(format!(
                "GRANT TRIGGER ON public.things TO {attacker}"
            )))
            .await
            .unwrap();
        theirs
            .execute(
                "CREATE SCHEMA theirs; \
                 CREATE FUNCTION theirs.tg() RETURNS trigger LANGUAGE plpgsql AS $f$ \
                 BEGIN INSERT INTO audit.planted_calls VALUES ('tg', current_user); RETURN NEW; END $f$; \
                 CREATE TRIGGER planted BEFORE UPDATE ON public.things \
                 FOR EACH ROW EXECUTE FUNCTION theirs.tg()",
            )
            .await
            .unwrap();
        let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        let (code, message) = pg_failure(&err);
        assert_eq!(code, "42501", "{message}");
        assert!(message.contains("theirs.tg()"), "{message}");
        assert_eq!(planted_calls(&mut admin).await, []);
        drop((admin, theirs));
        db.drop().await;
    }

    /// A relation another role makes under the new index's name while the re-key runs (after
    /// its checks): the index is not built under another's name, the table is not switched to
    /// a relation that is no unique index of it, and `switched` stays false. (Before: the
    /// build was skipped, the switch renamed her index into the table's, and the table took
    /// two rows of one key.)
    #[tokio::test]
    async fn an_index_name_taken_during_the_run_is_not_switched_to() {
        let Some(mut db) = Scratch::new("rekey_index_race").await else {
            return;
        };
        db.install().await;
        let attacker = db.role("urn_attacker", false).await;
        let mut admin = db.admin().await;
        admin
            .execute(AssertSqlSafe(format!(
                "CREATE SCHEMA app; GRANT USAGE, CREATE ON SCHEMA app TO {attacker}"
            )))
            .await
            .unwrap();
        let table = v1_table(&mut admin, "app.items", "public", "CURRENT_USER").await;
        let script = Dialect::Postgres
            .rekey_sql(&table, KeyRules::V2, OnCollision::KeepFirst)
            .unwrap();
        let owner: String = sqlx::query_scalar("SELECT current_user::text")
            .fetch_one(&mut admin)
            .await
            .unwrap();
        let at = script.find("\n-- the collisions:").unwrap();
        let (code, err) = psql(
            &db,
            &format!(
                "{}\nSELECT pg_catalog.set_config('role', '{attacker}', false);\n\
                 CREATE TABLE app.mine (x int); CREATE INDEX items_urn_key_v2_unique ON app.mine (x);\n\
                 SELECT pg_catalog.set_config('role', '{owner}', false);\n{}",
                &script[..at],
                &script[at..]
            ),
        );
        assert_ne!(code, Some(0), "{err}");
        assert!(err.contains("items_urn_key_v2_unique"), "{err}");
        let unique: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_index WHERE indrelid = 'app.items'::regclass AND indisunique",
        )
        .fetch_one(&mut admin)
        .await
        .unwrap();
        assert_eq!(unique, 2, "the primary key and the key's unique index");
        let done = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        assert!(
            done.to_string().contains("items_urn_key_v2_unique"),
            "{done}"
        );
        drop(admin);
        db.drop().await;
    }

    /// A table with inheritance children, whose rows a DELETE reaches but whose columns the
    /// side table would not keep, is refused; so is a foreign key that compares through a
    /// cast another role wrote (the check would run it as the owner).
    #[tokio::test]
    async fn what_would_lose_columns_or_run_a_cast_is_refused() {
        let Some(mut db) = Scratch::new("rekey_inherits").await else {
            return;
        };
        db.install().await;
        let attacker = db.role("urn_attacker", true).await;
        let mut admin = db.admin().await;
        admin.execute(PLANTED_CALLS).await.unwrap();
        let table = v1_table(&mut admin, "public.items", "public", "CURRENT_USER").await;
        admin
            .execute(
                "CREATE TABLE public.items_archive (note text NOT NULL) INHERITS (public.items)",
            )
            .await
            .unwrap();
        let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        assert!(pg_failure(&err).1.contains("inheritance children"), "{err}");
        admin
            .execute("DROP TABLE public.items_archive")
            .await
            .unwrap();
        // Her child table, its key compared through her implicit cast.
        admin
            .execute(AssertSqlSafe(format!(
                "GRANT SELECT, REFERENCES ON public.items TO {attacker}"
            )))
            .await
            .unwrap();
        let mut theirs = db.as_role(&attacker).await;
        theirs
            .execute(AssertSqlSafe(format!(
                "CREATE TYPE public.ref AS ENUM ('1', '201'); {}; \
                 CREATE CAST (public.ref AS bigint) WITH FUNCTION public.ref_to_int8(public.ref) AS IMPLICIT; \
                 CREATE TABLE public.child (item public.ref REFERENCES public.items (id))",
                planted_function("ref_to_int8", "r public.ref", "bigint", "r::text::pg_catalog.int8")
            )))
            .await
            .unwrap();
        // (Her insert runs her cast in PostgreSQL's own check, as her.)
        theirs
            .execute("INSERT INTO public.child VALUES ('1')")
            .await
            .unwrap();
        admin.execute("TRUNCATE audit.planted_calls").await.unwrap();
        let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::KeepFirst)
            .await
            .unwrap_err();
        assert!(pg_failure(&err).1.contains("cast or operator"), "{err}");
        assert_eq!(planted_calls(&mut admin).await, []);
        drop((admin, theirs));
        db.drop().await;
    }

    /// A table named without a schema is re-keyed only when it is the runner's and the one
    /// relation of its name: a superuser's `--table items` meant for `app.items` does not
    /// re-key a co-tenant's `public.items` (and run her trigger as the superuser).
    #[tokio::test]
    async fn a_table_named_without_a_schema_must_be_the_runners_only_one() {
        let Some(mut db) = Scratch::new("rekey_unqualified").await else {
            return;
        };
        db.install().await;
        let attacker = db.role("urn_attacker", true).await;
        let mut admin = db.admin().await;
        admin.execute(PLANTED_CALLS).await.unwrap();
        let mut theirs = db.as_role(&attacker).await;
        let table = UrnTable::new("items")
            .unwrap()
            .with_key_rules(KeyRules::V1)
            .unwrap();
        theirs
            .execute(AssertSqlSafe(format!(
                "{} INSERT INTO public.items (urn) VALUES ('urn:example:a'); {}; \
                 CREATE TRIGGER planted BEFORE UPDATE ON public.items \
                 FOR EACH ROW EXECUTE FUNCTION public.planted_trigger()",
                Dialect::Postgres.create_table_sql(&table),
                planted_function("planted_trigger", "", "trigger", "NEW"),
            )))
            .await
            .unwrap();
        let err = rekey(&mut admin, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap_err();
        let (code, message) = pg_failure(&err);
        assert_eq!(code, "42501", "{message}");
        assert!(message.contains("named without its schema"), "{message}");
        assert_eq!(planted_calls(&mut admin).await, []);
        // Hers, named by her, and hers alone of the name: she may re-key it (as herself).
        let done = rekey(&mut theirs, &table, KeyRules::V2, OnCollision::Refuse)
            .await
            .unwrap();
        assert!(done.switched, "{done:?}");
        drop((admin, theirs));
        db.drop().await;
    }
}
