//! sqlx: `Urn`, `UrnRef`, `UrnKey` and `NsUrn<N>` as text columns (features `sqlx-postgres`,
//! `sqlx-sqlite`, `sqlx-mariadb`). A `UrnRef<'r>` decodes without a copy, borrowing the row's text.
//!
//! On PostgreSQL they match `text`, `varchar` and domains over them (the `urn` and `urn_key`
//! domains of urn-sql), and arrays of those for `Vec<_>`. On SQLite they are `TEXT`. On MySQL
//! and MariaDB they match what sqlx's `str` matches: the text types (`CHAR`, `VARCHAR`, the
//! `TEXT`s, `ENUM`), whatever their collation, except a `binary` one. Decoding
//! re-checks the stored text: a value that is not a valid URN (or not a canonical key, or not of
//! the expected namespace) is a decode error that names the value and the rule.

use alloc::string::String;

use sqlx_core::database::Database;
use sqlx_core::decode::Decode;
use sqlx_core::encode::{Encode, IsNull};
use sqlx_core::error::BoxDynError;
use sqlx_core::types::Type;

use super::stored_value;
use crate::{Namespace, NsUrn, Urn, UrnKey, UrnRef};

/// Implements `Type`, `Encode` and `Decode` for one database by delegating to `String`,
/// with `$decode` checking the text read back.
macro_rules! text_column {
    ($db:ty, [$($gen:tt)*], $ty:ty, $decoded:ty, $decode:expr) => {
        text_column!(@encode $db, [$($gen)*], $ty);

        impl<'r, $($gen)*> Decode<'r, $db> for $decoded {
            fn decode(value: <$db as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                let text = <String as Decode<'r, $db>>::decode(value)?;
                Ok($decode(text)?)
            }
        }
    };
    // A borrowed URN: read as the row's `&str`, parsed in place.
    (@borrowed $db:ty) => {
        text_column!(@encode $db, [], UrnRef<'_>);

        impl<'r> Decode<'r, $db> for UrnRef<'r> {
            fn decode(value: <$db as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                let text = <&'r str as Decode<'r, $db>>::decode(value)?;
                Ok(stored_value::urn_ref(text)?)
            }
        }
    };
    (@encode $db:ty, [$($gen:tt)*], $ty:ty) => {
        impl<$($gen)*> Type<$db> for $ty {
            fn type_info() -> <$db as Database>::TypeInfo {
                <String as Type<$db>>::type_info()
            }
            fn compatible(ty: &<$db as Database>::TypeInfo) -> bool {
                text_compatible(ty)
            }
        }

        impl<$($gen)*> Encode<'_, $db> for $ty {
            fn encode_by_ref(
                &self,
                buf: &mut <$db as Database>::ArgumentBuffer,
            ) -> Result<IsNull, BoxDynError> {
                <&str as Encode<'_, $db>>::encode(self.as_str(), buf)
            }
            fn size_hint(&self) -> usize {
                self.as_str().len()
            }
        }
    };
}

#[cfg(feature = "sqlx-postgres")]
mod postgres {
    use super::*;
    use sqlx_postgres::{PgHasArrayType, PgTypeInfo, PgTypeKind, Postgres};

    /// `text`-like types, and domains over them (sqlx 0.9 already looks through domains; the
    /// explicit arm keeps nested or name-declared domains working too).
    pub(super) fn text_compatible(ty: &PgTypeInfo) -> bool {
        <String as Type<Postgres>>::compatible(ty)
            || matches!(ty.kind(), PgTypeKind::Domain(base) if text_compatible(base))
    }

    fn text_array_compatible(ty: &PgTypeInfo) -> bool {
        <String as PgHasArrayType>::array_compatible(ty)
            || matches!(ty.kind(), PgTypeKind::Array(element) if text_compatible(element))
            || matches!(ty.kind(), PgTypeKind::Domain(base) if text_array_compatible(base))
    }

    text_column!(Postgres, [], Urn, Urn, stored_value::urn);
    text_column!(@borrowed Postgres);
    text_column!(Postgres, [], UrnKey<'_>, UrnKey<'static>, stored_value::key);
    text_column!(Postgres, [N: Namespace], NsUrn<N>, NsUrn<N>, stored_value::ns_urn::<N>);

    /// `Vec<Urn>` and `&[Urn]` bind as `text[]`, which PostgreSQL assigns to `urn[]` columns
    /// (checking every element against the domain).
    impl PgHasArrayType for Urn {
        fn array_type_info() -> PgTypeInfo {
            <String as PgHasArrayType>::array_type_info()
        }
        fn array_compatible(ty: &PgTypeInfo) -> bool {
            text_array_compatible(ty)
        }
    }

    impl PgHasArrayType for UrnRef<'_> {
        fn array_type_info() -> PgTypeInfo {
            <String as PgHasArrayType>::array_type_info()
        }
        fn array_compatible(ty: &PgTypeInfo) -> bool {
            text_array_compatible(ty)
        }
    }

    impl PgHasArrayType for UrnKey<'_> {
        fn array_type_info() -> PgTypeInfo {
            <String as PgHasArrayType>::array_type_info()
        }
        fn array_compatible(ty: &PgTypeInfo) -> bool {
            text_array_compatible(ty)
        }
    }

    impl<N: Namespace> PgHasArrayType for NsUrn<N> {
        fn array_type_info() -> PgTypeInfo {
            <String as PgHasArrayType>::array_type_info()
        }
        fn array_compatible(ty: &PgTypeInfo) -> bool {
            text_array_compatible(ty)
        }
    }
}

#[cfg(feature = "sqlx-mariadb")]
mod mysql {
    use super::*;
    use sqlx_mysql::{MySql, MySqlTypeInfo};

    /// What sqlx's `str` accepts: text columns, not `binary`-collated ones.
    pub(super) fn text_compatible(ty: &MySqlTypeInfo) -> bool {
        <str as Type<MySql>>::compatible(ty)
    }

    text_column!(MySql, [], Urn, Urn, stored_value::urn);
    text_column!(@borrowed MySql);
    text_column!(MySql, [], UrnKey<'_>, UrnKey<'static>, stored_value::key);
    text_column!(MySql, [N: Namespace], NsUrn<N>, NsUrn<N>, stored_value::ns_urn::<N>);
}

#[cfg(feature = "sqlx-sqlite")]
mod sqlite {
    use super::*;
    use sqlx_sqlite::{Sqlite, SqliteTypeInfo};

    /// SQLite columns are declared `TEXT`.
    pub(super) fn text_compatible(ty: &SqliteTypeInfo) -> bool {
        <String as Type<Sqlite>>::compatible(ty)
    }

    text_column!(Sqlite, [], Urn, Urn, stored_value::urn);
    text_column!(@borrowed Sqlite);
    text_column!(Sqlite, [], UrnKey<'_>, UrnKey<'static>, stored_value::key);
    text_column!(Sqlite, [N: Namespace], NsUrn<N>, NsUrn<N>, stored_value::ns_urn::<N>);
}
