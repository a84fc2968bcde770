//! [`UrnTable`]: the names of a keyed-URN table and of the schema urn-sql's PostgreSQL objects
//! live in, each checked once so the database modules can write them into SQL text safely.
//! Names only: the SQL itself is each database module's.

use std::fmt;

use urn_core::KeyRules;

/// A table name, column name or schema name that is not a plain SQL identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentifierError {
    name: String,
}

impl fmt::Display for IdentifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\"{}\" is not a plain SQL identifier (ASCII letters, digits and '_', not starting \
             with a digit, at most 63 bytes; a table may be qualified as schema.table)",
            self.name.escape_debug()
        )
    }
}

impl std::error::Error for IdentifierError {}

/// Key rules no table can be keyed by: a table is keyed by a version of the rules
/// ([`KeyRules::VERSIONS`]), which has SQL key functions; [`KeyRules::Rfc8141`] has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnversionedKeyRules(pub KeyRules);

impl fmt::Display for UnversionedKeyRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a table is keyed by a version of the key rules (v1, v2), not {}",
            self.0
        )
    }
}

impl std::error::Error for UnversionedKeyRules {}

/// The schema PostgreSQL statements name when the caller does not: for urn-sql's objects
/// ([`UrnTable::with_urn_schema`]) and for a table given without one. `public` is where the
/// install puts them for a role whose search_path is PostgreSQL's default; statements that
/// stand in `public` for a schema not named check its owners first.
pub(crate) const DEFAULT_SCHEMA: &str = "public";

/// A table with an integer id, a URN column and a unique key column, as urn-sql's table
/// pattern lays it out (defaults: columns `id`, `urn`, `urn_key`), the version of the key
/// rules its key follows (default [`KeyRules::CURRENT`]; see
/// [`with_key_rules`](UrnTable::with_key_rules)), and the schema that holds urn-sql's
/// PostgreSQL domains and functions (default `public`).
///
/// Names are checked to be plain identifiers and always written double-quoted, so they are
/// case-sensitive as given. Every PostgreSQL statement urn-sql writes for the table names the
/// table with its schema, urn-sql's objects with theirs and PostgreSQL's with `pg_catalog`, so
/// no schema on a session's search_path can put its own table, function, operator, type or
/// collation in their place. Its `CREATE TABLE` refuses to run on urn-sql objects another role
/// owns (see [`Dialect::create_table_sql`](crate::Dialect::create_table_sql)).
///
/// Name both schemas for PostgreSQL: the table's in its name (`app.items`) and urn-sql's with
/// [`with_urn_schema`](UrnTable::with_urn_schema). Where one is not named, the statements take
/// `public` for it and nothing is found by default: the helpers' insert-or-get and lookup
/// first run a check, as the DDL does, that urn-sql's objects there and the table are owned by
/// a superuser, the current role or their schema's owner, and fail with SQLSTATE 42501 naming
/// each one that is not (a co-tenant's `public.items` or `public.urn_key_index` would
/// otherwise get the rows or run as the writer). The check is one more statement per call;
/// naming both schemas skips it.
///
/// ```
/// use urn_sql::{Dialect, UrnTable};
/// let table = UrnTable::new("catalog.items")?.with_urn_schema("urn")?;
/// let find = Dialect::Postgres.find_sql(&table);
/// assert!(find.contains(r#"FROM "catalog"."items" WHERE "urn".urn_key_index("urn_key")"#));
/// let plain = Dialect::Postgres.find_sql(&UrnTable::new("items")?);
/// assert!(plain.contains(r#"FROM "public"."items" WHERE "public".urn_key_index("urn_key")"#));
/// assert!(UrnTable::new("items; DROP TABLE x").is_err());
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrnTable {
    name: String,
    /// The table name without schema and quotes, for the names of its index and partitions.
    bare: String,
    /// The schema and its dot, quoted, or empty.
    schema: String,
    id: String,
    urn: String,
    key: String,
    /// The stored `urn_key_index` column of a hash-partitioned table (PostgreSQL).
    key_index: Option<String>,
    partitions: u32,
    /// The quoted schema of urn-sql's PostgreSQL objects.
    urn_schema: String,
    /// Whether the caller named that schema ([`UrnTable::with_urn_schema`]).
    urn_schema_given: bool,
    /// The key rules of the key column (a version).
    key_rules: KeyRules,
}

impl UrnTable {
    /// The table `name` (optionally `schema.table`; PostgreSQL statements name a table without
    /// a schema in `public`, after the check above, SQLite's and MariaDB's leave it to the
    /// connection's database) with columns `id`, `urn` and `urn_key`.
    pub fn new(name: &str) -> Result<Self, IdentifierError> {
        Self::with_columns(name, "id", "urn", "urn_key")
    }

