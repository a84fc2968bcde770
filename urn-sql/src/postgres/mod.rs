//! The PostgreSQL side, all of its SQL: the install (domains `urn` and `urn_key`, the key
//! function `urn_key_v1`, …; the same SQL ships as a diesel-style migration in
//! `migrations/postgres/`, usable by diesel_migrations, sqlx (as a raw migration) or `psql`),
//! the keyed table, and the insert-or-get and lookup statements.
//!
//! Every statement written here for a table resolves no name through the session's
//! search_path: the table is qualified with its schema (`public` when its name has none),
//! urn-sql's domains and functions with the table's [urn schema](UrnTable::with_urn_schema),
//! PostgreSQL's types, collations and operators with `pg_catalog` (`OPERATOR(pg_catalog.=)`;
//! `bigint` is a keyword, not a name). A table's DDL is one `DO` statement that checks who owns
//! the objects it binds before it makes anything.

#[cfg(test)]
mod check;
#[cfg(test)]
mod install;
#[cfg(test)]
mod key_functions;
pub(crate) mod rekey;

use crate::protocol::{Conflict, Plan};
use crate::table::UrnTable;

/// Creates (or upgrades in place, from any earlier revision) the domains `urn` and `urn_key`
/// and the functions `urn_key_v2(urn)`, `urn_key_v1(urn)` (and their `_inline` forms),
/// `urn_key_index(text)`, `urn_key_index(urn_key)`,
/// `urn_check(text)`, `urn_valid(text)`, `urn_nid(urn)`, `urn_nss(urn)` and
/// `urn_rfc8141_key(urn)`, in the current schema (the first schema of the search_path that
/// exists). Idempotent; run it in a transaction (migration tools do;
/// [`Dialect::install_sql`](crate::Dialect::install_sql) wraps it in `BEGIN`/`COMMIT` for
/// `psql`), before tables that use them. Where the `urn_pg` extension (crate urn-pg) owns the
/// domains it changes nothing.
pub const UP: &str = include_str!("../../migrations/postgres/2026-11-23-000000_urn_types/up.sql");

/// What the clients' `install` does: [`UP`].
pub(crate) const INSTALL: crate::protocol::Install = crate::protocol::Install::Script(UP);

/// Drops what [`UP`] (of this or any earlier revision) created (tables using the domains must
/// go first).
pub const DOWN: &str =
    include_str!("../../migrations/postgres/2026-11-23-000000_urn_types/down.sql");

/// The table pattern, as a commented example for people reading the DDL: what
/// [`create_table`] (less its check of urn-sql's objects) and [`plan`] write for a table
/// `items` with urn-sql in `public`.
fn table_pattern() -> String {
    let table = UrnTable::new("items").map(|t| {
        let create: String = table_statements(&t)
            .iter()
            .map(|statement| format!("{statement};\n"))
            .collect();
        (create, plan(&t))
    });
    let Ok((create, plan)) = table else {
        return String::new();
    };
    let comment = |sql: &str| {
        sql.lines()
            .map(|line| format!("--   {line}\n"))
            .collect::<String>()
    };
    format!(
        "-- A table that stores each URN once, whatever its spelling and length (`urn sql --dialect\n\
         -- postgres --table NAME [--urn-schema S]` prints it for any name, and for urn-sql's objects\n\
         -- in schema S rather than public, in one transaction, after a check that urn-sql's objects\n\
         -- there are owned by a trusted role). Every name is qualified, so no schema on a session's\n\
         -- search_path can put a table, function, operator, type or collation of its own in their\n\
         -- place.\n\
         {}\
         --   (The unique index is on urn_key_index(urn_key), not the key: a btree entry holds at\n\
         --   most 2704 bytes, and urn_key_index() stores keys longer than 2048 bytes as their\n\
         --   SHA-256, so URNs of any length fit. COLLATE \"C\": a key is ASCII and canonical, so\n\
         --   byte order is right, and cheaper than the database's collation.)\n\
         -- Insert-or-get ($1: the URN):\n{}\
         -- Lookup by any equivalent spelling ($1: its key, urn_core's Urn::key(); an index scan):\n{}\
         -- Why a value is not a URN:  SELECT \"public\".urn_check($1);  -- NULL when valid\n\
         -- Lists of URNs:  see_also \"public\".urn[] NOT NULL DEFAULT '{{}}'  (every element is checked)\n",
        comment(&create),
        comment(&format!("{};", plan.insert)),
        comment(&format!("{};", plan.find)),
    )
}

