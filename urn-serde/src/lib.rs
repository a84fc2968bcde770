#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// urn-core whole, and its prelude at the root: the same names in every sibling crate (the
// column, serde and schema impls of these types live in urn-core, behind the features this
// crate turns on).
pub use urn_core;
pub use urn_core::prelude::*;

#[cfg(feature = "axum")]
pub mod axum;
mod representation;

pub use representation::Representation;

/// Serializes the canonical key instead of the original text; deserializes any valid URN.
///
/// For responses that should always carry the normal form. `canonical::option` and
/// `canonical::vec` do the same for `Option<Urn>` and `Vec<Urn>`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use urn_serde::Urn;
///
/// #[derive(Serialize, Deserialize)]
/// struct Out {
///     #[serde(with = "urn_serde::canonical")]
///     id: Urn,
///     #[serde(with = "urn_serde::canonical::vec")]
///     see_also: Vec<Urn>,
/// }
/// let out = Out {
///     id: urn_serde::urn!("URN:ISBN:0-395-36341-1").into(),
///     see_also: vec![urn_serde::urn!("urn:Example:a%2c").into()],
/// };
/// assert_eq!(
///     serde_json::to_string(&out)?,
///     r#"{"id":"urn:isbn:0395363411","see_also":["urn:example:a%2C"]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod canonical {
    crate::representation::with_module!(crate::representation::Canonical);
}

/// Accepts RFC 2141 (legacy) input, such as one-character NIDs or a NID ending in `-`;
/// serializes the text unchanged.
///
/// RFC 2141 has no r-, q- or f-components and reserves `/`, `?`, `#`, `&` and `~`, so text that
/// uses them is rejected here. `rfc2141::option` and `rfc2141::vec` cover `Option` and `Vec`.
///
/// ```
/// use serde::Deserialize;
/// use urn_serde::Urn;
///
/// #[derive(Deserialize)]
/// struct Legacy {
///     #[serde(with = "urn_serde::rfc2141")]
///     id: Urn,
/// }
/// let row: Legacy = serde_json::from_str(r#"{"id":"urn:a-:x"}"#)?;
/// assert_eq!(row.id.nid(), "a-");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub mod rfc2141 {
    crate::representation::with_module!(crate::representation::Rfc2141);
}

/// A struct form: `{"nid", "nss", "r_component", "q_component", "f_component"}`, the
/// components `null` when absent. Deserializing validates every part.
///
/// `parts::option` and `parts::vec` cover `Option` and `Vec`.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use urn_serde::Urn;
///
/// #[derive(Serialize, Deserialize)]
/// struct Doc {
///     #[serde(with = "urn_serde::parts")]
///     id: Urn,
/// }
/// let doc = Doc { id: urn_serde::urn!("urn:example:a?=lang=en").into() };
/// let json = serde_json::to_string(&doc)?;
/// assert_eq!(
///     json,
///     r#"{"id":{"nid":"example","nss":"a","r_component":null,"q_component":"lang=en","f_component":null}}"#
/// );
/// let back: Doc = serde_json::from_str(&json)?;
/// assert!(back.id.eq_text(&doc.id));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod parts {
    crate::representation::with_module!(crate::representation::Parts);
}
