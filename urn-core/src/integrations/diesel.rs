//! diesel: `Urn`, `UrnKey` and `NsUrn<N>` as `Text` columns (and `UrnRef` as a bind
//! parameter: diesel reads values back owned), or as the `urn` / `urn_key`
//! PostgreSQL domains through the [`sql_types`](crate::sql_types) markers (features `diesel`,
//! `diesel-postgres`, `diesel-sqlite`, `diesel-mariadb`).
//!
//! The impls are generic over the backend, so they work wherever `str: ToSql<Text, DB>` and
//! `String: FromSql<Text, DB>` do. Reading re-checks the stored text: a value that is not a
//! valid URN (or not a canonical key, or not of the expected namespace) is a deserialization
//! error that names the value and the rule.

use alloc::string::String;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

use super::stored_value;
use crate::{Namespace, NsUrn, Urn, UrnKey, UrnRef};

/// Implements `ToSql` and `FromSql` for one Rust type and one SQL type by delegating to the
/// backend's text impls, with `$decode` checking the text read back.
macro_rules! text_sql {
    ([$($gen:tt)*], $ty:ty, $sql:ty, $decode:expr) => {
        text_sql!(@to_sql [$($gen)*], $ty, $sql);

        impl<$($gen)* DB: Backend> FromSql<$sql, DB> for $ty
        where
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let text = <String as FromSql<Text, DB>>::from_sql(bytes)?;
                Ok($decode(text)?)
            }
        }
    };
    (@to_sql [$($gen:tt)*], $ty:ty, $sql:ty) => {
        impl<$($gen)* DB: Backend> ToSql<$sql, DB> for $ty
        where
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                <str as ToSql<Text, DB>>::to_sql(self.as_str(), out)
            }
        }
    };
}

text_sql!([], Urn, Text, stored_value::urn);
text_sql!(@to_sql ['a,], UrnRef<'a>, Text);
text_sql!(@to_sql ['a,], UrnRef<'a>, crate::sql_types::Urn);
text_sql!([], Urn, crate::sql_types::Urn, stored_value::urn);
// A key read back is always owned, so it can be read as any `UrnKey<'a>`.
text_sql!(['a,], UrnKey<'a>, Text, stored_value::key);
text_sql!(['a,], UrnKey<'a>, crate::sql_types::UrnKey, stored_value::key);
text_sql!([N: Namespace,], NsUrn<N>, Text, stored_value::ns_urn::<N>);
text_sql!([N: Namespace,], NsUrn<N>, crate::sql_types::Urn, stored_value::ns_urn::<N>);