    /// The table `name` with the given id, URN and key column names.
    pub fn with_columns(
        name: &str,
        id: &str,
        urn: &str,
        key: &str,
    ) -> Result<Self, IdentifierError> {
        let parts: Vec<&str> = name.split('.').collect();
        let (schema, bare) = match parts.as_slice() {
            [bare] => (String::new(), *bare),
            [schema, bare] => (format!("{}.", quote(schema)?), *bare),
            _ => return Err(IdentifierError { name: name.into() }),
        };
        Ok(UrnTable {
            name: format!("{schema}{}", quote(bare)?),
            bare: bare.to_owned(),
            schema,
            id: quote(id)?,
            urn: quote(urn)?,
            key: quote(key)?,
            key_index: None,
            partitions: 0,
            urn_schema: quote(DEFAULT_SCHEMA)?,
            urn_schema_given: false,
            key_rules: KeyRules::CURRENT,
        })
    }

    /// The version of the key rules the table's key column follows: what its `CREATE TABLE`
    /// generates the key with (`urn_key_v2`, `urn_key_v1`, …) and what the helpers compute
    /// the key they look up by with. New tables take [`KeyRules::CURRENT`], the default; a
    /// table made before it (keyed by `urn_key_v1`) says `KeyRules::V1` here until it is
    /// re-keyed (`urn sql --rekey v2`, [`rekey_sql`](crate::Dialect::rekey_sql)). The helpers
    /// check each row an insert returns against these rules and fail on a key of other rules;
    /// a lookup cannot tell (it finds nothing where the keys differ), so say which rules a
    /// table has.
    ///
    /// ```
    /// use urn_core::KeyRules;
    /// use urn_sql::{Dialect, UrnTable};
    /// let old = UrnTable::new("items")?.with_key_rules(KeyRules::V1)?;
    /// assert!(Dialect::Postgres.create_table_sql(&old).contains("urn_key_v1_inline"));
    /// assert!(Dialect::Postgres.create_table_sql(&UrnTable::new("items")?).contains("urn_key_v2_inline"));
    /// assert!(UrnTable::new("items")?.with_key_rules(KeyRules::Rfc8141).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_key_rules(mut self, rules: KeyRules) -> Result<Self, UnversionedKeyRules> {
        if rules.sql_function().is_none() {
            return Err(UnversionedKeyRules(rules));
        }
        self.key_rules = rules;
        Ok(self)
    }

    /// The version of the key rules the key column follows.
    pub fn key_rules(&self) -> KeyRules {
        self.key_rules
    }

    /// The name of the SQL key function of the table's rules: `urn_key_v2`.
    pub(crate) fn key_function(&self) -> &'static str {
        self.key_rules.sql_function().unwrap_or("urn_key_v2")
    }

    /// The schema that holds urn-sql's PostgreSQL domains and functions (the portable install
    /// or `CREATE EXTENSION urn_pg`): the statements for this table name them there
    /// (`"urn".urn_key_index(…)`), and the table's `CREATE TABLE` checks that they are there.
    /// Not named, it is `public`, checked before each use (see [`UrnTable`]). It does not move
    /// the table: name its schema in [`UrnTable::new`]. SQLite and MariaDB have no such schema.
    pub fn with_urn_schema(mut self, schema: &str) -> Result<Self, IdentifierError> {
        self.urn_schema = quote(schema)?;
        self.urn_schema_given = true;
        Ok(self)
    }

    /// This table hash-partitioned into `partitions` partitions (PostgreSQL; at least 1), for
    /// tables that outgrow one node's indexes or that a sharding layer (Citus) distributes.
    ///
    /// PostgreSQL can neither partition on a generated column nor enforce a UNIQUE constraint
    /// that does not hold the partition key, so the partitioned layout stores
    /// `urn_key_index(urn_key)` in a plain column `<key>_index` (checked against the generated
    /// key by a CHECK constraint, so no client can store a wrong one), partitions on it and
    /// makes it UNIQUE: equal keys always land in the same partition. The helpers fill it in.
    ///
    /// ```
    /// use urn_sql::{Dialect, UrnTable};
    /// let table = UrnTable::new("items")?.hash_partitioned(4)?;
    /// assert!(Dialect::Postgres.create_table_sql(&table).contains("PARTITION BY HASH (\"urn_key_index\")"));
    /// # Ok::<(), urn_sql::IdentifierError>(())
    /// ```
    pub fn hash_partitioned(mut self, partitions: u32) -> Result<Self, IdentifierError> {
        self.key_index = Some(quote(&format!("{}_index", self.bare_key()))?);
        self.partitions = partitions.max(1);
        Ok(self)
    }

    /// The key column's name without quotes.
    pub(crate) fn bare_key(&self) -> &str {
        self.key.trim_matches('"')
    }

    /// The table's name without schema and quotes.
    pub(crate) fn bare_name(&self) -> &str {
        &self.bare
    }

    /// The schema (MariaDB: database) the name gives, without quotes; `None` when it gives
    /// none.
    pub(crate) fn schema_name(&self) -> Option<&str> {
        let schema = self.schema.trim_end_matches('.').trim_matches('"');
        (!schema.is_empty()).then_some(schema)
    }

    /// The quoted name of a column about the key: `<key>_<suffix>` (`urn_key_v2`).
    pub(crate) fn key_column_named(&self, suffix: &str) -> String {
        quote_truncated(&format!("{}_{suffix}", self.bare_key()))
    }

    /// The number of hash partitions (0: not partitioned).
    pub(crate) fn partitions(&self) -> u32 {
        self.partitions
    }

    /// The quoted `urn_key_index` column of a hash-partitioned table.
    pub(crate) fn key_index_column(&self) -> Option<&str> {
        self.key_index.as_deref()
    }

    /// The quoted schema of urn-sql's PostgreSQL objects.
    pub(crate) fn urn_schema(&self) -> &str {
        &self.urn_schema
    }

    /// Whether the caller named both the table's schema and urn-sql's (PostgreSQL): otherwise
    /// `public` stands in for what was not named, and the statements check its owners first.
    pub(crate) fn schemas_given(&self) -> bool {
        !self.schema.is_empty() && self.urn_schema_given
    }

    /// The quoted name of the unique index (PostgreSQL) or constraint (MariaDB) on the key:
    /// `<table>_<key>_unique`.
    pub(crate) fn unique_index_name(&self) -> String {
        quote_truncated(&format!("{}_{}_unique", self.bare, self.bare_key()))
    }

    /// The quoted name of a constraint of the table about its key: `<table>_<key>_<what>`.
    pub(crate) fn key_constraint_name(&self, what: &str) -> String {
        quote_truncated(&format!("{}_{}_{what}", self.bare, self.bare_key()))
    }

    /// The quoted name of partition `n` of a partitioned table, in the table's PostgreSQL
    /// schema: `<table>_p<n>`.
    pub(crate) fn partition_name(&self, n: u32) -> String {
        format!(
            "{}{}",
            self.postgres_schema(),
            quote_truncated(&format!("{}_p{n}", self.bare))
        )
    }

    /// The quoted table name as given, schema-qualified or not (SQLite, MariaDB).
    pub(crate) fn qualified_name(&self) -> &str {
        &self.name
    }

    /// The quoted table name, always schema-qualified (PostgreSQL): `"public"."items"` for
    /// `items`.
    pub(crate) fn postgres_name(&self) -> String {
        format!("{}{}", self.postgres_schema(), quote_truncated(&self.bare))
    }

    /// The quoted schema of the table and its dot, `"public".` when the name has none.
    pub(crate) fn postgres_schema(&self) -> String {
        if self.schema.is_empty() {
            format!("\"{DEFAULT_SCHEMA}\".")
        } else {
            self.schema.clone()
        }
    }

    /// The quoted name, qualified as the table's is, that a MariaDB table is built under
    /// before it takes its own: `urn_sql_new_<table>`.
    pub(crate) fn building_name(&self) -> String {
        format!(
            "{}{}",
            self.schema,
            quote_truncated(&format!("urn_sql_new_{}", self.bare))
        )
    }

    /// The quoted name of the column holding the key's SHA-256 (MariaDB): `<key>_sha256`.
    pub(crate) fn key_digest_column(&self) -> String {
        quote_truncated(&format!("{}_sha256", self.bare_key()))
    }

    /// The quoted name of the column holding the URN's own SHA-256 (MariaDB): `<urn>_sha256`,
    /// generated with the key, so the table can tell a key computed from another URN.
    pub(crate) fn urn_digest_column(&self) -> String {
        quote_truncated(&format!("{}_sha256", self.urn.trim_matches('"')))
    }

    /// The quoted id column.
    pub(crate) fn id_column(&self) -> &str {
        &self.id
    }

    /// The quoted URN column.
    pub(crate) fn urn_column(&self) -> &str {
        &self.urn
    }

    /// The quoted key column.
    pub(crate) fn key_column(&self) -> &str {
        &self.key
    }

    /// `id, urn, key` for `SELECT` and `RETURNING` lists, named as
    /// [`StoredUrn`](crate::row::StoredUrn)'s fields whatever the column names.
    pub(crate) fn returning(&self) -> String {
        format!(
            "{} AS id, {} AS urn, {} AS urn_key",
            self.id, self.urn, self.key
        )
    }
}

