//! `uuid::Uuid` <-> `urn:uuid:` (feature `uuid`).

use alloc::string::String;

use crate::parse::Offsets;
use crate::{KnownNamespace, Urn, UrnRef};

impl UrnRef<'_> {
    /// The UUID of a valid `urn:uuid:` URN (feature `uuid`).
    ///
    /// ```
    /// let urn = urn_core::UrnRef::parse("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")?;
    /// let uuid = urn.as_uuid().unwrap();
    /// assert_eq!(uuid.to_string(), "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
    /// # Ok::<(), urn_core::ParseError>(())
    /// ```
    pub fn as_uuid(&self) -> Option<uuid::Uuid> {
        if self.namespace() != Some(KnownNamespace::Uuid) || self.validate_namespace().is_err() {
            return None;
        }
        uuid::Uuid::try_parse(self.nss()).ok()
    }
}

impl Urn {
    /// The UUID of a valid `urn:uuid:` URN (feature `uuid`).
    pub fn as_uuid(&self) -> Option<uuid::Uuid> {
        self.as_urn_ref().as_uuid()
    }
}

/// `urn:uuid:` followed by the lower-case hyphenated UUID (its canonical key).
///
/// ```
/// let uuid = uuid::Uuid::nil();
/// let urn = urn_core::Urn::from(uuid);
/// assert_eq!(urn.as_str(), "urn:uuid:00000000-0000-0000-0000-000000000000");
/// ```
impl From<uuid::Uuid> for Urn {
    fn from(uuid: uuid::Uuid) -> Self {
        let mut text = String::with_capacity(45);
        text.push_str("urn:uuid:");
        let mut buf = uuid::Uuid::encode_buffer();
        text.push_str(uuid.hyphenated().encode_lower(&mut buf));
        let offsets = Offsets::normal_assigned_name(&text, 4);
        Urn::from_trusted(text, offsets)
    }
}
