//! serde: URNs, keys and typed-namespace URNs as plain strings (feature `serde`).
//!
//! Deserialization errors carry the input, the rule and the byte offset, so a format such as
//! serde_json reports `invalid URN "urn:example:a b": ' ' at byte 13 is not allowed in the NSS
//! at line 3 column 14`.

use alloc::string::String;
use core::fmt;

use serde_core::de::{self, Deserializer, Unexpected, Visitor};
use serde_core::{Deserialize, Serialize, Serializer};

use crate::{Namespace, NsUrn, ParseError, Urn, UrnKey, UrnRef};

/// The message for a string that failed to parse: the input quoted, then the detail.
pub(crate) fn invalid<E: de::Error>(what: &str, input: &str, e: &ParseError) -> E {
    E::custom(format_args!(
        "invalid {what} \"{}\": {}",
        input.escape_debug(),
        e.detail()
    ))
}

impl Serialize for Urn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for UrnRef<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for UrnKey<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<N: Namespace> Serialize for NsUrn<N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

struct UrnVisitor;

impl Visitor<'_> for UrnVisitor {
    type Value = Urn;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a URN string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Urn, E> {
        Urn::parse(v).map_err(|e| invalid("URN", v, &e))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Urn, E> {
        Urn::from_string_or_back(v).map_err(|(v, e)| invalid("URN", &v, &e))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Urn, E> {
        let s =
            core::str::from_utf8(v).map_err(|_| E::invalid_value(Unexpected::Bytes(v), &self))?;
        self.visit_str(s)
    }
}

impl<'de> Deserialize<'de> for Urn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_string(UrnVisitor)
    }
}

/// Zero-copy: borrows from the input, so it needs a format that can lend strings
/// (`serde_json::from_str`); a string with escapes cannot be borrowed and is an error.
impl<'de: 'a, 'a> Deserialize<'de> for UrnRef<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RefVisitor;
        impl<'de> Visitor<'de> for RefVisitor {
            type Value = UrnRef<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a borrowed URN string (one without escapes)")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<UrnRef<'de>, E> {
                UrnRef::parse(v).map_err(|e| invalid("URN", v, &e))
            }
            fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<UrnRef<'de>, E> {
                let s = core::str::from_utf8(v)
                    .map_err(|_| E::invalid_value(Unexpected::Bytes(v), &self))?;
                self.visit_borrowed_str(s)
            }
        }
        d.deserialize_str(RefVisitor)
    }
}

/// Accepts only canonical key text, so a key read back from storage is checked. Always owns
/// its text (like `Cow<str>`), so `UrnKey<'static>` fields deserialize from any input.
impl<'de> Deserialize<'de> for UrnKey<'_> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = UrnKey<'static>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a canonical URN key string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<UrnKey<'static>, E> {
                UrnKey::parse(v)
                    .map(UrnKey::into_owned)
                    .map_err(|e| invalid("URN key", v, &e))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<UrnKey<'static>, E> {
                UrnKey::from_string_or_back(v).map_err(|(v, e)| invalid("URN key", &v, &e))
            }
        }
        d.deserialize_string(KeyVisitor)
    }
}

/// Parses, then checks the namespace inside the visitor, so a format reports the position of
/// a wrong-namespace value just as it does for a syntax error.
impl<'de, N: Namespace> Deserialize<'de> for NsUrn<N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NsVisitor<N>(core::marker::PhantomData<N>);
        impl<N: Namespace> Visitor<'_> for NsVisitor<N> {
            type Value = NsUrn<N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a URN in namespace \"{}\"", N::NID)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NsUrn<N>, E> {
                NsUrn::new(UrnVisitor.visit_str(v)?).map_err(E::custom)
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<NsUrn<N>, E> {
                NsUrn::new(UrnVisitor.visit_string(v)?).map_err(E::custom)
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<NsUrn<N>, E> {
                NsUrn::new(UrnVisitor.visit_bytes(v)?).map_err(E::custom)
            }
        }
        d.deserialize_string(NsVisitor(core::marker::PhantomData))
    }
}
