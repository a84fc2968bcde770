//! tokio-postgres helpers (feature `postgres`; they take any `GenericClient`, so a
//! deadpool-postgres or bb8 connection or a transaction works too): install the schema,
//! insert-or-get by key, find by any equivalent spelling.
//!
//! Column types need nothing from here: with the feature on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement postgres-types' `ToSql` and `FromSql` for `text`-like columns and the `urn` and
//! `urn_key` domains (`Vec<Urn>` for `urn[]`), so `&[&urn]` parameters and
//! `row.try_get::<_, Urn>("urn")` work; a stored value that is not a valid URN is an error for
//! that row only, with the same text as sqlx and diesel give.

use ::tokio_postgres::{Error, GenericClient, Row};
use urn_core::Urn;

use crate::{Dialect, StoredUrn, UrnTable};

/// Runs the `postgres::UP` migration in one transaction: it creates the domains and functions,
/// or brings an older install up to date, and does nothing when they are current.
///
/// ```no_run
/// # async fn f(client: &mut tokio_postgres::Client) -> Result<(), tokio_postgres::Error> {
/// urn_sql::tokio_postgres::install(client).await?;
/// # Ok(()) }
/// ```
pub async fn install<C: GenericClient>(client: &mut C) -> Result<(), Error> {
    let tx = client.transaction().await?;
    tx.batch_execute(crate::postgres::UP).await?;
    tx.commit().await
}

/// Reads a [`StoredUrn`] from a row of the helpers' statements.
fn stored(row: &Row) -> Result<StoredUrn, Error> {
    Ok(StoredUrn {
        id: row.try_get(0)?,
        urn: row.try_get(1)?,
        key: row.try_get(2)?,
        inserted: row.try_get(3)?,
    })
}

/// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either way:
/// concurrent callers with equivalent URNs all get the same row and no error. One atomic
/// statement; on a [hash-partitioned](UrnTable::hash_partitioned) table, an insert that returns
/// nothing on a conflict, then the lookup (again if the row was deleted in between, three times
/// in all; `None` of rows is then an error of `query_one`'s kind).
///
/// ```no_run
/// # async fn f(client: &tokio_postgres::Client) -> Result<(), Box<dyn std::error::Error>> {
/// let table = urn_sql::UrnTable::new("items")?;
/// let first = urn_sql::tokio_postgres::insert_or_get(client, &table, &"urn:ISBN:0-395-36341-1".parse()?).await?;
/// let again = urn_sql::tokio_postgres::insert_or_get(client, &table, &"URN:isbn:0395363411".parse()?).await?;
/// assert_eq!((first.id, first.inserted, again.inserted), (again.id, true, false));
/// # Ok(()) }
/// ```
pub async fn insert_or_get<C: GenericClient>(
    client: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<StoredUrn, Error> {
    let insert = table.insert_or_get_sql(Dialect::Postgres);
    if table.insert_or_get_is_atomic(Dialect::Postgres) {
        return stored(&client.query_one(&insert, &[urn]).await?);
    }
    let (find, key) = (table.find_sql(Dialect::Postgres), urn.key());
    for _ in 0..2 {
        if let Some(row) = client.query_opt(&insert, &[urn]).await? {
            return stored(&row);
        }
        if let Some(row) = client.query_opt(&find, &[&key]).await? {
            return stored(&row);
        }
    }
    // The last try: `query_one` reports "no rows" as tokio-postgres does.
    match client.query_opt(&insert, &[urn]).await? {
        Some(row) => stored(&row),
        None => stored(&client.query_one(&find, &[&key]).await?),
    }
}

/// Finds the row holding `urn` in any equivalent spelling (an index lookup by key).
pub async fn find<C: GenericClient>(
    client: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<Option<StoredUrn>, Error> {
    let row = client
        .query_opt(&table.find_sql(Dialect::Postgres), &[&urn.key()])
        .await?;
    row.as_ref().map(stored).transpose()
}
