//! [`StoredUrn`]: what the helpers return, a row of a keyed-URN table: what every
//! statement of the insert-or-get protocol returns, `id, urn, urn_key, inserted`.

use urn_core::{Urn, UrnKey};

/// One row of a table that follows the keyed-URN pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    any(
        feature = "diesel-postgres",
        feature = "diesel-sqlite",
        feature = "diesel-mariadb"
    ),
    derive(diesel::QueryableByName)
)]
pub struct StoredUrn {
    /// The row id.
    #[cfg_attr(
        any(feature = "diesel-postgres", feature = "diesel-sqlite", feature = "diesel-mariadb"),
        diesel(sql_type = diesel::sql_types::BigInt)
    )]
    pub id: i64,
    /// The URN as first stored (the spelling of the first insert wins).
    #[cfg_attr(
        any(feature = "diesel-postgres", feature = "diesel-sqlite", feature = "diesel-mariadb"),
        diesel(sql_type = diesel::sql_types::Text)
    )]
    pub urn: Urn,
    /// Its canonical key.
    #[cfg_attr(
        any(feature = "diesel-postgres", feature = "diesel-sqlite", feature = "diesel-mariadb"),
        diesel(sql_type = diesel::sql_types::Text, column_name = urn_key)
    )]
    pub key: UrnKey<'static>,
    /// Whether this call inserted the row (`false`: it already existed, or it was looked up).
    #[cfg_attr(
        any(feature = "diesel-postgres", feature = "diesel-sqlite", feature = "diesel-mariadb"),
        diesel(sql_type = diesel::sql_types::Bool)
    )]
    pub inserted: bool,
}

impl StoredUrn {
    /// The row from its four columns, in the order every statement of the protocol returns
    /// them (`id, urn, urn_key, inserted`): each client reads column `i` its own way.
    #[cfg_attr(
        not(any(
            feature = "sqlx-postgres",
            feature = "sqlx-sqlite",
            feature = "sqlx-mariadb",
            feature = "tokio-postgres",
            feature = "rusqlite",
            feature = "sea-orm"
        )),
        allow(dead_code)
    )]
    pub(crate) fn read<E>(
        id: Result<i64, E>,
        urn: Result<Urn, E>,
        key: Result<UrnKey<'static>, E>,
        inserted: Result<bool, E>,
    ) -> Result<Self, E> {
        Ok(StoredUrn {
            id: id?,
            urn: urn?,
            key: key?,
            inserted: inserted?,
        })
    }
}
