//! The PostgreSQL side: domains `urn` and `urn_key`, the key function `urn_key_v1`, and the
//! table pattern. The same SQL ships as a diesel-style migration in
//! `migrations/postgres/`, usable by diesel_migrations, sqlx (as a raw migration) or `psql`.

use crate::UrnTable;

/// Creates (or upgrades) the domains `urn` and `urn_key` and the functions `urn_key_v1(urn)`,
/// `urn_key_index(urn_key)`, `urn_check(text)`, `urn_valid(text)`, `urn_nid(urn)`,
/// `urn_nss(urn)` and `urn_rfc8141_key(urn)`. Idempotent; run it in a transaction (migration
/// tools do; [`ddl`] wraps it in `BEGIN`/`COMMIT` for `psql`), before tables that use them.
/// Where the `urn_pg` extension (crate urn-pg) owns the domains it changes nothing.
pub const UP: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/up.sql");

/// Drops what [`UP`] created (tables using the domains must go first).
pub const DOWN: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/down.sql");

/// The table pattern, as a commented example for people reading the DDL.
pub const TABLE_PATTERN: &str = r#"-- A table that stores each URN once, whatever its spelling and length:
-- CREATE TABLE items (
--   id      bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
--   urn     urn     NOT NULL,
--   urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED NOT NULL
-- );
-- CREATE UNIQUE INDEX items_urn_key_unique ON items (urn_key_index(urn_key));
--   (not UNIQUE (urn_key): a btree entry holds at most 2704 bytes, and urn_key_index()
--   stores keys longer than 2048 bytes as their SHA-256, so URNs of any length fit)
-- Insert-or-get:  INSERT INTO items AS stored (urn) VALUES ($1)
--                 ON CONFLICT (urn_key_index(urn_key)) DO UPDATE SET urn = stored.urn
--                 RETURNING id, urn, urn_key, (stored.xmax = 0) AS inserted;
-- Lookup by any equivalent spelling (an index scan):
--                 SELECT id, urn FROM items
--                 WHERE urn_key_index(urn_key) = urn_key_index(urn_key_v1($1)::urn_key);
-- Why a value is not a URN:  SELECT urn_check($1);  -- NULL when valid
-- Lists of URNs:  see_also urn[] NOT NULL DEFAULT '{}'  (every element is checked)
"#;

/// The `CREATE TABLE` (and `CREATE UNIQUE INDEX`) statements of the table pattern for `table`:
/// an identity id, the URN (checked by the `urn` domain), the generated key, and a unique index
/// on `urn_key_index(urn_key)`, so URNs of any length the domain allows are deduplicated. For a
/// [hash-partitioned](UrnTable::hash_partitioned) table, the parent and its partitions.
///
/// ```
/// let sql = urn_sql::postgres::table_sql(&urn_sql::UrnTable::new("items")?);
/// assert!(sql.contains(r#""urn_key" urn_key GENERATED ALWAYS AS (urn_key_v1("urn")) STORED NOT NULL"#));
/// assert!(sql.contains(r#"CREATE UNIQUE INDEX "items_urn_key_unique" ON "items" (urn_key_index("urn_key"))"#));
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
pub fn table_sql(table: &UrnTable) -> String {
    let (name, id, urn, key) = (
        table.qualified_name(),
        table.id_column(),
        table.urn_column(),
        table.key_column(),
    );
    let generated =
        format!("{key} urn_key GENERATED ALWAYS AS (urn_key_v1({urn})) STORED NOT NULL");
    match table.key_index_column() {
        None => format!(
            "CREATE TABLE {name} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  \
             {urn} urn NOT NULL,\n  {generated}\n);\n\
             CREATE UNIQUE INDEX {} ON {name} (urn_key_index({key}));\n",
            table.unique_index_name()
        ),
        Some(index) => {
            // The key column is text here: PostgreSQL 15 fails every insert into a partitioned
            // table with a domain-typed generated column ("attribute 3 of type record has wrong
            // type"). urn_key_v1 only ever returns canonical keys.
            let n = table.partitions();
            let mut sql = format!(
                "CREATE TABLE {name} (\n  {id} bigserial NOT NULL,\n  {urn} urn NOT NULL,\n  \
                 {key} text GENERATED ALWAYS AS (urn_key_v1({urn})) STORED NOT NULL,\n  \
                 {index} text NOT NULL CONSTRAINT {} CHECK ({index} = urn_key_index({key}::urn_key)),\n  \
                 UNIQUE ({index})\n) PARTITION BY HASH ({index});\n",
                table.index_check_name()
            );
            for i in 0..n {
                sql.push_str(&format!(
                    "CREATE TABLE {} PARTITION OF {name} FOR VALUES WITH (MODULUS {n}, REMAINDER {i});\n",
                    table.partition_name(i)
                ));
            }
            sql
        }
    }
}

/// Everything `urn sql --dialect postgres` prints: [`UP`] in one transaction (with
/// `psql -v ON_ERROR_STOP=1`, a failure leaves nothing half made) and the commented table
/// pattern.
pub fn ddl() -> String {
    format!("BEGIN;\n{UP}\nCOMMIT;\n\n{TABLE_PATTERN}")
}

#[cfg(test)]
mod tests {
    /// The domain's structure and key checks use urn-core's character classes, and the key
    /// domain urn-core's key pattern (with SQL quoting, the NID's bounded repetition replaced by
    /// a length check; see the migration's header).
    #[test]
    fn domains_use_the_shared_patterns() {
        let pattern = urn_core::patterns::URN_KEY;
        assert_eq!(pattern.matches("{0,30}").count(), 1);
        let unbounded = pattern.replace("{0,30}", "*").replace('\'', "''");
        let check = format!(
            "strpos(substr(VALUE, 5), ':') BETWEEN 3 AND 33\n      AND VALUE COLLATE \"C\" ~ '{unbounded}'"
        );
        assert!(super::UP.contains(&check), "{check}");
        assert!(super::ddl().starts_with("BEGIN;\n"));
        assert!(super::ddl().contains("\nCOMMIT;\n"));
    }
}