/// `CREATE TABLE` (and `CREATE UNIQUE INDEX`) for `table`: an identity id, the URN (checked by
/// the `urn` domain), the generated key, and a unique index on `urn_key_index(urn_key)`, so
/// URNs of any length the domain allows are deduplicated. For a
/// [hash-partitioned](UrnTable::hash_partitioned) table, the parent and its partitions. First,
/// [`trusted_objects_check`].
///
/// One statement, a `DO` block that runs the check and then the `CREATE`s (`EXECUTE`): a
/// client that goes on after a failed statement (psql with `ON_ERROR_ROLLBACK`, a tool that
/// skips errors) cannot make the table without the check or without its index.
pub(crate) fn create_table(table: &UrnTable) -> String {
    let statements: String = table_statements(table)
        .iter()
        .map(|statement| format!("  EXECUTE $ddl${statement}$ddl$;\n"))
        .collect();
    format!(
        "DO $urn_sql$\nDECLARE\n  refused pg_catalog.text;\nBEGIN\n{}{statements}END\n$urn_sql$;\n",
        trusted_objects_check(table),
    )
}

/// The PL/pgSQL statements (for [`create_table`]'s `DO` block, which declares `refused`) that
/// refuse (SQLSTATE 42501) to make a table on urn-sql objects that are not where the table's
/// statements name them, or that are owned by a role other than a superuser, the role making the
/// table, or the schema's owner (for a schema of `pg_database_owner`, as `public` is since
/// PostgreSQL 15, the database's owner): with the urn schema left at `public` while urn-sql was
/// installed elsewhere, a co-tenant's `public.urn_key_index` would otherwise be bound into the
/// table's index and called by every lookup. Every name in it is qualified.
fn trusted_objects_check(table: &UrnTable) -> String {
    owner_check(
        table,
        false,
        "urn-sql: not making table %: its statements name %, which are missing or owned by a \
         role that is not a superuser, the role making the table or the owner of their schema",
        "Name the schema urn-sql is installed in (UrnTable with_urn_schema in Rust, urn sql \
         --urn-schema), or make the table as the role that installed it.",
    )
}

/// The check a table's insert-or-get and lookup run first when the caller did not name both
/// the table's schema and urn-sql's ([`UrnTable::schemas_given`]): a `DO` statement that
/// refuses (SQLSTATE 42501), as the DDL does, urn-sql objects and a table in `public` that are
/// missing or owned by a role other than a superuser, the role running it, or their schema's
/// owner. Without it, an application that installed urn-sql into another schema, or whose
/// table is in another schema, would run a co-tenant's `public.urn_key_index` or write into a
/// co-tenant's `public.<table>`.
fn use_check(table: &UrnTable) -> Option<String> {
    (!table.schemas_given()).then(|| {
        format!(
            "DO $urn_sql$\nDECLARE\n  refused pg_catalog.text;\nBEGIN\n{}END\n$urn_sql$",
            owner_check(
                table,
                true,
                "urn-sql: not using table %: its statements name %, which are missing or owned \
                 by a role that is not a superuser, the current role or the owner of their \
                 schema",
                "The table's statements name public where no schema was given: name the \
                 table's schema (UrnTable::new(\"schema.table\")) and urn-sql's \
                 (with_urn_schema), which also skips this check.",
            )
        )
    })
}

