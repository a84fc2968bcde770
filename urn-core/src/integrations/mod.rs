//! Trait implementations for other crates' traits, one file per integration, each behind
//! its feature. They live here because Rust's orphan rule allows them nowhere else.

#[cfg(feature = "serde")]
pub(crate) mod serde;
#[cfg(feature = "uuid")]
mod uuid;
