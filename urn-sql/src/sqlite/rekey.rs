//! The SQLite re-key ([`crate::rekey`]): one transaction. SQLite cannot change a generated
//! column in place, so the table is made again by SQLite's own procedure for a change `ALTER
//! TABLE` cannot make (<https://www.sqlite.org/lang_altertable.html#otheralter>): foreign keys
//! off (before the transaction: `PRAGMA foreign_keys` does nothing inside one), then under
//! `BEGIN IMMEDIATE` a new table keyed by the new rules, the rows copied into it (ids kept),
//! the old table dropped and the new one renamed to its name, and `PRAGMA foreign_key_check`
//! of the tables that reference it before the commit. Other writers wait for it (their busy
//! timeout); readers read the old table until the commit. A stop anywhere rolls it all back.
//!
//! With foreign keys on, dropping the old table would delete its rows first and fire every
//! referencing table's `ON DELETE` (a cascade emptied them); off, nothing fires, and the check
//! refuses the commit when a referencing row would be left without its row (a keep-first move
//! of a referenced row, or a foreign key on the key column, whose values change). The helpers
//! put `foreign_keys` back as they found it; the shell script leaves it off (the shell's
//! default).
//!
//! Guards, each raising its own message before anything changes: the table must be keyed by the old
//! rules' function, hold only the pattern's three columns (a column of yours would not be copied),
//! be defined as urn-sql makes it (no constraint, `AUTOINCREMENT` or collation of its own, which
//! the rebuild would not keep), and have no index or trigger of its own (SQLite drops them with the
//! table); the side table keep-first makes must not exist; and the collisions are refused or moved
//! ([`OnCollision`]). The connection needs both key functions (urn-sql registers them; `.load
//! liburn_sqlite_ext` in the shell).

use urn_core::KeyRules;

use crate::rekey::{
    OnCollision, RekeyError, Rows, Step, foreign_side_table, referenced, refusal, what,
};
use crate::table::UrnTable;

for_the_sqlx_helpers! {
    /// What the run sets on its connection: `foreign_keys` off, put back on if it was on.
    pub(crate) const RESTORE: crate::rekey::Restore = crate::rekey::Restore {
        read: Some("PRAGMA foreign_keys"),
        statements: |was_on| {
            if was_on {
                &["PRAGMA foreign_keys = ON"]
            } else {
                &[]
            }
        },
    };
}

/// A guard: a temporary trigger on a temporary table that aborts with `message` when a row
/// with `kind` is inserted, and the insert that fires it when `problem` (a condition) holds.
fn guard(kind: &str, message: &str, problem: &str) -> [String; 2] {
    [
        format!(
            "CREATE TEMP TRIGGER IF NOT EXISTS urn_sql_rekey_guard_{kind} BEFORE INSERT ON urn_sql_rekey_guard\n  \
             WHEN NEW.kind = '{kind}' BEGIN SELECT RAISE(ABORT, '{}'); END",
            message.replace('\'', "''")
        ),
        format!("INSERT INTO urn_sql_rekey_guard SELECT '{kind}' WHERE {problem}"),
    ]
}

