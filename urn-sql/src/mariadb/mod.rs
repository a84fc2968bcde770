//! The MariaDB side, all of its SQL: the stored routines `urn_key_v2`, `urn_key_v1`, `urn_check`,
//! `urn_valid` and `urn_refuse` (for ad-hoc use; the same SQL ships as a diesel-style migration in
//! `migrations/mariadb/`), the keyed table, whose key is a generated column, and the insert-or-get
//! and lookup statements.
//!
//! Why a generated column written in built-ins: MariaDB refuses a stored function in a
//! generated column, an indexed virtual column and a CHECK (ERROR 1901), and has no expression
//! index; and a routine compiles its regular expressions again on every call, which made a
//! trigger calling `urn_key_v1` many times as slow as `TEXT UNIQUE`. The key as one expression
//! of built-in functions ([`key_expression`]) is compiled once per opened table; no client can
//! write a generated column (ERROR 1906); MariaDB refuses a cascading foreign key on a column a
//! stored generated column reads (ERROR 1901), so no cascade can leave a key stale. The
//! expression is `NULL` for an invalid URN (or a NULL one), and then:
//! - the table's `BEFORE INSERT` and `BEFORE UPDATE` triggers raise the parser's message
//!   (SQLSTATE 45000), or MariaDB's own for a NULL (`Column 'urn' cannot be null`, 1048),
//!   whatever `IGNORE` or `sql_mode` say. The check is written into the triggers, so a table
//!   calls no routine: nothing another user defines can run in its writers' triggers, and
//!   the table works without the install;
//! - a CHECK that the key is not NULL holds what the triggers cannot see: a value another
//!   trigger sets after them, a NULL MariaDB turns into `''` after them (`INSERT IGNORE`, a
//!   non-strict `sql_mode`, `LOAD DATA` with `\N`).
//!
//! The table and its triggers are made by one compound statement: it builds the table under
//! another name (`urn_sql_new_<table>`), partitioned so that it can hold no row (LIST on the
//! id, whose only value is NULL: no session setting lets a row into no partition), makes the
//! triggers on it, then adds the key's UNIQUE and removes the partitioning in one `ALTER
//! TABLE`, and only then renames it (`RENAME TABLE` keeps the triggers). So no session, whatever
//! its grants and settings (`check_constraint_checks = 0` included), can put a row without its
//! key or its rules into the table or into what it is built as, and the table's name never
//! holds a table without them, whatever fails on the way (no TRIGGER privilege, a trigger name
//! another user took, a lock another session holds, an interrupt). It first drops any
//! `urn_sql_new_<table>` (which proves the DROP privilege a failed build needs, and clears
//! what an interrupted one left); on a failure it drops what it built (with
//! `foreign_key_checks` off) and raises the error that stopped it, even if that drop fails
//! too (what is left then holds no row). It refuses a name a temporary table of the session
//! holds (the probe needs the CREATE TEMPORARY TABLES privilege, which ALL grants), and it
//! parses the table, the triggers and the `ALTER` under [`SQL_MODE`] (`EXECUTE IMMEDIATE`),
//! so the session's `sql_mode` changes no key.
//!
//! MariaDB computes the stored generated columns of a multi-table `UPDATE` before the `BEFORE
//! UPDATE` triggers and not again after them; an `AFTER UPDATE` trigger refuses the row when
//! another trigger changed the URN there (the URN's own SHA-256 is generated with the key, and
//! compared with the URN as stored).
//!
//! A message raised by SIGNAL is utf8mb3 in MariaDB 10.11: a character above U+FFFF that the
//! parser names appears there as `\u{…}` (`urn_check` returns it as itself).
//!
//! Why a stored SHA-256 of the key: MariaDB's UNIQUE on a long text column (its hidden hash)
//! holds keys of any length but is never used to look one up; a `BINARY(32)` column generated
//! from the key, UNIQUE, is both, at any length up to the 64 KiB policy. Why binary
//! collations: the default `utf8mb4_general_ci` would make `urn:ex:ABC` and `urn:ex:abc` one
//! key, and PAD SPACE collations ignore trailing spaces; the URN is `utf8mb4_nopad_bin`, the
//! key `ascii_bin`.
//!
//! MySQL 8 is not covered: it has no `BEGIN NOT ATOMIC`, no `SET STATEMENT … FOR`, no
//! `INSERT … RETURNING` and no `nopad_bin` collations, and it cannot be installed where this
//! crate is tested. urn-sql's docs/mariadb.md says why.

