//! Checking text read back from a database, shared by the sqlx, diesel, tokio-postgres,
//! rusqlite and SeaORM integrations.
//!
//! A database can hold text that no `Urn` would have written (another client, a manual
//! `UPDATE`, a migration gone wrong). Reading it must fail with an error that names the value
//! and the rule, never yield a wrong `Urn` and never panic.

use alloc::string::String;
use core::fmt;

use crate::{Namespace, NsUrn, NsUrnError, ParseError, Urn, UrnKey};

/// A stored value that is not what its column type promises.
#[derive(Debug)]
pub(crate) struct StoredValueError {
    /// What the column should hold ("URN", "URN key", "isbn URN").
    what: String,
    /// The offending value, as stored.
    value: String,
    /// Why it was refused.
    reason: Reason,
}

#[derive(Debug)]
enum Reason {
    Parse(ParseError),
    Namespace(NsUrnError),
}

impl fmt::Display for StoredValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stored value \"{}\" is not a valid {}: ",
            self.value.escape_debug(),
            self.what
        )?;
        match &self.reason {
            Reason::Parse(e) => fmt::Display::fmt(&e.detail(), f),
            Reason::Namespace(NsUrnError::InvalidNss(e)) => {
                write!(f, "{} (byte {})", e.reason(), e.offset())
            }
            Reason::Namespace(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for StoredValueError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.reason {
            Reason::Parse(e) => Some(e),
            Reason::Namespace(e) => Some(e),
        }
    }
}

/// A URN read from a column: parsed by RFC 8141, keeping the text without a copy.
pub(crate) fn urn(value: String) -> Result<Urn, StoredValueError> {
    Urn::from_string_or_back(value).map_err(|(value, e)| StoredValueError {
        what: "URN".into(),
        value,
        reason: Reason::Parse(e),
    })
}

/// A URN borrowed from a column's text (copied only into an error).
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "sqlx-mariadb"
))]
pub(crate) fn urn_ref(value: &str) -> Result<crate::UrnRef<'_>, StoredValueError> {
    crate::UrnRef::parse(value).map_err(|e| StoredValueError {
        what: "URN".into(),
        value: value.into(),
        reason: Reason::Parse(e),
    })
}

/// A key read from a column: it must be canonical key text under some version of
/// [`KeyRules`](crate::KeyRules) (a table keeps the version it was keyed by; the error is the
/// one for [`KeyRules::CURRENT`](crate::KeyRules::CURRENT)).
pub(crate) fn key(value: String) -> Result<UrnKey<'static>, StoredValueError> {
    UrnKey::from_stored_or_back(value).map_err(|(value, e)| StoredValueError {
        what: "URN key".into(),
        value,
        reason: Reason::Parse(e),
    })
}

/// A typed-namespace URN read from a column: a URN whose NID and NSS fit `N`.
pub(crate) fn ns_urn<N: Namespace>(value: String) -> Result<NsUrn<N>, StoredValueError> {
    NsUrn::new_or_back(urn(value)?).map_err(|(urn, e)| StoredValueError {
        what: alloc::format!("{} URN", N::NID),
        value: urn.into_string(),
        reason: Reason::Namespace(e),
    })
}
