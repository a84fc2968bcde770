//! The PostgreSQL side: domains `urn` and `urn_key`, the key function `urn_key_v1`, and the
//! table pattern. The same SQL ships as a diesel-style migration in
//! `migrations/postgres/`, usable by diesel_migrations, sqlx (as a raw migration) or `psql`.

use crate::UrnTable;

/// Creates (or upgrades in place, from any earlier revision) the domains `urn` and `urn_key`
/// and the functions `urn_key_v1(urn)`, `urn_key_index(text)`, `urn_key_index(urn_key)`,
/// `urn_check(text)`, `urn_valid(text)`, `urn_nid(urn)`, `urn_nss(urn)` and
/// `urn_rfc8141_key(urn)`. Idempotent; run it in a transaction (migration tools do; [`ddl`]
/// wraps it in `BEGIN`/`COMMIT` for `psql`), before tables that use them. Where the `urn_pg`
/// extension (crate urn-pg) owns the domains it changes nothing.
pub const UP: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/up.sql");

/// Drops what [`UP`] (of this or any earlier revision) created (tables using the domains must
/// go first).
pub const DOWN: &str = include_str!("../migrations/postgres/2026-11-23-000000_urn_types/down.sql");

/// The table pattern, as a commented example for people reading the DDL.
pub const TABLE_PATTERN: &str = r#"-- A table that stores each URN once, whatever its spelling and length:
-- CREATE TABLE items (
--   id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
--   urn     urn    NOT NULL,
--   urn_key text   COLLATE "C" GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL
-- );
-- CREATE UNIQUE INDEX items_urn_key_unique ON items ((urn_key_index(urn_key)) COLLATE "C");
--   (not UNIQUE (urn_key): a btree entry holds at most 2704 bytes, and urn_key_index()
--   stores keys longer than 2048 bytes as their SHA-256, so URNs of any length fit;
--   COLLATE "C": a key is ASCII and canonical, so byte order is right, and cheaper than
--   the database's collation)
-- Insert-or-get:  INSERT INTO items AS stored (urn) VALUES ($1::urn)
--                 ON CONFLICT (urn_key_index(urn_key)) DO UPDATE SET urn = stored.urn
--                 RETURNING id, urn, urn_key, (stored.xmax = 0) AS inserted;
-- Lookup by any equivalent spelling (an index scan):
--                 SELECT id, urn FROM items
--                 WHERE urn_key_index(urn_key) = urn_key_index(urn_key_v1($1::urn));
--   (cast arguments to the exact types, $1::urn: where other roles may create functions in
--   a schema on the search_path, an uncast text argument would pick their urn_key_v1(text))
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
/// assert!(sql.contains(r#""urn_key" text COLLATE "C" GENERATED ALWAYS AS (urn_key_v1_inline("urn")) STORED NOT NULL"#));
/// assert!(sql.contains(r#"CREATE UNIQUE INDEX "items_urn_key_unique" ON "items" ((urn_key_index("urn_key")) COLLATE "C")"#));
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
pub fn table_sql(table: &UrnTable) -> String {
    let (name, id, urn, key) = (
        table.qualified_name(),
        table.id_column(),
        table.urn_column(),
        table.key_column(),
    );
    // The key is text: the key function only ever returns canonical keys, and checking each
    // against the urn_key domain would cost ~1 us per inserted row (revision 2's tables have the
    // domain; both work with urn_key_index). urn_key_v1_inline is urn_key_v1 written so that
    // PostgreSQL inlines it here. The key and its index compare byte for byte (COLLATE "C"):
    // a key is ASCII and canonical, so byte order is exactly right, and the btree compares
    // with memcmp instead of the database collation's strcoll (a keyed load costs 10-20% less;
    // see the urn-sql README). Queries need nothing new: a comparison of the key (or of
    // urn_key_index of it) with a parameter or literal takes the column's "C".
    let generated = format!(
        "{key} text COLLATE \"C\" GENERATED ALWAYS AS (urn_key_v1_inline({urn})) STORED NOT NULL"
    );
    match table.key_index_column() {
        None => format!(
            "CREATE TABLE {name} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n  \
             {urn} urn NOT NULL,\n  {generated}\n);\n\
             CREATE UNIQUE INDEX {} ON {name} ((urn_key_index({key})) COLLATE \"C\");\n",
            table.unique_index_name()
        ),
        Some(index) => {
            // (A domain-typed generated column would not do here anyway: PostgreSQL 15 fails
            // every insert into a partitioned table with one, "attribute 3 of type record has
            // wrong type".) The id is an identity column: PostgreSQL cannot make it UNIQUE
            // across partitions (a unique index must hold the partition key), so only the
            // sequence keeps ids apart, and GENERATED ALWAYS refuses an id a client chose
            // (short of OVERRIDING SYSTEM VALUE, which grants of INSERT on the other columns
            // alone refuse too; see UrnTable::hash_partitioned).
            let n = table.partitions();
            let mut sql = format!(
                "CREATE TABLE {name} (\n  {id} bigint GENERATED ALWAYS AS IDENTITY,\n  {urn} urn NOT NULL,\n  \
                 {generated},\n  \
                 {index} text COLLATE \"C\" NOT NULL CONSTRAINT {} CHECK ({index} = urn_key_index({key})),\n  \
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
    use urn_core::patterns;

    /// `pattern` as the migration writes it: the NID's bounded repetition replaced by a length
    /// check (see the migration's header), `%XX` as two classes, `\?` and `\+` as classes (no
    /// backslash, whatever `standard_conforming_strings` says), SQL quoting.
    fn in_sql(pattern: &str) -> String {
        pattern
            .replace("{0,30}", "*")
            .replace("\\?", "[?]")
            .replace("\\+", "[+]")
            // The `urn` domain checks the NID's first character apart (fewer regex states).
            .replace(
                "[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]*",
                "[Uu][Rr][Nn]:[A-Za-z0-9-]*",
            )
            .replace("[0-9A-Fa-f]{2}", "[0-9A-Fa-f][0-9A-Fa-f]")
            .replace("[0-9A-F]{2}", "[0-9A-F][0-9A-F]")
            .replace('\'', "''")
    }

    /// The domains' CHECKs use urn-core's patterns: the whole URN language, the canonical key,
    /// and for the values that cannot hold them, the same grammars without the r-component
    /// (no `?+`), without `%XX` and components (no `%`, `?`, `#`) or with an f-component alone.
    #[test]
    fn domains_use_the_shared_patterns() {
        for pattern in [patterns::URN, patterns::URN_KEY] {
            let sql = in_sql(pattern);
            assert!(super::UP.contains(&format!("~ '{sql}'")), "{sql}");
        }
        let without_percent = |pattern: &str| {
            in_sql(pattern)
                .replace(
                    "([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])",
                    "[A-Za-z0-9._~!$&''()*+,;=:@-]",
                )
                .replace(
                    "([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f])*",
                    "[A-Za-z0-9._~!$&''()*+,;=:@/-]*",
                )
                .replace(
                    "([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-F][0-9A-F])",
                    "[A-Za-z0-9._~!$&''()*+,;=:@-]",
                )
                .replace(
                    "([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-F][0-9A-F])*",
                    "[A-Za-z0-9._~!$&''()*+,;=:@/-]*",
                )
                .replace(
                    "([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*",
                    "[A-Za-z0-9._~!$&''()*+,;=:@/?-]*",
                )
        };
        // The components: ?+r, then ?=q and #f.
        let (r_component, q_and_f) = patterns::COMPONENTS
            .split_once("(\\?=")
            .map(|(r, rest)| (r, format!("(\\?={rest}")))
            .unwrap_or_default();
        assert!(r_component.starts_with("(\\?\\+"), "{r_component}");
        let f_component = q_and_f
            .split_once(")?(#")
            .map(|(_, f)| format!("(#{f}"))
            .unwrap_or_default();
        assert!(f_component.starts_with("(#"), "{f_component}");
        let no_r = in_sql(&patterns::URN.replace(r_component, ""));
        assert!(super::UP.contains(&format!("~ '{no_r}'")), "{no_r}");
        let urn = format!(
            "^[Uu][Rr][Nn]:{}:{}$",
            in_sql(patterns::NID),
            without_percent(patterns::NSS)
        )
        .replace(
            "[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]*",
            "[Uu][Rr][Nn]:[A-Za-z0-9-]*",
        );
        assert!(super::UP.contains(&format!("~ '{urn}'")), "{urn}");
        let with_f = format!(
            "{}{}$",
            urn.trim_end_matches('$'),
            without_percent(&f_component)
        );
        assert!(super::UP.contains(&format!("~ '{with_f}'")), "{with_f}");
        let key = without_percent(patterns::URN_KEY);
        assert!(super::UP.contains(&format!("~ '{key}'")), "{key}");
        assert!(super::ddl().starts_with("BEGIN;\n"));
        assert!(super::ddl().contains("\nCOMMIT;\n"));
    }

    /// The namespaces with a V1 rule in urn-core's table, by NID.
    fn rule_nids() -> Vec<&'static str> {
        let mut nids: Vec<&str> = urn_core::KnownNamespace::ALL
            .iter()
            .filter(|ns| ns.has_key_rule())
            .map(|ns| ns.nid())
            .collect();
        nids.sort_unstable();
        nids
    }

    /// The key function's namespace branches are the namespaces with a V1 rule in urn-core's
    /// table: the SQL names exactly those NIDs.
    #[test]
    fn the_key_function_branches_on_the_table_namespaces() {
        let body = super::UP
            .split("CREATE OR REPLACE FUNCTION urn_key_v1(u urn)")
            .nth(1)
            .and_then(|rest| rest.split("$fn$;").next())
            .unwrap_or_default();
        let mut branches: Vec<&str> = body
            .split("    WHEN '")
            .skip(1)
            .filter_map(|b| b.split_once("' THEN").map(|(nid, _)| nid))
            .collect();
        branches.sort_unstable();
        assert_eq!(branches, rule_nids());
    }

    /// What the key functions' fast paths (`urn_key_v1`'s first statement, `urn_key_v1_inline`)
    /// assume of urn-core's table: every NID with a V1 rule has 3 or 4 characters, and outside
    /// isbn and issn a rule never changes an NSS that has no upper-case letter and no `%` (it
    /// only lower-cases). Checked on generated URNs of every namespace with a rule, lower-cased.
    #[test]
    fn the_inlined_fast_path_holds_for_every_namespace_rule() {
        use proptest::strategy::{Strategy, ValueTree};
        use proptest::test_runner::TestRunner;
        use urn_core::{KnownNamespace, Urn};

        assert!(rule_nids().iter().all(|nid| (3..=4).contains(&nid.len())));
        let mut changed = Vec::new();
        let mut runner = TestRunner::deterministic();
        for &ns in KnownNamespace::ALL.iter().filter(|ns| ns.has_key_rule()) {
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
                if !lower.nss().contains('%') && lower.key() != lower.rfc8141_key() {
                    changed.push(ns.nid());
                    break;
                }
            }
        }
        assert_eq!(changed, ["isbn", "issn"]);
        assert!(super::UP.contains("IN ('urn:isbn:', 'urn:issn:')"));
    }
}
