//! JSON Schema for URN fields whose pattern accepts exactly what the parser accepts (filled by the urn-schema issue).
#![forbid(unsafe_code)]

pub use urn_core::*;
