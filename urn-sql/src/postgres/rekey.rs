//! The PostgreSQL re-key ([`crate::rekey`]): online, while writers insert, update and delete.
//!
//! A stored generated column cannot be added to a table without rewriting it under an
//! `ACCESS EXCLUSIVE` lock, nor can a column become one, so the new key is a plain column that
//! a `BEFORE INSERT OR UPDATE` trigger fills (a client cannot set it: the trigger overwrites
//! what it sends) and a `CHECK` holds to the key function (it runs after every trigger, so
//! no other trigger can leave a stale key). The steps:
//!
//! 1. the runner: the table is there, and the run takes its owner's role (a superuser, or a
//!    member of that role, switches to it for the whole run; anyone else is refused); a table
//!    named without a schema must be the database's only relation of that name, and the
//!    runner's own;
//! 2. the table is checked: neither partitioned nor inherited from, keyed by the old rules'
//!    function, nothing but its unique index depends on the key column (the switch drops it),
//!    urn-sql's functions the re-key binds owned by a trusted role (as the DDL checks them),
//!    its triggers' functions too, and no object of another role under a name the re-key
//!    makes;
//! 3. the collisions are collected and listed, then refused or moved ([`OnCollision`]);
//! 4. the column `<key>_<new>` is added (metadata only), and the trigger that fills it;
//! 5. the rows are filled in batches of 10,000 in id order (each its own transaction);
//! 6. the unique index on it is built `CONCURRENTLY` (an invalid one a stopped run left is
//!    dropped first), then the `CHECK` is added `NOT VALID` and validated (neither blocks
//!    writers);
//! 7. the switch, one short transaction: the old key column goes (and its index with it), the
//!    new one takes its name, `NOT NULL` (proved by the validated `CHECK`, no scan) and the
//!    index's name.
//!
//! Every step that takes a lock that blocks writers waits for it at most 100 ms a try, ten
//! tries 0.1 to 1 s apart (so at most 1 s of writers queued behind it), and otherwise fails
//! saying so, with nothing changed. Every other lock wait (a row a writer holds, the index
//! build waiting for older transactions) is bounded by `lock_timeout`, at most
//! [`LOCK_BOUND_MS`] (a shorter bound the session set is kept), and fails naming the table.
//! Until the switch the old key column and its index are untouched (the table refuses two rows
//! equivalent under the old rules), and from the new index on, two equivalent under the new
//! ones too. Every step runs only when the table still needs it.

use urn_core::KeyRules;

use crate::rekey::{
    OnCollision, RekeyError, Rows, Step, foreign_side_table, referenced, refusal, what,
};
use crate::table::UrnTable;

/// The longest a re-key statement waits for a lock that blocks no writer (a row lock, the
/// index build's wait for older transactions), unless the session set a shorter
/// `lock_timeout`: then it fails, naming the table.
pub(crate) const LOCK_BOUND_MS: u32 = 30_000;

/// The rows the backfill updates in one transaction.
const BATCH: u32 = 10_000;

for_the_sqlx_helpers! {
    /// What the run sets on its connection (the role, `lock_timeout`), put back from the values the
    /// first step saved in session settings of urn-sql's own.
    pub(crate) const RESTORE: crate::rekey::Restore = crate::rekey::Restore {
        read: None,
        statements: |_| &[RESTORE_SQL],
    };
}

/// The statement that puts back what the first step saved (in the script, the last one).
const RESTORE_SQL: &str = "SELECT pg_catalog.set_config('lock_timeout', \
     COALESCE(NULLIF(pg_catalog.current_setting('urn_sql.rekey_lock_timeout', true), ''), \
     pg_catalog.current_setting('lock_timeout')), false), \
     pg_catalog.set_config('role', \
     COALESCE(NULLIF(pg_catalog.current_setting('urn_sql.rekey_role', true), ''), \
     pg_catalog.current_setting('role')), false), \
     pg_catalog.set_config('urn_sql.rekey_lock_timeout', '', false), \
     pg_catalog.set_config('urn_sql.rekey_role', '', false)";

/// `text` as an SQL string literal (checked identifiers and urn-sql's own words: no
/// backslash, so `standard_conforming_strings` does not matter).
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The names the steps use.
struct Names {
    /// The table, schema-qualified and quoted.
    table: String,
    /// The table as an SQL literal (for `to_regclass`).
    table_literal: String,
    /// The table's schema and its dot.
    schema: String,
    id: String,
    urn: String,
    /// The key column, quoted, and as a literal of its bare name.
    key: String,
    key_literal: String,
    /// The new key column (`urn_key_v2`) and its bare name as a literal.
    new: String,
    new_literal: String,
    /// urn-sql's schema (quoted).
    s: String,
    /// The old and new rules' key functions (`urn_key_v1`).
    from_function: &'static str,
    to_function: &'static str,
    /// The unique index (its name stays) and the new one, qualified and bare.
    index: String,
    new_index: String,
    new_index_bare: String,
    /// The CHECK of the new key, the trigger (and its function's name), the side table.
    check: String,
    check_literal: String,
    trigger: String,
    side: String,
}

impl Names {
    fn of(table: &UrnTable, from: KeyRules, to: KeyRules) -> Self {
        let schema = table.postgres_schema();
        let bare = |quoted: &str| quoted.trim_matches('"').to_owned();
        let new = table.key_column_named(to.name());
        let new_index_bare = table.key_constraint_name(&format!("{to}_unique"));
        let check = table.key_constraint_name(&format!("{to}_check"));
        Names {
            table_literal: literal(&table.postgres_name()),
            table: table.postgres_name(),
            id: table.id_column().to_owned(),
            urn: table.urn_column().to_owned(),
            key: table.key_column().to_owned(),
            key_literal: literal(table.bare_key()),
            new_literal: literal(&bare(&new)),
            new,
            s: table.urn_schema().to_owned(),
            from_function: from.sql_function().unwrap_or_default(),
            to_function: to.sql_function().unwrap_or_default(),
            index: table.unique_index_name(),
            new_index: format!("{schema}{new_index_bare}"),
            new_index_bare,
            check_literal: literal(&bare(&check)),
            check,
            trigger: table.key_constraint_name(to.name()),
            side: format!(
                "{schema}{}",
                table.key_constraint_name(&format!("{to}_collisions"))
            ),
            schema,
        }
    }

    /// The table's oid.
    fn oid(&self) -> String {
        format!("pg_catalog.to_regclass({})", self.table_literal)
    }