/// The owner check behind [`trusted_objects_check`] and [`use_check`]: urn-sql's types and
/// functions where the table's statements name them, and with `with_table` the table itself,
/// each owned by a superuser, the current role, or the owner of the object's schema (the
/// database's owner for a schema of `pg_database_owner`), else `RAISE` `message` (with `%`
/// for the table, the objects and their owners) and `hint`.
pub(crate) fn owner_check(table: &UrnTable, with_table: bool, message: &str, hint: &str) -> String {
    let s = table.urn_schema();
    let urn_schema = s.trim_matches('"');
    let owner_of = |what: String, catalog: &str, owner: &str, oid: String, schema: &str| {
        format!(
            "('{what}', (SELECT c.{owner} FROM pg_catalog.{catalog} AS c \
             WHERE c.oid OPERATOR(pg_catalog.=) {oid}), '{schema}')"
        )
    };
    let types = ["urn", "urn_key"].map(|name| {
        let what = format!("{s}.{name}");
        let oid = format!("pg_catalog.to_regtype('{what}')");
        owner_of(what, "pg_type", "typowner", oid, urn_schema)
    });
    // (Before PostgreSQL 16, to_regprocedure raises for an argument type that does not exist:
    // it is asked only when the type does.)
    let key = table.key_function();
    let functions = [
        (key.to_owned(), format!("{s}.urn")),
        (format!("{key}_inline"), format!("{s}.urn")),
        ("urn_key_index".to_owned(), "pg_catalog.text".to_owned()),
        ("urn_key_index".to_owned(), format!("{s}.urn_key")),
    ]
    .map(|(name, argument)| {
        let what = format!("{s}.{name}({argument})");
        let oid = format!(
            "CASE WHEN pg_catalog.to_regtype('{argument}') IS NOT NULL \
             THEN pg_catalog.to_regprocedure('{what}') END"
        );
        owner_of(what, "pg_proc", "proowner", oid, urn_schema)
    });
    let name = table.postgres_name();
    let table_row = with_table.then(|| {
        let schema = table.postgres_schema();
        owner_of(
            name.clone(),
            "pg_class",
            "relowner",
            format!("pg_catalog.to_regclass('{name}')"),
            schema.trim_end_matches('.').trim_matches('"'),
        )
    });
    let rows: Vec<String> = types
        .into_iter()
        .chain(functions)
        .chain(table_row)
        .collect();
    format!(
        "  SELECT pg_catalog.string_agg(pg_catalog.concat(o.name, CASE WHEN o.owner IS NULL \
         THEN ' (missing)' ELSE pg_catalog.concat(' (owner ', \
         pg_catalog.quote_ident(r.rolname), ')') END), ', ') INTO refused\n  \
         FROM (VALUES {}) AS o(name, owner, schema)\n  \
         LEFT JOIN pg_catalog.pg_roles AS r ON r.oid OPERATOR(pg_catalog.=) o.owner\n  \
         WHERE o.owner IS NULL OR NOT COALESCE(r.rolsuper \
         OR r.rolname OPERATOR(pg_catalog.=) CURRENT_USER \
         OR o.owner OPERATOR(pg_catalog.=) (SELECT CASE WHEN x.rolname OPERATOR(pg_catalog.=) \
         'pg_database_owner' THEN (SELECT d.datdba FROM pg_catalog.pg_database AS d \
         WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()) \
         ELSE n.nspowner END FROM pg_catalog.pg_namespace AS n \
         JOIN pg_catalog.pg_roles AS x ON x.oid OPERATOR(pg_catalog.=) n.nspowner \
         WHERE n.nspname OPERATOR(pg_catalog.=) o.schema), false);\n  \
         IF refused IS NOT NULL THEN\n    \
         RAISE EXCEPTION '{message}', '{}', refused USING ERRCODE = '42501', HINT = '{}';\n  \
         END IF;\n",
        rows.join(",\n    "),
        name.replace('\'', "''"),
        hint.replace('\'', "''"),
        message = message.replace('\'', "''"),
    )
}

/// The table's `CREATE` statements themselves, each without its `;`.
fn table_statements(table: &UrnTable) -> Vec<String> {
    let (name, id, urn, key, s) = (
        &table.postgres_name(),
        table.id_column(),
        table.urn_column(),
        table.key_column(),
        table.urn_schema(),
    );
    // The key is text: the key function only ever returns canonical keys, and checking each
    // against the urn_key domain would cost ~1 us per inserted row (revision 2's tables have the
    // domain; both work with urn_key_index). urn_key_v2_inline (urn_key_v1_inline for a V1
    // table) is urn_key_v2 written so that PostgreSQL inlines it here. The key and its index compare byte for byte (COLLATE "C"):
    // a key is ASCII and canonical, so byte order is exactly right, and the btree compares
    // with memcmp instead of the database collation's strcoll. Queries need nothing new: a
    // comparison of the key (or of urn_key_index of it) with a parameter or literal takes the
    // column's "C".
    let generated = format!(
        "{key} pg_catalog.text COLLATE pg_catalog.\"C\" \
         GENERATED ALWAYS AS ({s}.{}_inline({urn})) STORED NOT NULL",
        table.key_function()
    );
    match table.key_index_column() {
        None => vec![
            format!(
                "CREATE TABLE {name} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  \
                 {urn} {s}.urn NOT NULL,\n  {generated}\n)"
            ),
            format!(
                "CREATE UNIQUE INDEX {} ON {name} (({s}.urn_key_index({key})) COLLATE pg_catalog.\"C\")",
                table.unique_index_name()
            ),
        ],
        Some(index) => {
            // (A domain-typed generated column would not do here anyway: PostgreSQL 15 fails
            // every insert into a partitioned table with one, "attribute 3 of type record has
            // wrong type".) The id is an identity column: PostgreSQL cannot make it UNIQUE
            // across partitions (a unique index must hold the partition key), so only the
            // sequence keeps ids apart, and GENERATED ALWAYS refuses an id a client chose
            // (short of OVERRIDING SYSTEM VALUE, which grants of INSERT on the other columns
            // alone refuse too; see UrnTable::hash_partitioned).
            let n = table.partitions();
            let parent = format!(
                "CREATE TABLE {name} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY,\n  {urn} {s}.urn NOT NULL,\n  \
                 {generated},\n  \
                 {index} pg_catalog.text COLLATE pg_catalog.\"C\" NOT NULL CONSTRAINT {} \
                 CHECK ({index} OPERATOR(pg_catalog.=) {s}.urn_key_index({key})),\n  \
                 UNIQUE ({index})\n) PARTITION BY HASH ({index})",
                table.key_constraint_name("index_matches")
            );
            std::iter::once(parent)
                .chain((0..n).map(|i| {
                    format!(
                        "CREATE TABLE {} PARTITION OF {name} FOR VALUES WITH (MODULUS {n}, REMAINDER {i})",
                        table.partition_name(i)
                    )
                }))
                .collect()
        }
    }
}