mod expression;
pub(crate) mod rekey;

use urn_core::KeyRules;

use crate::protocol::{Conflict, Plan};
use crate::table::UrnTable;

/// Creates (or replaces with the same, so idempotent) the functions `urn_check(text)`,
/// `urn_valid(text)`, `urn_key_v2(text)`, `urn_key_v1(text)` and the procedure `urn_refuse(text)`
/// in the current database, refusing a routine of those names and kinds that another user defined.
/// For a client that sends several statements at once (sqlx, diesel's `batch_execute`);
/// [`client_sql`] makes the form for the `mariadb` command-line tool. Keyed tables do not need
/// them: their triggers hold the check.
pub const UP: &str = include_str!("../../migrations/mariadb/2026-11-24-000000_urn_types/up.sql");

/// What the clients' `install` does: [`UP`].
pub(crate) const INSTALL: crate::protocol::Install = crate::protocol::Install::Script(UP);

/// Drops what [`UP`] created.
pub const DOWN: &str =
    include_str!("../../migrations/mariadb/2026-11-24-000000_urn_types/down.sql");

/// The `sql_mode` every routine, trigger and keyed table of urn-sql is created with (a
/// routine keeps it): no `PIPES_AS_CONCAT`, `ANSI_QUOTES`, `NO_BACKSLASH_ESCAPES` or
/// `ORACLE`, whatever the session says.
pub const SQL_MODE: &str = "STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION";

/// The canonical key of `column` (a backticked column name, or any SQL expression) under
/// `rules` (a version: `KeyRules::V2`, `KeyRules::V1`) as one expression of MariaDB built-in
/// functions: `NULL` when the value is `NULL` or not a valid RFC 8141 URN of at most 65,536
/// bytes, otherwise exactly urn_core's `Urn::key_with(rules)`. A keyed table's `urn_key`
/// column is generated by it; use it for a generated key column of your own.
///
/// ```
/// use urn_sql::KeyRules;
/// let key = urn_sql::mariadb::key_expression("`urn`", KeyRules::CURRENT);
/// assert!(key.starts_with("CASE\n"));
/// assert!(key.contains("`urn` REGEXP '^(?-imsxU)[Uu][Rr][Nn]:"));
/// assert!(key.contains("WHEN 'doi'") && !urn_sql::mariadb::key_expression("`urn`", KeyRules::V1).contains("WHEN 'doi'"));
/// ```
pub fn key_expression(column: &str, rules: KeyRules) -> String {
    expression::key(column, rules, "")
}

/// `"name"` (urn-sql's quoting of a checked identifier, or a qualified `"schema"."name"`) in
/// MariaDB's quotes.
fn backtick(quoted: &str) -> String {
    quoted.replace('"', "`")
}

/// One trigger of a keyed table (made on the table named `on`), refusing an invalid or NULL URN on
/// `event` (`INSERT`, `UPDATE`) with the parser's message. It declares no variable: MariaDB would
/// make them anew on every row (see [`expression::Variables`]).
fn trigger(table: &UrnTable, on: &str, event: &str) -> String {
    let (name, urn, key) = (
        backtick(on),
        backtick(table.urn_column()),
        backtick(table.key_column()),
    );
    let column = table.urn_column().trim_matches('"');
    let problem = "@urn_sql_problem";
    format!(
        "CREATE TRIGGER {} BEFORE {event} ON {name} FOR EACH ROW\n\
         IF NEW.{key} IS NULL THEN\n  \
         IF NEW.{urn} IS NULL THEN\n    \
         SIGNAL SQLSTATE '23000' SET MESSAGE_TEXT = 'Column ''{column}'' cannot be null', MYSQL_ERRNO = 1048;\n  \
         END IF;\n\
         {}  \
         SET {problem} = COALESCE({problem}, 'invalid URN');\n  \
         SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = {problem};\n\
         END IF",
        backtick(&table.key_constraint_name(&event.to_ascii_lowercase())),
        expression::check_block(
            &format!("NEW.{urn}"),
            problem,
            expression::Variables::Session,
            true,
            "  "
        ),
    )
}