    /// Whether the key column is generated by `function` (`urn_key_v1_inline(…)`, or revision
    /// 2's `urn_key_v1(…)`).
    fn generated_by(&self, function: &str) -> String {
        format!(
            "EXISTS (SELECT FROM pg_catalog.pg_attribute AS a \
             JOIN pg_catalog.pg_attrdef AS d ON d.adrelid OPERATOR(pg_catalog.=) a.attrelid \
             AND d.adnum OPERATOR(pg_catalog.=) a.attnum \
             WHERE a.attrelid OPERATOR(pg_catalog.=) {t} \
             AND a.attname OPERATOR(pg_catalog.=) {k} AND a.attgenerated OPERATOR(pg_catalog.=) 's' \
             AND (pg_catalog.pg_get_expr(d.adbin, d.adrelid) OPERATOR(pg_catalog.~~) '%{function}(%' \
             OR pg_catalog.pg_get_expr(d.adbin, d.adrelid) OPERATOR(pg_catalog.~~) '%{function}_inline(%'))",
            t = self.oid(),
            k = self.key_literal,
        )
    }

    /// Whether the table still needs the re-key: its key column is generated by the old
    /// rules' function.
    fn pending(&self) -> String {
        self.generated_by(self.from_function)
    }

    /// Whether the table is keyed by the new rules: there, its key column generated by the new
    /// rules' function (a table made keyed by them) or held to it by the validated CHECK a
    /// re-key leaves.
    fn switched(&self) -> String {
        format!(
            "{t} IS NOT NULL AND NOT {pending} AND NOT {has_new} AND ({generated} OR {checked}) AND {index}",
            t = self.oid(),
            index = self.has_key_index(),
            pending = self.pending(),
            has_new = self.has_column(&self.new_literal),
            generated = self.generated_by(self.to_function),
            checked = self.constraint(" AND convalidated"),
        )
    }

    /// Whether the table has a column of this name (a literal).
    fn has_column(&self, name: &str) -> String {
        format!(
            "EXISTS (SELECT FROM pg_catalog.pg_attribute \
             WHERE attrelid OPERATOR(pg_catalog.=) {} \
             AND attname OPERATOR(pg_catalog.=) {name} AND NOT attisdropped)",
            self.oid()
        )
    }

    /// Whether the table has the new key's CHECK (`validated`: `" AND convalidated"` or "").
    fn constraint(&self, validated: &str) -> String {
        format!(
            "EXISTS (SELECT FROM pg_catalog.pg_constraint \
             WHERE conrelid OPERATOR(pg_catalog.=) {} \
             AND conname OPERATOR(pg_catalog.=) {}{validated})",
            self.oid(),
            self.check_literal
        )
    }

    /// `statements`, run in a `DO` block that takes the table's lock within 100 ms a try, ten
    /// tries, each try a subtransaction (a try that times out changes nothing).
    fn with_lock(&self, statements: &str) -> String {
        format!(
            "DO $rekey$\n\
             BEGIN\n  \
             PERFORM pg_catalog.set_config('lock_timeout', '100ms', true);\n  \
             FOR attempt IN 1..10 LOOP\n    \
             BEGIN\n{}      \
             RETURN;\n    \
             EXCEPTION WHEN lock_not_available THEN\n      \
             PERFORM pg_catalog.pg_sleep(0.1 OPERATOR(pg_catalog.*) attempt);\n    \
             END;\n  \
             END LOOP;\n  \
             RAISE EXCEPTION 'urn-sql: could not lock % in ten tries of 100 ms: nothing was changed', {}\n    \
             USING ERRCODE = 'lock_not_available',\n          \
             HINT = 'A long transaction holds the table; run the re-key again when it is over.';\n\
             END\n$rekey$",
            indent(statements, "      "),
            self.table_literal,
        )
    }

    /// The handler that turns a lock wait that reached `lock_timeout` into an error naming the
    /// table and what was waiting (`doing`), for the end of a block.
    fn lock_handler(&self, doing: &str) -> String {
        format!(
            "EXCEPTION WHEN lock_not_available THEN\n  \
             RAISE EXCEPTION 'urn-sql: % waited longer than lock_timeout (%) for a lock on %: nothing of that step was done', \
             {doing}, pg_catalog.current_setting('lock_timeout'), {t}\n    \
             USING ERRCODE = 'lock_not_available',\n          \
             HINT = 'A transaction holds rows or the table; run the re-key again when it is over.';\n",
            doing = literal(doing),
            t = self.table_literal,
        )
    }

    /// PL/pgSQL statements (for a block that declares `refused pg_catalog.text`) that refuse
    /// the re-key while a trigger on the table runs a function that neither a superuser nor
    /// the table's owner (the role the run took) owns: the re-key's updates and deletes would
    /// run it as that owner. Checked before the first change, and again before each batch
    /// and the move (a role with TRIGGER on the table may add one meanwhile).
    fn foreign_triggers(&self) -> String {
        format!(
            "SELECT pg_catalog.string_agg(pg_catalog.format('%s (trigger %I, owner %I)', p.oid::pg_catalog.regprocedure, g.tgname,\n  \
             (SELECT rolname FROM pg_catalog.pg_roles WHERE oid OPERATOR(pg_catalog.=) p.proowner)), ', ') INTO refused\n\
             FROM pg_catalog.pg_trigger AS g JOIN pg_catalog.pg_proc AS p ON p.oid OPERATOR(pg_catalog.=) g.tgfoid\n\
             WHERE g.tgrelid OPERATOR(pg_catalog.=) {oid} AND NOT g.tgisinternal\n  \
             AND NOT COALESCE((SELECT r.rolsuper OR r.rolname OPERATOR(pg_catalog.=) CURRENT_USER FROM pg_catalog.pg_roles AS r\n    \
             WHERE r.oid OPERATOR(pg_catalog.=) p.proowner), false);\n\
             IF refused IS NOT NULL THEN\n  \
             RAISE EXCEPTION 'urn-sql: the re-key of % would run the triggers %, whose functions are owned by a role that is neither a superuser nor the table''s owner: nothing more was changed', {t}, refused\n    \
             USING ERRCODE = 'insufficient_privilege';\n\
             END IF;\n",
            oid = self.oid(),
            t = self.table_literal,
        )
    }

