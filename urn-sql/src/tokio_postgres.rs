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

/// Inserts `urn` unless an equivalent URN is stored, and returns the stored row either way, in
/// one statement: concurrent callers with equivalent URNs all get the same row and no error.
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
    let row = client
        .query_one(&table.insert_or_get_sql(Dialect::Postgres), &[urn])
        .await?;
    stored(&row)
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
