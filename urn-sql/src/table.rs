//! [`UrnTable`]: the names of a table that follows the keyed-URN pattern, checked once so the
//! helpers can put them into SQL text safely.

use std::fmt;

/// A SQL dialect urn-sql writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// PostgreSQL 14 or later (domains, generated key column).
    Postgres,
    /// SQLite 3.35 or later (key column written from Rust, CHECK guards).
    Sqlite,
}

impl std::str::FromStr for Dialect {
    type Err = String;
    /// `postgres` (or `postgresql`, `pg`) and `sqlite`, in any case.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "postgres" | "postgresql" | "pg" => Ok(Dialect::Postgres),
            "sqlite" => Ok(Dialect::Sqlite),
            _ => Err(format!(
                "unknown SQL dialect \"{}\": expected postgres or sqlite",
                s.escape_debug()
            )),
        }
    }
}

/// A table name or column name that is not a plain SQL identifier.
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

/// A table with an integer id, a URN column and a unique key column, as urn-sql's table
/// pattern lays it out. Defaults: columns `id`, `urn`, `urn_key`.
///
/// Names are checked to be plain identifiers and always written double-quoted, so they are
/// case-sensitive as given.
///
/// ```
/// use urn_sql::{Dialect, UrnTable};
/// let table = UrnTable::new("catalog.items")?;
/// assert_eq!(table.qualified_name(), r#""catalog"."items""#);
/// assert!(table.find_sql(Dialect::Postgres).contains(r#"WHERE "urn_key" = $1"#));
/// assert!(UrnTable::new("items; DROP TABLE x").is_err());
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrnTable {
    name: String,
    id: String,
    urn: String,
    key: String,
}

impl UrnTable {
    /// The table `name` (optionally `schema.table`) with columns `id`, `urn` and `urn_key`.
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
        let name = name
            .split('.')
            .map(quote)
            .collect::<Result<Vec<_>, _>>()
            .and_then(|parts| match parts.len() {
                1 | 2 => Ok(parts.join(".")),
                _ => Err(IdentifierError { name: name.into() }),
            })?;
        Ok(UrnTable {
            name,
            id: quote(id)?,
            urn: quote(urn)?,
            key: quote(key)?,
        })
    }

    /// The quoted, possibly schema-qualified table name.
    pub fn qualified_name(&self) -> &str {
        &self.name
    }

    /// The quoted id column.
    pub fn id_column(&self) -> &str {
        &self.id
    }

    /// The quoted URN column.
    pub fn urn_column(&self) -> &str {
        &self.urn
    }

    /// The quoted key column.
    pub fn key_column(&self) -> &str {
        &self.key
    }

    /// `id, urn, key` for `SELECT` and `RETURNING` lists, named as [`StoredUrn`](crate::StoredUrn)'s
    /// fields whatever the column names.
    fn returning(&self) -> String {
        format!(
            "{} AS id, {} AS urn, {} AS urn_key",
            self.id, self.urn, self.key
        )
    }

    /// The insert-or-get statement.
    ///
    /// PostgreSQL: binds `$1` = the URN text; the database computes the key. On a conflict it
    /// performs a no-op update so `RETURNING` always yields the stored row, in one atomic
    /// statement (concurrent callers wait for each other instead of failing); `inserted` tells
    /// whether this call created it.
    ///
    /// SQLite: binds `?1` = the URN text and `?2` = its key; on a conflict nothing is returned
    /// and the caller looks the row up with [`find_sql`](UrnTable::find_sql).
    pub fn insert_or_get_sql(&self, dialect: Dialect) -> String {
        let (name, urn, key) = (&self.name, &self.urn, &self.key);
        match dialect {
            Dialect::Postgres => format!(
                "INSERT INTO {name} AS stored ({urn}) VALUES ($1) \
                 ON CONFLICT ({key}) DO UPDATE SET {urn} = stored.{urn} \
                 RETURNING {}, (stored.xmax = 0) AS inserted",
                self.returning()
            ),
            Dialect::Sqlite => format!(
                "INSERT INTO {name} ({urn}, {key}) VALUES (?1, ?2) \
                 ON CONFLICT ({key}) DO NOTHING RETURNING {}, 1 AS inserted",
                self.returning()
            ),
        }
    }

    /// The lookup by key: binds the canonical key (`$1` / `?1`), so any equivalent spelling
    /// finds the row through the unique index.
    pub fn find_sql(&self, dialect: Dialect) -> String {
        let param = match dialect {
            Dialect::Postgres => "$1",
            Dialect::Sqlite => "?1",
        };
        format!(
            "SELECT {}, false AS inserted FROM {} WHERE {} = {param}",
            self.returning(),
            self.name,
            self.key
        )
    }

    /// The `CREATE TABLE` statement for this table in `dialect` (see
    /// [`postgres::table_sql`](crate::postgres::table_sql) and
    /// [`sqlite::table_sql`](crate::sqlite::table_sql)).
    pub fn create_sql(&self, dialect: Dialect) -> String {
        match dialect {
            Dialect::Postgres => crate::postgres::table_sql(self),
            Dialect::Sqlite => crate::sqlite::table_sql(self),
        }
    }
}

/// Checks one identifier and double-quotes it.
fn quote(name: &str) -> Result<String, IdentifierError> {
    let plain = !name.is_empty()
        && name.len() <= 63
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
        assert_eq!(
            t.insert_or_get_sql(Dialect::Sqlite),
            "INSERT INTO \"Things\" (\"name\", \"name_key\") VALUES (?1, ?2) ON CONFLICT \
             (\"name_key\") DO NOTHING RETURNING \"pk\" AS id, \"name\" AS urn, \"name_key\" AS urn_key, 1 AS inserted"
        );
        for bad in ["", "1a", "a-b", "a\"b", "a.b.c", "a..b", &"x".repeat(64)] {
            assert!(UrnTable::new(bad).is_err(), "{bad}");
        }
        assert!("PG".parse::<Dialect>().is_ok());
        assert_eq!(
            "mysql".parse::<Dialect>().unwrap_err(),
            "unknown SQL dialect \"mysql\": expected postgres or sqlite"
        );
    }
}
