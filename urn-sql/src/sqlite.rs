//! The SQLite side: the key is computed in Rust and stored in a `TEXT` column with a UNIQUE
//! index; CHECK guards made of built-in functions keep other clients from storing text that is
//! plainly not a URN or not a key.
//!
//! Why not a key function inside SQLite, as on PostgreSQL: SQLite has no domains, and a
//! generated column needs a registered function on *every* connection, so the `sqlite3` shell
//! or another program opening the file fails with `unknown function`, and (with
//! `trusted_schema=OFF`) a function must also be registered as innocuous, which sqlx exposes
//! only through unsafe FFI. A key written from Rust works with every client; the guards stop
//! the gross mistakes (wrong scheme, bad NID, bad characters, lower-case hex in a key,
//! components in a key, a key for another namespace), while the Rust parser stays the exact
//! validator (on reading, too: a bad stored value is a decode error).

use crate::UrnTable;

/// A CHECK expression (built-in functions only) that rejects text which is plainly not an
/// RFC 8141 URN in column `col` (a quoted identifier). It accepts every valid URN.
pub fn urn_guard(col: &str) -> String {
    let nid_end = format!("instr(substr({col}, 5), ':')");
    format!(
        "length({col}) <= 8192 \
         AND lower(substr({col}, 1, 4)) = 'urn:' \
         AND {nid_end} BETWEEN 3 AND 33 \
         AND substr({col}, 5, {nid_end} - 1) NOT GLOB '*[^A-Za-z0-9-]*' \
         AND substr({col}, 5, 1) <> '-' AND substr({col}, 3 + {nid_end}, 1) <> '-' \
         AND substr({col}, 5 + {nid_end}, 1) NOT IN ('', '/', '?', '#') \
         AND {col} NOT GLOB '*[^A-Za-z0-9._~!$&''()*+,;=:@/?#%-]*' \
         AND {col} NOT GLOB '*%[^0-9A-Fa-f]*' AND {col} NOT GLOB '*%?[^0-9A-Fa-f]*' \
         AND {col} NOT GLOB '*%' AND {col} NOT GLOB '*%?' \
         AND {col} NOT GLOB '*#*#*'"
    )
}

/// A CHECK expression that rejects text in `key` that is not in canonical key form, or whose
/// NID differs from the one in `urn` (both quoted identifiers).
pub fn key_guard(key: &str, urn: &str) -> String {
    format!(
        "length({key}) <= 8192 \
         AND {key} GLOB 'urn:*' \
         AND {key} NOT GLOB '*[^A-Za-z0-9._~!$&''()*+,;=:@/%-]*' \
         AND {key} NOT GLOB '*%[a-f]*' AND {key} NOT GLOB '*%?[a-f]*' \
         AND substr({key}, 5, instr(substr({key}, 5), ':') - 1) NOT GLOB '*[^a-z0-9-]*' \
         AND substr({key}, 1, 4 + instr(substr({key}, 5), ':')) \
             = lower(substr({urn}, 1, 4 + instr(substr({urn}, 5), ':')))"
    )
}

/// The `CREATE TABLE` statement for `table`: an integer id, the URN and its key (written by
/// the application with `Urn::key()`), both guarded, the key UNIQUE.
///
/// ```
/// let sql = urn_sql::sqlite::table_sql(&urn_sql::UrnTable::new("items")?);
/// assert!(sql.contains(r#""urn_key" TEXT NOT NULL UNIQUE CHECK"#));
/// # Ok::<(), urn_sql::IdentifierError>(())
/// ```
pub fn table_sql(table: &UrnTable) -> String {
    let (id, urn, key) = (table.id_column(), table.urn_column(), table.key_column());
    format!(
        "CREATE TABLE {} (\n  {id} INTEGER PRIMARY KEY,\n  \
         {urn} TEXT NOT NULL CHECK ({}),\n  \
         {key} TEXT NOT NULL UNIQUE CHECK ({})\n);\n",
        table.qualified_name(),
        urn_guard(urn),
        key_guard(key, urn)
    )
}

/// Everything `urn sql --dialect sqlite` prints: an explanation and the table pattern for a
/// table named `items`, ready to adapt.
pub fn ddl() -> String {
    let example = UrnTable::new("items")
        .map(|t| table_sql(&t))
        .unwrap_or_default();
    format!(
        "-- urn-sql for SQLite: the key is computed by the application (urn_core::Urn::key())\n\
         -- and stored in a UNIQUE TEXT column; the CHECK guards use built-in functions only, so\n\
         -- every client (the sqlite3 shell included) can read and write the file.\n\
         -- Insert-or-get:  INSERT INTO items (urn, urn_key) VALUES (?1, ?2)\n\
         --                 ON CONFLICT (urn_key) DO NOTHING RETURNING id;\n\
         --                 then, if no row came back: SELECT id FROM items WHERE urn_key = ?2;\n\
         -- Lookup by any equivalent spelling: SELECT id, urn FROM items WHERE urn_key = ?1;\n\
         -- Lists of URNs: a child table (item_id, position, urn TEXT CHECK (...)).\n\n{example}"
    )
}