/// The longest name both PostgreSQL (63 bytes, longer names cut) and MariaDB (64
/// characters, longer names refused) keep as written.
pub(crate) const MAX_IDENTIFIER: usize = 63;

/// A name derived from checked identifiers (`<table>_<key>_unique`), made to fit
/// [`MAX_IDENTIFIER`]: kept when it fits; otherwise cut, with `_` and a hash of the whole
/// name in 8 hex digits in the last 9 bytes, so two long names that differ only past the cut
/// (`…_v2_unique`, `…_v2_collisions`) stay two names.
pub(crate) fn fitted(name: &str) -> String {
    if name.len() <= MAX_IDENTIFIER {
        return name.to_owned();
    }
    // FNV-1a (32 bits): no secret is at stake, only names that must differ.
    let hash = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let head = name.get(..MAX_IDENTIFIER - 9).unwrap_or(name);
    format!("{head}_{hash:08x}")
}

/// Double-quotes a name derived from checked identifiers, [`fitted`].
fn quote_truncated(name: &str) -> String {
    format!("\"{}\"", fitted(name))
}

/// Checks one identifier and double-quotes it.
pub(crate) fn quote(name: &str) -> Result<String, IdentifierError> {
    let plain = !name.is_empty()
        && name.len() <= MAX_IDENTIFIER
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if plain {
        Ok(format!("\"{name}\""))
    } else {
        Err(IdentifierError { name: name.into() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_checked_and_quoted() {
        let t = UrnTable::with_columns("Things", "pk", "name", "name_key").unwrap();
        assert_eq!(t.qualified_name(), "\"Things\"");
        assert_eq!(t.postgres_name(), "\"public\".\"Things\"");
        let named = UrnTable::new("app.items")
            .unwrap()
            .hash_partitioned(2)
            .unwrap();
        assert_eq!(named.postgres_name(), "\"app\".\"items\"");
        assert_eq!(named.partition_name(1), "\"app\".\"items_p1\"");
        assert_eq!(
            t.returning(),
            "\"pk\" AS id, \"name\" AS urn, \"name_key\" AS urn_key"
        );
        assert_eq!(t.urn_schema(), "\"public\"");
        assert_eq!(
            t.with_urn_schema("urn_sql").unwrap().urn_schema(),
            "\"urn_sql\""
        );
        for bad in ["", "1a", "a-b", "a\"b", "a.b.c", "a..b", &"x".repeat(64)] {
            assert!(UrnTable::new(bad).is_err(), "{bad}");
        }
        assert!(UrnTable::new("t").unwrap().with_urn_schema("a b").is_err());
        let long = UrnTable::new(&"t".repeat(60)).unwrap();
        assert_eq!(long.unique_index_name().len(), 65);
    }

    /// Every name derived from a table's, at any length a table name may have, fits 63 bytes
    /// and is told apart from the others (51 to 53 bytes: the side table and the new index
    /// were one name, cut; MariaDB's triggers were one name from 48).
    #[test]
    fn derived_names_fit_and_differ() {
        for len in 1..=MAX_IDENTIFIER {
            let table = UrnTable::new(&"t".repeat(len)).unwrap();
            let names = [
                table.unique_index_name(),
                table.key_constraint_name("v2_unique"),
                table.key_constraint_name("v2_collisions"),
                table.key_constraint_name("v2_check"),
                table.key_constraint_name("v2"),
                table.key_constraint_name("insert"),
                table.key_constraint_name("update"),
                table.key_constraint_name("updated"),
                table.key_constraint_name("valid"),
                table.building_name(),
                table.partition_name(1),
            ];
            let mut seen = std::collections::HashSet::new();
            for name in &names {
                let bare = name.rsplit('.').next().unwrap_or(name).trim_matches('"');
                assert!(bare.len() <= MAX_IDENTIFIER, "{name}");
                assert!(seen.insert(bare.to_owned()), "{len}: {name} twice");
            }
        }
        assert_eq!(fitted("short"), "short");
        let long = fitted(&"x".repeat(80));
        assert_eq!(
            (long.len(), long.get(..54)),
            (63, Some("x".repeat(54).as_str()))
        );
    }
}
