//! rusqlite `ToSql`/`FromSql` for `Urn`, `UrnRef`, `UrnKey` and `NsUrn<N>`: written as TEXT,
//! read back checked (a stored value that is not a valid URN, key or typed URN is a
//! `FromSqlError::Other` naming the value and the rule, the same text as sqlx and diesel give).
//! `Option<T>` maps NULL through rusqlite's own impls.

use alloc::boxed::Box;
use alloc::string::String;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use super::stored_value;
use crate::{Namespace, NsUrn, Urn, UrnKey, UrnRef};

/// The text of a TEXT value (a BLOB or number is refused, as for any `String` column).
fn text(value: ValueRef<'_>) -> FromSqlResult<String> {
    value.as_str().map(String::from)
}

fn other(e: stored_value::StoredValueError) -> FromSqlError {
    FromSqlError::Other(Box::new(e))
}

macro_rules! to_sql {
    ($($ty:ty $(, $gen:ident : $bound:path)?;)*) => {$(
        impl<$($gen: $bound)?> ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }
    )*};
}

to_sql! {
    Urn;
    UrnRef<'_>;
    UrnKey<'_>;
    NsUrn<N>, N: Namespace;
}

impl FromSql for Urn {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        stored_value::urn(text(value)?).map_err(other)
    }
}

impl FromSql for UrnKey<'static> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        stored_value::key(text(value)?).map_err(other)
    }
}

impl<N: Namespace> FromSql for NsUrn<N> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        stored_value::ns_urn(text(value)?).map_err(other)
    }
}