/// The insert-or-get and lookup statements for `table`.
///
/// Not partitioned: one atomic statement. On a conflict of the unique index on
/// `urn_key_index(urn_key)` it performs a no-op update, so `RETURNING` always yields the
/// stored row (concurrent callers wait for each other instead of failing); `inserted` tells
/// whether this call created it (the returned row version is new: `xmax = 0`).
///
/// Hash-partitioned: on a conflict nothing is returned, and the protocol looks the row up. A
/// row comes back only if this statement inserted it, so `inserted` cannot be wrong whatever
/// ids other writers use. (PostgreSQL cannot return `xmax` from a partitioned table; an id
/// compared with the sequence's last value could be forged by a writer that chose ids.) The
/// `urn_key_index` column is computed from one domain check of `$1`.
///
/// The lookup binds the canonical key, so any equivalent spelling finds the row through the
/// unique index (or the partition's `urn_key_index` column).
pub(crate) fn plan(table: &UrnTable) -> Plan {
    let (returning, name, urn, key, s) = (
        table.returning(),
        table.postgres_name(),
        table.urn_column(),
        table.key_column(),
        table.urn_schema(),
    );
    let function = table.key_function();
    let (insert, index_of_key) = match table.key_index_column() {
        None => (
            format!(
                "INSERT INTO {name} AS stored ({urn}) VALUES ($1::{s}.urn) \
                 ON CONFLICT (({s}.urn_key_index({key}))) DO UPDATE SET {urn} = stored.{urn} \
                 RETURNING {returning}, (stored.xmax OPERATOR(pg_catalog.=) 0) AS inserted"
            ),
            format!("{s}.urn_key_index({key})"),
        ),
        Some(index) => (
            format!(
                "INSERT INTO {name} ({urn}, {index}) \
                 SELECT given.urn, {s}.urn_key_index({s}.{function}(given.urn)) \
                 FROM (SELECT $1::{s}.urn AS urn) AS given \
                 ON CONFLICT ({index}) DO NOTHING RETURNING {returning}, true AS inserted"
            ),
            index.to_owned(),
        ),
    };
    let find = format!(
        "SELECT {returning}, false AS inserted FROM {name} \
         WHERE {index_of_key} OPERATOR(pg_catalog.=) {s}.urn_key_index($1::{s}.urn_key) \
         AND {key} OPERATOR(pg_catalog.=) $1::{s}.urn_key"
    );
    Plan {
        insert,
        lookup: find.clone(),
        find,
        conflict: Conflict::NoRow,
        insert_then_read: None,
        check: use_check(table),
        rules: table.key_rules(),
    }
}

/// Everything `urn sql --dialect postgres` prints: [`UP`] in one transaction (with
/// `psql -v ON_ERROR_STOP=1`, a failure leaves nothing half made) and the commented table
/// pattern.
pub(crate) fn install_sql() -> String {
    format!("BEGIN;\n{UP}\nCOMMIT;\n\n{}", table_pattern())
}

