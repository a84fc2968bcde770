//! The names a user of URN values writes every day: the URN types, the `urn!` literal, the
//! typed namespaces and their aliases (one per row of the namespace table), and the errors.
//!
//! Every sibling crate (urn-serde, urn-sql, urn-schema, urn-arrow, urn-datafusion) re-exports
//! urn-core whole (`urn_sql::urn_core`) and this module at its root, the same two lines in
//! each, so the same names are there in every crate, whichever one a project depends on, each
//! type with its error:
//!
//! ```
//! use urn_core::prelude::*;
//! let book: IsbnUrn = "urn:isbn:0-395-36341-1".parse()?;
//! let urn: Urn = book.into();
//! assert_eq!(urn.key().as_str(), "urn:isbn:0395363411");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::{
    Component, ErrorKind, FromStringError, KeyRules, KnownNamespace, Namespace, NamespaceError,
    NsUrn, NsUrnError, ParseError, UnknownKeyRules, Urn, UrnKey, UrnRef, namespace, ns, urn,
};

/// Re-exports the typed aliases named in the rows of the namespace table.
macro_rules! reexport_aliases {
    ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
        pub use crate::{$($alias),*};
    };
}

crate::known_namespaces!(reexport_aliases);
