//! The PostgreSQL side: domains `urn` and `urn_key`, the key function `urn_key_v1`, and the
//! table pattern. The same SQL ships as a diesel-style migration in
//! `migrations/postgres/`, usable by diesel_migrations, sqlx (as a raw migration) or `psql`.

use crate::UrnTable;

/// Creates the domains `urn` and `urn_key` and the function `urn_key_v1(urn)` (plus its
/// `urn_*_v1` helpers). Run it once per database, before tables that use them.
pub const UP: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/up.sql");

/// Drops what [`UP`] created (tables using the domains must go first).
pub const DOWN: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/down.sql");

/// The table pattern, as a commented example for people reading the DDL.
pub const TABLE_PATTERN: &str = r#"-- A table that stores each URN once, whatever its spelling:
-- CREATE TABLE items (
--   id      bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
--   urn     urn     NOT NULL,
--   urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE
-- );
-- Insert-or-get:  INSERT INTO items AS stored (urn) VALUES ($1)
--                 ON CONFLICT (urn_key) DO UPDATE SET urn = stored.urn
--                 RETURNING id, urn, urn_key, (stored.xmax = 0) AS inserted;
-- Lookup by any equivalent spelling (an index scan):
--                 SELECT id, urn FROM items WHERE urn_key = urn_key_v1($1);
-- Lists of URNs:  see_also urn[] NOT NULL DEFAULT '{}'  (every element is checked)
"#;

/// The `CREATE TABLE` statement of the table pattern for `table`: an identity id, the URN
/// (checked by the `urn` domain) and the generated, unique key.
///
/// ```
/// let sql = urn_sql::postgres::table_sql(&urn_sql::UrnTable::new("items")?);
/// assert!(sql.contains(r#""urn_key" urn_key GENERATED ALWAYS AS (urn_key_v1("urn")) STORED UNIQUE"#));
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
pub fn table_sql(table: &UrnTable) -> String {
    let (id, urn, key) = (table.id_column(), table.urn_column(), table.key_column());
    format!(
        "CREATE TABLE {} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  \
         {urn} urn NOT NULL,\n  \
         {key} urn_key GENERATED ALWAYS AS (urn_key_v1({urn})) STORED UNIQUE\n);\n",
        table.qualified_name()
    )
}

/// Everything `urn sql --dialect postgres` prints: [`UP`] and the commented table pattern.
pub fn ddl() -> String {
    format!("{UP}\n{TABLE_PATTERN}")
}

#[cfg(test)]
mod tests {
    /// The domains use urn-core's patterns (with SQL quoting), the NID's bounded repetition
    /// replaced by a length check (see the migration's header).
    #[test]
    fn domains_use_the_shared_patterns() {
        for pattern in [urn_core::patterns::URN, urn_core::patterns::URN_KEY] {
            assert_eq!(pattern.matches("{0,30}").count(), 1);
            let unbounded = pattern.replace("{0,30}", "*").replace('\'', "''");
            let check = format!(
                "AND strpos(substr(VALUE, 5), ':') BETWEEN 3 AND 33\n    \
                 AND VALUE COLLATE \"C\" ~ '{unbounded}'"
            );
            assert!(super::UP.contains(&check), "{check}");
        }
    }
}