    /// Whether the table has a valid unique index on `urn_key_index` of its key column.
    fn has_key_index(&self) -> String {
        format!(
            "EXISTS (SELECT FROM pg_catalog.pg_index AS i\n  \
             WHERE i.indrelid OPERATOR(pg_catalog.=) {oid} AND i.indisunique AND i.indisvalid AND i.indnatts OPERATOR(pg_catalog.=) 1\n    \
             AND EXISTS (SELECT FROM pg_catalog.pg_depend AS d WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass\n      \
             AND d.objid OPERATOR(pg_catalog.=) i.indexrelid AND d.refobjid OPERATOR(pg_catalog.=) {oid}\n      \
             AND d.refobjsubid OPERATOR(pg_catalog.=) (SELECT attnum FROM pg_catalog.pg_attribute\n        \
             WHERE attrelid OPERATOR(pg_catalog.=) {oid} AND attname OPERATOR(pg_catalog.=) {k}))\n    \
             AND EXISTS (SELECT FROM pg_catalog.pg_depend AS f JOIN pg_catalog.pg_proc AS p ON p.oid OPERATOR(pg_catalog.=) f.refobjid\n      \
             WHERE f.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass AND f.objid OPERATOR(pg_catalog.=) i.indexrelid\n        \
             AND f.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND p.proname OPERATOR(pg_catalog.=) 'urn_key_index'))",
            oid = self.oid(),
            k = self.key_literal,
        )
    }

    /// The trigger function that writes the new key into `column`.
    fn trigger_function(&self, column: &str) -> String {
        format!(
            "CREATE OR REPLACE FUNCTION {schema}{trigger}() RETURNS trigger\n  \
             LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp\n\
             AS $key$\n\
             BEGIN\n  \
             NEW.{column} := {s}.{f}_inline(NEW.{urn});\n  \
             RETURN NEW;\n\
             END\n\
             $key$",
            schema = self.schema,
            trigger = self.trigger,
            s = self.s,
            f = self.to_function,
            urn = self.urn,
        )
    }

    /// The trigger function's signature as a literal (for `to_regprocedure`).
    fn trigger_function_literal(&self) -> String {
        literal(&format!("{}{}()", self.schema, self.trigger))
    }
}

/// `text` with every line indented by `by`.
fn indent(text: &str, by: &str) -> String {
    text.lines().map(|line| format!("{by}{line}\n")).collect()
}

/// The first step: the table is there, and the run takes its owner's role (saving the
/// session's role and `lock_timeout` for [`RESTORE`], and bounding `lock_timeout`).
fn runner_step(table: &UrnTable, n: &Names) -> String {
    // A table named without a schema is `public`'s: the re-key goes ahead only if that is the
    // one relation of the name, and the runner's (a co-tenant's `public.items` would otherwise
    // be re-keyed, and her triggers run, as a superuser who meant another).
    let unqualified = if table.schema_name().is_none() {
        format!(
            "  IF (SELECT pg_catalog.count(*) FROM pg_catalog.pg_class AS c\n      \
             JOIN pg_catalog.pg_namespace AS ns ON ns.oid OPERATOR(pg_catalog.=) c.relnamespace\n      \
             WHERE c.relname OPERATOR(pg_catalog.=) {bare} AND c.relkind OPERATOR(pg_catalog.=) ANY ('{{r,p,v,m,f}}')\n        \
             AND pg_catalog.left(ns.nspname, 3) OPERATOR(pg_catalog.<>) 'pg_'\n        \
             AND ns.nspname OPERATOR(pg_catalog.<>) 'information_schema') OPERATOR(pg_catalog.<>) 1\n    \
             OR (SELECT c.relowner FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) {oid})\n      \
             OPERATOR(pg_catalog.<>) (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN\n    \
             RAISE EXCEPTION 'urn-sql: the table was named without its schema, and % is not the only relation named so or not owned by %: nothing was changed', {t}, CURRENT_USER\n      \
             USING ERRCODE = 'insufficient_privilege', HINT = 'Name the table with its schema (schema.table).';\n  \
             END IF;\n",
            bare = literal(table.bare_name()),
            oid = n.oid(),
            t = n.table_literal,
        )
    } else {
        String::new()
    };
    format!(
        "DO $rekey$\n\
         DECLARE\n  \
         owner pg_catalog.name;\n  \
         bound pg_catalog.int8;\n\
         BEGIN\n  \
         PERFORM pg_catalog.set_config('urn_sql.rekey_role', CASE WHEN CURRENT_USER OPERATOR(pg_catalog.=) SESSION_USER\n    \
         THEN 'none' ELSE CURRENT_USER::pg_catalog.text END, false);\n  \
         PERFORM pg_catalog.set_config('urn_sql.rekey_lock_timeout', pg_catalog.current_setting('lock_timeout'), false);\n  \
         SELECT s.setting::pg_catalog.int8 INTO bound FROM pg_catalog.pg_settings AS s\n  \
         WHERE s.name OPERATOR(pg_catalog.=) 'lock_timeout';\n  \
         IF bound OPERATOR(pg_catalog.=) 0 OR bound OPERATOR(pg_catalog.>) {LOCK_BOUND_MS} THEN\n    \
         PERFORM pg_catalog.set_config('lock_timeout', '{LOCK_BOUND_MS}ms', false);\n  \
         END IF;\n  \
         IF {oid} IS NULL THEN\n    \
         RAISE EXCEPTION 'urn-sql: no table %', {t} USING ERRCODE = 'undefined_table';\n  \
         END IF;\n\
         {unqualified}  \
         SELECT r.rolname INTO owner FROM pg_catalog.pg_class AS c\n  \
         JOIN pg_catalog.pg_roles AS r ON r.oid OPERATOR(pg_catalog.=) c.relowner\n  \
         WHERE c.oid OPERATOR(pg_catalog.=) {oid};\n  \
         IF owner OPERATOR(pg_catalog.<>) CURRENT_USER THEN\n    \
         IF NOT pg_catalog.pg_has_role(SESSION_USER, owner, 'MEMBER') THEN\n      \
         RAISE EXCEPTION 'urn-sql: % is re-keyed as its owner, %, which % cannot become: nothing was changed', {t}, owner, SESSION_USER\n        \
         USING ERRCODE = 'insufficient_privilege', HINT = 'Run the re-key as the table''s owner.';\n    \
         END IF;\n    \
         -- The whole run as the owner: nothing it runs runs as a superuser.\n    \
         PERFORM pg_catalog.set_config('role', owner, false);\n  \
         END IF;\n\
         END\n$rekey$",
        oid = n.oid(),
        t = n.table_literal,
    )
}