#[cfg(test)]
mod tests {
    /// The migration is the rendering of its template and urn-core's tables, whole
    /// (`install.rs`). `bash .ci/bless` (`URN_SQL_BLESS=1`) writes it after a change to the
    /// template, a renderer or urn-core.
    #[test]
    fn the_migration_is_rendered_whole() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/migrations/postgres/2026-11-23-000000_urn_types/up.sql"
        );
        let rendered = super::install::render();
        // urn_pg's script, from its template (both in urn-pg/sql/).
        let sql = concat!(env!("CARGO_MANIFEST_DIR"), "/../urn-pg/sql/");
        let template = std::fs::read_to_string(format!("{sql}urn_pg.template.sql"))
            .unwrap_or_else(|e| panic!("{sql}urn_pg.template.sql: {e}"));
        let extension = super::install::render_urn_pg(&template);
        if std::env::var_os("URN_SQL_BLESS").is_some() {
            assert!(std::fs::write(path, &rendered).is_ok());
            assert!(std::fs::write(format!("{sql}urn_pg.sql"), &extension).is_ok());
        }
        assert!(
            super::UP == rendered,
            "up.sql is not the rendering: bash .ci/bless"
        );
        let shipped = std::fs::read_to_string(format!("{sql}urn_pg.sql")).unwrap_or_default();
        assert!(
            shipped == extension,
            "urn_pg.sql is not the rendering: bash .ci/bless"
        );
        for text in [&rendered, &extension] {
            assert!(!text.contains("@@"), "a part was not rendered");
        }
    }

    /// What the key functions' lower-case fast paths (the PL/pgSQL functions' first
    /// statement, the `_inline` functions) assume of urn-core's table in each version: only a
    /// rule that says so ([`KeyRule::lower_case_is_key`] false) changes an NSS that has no
    /// upper-case letter and no `%`. Checked on generated URNs of every namespace with a rule,
    /// lower-cased.
    #[test]
    fn only_rules_that_say_so_change_a_lower_case_nss() {
        use proptest::strategy::{Strategy, ValueTree};
        use proptest::test_runner::TestRunner;
        use urn_core::{KeyRules, KnownNamespace, Urn};

        for &rules in KeyRules::VERSIONS {
            let mut changed = Vec::new();
            let mut runner = TestRunner::deterministic();
            for &ns in KnownNamespace::ALL
                .iter()
                .filter(|ns| ns.has_key_rule(rules))
            {
                let strategy = urn_core::strategy::urn_in(ns);
                for _ in 0..500 {
                    let Ok(tree) = strategy.new_tree(&mut runner) else {
                        continue;
                    };
                    let urn = tree.current();
                    let lower = format!("urn:{}:{}", ns.nid(), urn.nss().to_ascii_lowercase());
                    let Ok(lower) = Urn::parse(&lower) else {
                        continue;
                    };
                    if !lower.nss().contains('%')
                        && lower.key_with(rules) != lower.key_with(KeyRules::Rfc8141)
                    {
                        changed.push(ns);
                        break;
                    }
                }
            }
            let said: Vec<KnownNamespace> = KnownNamespace::ALL
                .iter()
                .copied()
                .filter(|ns| ns.key_rule(rules).is_some_and(|r| !r.lower_case_is_key()))
                .collect();
            assert_eq!(changed, said, "{rules}");
        }
    }

    /// The statements name urn-sql's objects with its schema and PostgreSQL's with
    /// `pg_catalog`: no function, cast, collation or operator is left to the search_path.
    #[test]
    fn statements_qualify_every_name() {
        let table = crate::UrnTable::new("items")
            .and_then(|t| t.with_urn_schema("urn_sql"))
            .unwrap_or_else(|e| panic!("{e}"));
        let parted = table
            .clone()
            .hash_partitioned(2)
            .unwrap_or_else(|e| panic!("{e}"));
        for t in [&table, &parted] {
            let plan = super::plan(t);
            for sql in [super::create_table(t), plan.insert, plan.find] {
                for function in ["urn_key_index(", "urn_key_v2(", "urn_key_v2_inline("] {
                    let qualified = format!("\"urn_sql\".{function}");
                    assert_eq!(
                        sql.matches(function).count(),
                        sql.matches(&qualified).count(),
                        "{function} in {sql}"
                    );
                }
                for (prefix, qualified) in [
                    ("::", ["::\"urn_sql\".", "::pg_catalog."]),
                    ("COLLATE ", ["COLLATE pg_catalog.", "COLLATE pg_catalog."]),
                    ("text", ["pg_catalog.text", "pg_catalog.text"]),
                ] {
                    let all = sql.matches(prefix).count();
                    let ok: usize = qualified.iter().map(|q| sql.matches(q).count()).sum();
                    let ok = if qualified[0] == qualified[1] {
                        ok / 2
                    } else {
                        ok
                    };
                    assert_eq!(all, ok, "{prefix} in {sql}");
                }
                let urn_column = format!("{} = stored.", t.urn_column());
                // (RAISE … USING ERRCODE = …, HINT = … name options, not operators.)
                let rest = sql
                    .replace("OPERATOR(pg_catalog.=)", "")
                    .replace("ERRCODE = ", "")
                    .replace("HINT = ", "")
                    .replace(&urn_column, "");
                assert!(!rest.contains('='), "an unqualified operator in {sql}");
            }
        }
    }
}
