//! SeaORM 2 (feature `sea-orm`): `Urn`, `UrnKey<'static>` and `NsUrn<N>` as entity fields with
//! no newtype — `From<_> for sea_query::Value`, `ValueType`, `Nullable`, `TryGetable`, and
//! `Vec<_>` columns on PostgreSQL (`urn[]`, or any `text[]`).
//!
//! Values go to the database as text, and come back through SeaORM's own `String` decoding (so
//! every backend SeaORM's features turn on works), then the parser: text that is not what the
//! field promises is a `DbErr::Type` naming the value and the rule, NULL is `None` for an
//! `Option` field (and SeaORM's NULL error otherwise).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use sea_orm::sea_query::value::postgres_array::NotU8;
use sea_orm::sea_query::{ArrayType, ColumnType, Nullable, Value, ValueType, ValueTypeErr};
use sea_orm::{ColIdx, DbErr, QueryResult, TryGetError, TryGetable, TryGetableArray};

use super::stored_value::{self, StoredValueError};
use crate::{Namespace, NsUrn, Urn, UrnKey};

/// SeaORM's type error for a stored value the field type refuses.
fn refused(error: StoredValueError) -> TryGetError {
    TryGetError::DbErr(DbErr::Type(error.to_string()))
}

/// The text of a `Value`, for `ValueType::try_from`.
fn text(value: Value) -> Result<String, ValueTypeErr> {
    match value {
        Value::String(Some(text)) => Ok(text),
        _ => Err(ValueTypeErr),
    }
}

/// The impls for one type, given how stored text becomes it (`stored_value::urn`, …).
macro_rules! text_column {
    ([$($generics:tt)*] $ty:ty, $name:expr, $from_stored:expr, $into_text:expr) => {
        impl<$($generics)*> From<$ty> for Value {
            fn from(value: $ty) -> Value {
                let into_text: fn($ty) -> String = $into_text;
                Value::String(Some(into_text(value)))
            }
        }

        impl<$($generics)*> Nullable for $ty {
            fn null() -> Value {
                Value::String(None)
            }
        }

        impl<$($generics)*> ValueType for $ty {
            fn try_from(value: Value) -> Result<Self, ValueTypeErr> {
                $from_stored(text(value)?).map_err(|_| ValueTypeErr)
            }

            fn type_name() -> String {
                $name
            }

            fn array_type() -> ArrayType {
                ArrayType::String
            }

            fn column_type() -> ColumnType {
                ColumnType::Text
            }
        }

        impl<$($generics)*> TryGetable for $ty {
            fn try_get_by<I: ColIdx>(res: &QueryResult, index: I) -> Result<Self, TryGetError> {
                $from_stored(String::try_get_by(res, index)?).map_err(refused)
            }
        }

        impl<$($generics)*> TryGetableArray for $ty {
            fn try_get_by<I: ColIdx>(
                res: &QueryResult,
                index: I,
            ) -> Result<Vec<Self>, TryGetError> {
                Vec::<String>::try_get_by(res, index)?
                    .into_iter()
                    .map(|text| $from_stored(text).map_err(refused))
                    .collect()
            }
        }

        impl<$($generics)*> NotU8 for $ty {}
    };
}

text_column!([] Urn, "Urn".into(), stored_value::urn, Urn::into_string);
text_column!(
    [] UrnKey<'static>,
    "UrnKey".into(),
    stored_value::key,
    UrnKey::into_string
);
text_column!(
    [N: Namespace] NsUrn<N>,
    alloc::format!("NsUrn<{}>", N::NID),
    stored_value::ns_urn::<N>,
    |urn| urn.into_urn().into_string()
);
