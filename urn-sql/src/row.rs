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
