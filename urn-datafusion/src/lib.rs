#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod function;
mod strings;
mod udf;

use std::sync::Arc;

use datafusion_common::Result;
use datafusion_expr::ScalarUDF;
use datafusion_expr::registry::FunctionRegistry;

pub use function::{OnInvalid, Operation, UrnFunction};
// urn-core whole, and its prelude at the root: the same names in every sibling crate.
pub use urn_core;
pub use urn_core::prelude::*;

/// `urn_key_v2(s)`: the canonical key (`Urn::key()`, `KeyRules::V2`), as urn-sql's SQL
/// function; an invalid URN is an error naming the value and the parser's message.
pub fn urn_key_v2() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::KeyV2, OnInvalid::Error).into_udf()
}

/// `try_urn_key_v2(s)`: [`urn_key_v2`], NULL for an invalid URN.
pub fn try_urn_key_v2() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::KeyV2, OnInvalid::Null).into_udf()
}

/// `urn_key_v1(s)`: the key under `KeyRules::V1` (`Urn::key_with(KeyRules::V1)`), which
/// tables keyed before V2 hold, as urn-sql's SQL function; an invalid URN is an error.
pub fn urn_key_v1() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::KeyV1, OnInvalid::Error).into_udf()
}

/// `try_urn_key_v1(s)`: [`urn_key_v1`], NULL for an invalid URN.
pub fn try_urn_key_v1() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::KeyV1, OnInvalid::Null).into_udf()
}

/// `urn_rfc8141_key(s)`: the RFC 8141 section 3 key alone (`Urn::rfc8141_key()`); an invalid
/// URN is an error.
pub fn urn_rfc8141_key() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Rfc8141Key, OnInvalid::Error).into_udf()
}

/// `try_urn_rfc8141_key(s)`: [`urn_rfc8141_key`], NULL for an invalid URN.
pub fn try_urn_rfc8141_key() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Rfc8141Key, OnInvalid::Null).into_udf()
}

/// `urn_nid(s)`: the NID as written; an invalid URN is an error.
pub fn urn_nid() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Nid, OnInvalid::Error).into_udf()
}

/// `try_urn_nid(s)`: [`urn_nid`], NULL for an invalid URN.
pub fn try_urn_nid() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Nid, OnInvalid::Null).into_udf()
}

/// `urn_nss(s)`: the NSS as written (percent-encoding kept); an invalid URN is an error.
pub fn urn_nss() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Nss, OnInvalid::Error).into_udf()
}

/// `try_urn_nss(s)`: [`urn_nss`], NULL for an invalid URN.
pub fn try_urn_nss() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Nss, OnInvalid::Null).into_udf()
}

/// `urn_check(s)`: NULL for a valid URN, otherwise the parser's message. Never an error.
pub fn urn_check() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Check, OnInvalid::Null).into_udf()
}

/// `urn_valid(s)`: whether the text is a valid RFC 8141 URN. Never an error.
pub fn urn_valid() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Valid, OnInvalid::Null).into_udf()
}

/// `urn_find(s)`: the URNs in the text, a list of structs (`start`, `end`: byte offsets;
/// `text`; `key`; `link_start`, `link_end`: the resolver link's span or NULL), as urn-core's
/// `find` finds them (prose's end of a URN). Never an error.
pub fn urn_find() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Find, OnInvalid::Null).into_udf()
}

/// `urn_repair(s)`: what urn-core's `repair` makes of the text, a struct of `urn` (NULL when
/// not repaired), `fixes` (a list of structs: `kind`, `start`, `end`, `before`, `after`) and
/// `error` (`kind`, `offset`; NULL when repaired). Never an error.
pub fn urn_repair() -> Arc<ScalarUDF> {
    UrnFunction::new(Operation::Repair, OnInvalid::Null).into_udf()
}

/// Every function of this crate: the seven of urn-sql's SQL and the five `try_` forms.
///
/// ```
/// let names: Vec<String> = urn_datafusion::all().iter().map(|f| f.name().to_owned()).collect();
/// assert!(names.contains(&"urn_key_v2".to_owned()) && names.contains(&"try_urn_key_v1".to_owned()));
/// assert_eq!(names.len(), 14);
/// ```
pub fn all() -> Vec<Arc<ScalarUDF>> {
    vec![
        urn_key_v2(),
        try_urn_key_v2(),
        urn_key_v1(),
        try_urn_key_v1(),
        urn_rfc8141_key(),
        try_urn_rfc8141_key(),
        urn_nid(),
        try_urn_nid(),
        urn_nss(),
        try_urn_nss(),
        urn_check(),
        urn_valid(),
        urn_find(),
        urn_repair(),
    ]
}

/// Registers [`all`] the functions: on a `SessionContext` or `SessionState` (as
/// `&mut dyn FunctionRegistry`), or on Ballista's `BallistaFunctionRegistry` for its executors.
///
/// ```
/// use datafusion::prelude::SessionContext;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> datafusion::error::Result<()> {
/// let mut ctx = SessionContext::new();
/// urn_datafusion::register_all(&mut ctx)?;
/// let batches = ctx
///     .sql("SELECT urn_key_v2('URN:ISBN:0-395-36341-1') AS key, try_urn_key_v2('nope') AS bad")
///     .await?
///     .collect()
///     .await?;
/// let text = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?.to_string();
/// assert!(text.contains("urn:isbn:0395363411"));
/// # Ok(())
/// # }
/// ```
pub fn register_all(registry: &mut dyn FunctionRegistry) -> Result<()> {
    for udf in all() {
        registry.register_udf(udf)?;
    }
    Ok(())
}