/// The AFTER UPDATE trigger of a keyed table (made on the table named `on`): it refuses a row
/// stored without a key or with a key computed from another URN than the one stored. MariaDB
/// computes the stored generated columns of some multi-table `UPDATE`s (`UPDATE t JOIN t …`,
/// `UPDATE t … WHERE id IN (SELECT … FROM t)`) before the `BEFORE UPDATE` triggers run and not
/// again after them, so a trigger that rewrites the URN there would leave the old URN's key.
/// The URN's own SHA-256, generated with the key, tells: the trigger compares it with the URN
/// as stored. A trigger, not a CHECK: no session setting turns it off, so a NULL key that
/// another trigger caused after urn-sql's is refused here even with `check_constraint_checks`
/// off.
fn after_update_trigger(table: &UrnTable, on: &str) -> String {
    let (name, urn, key, witness) = (
        backtick(on),
        backtick(table.urn_column()),
        backtick(table.key_column()),
        backtick(&table.urn_digest_column()),
    );
    let column = table.urn_column().trim_matches('"');
    format!(
        "CREATE TRIGGER {} AFTER UPDATE ON {name} FOR EACH ROW\n\
         IF NEW.{key} IS NULL THEN\n  \
         SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'urn-sql: a trigger after urn-sql''s wrote a \
         value of ''{column}'' that is not a URN';\n\
         ELSEIF NOT NEW.{witness} <=> UNHEX(SHA2(NEW.{urn}, 256)) THEN\n  \
         SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'urn-sql: the key of ''{column}'' was computed \
         before a trigger changed it (MariaDB does not compute it again in a multi-table UPDATE): \
         update this table alone';\n\
         END IF",
        backtick(&table.key_constraint_name("updated")),
    )
}

/// The comment of a key column generated under `rules` (`urn-sql: key rules v2`): what tells
/// the re-key which rules a table's key has (a table made before V2, without one, has V1's).
pub(crate) fn key_comment(rules: KeyRules) -> String {
    format!("urn-sql: key rules {rules}")
}