/// The second step: what the re-key will change and bind, checked before anything changes.
fn table_step(table: &UrnTable, to: KeyRules, n: &Names) -> String {
    let owner_of_index = format!(
        "{schema}{index}",
        schema = n.schema,
        index = n.new_index_bare
    );
    // urn-sql's functions the trigger, the CHECK and the index bind (the new rules'), checked
    // as the DDL checks them: a co-tenant's `public.urn_key_v2` must never be bound.
    let bound = table.clone().with_key_rules(to).map_or_else(
        |_| String::new(),
        |t| {
            super::owner_check(
                &t,
                false,
                "urn-sql: not re-keying table %: it would bind %, which are missing or owned by a \
                 role that is not a superuser, the table's owner or the owner of their schema",
                "Name the schema urn-sql is installed in (UrnTable with_urn_schema in Rust, urn \
                 sql --urn-schema).",
            )
        },
    );
    format!(
        "DO $rekey$\n\
         DECLARE\n  \
         refused pg_catalog.text;\n\
         BEGIN\n  \
         IF (SELECT relkind FROM pg_catalog.pg_class WHERE oid OPERATOR(pg_catalog.=) {oid}) OPERATOR(pg_catalog.=) 'p' THEN\n    \
         RAISE EXCEPTION 'urn-sql: % is partitioned: make a new table keyed by the new rules and copy the rows', {t}\n      \
         USING ERRCODE = 'feature_not_supported';\n  \
         END IF;\n  \
         -- A child table's rows are the table's rows to a DELETE, but its columns are not.\n  \
         IF EXISTS (SELECT FROM pg_catalog.pg_inherits WHERE inhparent OPERATOR(pg_catalog.=) {oid}) THEN\n    \
         RAISE EXCEPTION 'urn-sql: % has inheritance children, whose rows the re-key would move without their own columns: nothing was changed', {t}\n      \
         USING ERRCODE = 'feature_not_supported';\n  \
         END IF;\n  \
         IF NOT {pending} THEN\n    \
         IF {has_key} AND NOT {has_new} THEN\n      \
         RAISE NOTICE 'urn-sql: % is not keyed by {from_fn}: re-keyed already, nothing to do', {t};\n      \
         RETURN;\n    \
         END IF;\n    \
         RAISE EXCEPTION 'urn-sql: %.% is not a key column generated by {from_fn}', {t}, {k}\n      \
         USING ERRCODE = 'wrong_object_type';\n  \
         END IF;\n  \
         -- What depends on the key column, which the switch drops: only its unique index may.\n  \
         SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ') INTO refused\n  \
         FROM pg_catalog.pg_depend AS d\n  \
         WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass\n    \
         AND d.refobjid OPERATOR(pg_catalog.=) {oid}\n    \
         AND d.refobjsubid OPERATOR(pg_catalog.=) (SELECT attnum FROM pg_catalog.pg_attribute\n      \
         WHERE attrelid OPERATOR(pg_catalog.=) {oid} AND attname OPERATOR(pg_catalog.=) {k})\n    \
         AND d.classid OPERATOR(pg_catalog.<>) 'pg_catalog.pg_attrdef'::pg_catalog.regclass\n    \
         AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i\n      \
         WHERE i.indexrelid OPERATOR(pg_catalog.=) d.objid AND i.indrelid OPERATOR(pg_catalog.=) {oid}\n        \
         AND i.indisunique AND i.indnatts OPERATOR(pg_catalog.=) 1\n        \
         AND EXISTS (SELECT FROM pg_catalog.pg_depend AS f JOIN pg_catalog.pg_proc AS p ON p.oid OPERATOR(pg_catalog.=) f.refobjid\n          \
         WHERE f.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass AND f.objid OPERATOR(pg_catalog.=) i.indexrelid\n            \
         AND f.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass AND p.proname OPERATOR(pg_catalog.=) 'urn_key_index'));\n  \
         IF refused IS NOT NULL THEN\n    \
         RAISE EXCEPTION 'urn-sql: % depend on the key column %.%, which the re-key replaces: nothing was changed', refused, {t}, {k}\n      \
         USING ERRCODE = 'dependent_objects_still_exist',\n            \
         HINT = 'Drop them, run the re-key, and make them again on the new key column.';\n  \
         END IF;\n\
         {bound}  \
         {triggers}  \
         IF pg_catalog.to_regprocedure({function}) IS NOT NULL\n    \
         AND (SELECT p.proowner FROM pg_catalog.pg_proc AS p WHERE p.oid OPERATOR(pg_catalog.=) pg_catalog.to_regprocedure({function}))\n      \
         OPERATOR(pg_catalog.<>) (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN\n    \
         RAISE EXCEPTION 'urn-sql: the function % that the re-key makes exists and is not owned by %: nothing was changed', {function}, CURRENT_USER\n      \
         USING ERRCODE = 'duplicate_function', HINT = 'Rename or drop it (the re-key makes its own).';\n  \
         END IF;\n  \
         IF pg_catalog.to_regclass({index}) IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i\n    \
         WHERE i.indexrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({index}) AND i.indrelid OPERATOR(pg_catalog.=) {oid}) THEN\n    \
         RAISE EXCEPTION 'urn-sql: % exists and is no index of %: the re-key names its new index so; nothing was changed', {index}, {t}\n      \
         USING ERRCODE = 'duplicate_table', HINT = 'Rename or drop it.';\n  \
         END IF;\n\
         END\n$rekey$",
        oid = n.oid(),
        t = n.table_literal,
        k = n.key_literal,
        pending = n.pending(),
        has_key = n.has_column(&n.key_literal),
        has_new = n.has_column(&n.new_literal),
        from_fn = n.from_function,
        bound = bound,
        triggers = indent(&n.foreign_triggers(), "  ").trim_start(),
        function = n.trigger_function_literal(),
        index = literal(&owner_of_index),
    )
}

