//! `postgres-types` `ToSql`/`FromSql` (tokio-postgres, postgres, deadpool-postgres) for `Urn`,
//! `UrnRef`, `UrnKey` and `NsUrn<N>`: bound as text, accepted by `text`-like columns and by the
//! `urn`/`urn_key` domains (and `urn[]` through `Vec`); read back checked, with the same error
//! text as sqlx and diesel. `Option<T>` maps NULL, `Vec<T>` and `&[T]` map arrays, through
//! postgres-types' own impls.

use alloc::boxed::Box;
use alloc::string::ToString;
use core::error::Error;

use bytes::BytesMut;
use postgres_types::{FromSql, IsNull, Kind, ToSql, Type, to_sql_checked};

use super::stored_value;
use crate::{Namespace, NsUrn, Urn, UrnKey, UrnRef};

/// `text`-like types (those `String` takes) and domains over them, however deep.
fn text_like(ty: &Type) -> bool {
    match ty.kind() {
        Kind::Domain(base) => text_like(base),
        _ => <&str as ToSql>::accepts(ty),
    }
}

type BoxError = Box<dyn Error + Sync + Send>;

macro_rules! to_sql {
    ($($ty:ty $(, $gen:ident : $bound:path)?;)*) => {$(
        impl<$($gen: $bound)?> ToSql for $ty {
            fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                out.extend_from_slice(self.as_str().as_bytes());
                Ok(IsNull::No)
            }

            fn accepts(ty: &Type) -> bool {
                text_like(ty)
            }

            to_sql_checked!();
        }
    )*};
}

to_sql! {
    Urn;
    UrnRef<'_>;
    UrnKey<'_>;
    NsUrn<N>, N: Namespace;
}

macro_rules! from_sql {
    ($($ty:ty => $check:expr $(, $gen:ident : $bound:path)?;)*) => {$(
        impl<'a $(, $gen: $bound)?> FromSql<'a> for $ty {
            fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                let text = core::str::from_utf8(raw)?;
                $check(text.to_string()).map_err(|e| Box::new(e) as BoxError)
            }

            fn accepts(ty: &Type) -> bool {
                text_like(ty)
            }
        }
    )*};
}

from_sql! {
    Urn => stored_value::urn;
    UrnKey<'static> => stored_value::key;
    NsUrn<N> => stored_value::ns_urn::<N>, N: Namespace;
}