/// The statement that makes the keyed table for `table`, all with [`SQL_MODE`]: an
/// auto-increment id; the URN; its key, a STORED column generated by [`key_expression`]; the
/// key's SHA-256 (generated, UNIQUE: equal keys collide at any length, and lookups by key use
/// it); the URN's SHA-256 (generated with the key, so a trigger can tell a key computed from
/// another URN); a CHECK that the key is not NULL; the `BEFORE INSERT` and `BEFORE UPDATE`
/// triggers that refuse an invalid or NULL URN with the parser's message, and the `AFTER
/// UPDATE` trigger that refuses a stale or missing key ([`after_update_trigger`]).
///
/// One compound statement (see the module docs): it checks that its user may drop what it
/// builds (so that a failed build can leave nothing), builds the table under another name,
/// partitioned so that it can hold no row until its triggers exist, makes the triggers, then
/// adds the key's UNIQUE and removes the partitioning in one `ALTER TABLE`, and renames it. It
/// refuses the name of a temporary table of the session, and parses everything under
/// [`SQL_MODE`], whatever the session's; [`client_sql`] turns it into the `mariadb` tool's
/// form.
pub(crate) fn create_table(table: &UrnTable) -> String {
    let building_name = table.building_name();
    let (name, building) = (backtick(table.qualified_name()), backtick(&building_name));
    let (id, urn, key, digest, witness) = (
        backtick(table.id_column()),
        backtick(table.urn_column()),
        backtick(table.key_column()),
        backtick(&table.key_digest_column()),
        backtick(&table.urn_digest_column()),
    );
    let literal = |sql: &str| {
        let quoted = sql.replace('\'', "''").replace('\n', "\n    ");
        format!("'{quoted}'")
    };
    // The CREATE TABLE is a literal too: MariaDB parses a generated column's expression under
    // the session's sql_mode when it makes the table and keeps it as parsed (EMPTY_STRING_IS_NULL
    // would turn its '' into NULL), while EXECUTE IMMEDIATE parses its text under SQL_MODE.
    // Partitioned by LIST on the id with NULL as its only value, the table holds no row while
    // it has no triggers: the id is never NULL, and no setting (check_constraint_checks = 0,
    // IGNORE, sql_mode) lets a row into no partition. A UNIQUE key of a partitioned table must
    // hold the id, so the key's comes with the ALTER that removes the partitioning.
    let create = format!(
        "CREATE TABLE {building} (\n  \
         {id} BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,\n  \
         {urn} LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,\n  \
         {key} MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin AS ({}) STORED COMMENT '{}',\n  \
         {digest} BINARY(32) AS (UNHEX(SHA2({key}, 256))) STORED,\n  \
         {witness} BINARY(32) AS (UNHEX(SHA2({urn}, 256))) STORED,\n  \
         CONSTRAINT {} CHECK ({key} IS NOT NULL)\n\
         ) PARTITION BY LIST ({id}) (PARTITION urn_sql_building VALUES IN (NULL))",
        expression::key(&urn, table.key_rules(), "    "),
        key_comment(table.key_rules()),
        backtick(&table.key_constraint_name("valid")),
    );
    let finish = format!(
        "ALTER TABLE {building} ADD CONSTRAINT {} UNIQUE ({digest}) REMOVE PARTITIONING",
        backtick(&table.unique_index_name()),
    );
    let under_mode = |sql: &str| {
        format!(
            "  SET STATEMENT sql_mode = '{SQL_MODE}' FOR EXECUTE IMMEDIATE\n    {};\n",
            literal(sql)
        )
    };
    format!(
        "BEGIN NOT ATOMIC\n  \
         DECLARE created BOOLEAN DEFAULT FALSE;\n  \
         DECLARE EXIT HANDLER FOR SQLEXCEPTION\n  \
         BEGIN\n    \
         IF created THEN\n      \
         BEGIN\n        \
         DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;\n        \
         SET STATEMENT foreign_key_checks = 0 FOR DROP TABLE {building};\n      \
         END;\n    \
         END IF;\n    \
         RESIGNAL;\n  \
         END;\n  \
         CREATE TEMPORARY TABLE {name} (probe INT);\n  \
         DROP TEMPORARY TABLE {name};\n  \
         DROP TABLE IF EXISTS {building};\n\
         {}  \
         SET created = TRUE;\n\
         {}{}{}{}  \
         RENAME TABLE {building} TO {name};\n\
         END;\n",
        under_mode(&create),
        under_mode(&trigger(table, &building_name, "INSERT")),
        under_mode(&trigger(table, &building_name, "UPDATE")),
        under_mode(&after_update_trigger(table, &building_name)),
        under_mode(&finish),
    )
}

/// The insert-or-get and lookup statements for `table`. A stored spelling makes the insert
/// fail with ERROR 1062 on the key's unique constraint (MariaDB has no `ON CONFLICT … DO
/// NOTHING`); the lookup after it is a locking read, which sees a row another transaction has
/// just committed even under REPEATABLE READ.
pub(crate) fn plan(table: &UrnTable) -> Plan {
    let returning = backtick(&table.returning());
    let find = format!(
        "SELECT {returning}, FALSE AS inserted FROM {} AS stored, \
         (SELECT CAST(? AS CHAR CHARACTER SET ascii) COLLATE ascii_bin AS k) AS given \
         WHERE stored.{} = UNHEX(SHA2(given.k, 256)) AND stored.{} = given.k",
        backtick(table.qualified_name()),
        backtick(&table.key_digest_column()),
        backtick(table.key_column()),
    );
    Plan {
        insert: format!(
            "{} RETURNING {returning}, TRUE AS inserted",
            insert_sql(table)
        ),
        lookup: format!("{find} LOCK IN SHARE MODE"),
        find,
        conflict: Conflict::DuplicateKey {
            index: table.unique_index_name().trim_matches('"').to_owned(),
        },
        insert_then_read: Some((insert_sql(table), last_inserted_sql(table))),
        check: None,
        rules: table.key_rules(),
    }
}