/// The keep-first step: the rows the collisions name, locked, and those that still collide
/// moved whole to the side table, unless another table references them; the count kept for
/// [`Rows::Moved`].
fn keep_first_step(n: &Names) -> String {
    let side_literal = literal(&n.side);
    let side_text = literal(&n.side.replace('"', ""));
    let refused_side = |why: &str| literal(&foreign_side_table(&n.side.replace('"', ""), why));
    format!(
        "DO $rekey$\n\
         DECLARE\n  \
         ids pg_catalog.int8[];\n  \
         columns pg_catalog.text;\n  \
         refused pg_catalog.text;\n  \
         fkey record;\n  \
         referencing pg_catalog.bool;\n  \
         moved pg_catalog.int8;\n\
         BEGIN\n  \
         -- Dynamic statements below resolve names in pg_catalog only; a row-level security\n  \
         -- policy that would hide a referencing row fails the check instead.\n  \
         PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);\n  \
         PERFORM pg_catalog.set_config('row_security', 'off', true);\n  \
         IF pg_catalog.to_regclass('pg_temp.urn_sql_rekey_moved') IS NULL THEN\n    \
         CREATE TEMPORARY TABLE urn_sql_rekey_moved (n pg_catalog.int8);\n  \
         END IF;\n  \
         TRUNCATE pg_temp.urn_sql_rekey_moved;\n  \
         INSERT INTO pg_temp.urn_sql_rekey_moved VALUES (0);\n  \
         SELECT pg_catalog.array_agg(i) INTO ids FROM pg_temp.urn_sql_rekey_collisions AS c, pg_catalog.unnest(c.ids) AS i;\n  \
         IF ids IS NULL THEN\n    \
         RETURN;\n  \
         END IF;\n  \
         {triggers}  \
         -- The rows the collisions name, locked: a writer may have changed or deleted some since\n  \
         -- they were listed, and only rows that still collide move.\n  \
         PERFORM FROM {t} WHERE {id} OPERATOR(pg_catalog.=) ANY (ids) FOR UPDATE;\n  \
         IF pg_catalog.to_regclass('pg_temp.urn_sql_rekey_moving') IS NULL THEN\n    \
         CREATE TEMPORARY TABLE urn_sql_rekey_moving (id pg_catalog.int8, kept pg_catalog.int8, key pg_catalog.text);\n  \
         END IF;\n  \
         TRUNCATE pg_temp.urn_sql_rekey_moving;\n  \
         INSERT INTO pg_temp.urn_sql_rekey_moving\n    \
         SELECT r.id, g.kept, g.key FROM\n      \
         (SELECT {id} AS id, {s}.{to_fn}({urn}) AS key FROM {t} WHERE {id} OPERATOR(pg_catalog.=) ANY (ids)) AS r\n    \
         JOIN (SELECT {s}.{to_fn}({urn}) AS key, pg_catalog.min({id}) AS kept FROM {t}\n      \
         WHERE {id} OPERATOR(pg_catalog.=) ANY (ids) GROUP BY 1 HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1) AS g\n    \
         ON g.key OPERATOR(pg_catalog.=) r.key WHERE r.id OPERATOR(pg_catalog.<>) g.kept;\n  \
         IF NOT EXISTS (SELECT FROM pg_temp.urn_sql_rekey_moving) THEN\n    \
         RETURN;\n  \
         END IF;\n  \
         -- Every foreign key that references the table, with the operators it compares with:\n  \
         -- a moved row that one references stops the move (its ON DELETE would delete or\n  \
         -- change the rows that reference it).\n  \
         FOR fkey IN SELECT c.conname, c.conrelid::pg_catalog.regclass AS child,\n      \
         (SELECT pg_catalog.string_agg(pg_catalog.format('p.%I OPERATOR(%I.%s) c.%I', pa.attname, ons.nspname, o.oprname, ca.attname),\n        \
         ' AND ' ORDER BY k.i)\n       \
         FROM ROWS FROM (pg_catalog.unnest(c.confkey), pg_catalog.unnest(c.conkey), pg_catalog.unnest(c.conpfeqop))\n         WITH ORDINALITY AS k(pk, fk, op, i)\n       \
         JOIN pg_catalog.pg_attribute AS pa ON pa.attrelid OPERATOR(pg_catalog.=) c.confrelid AND pa.attnum OPERATOR(pg_catalog.=) k.pk\n       \
         JOIN pg_catalog.pg_attribute AS ca ON ca.attrelid OPERATOR(pg_catalog.=) c.conrelid AND ca.attnum OPERATOR(pg_catalog.=) k.fk\n       \
         JOIN pg_catalog.pg_operator AS o ON o.oid OPERATOR(pg_catalog.=) k.op\n       \
         JOIN pg_catalog.pg_namespace AS ons ON ons.oid OPERATOR(pg_catalog.=) o.oprnamespace) AS matches,\n      \
         -- Whether the key compares without running another role's code: each operator's\n      \
         -- function a superuser's, each referencing column of its right operand's type (or\n      \
         -- a domain over it, or binary-coercible to it: no cast function).\n      \
         (SELECT pg_catalog.bool_and(COALESCE((SELECT r.rolsuper FROM pg_catalog.pg_proc AS f\n          \
         JOIN pg_catalog.pg_roles AS r ON r.oid OPERATOR(pg_catalog.=) f.proowner WHERE f.oid OPERATOR(pg_catalog.=) o.oprcode), false)\n        \
         AND (b.base OPERATOR(pg_catalog.=) o.oprright OR EXISTS (SELECT FROM pg_catalog.pg_cast AS x\n          \
         WHERE x.castsource OPERATOR(pg_catalog.=) b.base AND x.casttarget OPERATOR(pg_catalog.=) o.oprright\n            \
         AND x.castmethod OPERATOR(pg_catalog.=) 'b')))\n       \
         FROM ROWS FROM (pg_catalog.unnest(c.conkey), pg_catalog.unnest(c.conpfeqop)) AS k(fk, op)\n       \
         JOIN pg_catalog.pg_attribute AS ca ON ca.attrelid OPERATOR(pg_catalog.=) c.conrelid AND ca.attnum OPERATOR(pg_catalog.=) k.fk\n       \
         JOIN pg_catalog.pg_operator AS o ON o.oid OPERATOR(pg_catalog.=) k.op\n       \
         CROSS JOIN LATERAL (SELECT CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'd' THEN t.typbasetype ELSE t.oid END AS base\n         \
         FROM pg_catalog.pg_type AS t WHERE t.oid OPERATOR(pg_catalog.=) ca.atttypid) AS b) AS plain\n    \
         FROM pg_catalog.pg_constraint AS c\n    \
         WHERE c.contype OPERATOR(pg_catalog.=) 'f' AND c.confrelid OPERATOR(pg_catalog.=) {oid}\n      \
         AND c.conparentid OPERATOR(pg_catalog.=) 0\n  \
         LOOP\n    \
         IF NOT COALESCE(fkey.plain, false) THEN\n      \
         refused := pg_catalog.concat_ws(', ', refused, pg_catalog.format('%I of %s (it compares through a cast or operator of another role)',\n        \
         fkey.conname, fkey.child));\n      \
         CONTINUE;\n    \
         END IF;\n    \
         BEGIN\n      \
         EXECUTE pg_catalog.format('SELECT EXISTS (SELECT FROM {t} AS p JOIN %s AS c ON %s '\n        \
         'WHERE p.{id} OPERATOR(pg_catalog.=) ANY (SELECT m.id FROM pg_temp.urn_sql_rekey_moving AS m))', fkey.child, fkey.matches)\n        \
         INTO referencing;\n    \
         EXCEPTION WHEN insufficient_privilege THEN\n      \
         RAISE EXCEPTION 'urn-sql: the re-key cannot read % to see whether its foreign key % references rows keep-first would move (%): nothing was moved or changed',\n        \
         fkey.child, fkey.conname, SQLERRM USING ERRCODE = 'insufficient_privilege';\n    \
         END;\n    \
         IF referencing THEN\n      \
         refused := pg_catalog.concat_ws(', ', refused, pg_catalog.format('%I of %s', fkey.conname, fkey.child));\n    \
         END IF;\n  \
         END LOOP;\n  \
         IF refused IS NOT NULL THEN\n    \
         RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation', MESSAGE = pg_catalog.replace({referenced}, '@', refused);\n  \
         END IF;\n  \
         -- The side table: made new, or one the table's owner made (an earlier run's), whole.\n  \
         IF pg_catalog.to_regclass({sl}) IS NULL THEN\n    \
         CREATE TABLE {side} AS TABLE {t} WITH NO DATA;\n    \
         ALTER TABLE {side} ADD COLUMN urn_sql_kept_id pg_catalog.int8, ADD COLUMN urn_sql_new_key pg_catalog.text;\n  \
         ELSIF (SELECT c.relkind OPERATOR(pg_catalog.<>) 'r' OR c.relrowsecurity OR c.relhastriggers OR c.relhasrules\n      \
         OR c.relowner OPERATOR(pg_catalog.<>) (SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER)\n      \
         FROM pg_catalog.pg_class AS c WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({sl})) THEN\n    \
         RAISE EXCEPTION USING ERRCODE = 'duplicate_table', MESSAGE = {not_ours};\n  \
         ELSIF EXISTS (SELECT FROM pg_catalog.pg_attribute AS a\n      \
         WHERE a.attrelid OPERATOR(pg_catalog.=) {oid} AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped\n        \
         AND a.attname OPERATOR(pg_catalog.<>) {new_literal}\n        \
         AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute AS b WHERE b.attrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({sl})\n          \
         AND b.attname OPERATOR(pg_catalog.=) a.attname AND b.atttypid OPERATOR(pg_catalog.=) a.atttypid AND NOT b.attisdropped))\n    \
         OR (SELECT pg_catalog.count(*) FROM pg_catalog.pg_attribute AS b WHERE b.attrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({sl})\n      \
         AND NOT b.attisdropped AND ((b.attname, b.atttypid) IN (('urn_sql_kept_id', 'pg_catalog.int8'::pg_catalog.regtype),\n        \
         ('urn_sql_new_key', 'pg_catalog.text'::pg_catalog.regtype)))) OPERATOR(pg_catalog.<>) 2 THEN\n    \
         RAISE EXCEPTION USING ERRCODE = 'duplicate_table', MESSAGE = {incomplete};\n  \
         END IF;\n  \
         SELECT pg_catalog.string_agg(pg_catalog.quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO columns\n  \
         FROM pg_catalog.pg_attribute AS a\n  \
         WHERE a.attrelid OPERATOR(pg_catalog.=) {oid} AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped\n    \
         AND a.attname OPERATOR(pg_catalog.<>) {new_literal};\n  \
         -- One statement deletes and saves: the count is of rows both deleted and kept.\n  \
         EXECUTE pg_catalog.format('WITH moved AS (DELETE FROM {t} AS t USING pg_temp.urn_sql_rekey_moving AS m '\n    \
         'WHERE t.{id} OPERATOR(pg_catalog.=) m.id RETURNING t.*, m.kept AS urn_sql_kept_id, m.key AS urn_sql_new_key) '\n    \
         'INSERT INTO {side} (%s, urn_sql_kept_id, urn_sql_new_key) SELECT %s, urn_sql_kept_id, urn_sql_new_key FROM moved',\n    \
         columns, columns);\n  \
         GET DIAGNOSTICS moved = ROW_COUNT;\n  \
         UPDATE pg_temp.urn_sql_rekey_moved SET n = moved;\n  \
         RAISE NOTICE 'urn-sql: % rows moved to %', moved, {side_text};\n\
         {handler}\
         END\n$rekey$",
        t = n.table,
        oid = n.oid(),
        id = n.id,
        urn = n.urn,
        s = n.s,
        to_fn = n.to_function,
        side = n.side,
        sl = side_literal,
        new_literal = n.new_literal,
        referenced = literal(&referenced(&n.table.replace('"', ""), "@")),
        not_ours = refused_side(
            "is not a plain table of the table's owner without triggers, rules or row security"
        ),
        incomplete = refused_side(
            "lacks a column of the table (or urn_sql_kept_id, urn_sql_new_key) that the moved rows need"
        ),
        side_text = side_text,
        handler = n.lock_handler("keep-first, locking the rows it moves"),
        triggers = indent(&n.foreign_triggers(), "  ").trim_start(),
    )
}

