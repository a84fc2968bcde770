//! serde support for URNs: strings on the wire, typed-namespace fields, alternative representations (filled by the urn-serde issue).
#![forbid(unsafe_code)]

pub use urn_core::*;