/// The plain insert of one URN (`?`), for clients that cannot read the rows of a prepared
/// `INSERT … RETURNING` (diesel: libmariadb announces no result columns for it): they run it,
/// then [`last_inserted_sql`]; the plan's insert adds `RETURNING`.
fn insert_sql(table: &UrnTable) -> String {
    format!(
        "INSERT INTO {} ({}) VALUES (?)",
        backtick(table.qualified_name()),
        backtick(table.urn_column())
    )
}

/// The row this connection inserted last (`LAST_INSERT_ID()`), as the plan's insert returns it.
fn last_inserted_sql(table: &UrnTable) -> String {
    format!(
        "SELECT {}, TRUE AS inserted FROM {} WHERE {} = LAST_INSERT_ID()",
        backtick(&table.returning()),
        backtick(table.qualified_name()),
        backtick(table.id_column())
    )
}

/// The migration ([`UP`]), rendered whole: its hand-written header (`install.template.sql`) and the
/// routines `urn_check`, `urn_valid`, `urn_refuse` and a key function per version of the key
/// rules, rendered from urn-core's tables (a test holds the migration to it; `bash .ci/bless`
/// writes it after a change). The check is written once, in `urn_check`:
/// `urn_refuse` raises its message.
#[cfg(test)]
fn install_script() -> String {
    let header = |name: &str, params: &str, returns: &str, comment: &str| {
        format!(
            "SET STATEMENT sql_mode = '{SQL_MODE}' FOR\n\
             CREATE OR REPLACE {name}({params}){returns}\n  \
             {}NO SQL SQL SECURITY INVOKER\n  \
             COMMENT 'urn-sql mariadb {REVISION}: {comment}'\n",
            if returns.is_empty() {
                ""
            } else {
                "DETERMINISTIC "
            }
        )
    };
    let text = "LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin";
    let message = "VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin";
    let routines = format!(
        "-- The routines, as urn-sql's src/mariadb renders them.\n\
         -- urn_check(text): NULL for a valid RFC 8141 URN, otherwise the parser's message.\n\
         {}BEGIN\n  DECLARE problem {message} DEFAULT NULL;\n{}  RETURN problem;\nEND;\n\n\
         -- urn_valid(text): whether the text is a valid RFC 8141 URN: urn_core::patterns::URN, as\n\
         -- the key functions check it.\n\
         {}RETURN OCTET_LENGTH(v) <= {max} AND LOCATE(CHAR(10 USING utf8mb4), v) = 0 AND v REGEXP {};\n\n\
         -- urn_refuse(text): raises SQLSTATE 45000 with urn_check's message for the text (a raised\n\
         -- message is utf8mb3: a character above U+FFFF in it is written as Rust's escape_unicode\n\
         -- writes it).\n\
         {}BEGIN\n  DECLARE problem {message} DEFAULT COALESCE(urn_check(v), 'invalid URN');\n  \
         DECLARE wide VARCHAR(1) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin\n    \
         DEFAULT REGEXP_SUBSTR(problem, {});\n  \
         IF wide <> '' THEN\n    \
         SET problem = REPLACE(problem, wide, CONCAT(CHAR(92 USING utf8mb4), 'u{{',\n      \
         LOWER(CONV(HEX(CONVERT(wide USING utf32)), 16, 16)), '}}'));\n  \
         END IF;\n  \
         SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = problem;\nEND;\n\n\
         {}",
        header(
            "FUNCTION urn_check",
            &format!("v {text}"),
            &format!("\n  RETURNS {message}"),
            "NULL for a valid RFC 8141 URN, otherwise the parser''s message"
        ),
        expression::check_block("v", "problem", expression::Variables::Local, false, "  "),
        header(
            "FUNCTION urn_valid",
            &format!("v {text}"),
            "\n  RETURNS BOOLEAN",
            "whether the text is a valid RFC 8141 URN"
        ),
        expression::urn_regex(),
        header(
            "PROCEDURE urn_refuse",
            &format!("v {text}"),
            "",
            "raises SQLSTATE 45000 with the parser''s message"
        ),
        expression::beyond_bmp_regex(),
        key_routines(&header, text),
        max = urn_core::DEFAULT_MAX_LEN,
    );
    // The kinds and names of the routines made, from their CREATE statements, for the check
    // that refuses to replace another user's.
    let names: Vec<String> = routines
        .lines()
        .filter_map(|line| line.strip_prefix("CREATE OR REPLACE "))
        .filter_map(|rest| rest.split_once('('))
        .filter_map(|(kind_name, _)| kind_name.split_once(' '))
        .map(|(kind, name)| format!("('{kind}', '{name}')"))
        .collect();
    include_str!("install.template.sql")
        .replace("@@revision@@", &REVISION.to_string())
        .replacen("@@routine_names@@", &names.join(", "), 1)
        .replacen("@@routines@@", &routines, 1)
}

