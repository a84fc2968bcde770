//! tokio-postgres helpers (feature `tokio-postgres`; they take any `GenericClient`, so a
//! deadpool-postgres or bb8 connection or a transaction works too): [`install`],
//! [`insert_or_get`] and [`find`].
//!
//! Column types need nothing from here: with the feature on, `Urn`, `UrnKey` and `NsUrn<N>`
//! implement postgres-types' `ToSql` and `FromSql` for `text`-like columns and the `urn` and
//! `urn_key` domains (`Vec<Urn>` for `urn[]`), so `&[&urn]` parameters and
//! `row.try_get::<_, Urn>("urn")` work; a stored value that is not a valid URN is an error for
//! that row only, with the same text as sqlx and diesel give.

use ::tokio_postgres::types::{FromSql, Type};
use ::tokio_postgres::{Error, GenericClient, Row};
use urn_core::{KeyRules, Urn, UrnKey};

use crate::protocol::{self, Client, Inserted, Plan};
use crate::row::StoredUrn;
use crate::table::UrnTable;

/// Runs the portable install ([`postgres::UP`](crate::postgres::UP)): one simple-protocol
/// message, so one transaction. It creates the domains and functions, or brings an older
/// install up to date, and does nothing when they are current.
///
/// ```no_run
/// # async fn f(client: &tokio_postgres::Client) -> Result<(), tokio_postgres::Error> {
/// urn_sql::tokio_postgres::install(client).await?;
/// # Ok(()) }
/// ```
pub async fn install<C: GenericClient>(client: &C) -> Result<(), Error> {
    protocol::install(&mut Conn(client), crate::postgres::INSTALL).await
}

/// Inserts `urn` into `table` unless an equivalent URN is stored, and returns the stored row
/// either way; `inserted` is true only for the call that inserted it. Concurrent callers with
/// equivalent URNs all get the same row and no error.
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
    let plan = crate::postgres::plan(table);
    protocol::insert_or_get(&mut Conn(client), &plan, urn).await
}

/// Finds the row of `table` holding `urn` in any equivalent spelling (an index lookup by
/// key).
pub async fn find<C: GenericClient>(
    client: &C,
    table: &UrnTable,
    urn: &Urn,
) -> Result<Option<StoredUrn>, Error> {
    let plan = crate::postgres::plan(table);
    protocol::find(&mut Conn(client), &plan, urn).await
}

/// One client running the protocol's statements.
struct Conn<'c, C>(&'c C);

/// Reads a [`StoredUrn`] from a row of the protocol's statements; with `rules` (an insert's
/// row), its key checked to be a key under those rules, the table's (a row keyed by other rules
/// fails as a conversion error, the one kind of error tokio-postgres makes: see
/// [`KeyUnder`]). A lookup's row has the key it was looked up by.
fn stored(row: &Row, rules: Option<KeyRules>) -> Result<StoredUrn, Error> {
    let key = match rules {
        None => row.try_get(2),
        Some(rules) => {
            EXPECTED.with(|expected| expected.set(rules));
            row.try_get::<_, KeyUnder>(2).map(|k| k.0)
        }
    };
    StoredUrn::read(row.try_get(0), row.try_get(1), key, row.try_get(3))
}

std::thread_local! {
    /// The key rules the next [`KeyUnder`] read holds a key to: `FromSql` has no argument,
    /// and [`stored`] sets this right before the read on the same thread.
    static EXPECTED: std::cell::Cell<KeyRules> = const { std::cell::Cell::new(KeyRules::CURRENT) };
}

/// A key column read as a key under the key rules [`stored`] expects: the protocol's check
/// that a row's key is under the table's rules, made while reading.
struct KeyUnder(UrnKey<'static>);

impl<'a> FromSql<'a> for KeyUnder {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let key = UrnKey::from_sql(ty, raw)?;
        let rules = EXPECTED.with(std::cell::Cell::get);
        match UrnKey::parse_with(key.as_str(), rules) {
            Ok(_) => Ok(KeyUnder(key)),
            Err(e) => Err(format!(
                "the table stored the key {key}, which is not a key under the key rules \
                 {rules} ({e}): the table is keyed by other rules (declare them with \
                 UrnTable::with_key_rules, or re-key the table: urn sql --rekey)"
            )
            .into()),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <UrnKey<'static> as FromSql>::accepts(ty)
    }
}

impl<C: GenericClient> Client for Conn<'_, C> {
    type Error = Error;

    async fn insert(&mut self, plan: &Plan, urn: &Urn) -> Inserted<Error> {
        match self.0.query_opt(&plan.insert, &[urn]).await {
            Ok(Some(row)) => {
                stored(&row, Some(plan.rules)).map_or_else(Inserted::Failed, Inserted::Row)
            }
            Ok(None) => Inserted::Nothing,
            Err(e) => Inserted::Failed(e),
        }
    }

    async fn find(&mut self, sql: &str, key: &UrnKey<'_>) -> Result<Option<StoredUrn>, Error> {
        let row = self.0.query_opt(sql, &[key]).await?;
        row.map(|row| stored(&row, None)).transpose()
    }

    async fn execute(&mut self, sql: &str) -> Result<(), Error> {
        self.0.batch_execute(sql).await
    }

    fn refused(_: String) -> Option<Error> {
        // tokio-postgres makes no error of a message (and PostgreSQL installs probe nothing).
        None
    }

    fn key_error(_: String) -> Option<Error> {
        // Checked while reading the row (`stored`).
        None
    }

    async fn find_one(&mut self, sql: &str, key: &UrnKey<'_>) -> Result<StoredUrn, Error> {
        stored(&self.0.query_one(sql, &[key]).await?, None)
    }
}