/// The steps that move `table` from `from` to `to`: one transaction.
pub(crate) fn steps(
    table: &UrnTable,
    from: KeyRules,
    to: KeyRules,
    on_collision: OnCollision,
) -> Result<Vec<Step>, RekeyError> {
    let (name, id, urn, key) = (
        table.qualified_name(),
        table.id_column(),
        table.urn_column(),
        table.key_column(),
    );
    let bare = table.bare_name();
    let (from_fn, to_fn) = (
        from.sql_function().unwrap_or_default(),
        to.sql_function().unwrap_or_default(),
    );
    let schema = match table.schema_name() {
        Some(schema) => format!("\"{schema}\".sqlite_schema"),
        None => "sqlite_schema".to_owned(),
    };
    let new_table = table.building_name();
    let side = format!(
        "{}{}",
        table
            .schema_name()
            .map_or(String::new(), |s| format!("\"{s}\".")),
        table.key_constraint_name(&format!("{to}_collisions"))
    );
    let keyed = UrnTable::with_columns(
        &new_table.replace('"', ""),
        id.trim_matches('"'),
        urn.trim_matches('"'),
        key.trim_matches('"'),
    )
    .map_err(|e| RekeyError::new(e.to_string()))?
    .with_key_rules(to)
    .map_err(|e| RekeyError::new(e.to_string()))?;
    let side_bare = table
        .key_constraint_name(&format!("{to}_collisions"))
        .replace('"', "");
    let fk_check = match table.schema_name() {
        Some(schema) => format!("pragma_foreign_key_check(NULL, '{schema}')"),
        None => "pragma_foreign_key_check".to_owned(),
    };
    let fk_list = match table.schema_name() {
        Some(schema) => format!("pragma_foreign_key_list(c.\"table\", '{schema}')"),
        None => "pragma_foreign_key_list(c.\"table\")".to_owned(),
    };
    let schema_name = table.schema_name().unwrap_or("main");
    // The table as urn-sql makes it under the old rules, as SQLite stores it (without its
    // schema): the rebuild makes exactly that again under the new ones, so a definition of
    // the owner's own (AUTOINCREMENT, a constraint, a collation) would be lost.
    let made = UrnTable::with_columns(
        bare,
        id.trim_matches('"'),
        urn.trim_matches('"'),
        key.trim_matches('"'),
    )
    .map_err(|e| RekeyError::new(e.to_string()))?
    .with_key_rules(from)
    .map_err(|e| RekeyError::new(e.to_string()))?;
    let made = super::create_table(&made);
    let made = made.trim_end().trim_end_matches(';').replace('\'', "''");
    let mut statements = vec![
        "PRAGMA foreign_keys = OFF".to_owned(),
        "BEGIN IMMEDIATE".to_owned(),
        "CREATE TEMP TABLE IF NOT EXISTS urn_sql_rekey_guard (kind TEXT)".to_owned(),
    ];
    let keyed_by = |function: &str| {
        format!(
            "EXISTS (SELECT 1 FROM {schema} WHERE type = 'table' AND name = '{bare}' COLLATE NOCASE \
             AND sql LIKE '%{function}({urn})%')"
        )
    };
    statements.extend(guard(
        "keyed",
        &format!(
            "urn-sql: {bare} is not a table keyed by {from_fn} (re-keyed already, or not keyed): nothing was changed"
        ),
        &format!("NOT {}", keyed_by(from_fn)),
    ));
    statements.extend(guard(
        "columns",
        &format!(
            "urn-sql: {bare} has columns other than the pattern's three, which the re-key would not copy: nothing was changed"
        ),
        &format!(
            "(SELECT count(*) FROM pragma_table_xinfo('{bare}', '{schema_name}') WHERE name NOT IN ('{}', '{}', '{}')) > 0",
            id.trim_matches('"'),
            urn.trim_matches('"'),
            key.trim_matches('"'),
        ),
    ));
    statements.extend(guard(
        "definition",
        &format!(
            "urn-sql: {bare} is not defined as urn-sql makes a keyed table (a constraint, \
             AUTOINCREMENT or a collation of its own), which the rebuild would not keep: nothing \
             was changed"
        ),
        &format!(
            "NOT EXISTS (SELECT 1 FROM {schema} WHERE type = 'table' AND name = '{bare}' COLLATE NOCASE AND sql = '{made}')"
        ),
    ));
    statements.extend(guard(
        "objects",
        &format!(
            "urn-sql: {bare} has indexes or triggers of its own, which dropping it would drop: nothing was changed"
        ),
        &format!(
            "EXISTS (SELECT 1 FROM {schema} WHERE tbl_name = '{bare}' COLLATE NOCASE AND type IN ('index', 'trigger') AND sql IS NOT NULL)"
        ),
    ));
    if on_collision == OnCollision::KeepFirst {
        statements.extend(guard(
            "side",
            &foreign_side_table(&side_bare, "exists"),
            &format!("EXISTS (SELECT 1 FROM {schema} WHERE name = '{side_bare}' COLLATE NOCASE)"),
        ));
    }
    statements.push("DROP TABLE IF EXISTS temp.urn_sql_rekey_collisions".to_owned());
    statements.push(format!(
        "CREATE TEMP TABLE urn_sql_rekey_collisions AS\n  \
         SELECT k, group_concat(i, ' ') AS ids, group_concat(u, ' ') AS urns, min(i) AS first_id\n  \
         FROM (SELECT {id} AS i, {urn} AS u, {to_fn}({urn}) AS k FROM {name} ORDER BY {id})\n  \
         GROUP BY k HAVING count(*) > 1"
    ));
    let mut steps: Vec<Step> = statements
        .into_iter()
        .map(|sql| Step::always("the guards and the collisions", sql))
        .collect();
    steps.push(
        Step::always(
            what::LIST,
            "SELECT k AS new_key, ids, urns FROM urn_sql_rekey_collisions ORDER BY first_id"
                .to_owned(),
        )
        .returning(Rows::Collisions),
    );
    let (what, resolve) = match on_collision {
        OnCollision::Refuse => (
            what::REFUSE,
            guard(
                "collisions",
                &refusal(bare, from, to),
                "EXISTS (SELECT 1 FROM urn_sql_rekey_collisions)",
            )
            .to_vec(),
        ),
        OnCollision::KeepFirst => (
            what::KEEP_FIRST,
            vec![
                "DROP TABLE IF EXISTS temp.urn_sql_rekey_moving".to_owned(),
                format!(
                    "CREATE TEMP TABLE urn_sql_rekey_moving AS \
                     SELECT t.i AS id, c.first_id AS kept, c.k AS k \
                     FROM (SELECT {id} AS i, {to_fn}({urn}) AS k FROM {name}) AS t \
                     JOIN urn_sql_rekey_collisions AS c ON c.k = t.k WHERE t.i <> c.first_id"
                ),
                format!(
                    "CREATE TABLE {side} \
                 ({id} INTEGER, {urn} TEXT, {key} TEXT, urn_sql_kept_id INTEGER, urn_sql_new_key TEXT)"
                ),
                format!(
                    "INSERT INTO {side} SELECT t.{id}, t.{urn}, t.{key}, m.kept, m.k \
                 FROM {name} AS t JOIN urn_sql_rekey_moving AS m ON m.id = t.{id}"
                ),
                format!("DELETE FROM {name} WHERE {id} IN (SELECT id FROM urn_sql_rekey_moving)"),
            ],
        ),
    };
    steps.extend(resolve.into_iter().map(|sql| Step::always(what, sql)));
    if on_collision == OnCollision::KeepFirst {
        // Counted by SQLite: the rows the DELETE just deleted.
        steps.push(
            Step::always(what::MOVED, "SELECT changes() AS moved".to_owned())
                .returning(Rows::Moved),
        );
    }
    let mut rest = Vec::new();
    rest.push(
        super::create_table(&keyed)
            .trim_end()
            .trim_end_matches(';')
            .to_owned(),
    );
    rest.push(format!(
        "INSERT INTO {new_table} ({id}, {urn}) SELECT {id}, {urn} FROM {name} ORDER BY {id}"
    ));
    rest.push(format!("DROP TABLE {name}"));
    rest.push(format!(
        "ALTER TABLE {new_table} RENAME TO {}",
        table.qualified_name().rsplit('.').next().unwrap_or(name)
    ));
    steps.extend(
        rest.into_iter()
            .map(|sql| Step::always("the table made again under the new rules", sql)),
    );
    // No row of another table may have lost the row it references (SQLite's procedure, step
    // 10): listed, then refused.
    let what_references = "the rows of other tables that reference a row the re-key moved or \
                           changed (PRAGMA foreign_key_check)";
    steps.push(
        Step::always(
            what_references,
            format!(
                "SELECT c.\"table\" || ' (' || (SELECT group_concat(l.\"from\", ', ') FROM {fk_list} AS l \
                 WHERE l.id = c.fkid) || ')' AS reference, group_concat(c.rowid, ' ') AS rowids, '' \
                 FROM {fk_check} AS c WHERE c.parent = '{bare}' COLLATE NOCASE GROUP BY c.\"table\", c.fkid"
            ),
        )
        .returning(Rows::References),
    );
    steps.extend(
        guard(
            "references",
            &referenced(bare, "the foreign keys listed above"),
            &format!("EXISTS (SELECT 1 FROM {fk_check} WHERE parent = '{bare}' COLLATE NOCASE)"),
        )
        .map(|sql| Step::always(what_references, sql)),
    );
    steps.push(Step::always(
        "the table made again under the new rules",
        "COMMIT".to_owned(),
    ));
    steps.push(
        Step::always(
            what::DONE,
            format!("SELECT {} AS switched", keyed_by(to_fn)),
        )
        .returning(Rows::Switched),
    );
    Ok(steps)
}

/// The steps as a script for the `sqlite3` shell (`.bail on`: the first error stops it, and
/// the transaction is rolled back).
pub(crate) fn script(steps: &[Step]) -> String {
    let mut out = String::from(
        "-- urn-sql: re-keying a table, in one transaction (see urn-sql's docs/rekey.md). Run it\n\
         -- in the sqlite3 shell with the extension loaded (.load liburn_sqlite_ext).\n\
         .bail on\n",
    );
    let mut last = "";
    for step in steps {
        if step.what != last {
            out.push_str(&format!("\n-- {}\n", step.what));
            last = step.what;
        }
        out.push_str(&format!("{};\n", step.sql));
    }
    out
}