/// The revision of [`UP`], which its header and every routine's comment name: 3 since the key
/// functions are statements (a call prepares its namespace's rule alone) and the install
/// refuses another user's `urn_key_v2`.
#[cfg(test)]
const REVISION: u32 = 3;

/// The key functions `urn_key_v1(text)`, `urn_key_v2(text)`, one per version of the key rules,
/// each by the pieces a keyed table of that version generates its key column by, as statements
/// ([`expression::key_statements`]).
#[cfg(test)]
fn key_routines(header: &dyn Fn(&str, &str, &str, &str) -> String, text: &str) -> String {
    KeyRules::VERSIONS
        .iter()
        .filter_map(|&rules| rules.sql_function().map(|name| (rules, name)))
        .map(|(rules, name)| {
            let current = if rules == KeyRules::CURRENT {
                ", the current rules: `Urn::key()`"
            } else {
                ""
            };
            format!(
                "\n-- {name}(text): the canonical key, equal to urn_core's `Urn::key_with(KeyRules::{rules:?})`{current},\n\
                 -- by the pieces a keyed table's key column of those rules is generated by, as statements\n\
                 -- (a call prepares its namespace's rule alone); text that is no URN is refused with the\n\
                 -- parser's message.\n\
                 {}BEGIN\n  DECLARE k MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin;\n  \
                 DECLARE r {text};\n\
                 {}  \
                 IF k IS NULL AND u IS NOT NULL THEN\n    CALL urn_refuse(u);\n  END IF;\n  \
                 RETURN k;\nEND;\n",
                header(
                    &format!("FUNCTION {name}"),
                    &format!("u {text}"),
                    "\n  RETURNS MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin",
                    &format!("the canonical key, urn_core''s Urn::key_with(KeyRules::{rules:?})"),
                ),
                expression::key_statements("u", rules, "  "),
            )
        })
        .collect()
}