/// The steps that move `table` from `from` to `to`.
pub(crate) fn steps(
    table: &UrnTable,
    from: KeyRules,
    to: KeyRules,
    on_collision: OnCollision,
) -> Result<Vec<Step>, RekeyError> {
    if table.key_index_column().is_some() {
        return Err(crate::rekey::partitioned(table));
    }
    let n = Names::of(table, from, to);
    let pending = n.pending();
    let mut steps = vec![
        Step::always(
            "the runner: the table is there, and the run takes its owner's role",
            runner_step(table, &n),
        ),
        Step::always(
            "the table: not partitioned, keyed by the old rules (or re-keyed already), its key \
             column free to replace, and what the re-key binds and makes trusted",
            table_step(table, to, &n),
        ),
    ];
    // Collisions: collected once (one pass computing the new keys), listed, then refused or
    // moved.
    steps.push(Step::when(
        what::COLLECT,
        pending.clone(),
        format!(
            "DO $rekey$\n\
             BEGIN\n  \
             IF pg_catalog.to_regclass('pg_temp.urn_sql_rekey_collisions') IS NULL THEN\n    \
             CREATE TEMPORARY TABLE urn_sql_rekey_collisions\n      \
             (key pg_catalog.text, ids pg_catalog.int8[], urns pg_catalog.text[]);\n  \
             END IF;\n  \
             TRUNCATE pg_temp.urn_sql_rekey_collisions;\n  \
             INSERT INTO pg_temp.urn_sql_rekey_collisions\n    \
             SELECT {s}.{to_fn}({urn}), pg_catalog.array_agg({id} ORDER BY {id}),\n           \
             pg_catalog.array_agg({urn}::pg_catalog.text ORDER BY {id})\n    \
             FROM {t} GROUP BY 1 HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 1;\n\
             {handler}\
             END\n$rekey$",
            s = n.s,
            to_fn = n.to_function,
            urn = n.urn,
            id = n.id,
            t = n.table,
            handler = n.lock_handler("collecting the collisions"),
        ),
    ));
    steps.push(
        Step::when(
            what::LIST,
            pending.clone(),
            "SELECT key AS new_key, pg_catalog.array_to_string(ids, ' ') AS ids, \
             pg_catalog.array_to_string(urns, ' ') AS urns \
             FROM pg_temp.urn_sql_rekey_collisions ORDER BY ids[1]"
                .to_owned(),
        )
        .returning(Rows::Collisions),
    );
    match on_collision {
        OnCollision::Refuse => steps.push(Step::when(
            what::REFUSE,
            pending.clone(),
            format!(
                "DO $rekey$\n\
                 BEGIN\n  \
                 IF EXISTS (SELECT FROM pg_temp.urn_sql_rekey_collisions) THEN\n    \
                 RAISE EXCEPTION USING ERRCODE = 'unique_violation', MESSAGE = {message},\n      \
                 DETAIL = pg_catalog.format('%s groups of rows; keep-first keeps the first of each and moves the others to {side}',\n        \
                 (SELECT pg_catalog.count(*) FROM pg_temp.urn_sql_rekey_collisions));\n  \
                 END IF;\n\
                 END\n$rekey$",
                message = literal(&refusal(&n.table, from, to)),
                side = n.side.replace(['"', '\''], ""),
            ),
        )),
        OnCollision::KeepFirst => {
            steps.push(Step::when(
                what::KEEP_FIRST,
                pending.clone(),
                keep_first_step(&n),
            ));
            steps.push(
                Step::when(
                    what::MOVED,
                    pending.clone(),
                    "SELECT n AS moved FROM pg_temp.urn_sql_rekey_moved".to_owned(),
                )
                .returning(Rows::Moved),
            );
        }
    }
    steps.push(Step::when(
        "the new key column (metadata only)",
        format!("{pending} AND NOT {}", n.has_column(&n.new_literal)),
        n.with_lock(&format!(
            "ALTER TABLE {} ADD COLUMN {} pg_catalog.text COLLATE pg_catalog.\"C\";",
            n.table, n.new
        )),
    ));
    steps.push(Step::when(
        "the trigger function that fills it (the second step checked that no other role owns its name)",
        pending.clone(),
        n.trigger_function(&n.new),
    ));
    steps.push(Step::when(
        "the trigger",
        pending.clone(),
        n.with_lock(&format!(
            "CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT OR UPDATE ON {t}\n  \
             FOR EACH ROW EXECUTE FUNCTION {schema}{trigger}();",
            trigger = n.trigger,
            t = n.table,
            schema = n.schema,
        )),
    ));
    steps.push(Step::when(
        "the stored rows' new keys, in batches of 10,000 in id order (each committed)",
        pending.clone(),
        format!(
            "DO $rekey$\n\
             DECLARE\n  \
             prev pg_catalog.int8;\n  \
             upto pg_catalog.int8;\n  \
             refused pg_catalog.text;\n\
             BEGIN\n  \
             LOOP\n    \
             {triggers}    \
             BEGIN\n      \
             IF prev IS NULL THEN\n        \
             SELECT pg_catalog.max(b.id) INTO upto FROM (SELECT {id} AS id FROM {t} ORDER BY {id} LIMIT {BATCH}) AS b;\n        \
             EXIT WHEN upto IS NULL;\n        \
             UPDATE {t} SET {new} = {s}.{f}_inline({urn})\n        \
             WHERE {id} OPERATOR(pg_catalog.<=) upto AND {new} IS NULL;\n      \
             ELSE\n        \
             SELECT pg_catalog.max(b.id) INTO upto FROM (SELECT {id} AS id FROM {t}\n          \
             WHERE {id} OPERATOR(pg_catalog.>) prev ORDER BY {id} LIMIT {BATCH}) AS b;\n        \
             EXIT WHEN upto IS NULL;\n        \
             UPDATE {t} SET {new} = {s}.{f}_inline({urn})\n        \
             WHERE {id} OPERATOR(pg_catalog.>) prev AND {id} OPERATOR(pg_catalog.<=) upto AND {new} IS NULL;\n      \
             END IF;\n    \
             {handler}    \
             END;\n    \
             COMMIT;\n    \
             {PIN}\n    \
             prev := upto;\n  \
             END LOOP;\n\
             END\n$rekey$",
            id = n.id,
            t = n.table,
            new = n.new,
            s = n.s,
            f = n.to_function,
            urn = n.urn,
            handler = indent(&n.lock_handler("the backfill of the new key"), "    ").trim_start(),
            triggers = indent(&n.foreign_triggers(), "    ").trim_start(),
        ),
    ));
    let index_literal = literal(&n.new_index);
    let index_failure = |doing: &str| {
        format!(
            "{doing} the index {} of {} (its wait for other transactions is bounded by lock_timeout)",
            n.new_index.replace('"', ""),
            n.table.replace('"', "")
        )
    };
    steps.push(
        Step::when(
            "an invalid index a stopped run left, dropped",
            format!(
                "{pending} AND EXISTS (SELECT FROM pg_catalog.pg_index \
                 WHERE indexrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({index_literal}) \
                 AND indrelid OPERATOR(pg_catalog.=) {} AND NOT indisvalid)",
                n.oid()
            ),
            format!("DROP INDEX CONCURRENTLY {}", n.new_index),
        )
        .failing_as(index_failure("dropping")),
    );
    steps.push(
        Step::when(
            "the unique index on the new key (built concurrently)",
            format!(
                "{pending} AND NOT EXISTS (SELECT FROM pg_catalog.pg_index \
                 WHERE indexrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({index_literal}) \
                 AND indrelid OPERATOR(pg_catalog.=) {})",
                n.oid()
            ),
            format!(
                "CREATE UNIQUE INDEX CONCURRENTLY {} ON {} (({}.urn_key_index({})) COLLATE pg_catalog.\"C\")",
                n.new_index_bare, n.table, n.s, n.new
            ),
        )
        .failing_as(index_failure("building")),
    );
    steps.push(Step::when(
        "the CHECK that holds the new key to the key function (NOT VALID: no scan)",
        format!("{pending} AND NOT {}", n.constraint("")),
        n.with_lock(&format!(
            "ALTER TABLE {t} ADD CONSTRAINT {c}\n  \
             CHECK ({new} IS NOT NULL AND {new} OPERATOR(pg_catalog.=) {s}.{f}_inline({urn})) NOT VALID;",
            t = n.table,
            c = n.check,
            new = n.new,
            s = n.s,
            f = n.to_function,
            urn = n.urn,
        )),
    ));
    steps.push(Step::when(
        "the CHECK validated (a scan that blocks no writer)",
        format!("{pending} AND NOT {}", n.constraint(" AND convalidated")),
        format!(
            "DO $rekey$\nBEGIN\n  ALTER TABLE {} VALIDATE CONSTRAINT {};\n{}END\n$rekey$",
            n.table,
            n.check,
            n.lock_handler("validating the CHECK of the new key")
        ),
    ));
    let old = format!("\"{}_{}_retired\"", table.bare_key(), from.name());
    steps.push(Step::when(
        "the switch: the new key takes the key column's name and index name, the old one goes",
        pending.clone(),
        n.with_lock(&format!(
            "IF NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i \
             WHERE i.indexrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({index_literal}) \
             AND i.indrelid OPERATOR(pg_catalog.=) {oid} AND i.indisunique AND i.indisvalid) THEN\n  \
             RAISE EXCEPTION 'urn-sql: % has no valid unique index %: not switching', {tl}, {index_literal}\n    \
             USING ERRCODE = 'object_not_in_prerequisite_state';\n\
             END IF;\n\
             ALTER TABLE {t} RENAME COLUMN {key} TO {old};\n\
             ALTER TABLE {t} RENAME COLUMN {new} TO {key};\n\
             ALTER TABLE {t} ALTER COLUMN {key} SET NOT NULL;\n\
             {function};\n\
             ALTER TABLE {t} DROP COLUMN {old};\n\
             ALTER INDEX {new_index} RENAME TO {index};",
            t = n.table,
            key = n.key,
            new = n.new,
            function = n.trigger_function(&n.key),
            new_index = n.new_index,
            index = n.index,
            oid = n.oid(),
            tl = n.table_literal,
        )),
    ));
    steps.push(
        Step::always(what::DONE, format!("SELECT {} AS switched", n.switched()))
            .returning(Rows::Switched),
    );
    // Every DO block resolves names in pg_catalog only, whatever the session's search_path:
    // a name or operator this code leaves unqualified cannot be another role's.
    for step in &mut steps {
        if let Some(body) = step.sql.strip_prefix("DO $rekey$\n") {
            step.sql = format!("DO $rekey$\n{}", pinned(body));
        }
    }
    Ok(steps)
}

