//! The machinery behind the `with`-modules: a [`Representation`] says how one `Urn` is written
//! and read, and `with_module!` derives the plain, `option` and `vec` modules from it.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use urn_core::{Syntax, Urn, UrnBuilder};

/// How a [`Urn`] is written to and read from a serde format. Implement it to plug a
/// representation of your own into the same `option`/`vec` helpers.
pub trait Representation {
    /// Writes one URN.
    fn serialize<S: Serializer>(urn: &Urn, serializer: S) -> Result<S::Ok, S::Error>;
    /// Reads one URN.
    fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Urn, D::Error>;
}

/// Serializes through `R` (for `Option` and `Vec`).
pub(crate) struct Ser<'a, R>(pub(crate) &'a Urn, pub(crate) core::marker::PhantomData<R>);

impl<R: Representation> Serialize for Ser<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        R::serialize(self.0, s)
    }
}

/// Deserializes through `R` (for `Option` and `Vec`).
pub(crate) struct De<R>(pub(crate) Urn, pub(crate) core::marker::PhantomData<R>);

impl<'de, R: Representation> Deserialize<'de> for De<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        R::deserialize(d).map(|urn| De(urn, core::marker::PhantomData))
    }
}

/// The canonical key on output, any URN on input.
pub(crate) enum Canonical {}

impl Representation for Canonical {
    fn serialize<S: Serializer>(urn: &Urn, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(urn.key().as_str())
    }
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Urn, D::Error> {
        Urn::deserialize(d)
    }
}

/// RFC 2141 on input, the text on output.
pub(crate) enum Rfc2141 {}

impl Representation for Rfc2141 {
    fn serialize<S: Serializer>(urn: &Urn, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(urn.as_str())
    }
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Urn, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Urn::parse_with(&text, Syntax::Rfc2141).map_err(|e| {
            D::Error::custom(format_args!(
                "invalid RFC 2141 URN \"{}\": {}",
                text.escape_debug(),
                e.detail()
            ))
        })
    }
}

/// The struct form.
pub(crate) enum Parts {}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UrnParts<'a> {
    #[serde(borrow)]
    nid: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    nss: std::borrow::Cow<'a, str>,
    #[serde(default, borrow)]
    r_component: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    q_component: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, borrow)]
    f_component: Option<std::borrow::Cow<'a, str>>,
}

impl Representation for Parts {
    fn serialize<S: Serializer>(urn: &Urn, s: S) -> Result<S::Ok, S::Error> {
        UrnParts {
            nid: urn.nid().into(),
            nss: urn.nss().into(),
            r_component: urn.r_component().map(Into::into),
            q_component: urn.q_component().map(Into::into),
            f_component: urn.f_component().map(Into::into),
        }
        .serialize(s)
    }
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Urn, D::Error> {
        let p = UrnParts::deserialize(d)?;
        UrnBuilder::new(&p.nid, &p.nss)
            .r_component(p.r_component.as_deref())
            .q_component(p.q_component.as_deref())
            .f_component(p.f_component.as_deref())
            .build()
            .map_err(|e| D::Error::custom(format_args!("invalid URN parts: {}", e.detail())))
    }
}

/// Expands to `serialize`/`deserialize` for `Urn` plus `option` and `vec` submodules, all
/// going through the given [`Representation`].
macro_rules! with_module {
    ($repr:ty) => {
        use serde::{Deserializer, Serializer};
        use urn_core::Urn;

        /// Serializes a `Urn` in this representation.
        pub fn serialize<S: Serializer>(urn: &Urn, serializer: S) -> Result<S::Ok, S::Error> {
            <$repr as $crate::Representation>::serialize(urn, serializer)
        }

        /// Deserializes a `Urn` from this representation.
        pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Urn, D::Error> {
            <$repr as $crate::Representation>::deserialize(deserializer)
        }

        /// The same representation for `Option<Urn>` (`None` is `null`).
        pub mod option {
            use serde::{Deserialize, Deserializer, Serialize, Serializer};
            use urn_core::Urn;

            use $crate::representation::{De, Ser};

            /// Serializes an `Option<Urn>`.
            pub fn serialize<S: Serializer>(
                urn: &Option<Urn>,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                urn.as_ref()
                    .map(|u| Ser::<$repr>(u, core::marker::PhantomData))
                    .serialize(serializer)
            }

            /// Deserializes an `Option<Urn>`.
            pub fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Option<Urn>, D::Error> {
                Ok(Option::<De<$repr>>::deserialize(deserializer)?.map(|d| d.0))
            }
        }

        /// The same representation for `Vec<Urn>`.
        pub mod vec {
            use serde::{Deserialize, Deserializer, Serializer};
            use urn_core::Urn;

            use $crate::representation::{De, Ser};

            /// Serializes a `Vec<Urn>`.
            pub fn serialize<S: Serializer>(
                urns: &[Urn],
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(
                    urns.iter()
                        .map(|u| Ser::<$repr>(u, core::marker::PhantomData)),
                )
            }

            /// Deserializes a `Vec<Urn>`.
            pub fn deserialize<'de, D: Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Vec<Urn>, D::Error> {
                Ok(Vec::<De<$repr>>::deserialize(deserializer)?
                    .into_iter()
                    .map(|d| d.0)
                    .collect())
            }
        }
    };
}

pub(crate) use with_module;