/// `sql` ([`UP`], or a table's compound statement) for the `mariadb` command-line tool: the client
/// splits statements at `;`, which the functions' bodies hold, so the statements end with `//`
/// between `DELIMITER` lines. A line that starts in its first column (not a comment) and ends with
/// `;` ends a statement of the script; every statement inside a body is indented.
///
/// ```
/// let cli = urn_sql::mariadb::client_sql(urn_sql::mariadb::UP);
/// assert!(cli.starts_with("DELIMITER //\n"));
/// assert!(cli.contains("\nEND//\n"));
/// assert!(cli.ends_with("DELIMITER ;\n"));
/// ```
pub fn client_sql(sql: &str) -> String {
    let mut out = String::from("DELIMITER //\n");
    for line in sql.lines() {
        let ends_statement = line.ends_with(';')
            && !line.starts_with("--")
            && line.starts_with(|c: char| !c.is_whitespace());
        match line.strip_suffix(';') {
            Some(statement) if ends_statement => {
                out.push_str(statement);
                out.push_str("//");
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out.push_str("DELIMITER ;\n");
    out
}

/// Everything `urn sql --dialect mariadb` prints: [`UP`] for the `mariadb` tool, then the
/// table pattern as a comment.
pub(crate) fn install_sql() -> String {
    let pattern = UrnTable::new("items").map(|t| plan(&t)).map(|plan| {
        format!(
            "-- Keyed tables: `urn sql --dialect mariadb --table NAME` prints one for the mariadb tool\n\
             -- (a key column generated from the URN in built-in functions, its SHA-256 UNIQUE, a CHECK\n\
             -- that it is not NULL, and triggers that refuse an invalid URN with the parser's message).\n\
             -- Insert-or-get (?: the URN); on ERROR 1062 for key 'items_urn_key_unique', the lookup\n\
             -- (?: its key, urn_core's Urn::key()):\n\
             --   {};\n\
             --   {};\n\
             -- Why a value is not a URN:  SELECT urn_check(?);  -- NULL when valid\n",
            plan.insert, plan.lookup
        )
    });
    format!("{}\n{}", client_sql(UP), pattern.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use urn_core::{KeyRules, patterns};

    /// The functions check URNs with urn-core's pattern, written as MariaDB takes it: flags
    /// reset (`(?-imsxU)`), `\?` and `\+` as classes (no backslash in a literal), SQL quoting.
    #[test]
    fn the_functions_use_the_shared_pattern() {
        let pattern = patterns::URN
            .replacen('^', "^(?-imsxU)", 1)
            .replace("\\?", "[?]")
            .replace("\\+", "[+]")
            .replace('\'', "''");
        assert_eq!(super::expression::urn_regex(), format!("'{pattern}'"));
        // urn_valid, and each key function through its key expression.
        assert_eq!(
            super::UP.matches(&format!("REGEXP '{pattern}'")).count(),
            1 + KeyRules::VERSIONS.len()
        );
    }

    /// The migration is the rendering of its header and urn-core's tables, whole.
    /// `bash .ci/bless` writes it after a change.
    #[test]
    fn the_migration_is_rendered_whole() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/migrations/mariadb/2026-11-24-000000_urn_types/up.sql"
        );
        let rendered = super::install_script();
        if std::env::var_os("URN_SQL_BLESS").is_some() {
            assert!(std::fs::write(path, &rendered).is_ok());
        }
        assert!(
            super::UP == rendered,
            "up.sql is not the rendering: bash .ci/bless"
        );
        assert!(!rendered.contains("@@"), "a part was not rendered");
        // The `mariadb` tool's form ends a statement at a line that starts in its first column
        // and ends with `;` (`client_sql`): inside a routine's body, no line starts there.
        let mut in_body = false;
        for line in rendered.lines() {
            if line == "BEGIN" {
                in_body = true;
            } else if line == "END;" {
                in_body = false;
            } else if in_body {
                assert!(line.starts_with(' ') || line.is_empty(), "{line}");
            }
        }
    }

    /// The key expression of each version branches on the namespaces with a rule in that
    /// version in urn-core's table.
    #[test]
    fn the_key_expression_branches_on_the_table_namespaces() {
        for &rules in KeyRules::VERSIONS {
            let key = super::key_expression("u", rules);
            let mut branches: Vec<&str> = key
                .split("WHEN '")
                .skip(1)
                .filter_map(|b| b.split_once("' THEN").map(|(nid, _)| nid))
                .collect();
            branches.sort_unstable();
            let mut nids: Vec<&str> = urn_core::KnownNamespace::ALL
                .iter()
                .filter(|ns| ns.has_key_rule(rules))
                .map(|ns| ns.nid())
                .collect();
            nids.sort_unstable();
            assert_eq!(branches, nids, "{rules}");
        }
    }

    /// No literal holds a backslash (its meaning would depend on NO_BACKSLASH_ESCAPES), and
    /// every statement of the client form ends with `//`: the install's guard and its five
    /// routines, and a keyed table's one compound statement.
    #[test]
    fn no_backslash_and_every_statement_delimited() {
        let table = crate::UrnTable::new("items").unwrap_or_else(|e| panic!("{e}"));
        let create = super::create_table(&table);
        let key = super::key_expression("u", KeyRules::CURRENT);
        for sql in [super::UP, &key, &create] {
            assert!(!sql.contains('\\'), "{sql}");
        }
        for (sql, statements) in [(super::UP, 6), (&create, 1)] {
            let cli = super::client_sql(sql);
            let ends = cli
                .lines()
                .filter(|line| line.ends_with("//") && !line.starts_with("DELIMITER"))
                .count();
            assert_eq!(ends, statements, "{cli}");
        }
    }
}