/// The statement that sets the transaction's search_path to `pg_catalog, pg_temp`.
const PIN: &str = "PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);";

/// A `DO` block's body with [`PIN`] first (after its declarations).
fn pinned(body: &str) -> String {
    match body.split_once("BEGIN\n") {
        Some((declarations, rest)) => format!("{declarations}BEGIN\n  {PIN}\n{rest}"),
        None => body.to_owned(),
    }
}

/// The steps as a script for `psql -v ON_ERROR_STOP=1` (not `--single-transaction`: the index
/// is built concurrently, and the batches commit): each conditional step behind `\if`; a step
/// whose errors PostgreSQL reports without the table's name wrapped in one that has it; at the
/// end, the session's role and `lock_timeout` put back.
pub(crate) fn script(steps: &[Step]) -> String {
    let mut out = String::from(
        "-- urn-sql: re-keying a table online (see urn-sql's docs/rekey.md). Run it with\n\
         -- psql -v ON_ERROR_STOP=1, as the table's owner or a role that may become it (the run\n\
         -- takes that role); it can run again after a stop.\n\
         \\set ON_ERROR_STOP on\n",
    );
    for step in steps {
        out.push_str(&format!("\n-- {}\n", step.what));
        let statement = match &step.failure {
            None => format!("{};\n", step.sql),
            // psql keeps the error's text; the DO statement raises it again with the step's.
            Some(failure) => format!(
                "\\set ON_ERROR_STOP off\n{};\n\\set ON_ERROR_STOP on\n\\if :ERROR\n\
                 SELECT pg_catalog.set_config('urn_sql.rekey_error', :'LAST_ERROR_MESSAGE', false) AS urn_sql_rekey_error,\n  \
                 pg_catalog.set_config('urn_sql.rekey_sqlstate', :'LAST_ERROR_SQLSTATE', false) AS urn_sql_rekey_sqlstate \\gset\n\
                 DO $rekey$\n\
                 BEGIN\n  \
                 RAISE EXCEPTION 'urn-sql: {}: %', pg_catalog.current_setting('urn_sql.rekey_error')\n    \
                 USING ERRCODE = pg_catalog.current_setting('urn_sql.rekey_sqlstate');\n\
                 END\n$rekey$;\n\\endif\n",
                step.sql,
                failure.replace('\'', "''").replace('%', "%%"),
            ),
        };
        match &step.when {
            Some(when) => out.push_str(&format!(
                "SELECT ({when}) AS urn_sql_rekey_step \\gset\n\\if :urn_sql_rekey_step\n{statement}\\endif\n"
            )),
            None => out.push_str(&statement),
        }
    }
    out.push_str(&format!(
        "\n-- the session's role and lock_timeout, as they were\n{RESTORE_SQL} \\gset urn_sql_rekey_restore_\n"
    ));
    out
}
