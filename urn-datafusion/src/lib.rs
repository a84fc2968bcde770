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

pub use function::{OnInvalid, UrnFunction};
pub use urn_arrow::Operation;
// urn-core whole, and its prelude at the root: the same names in every sibling crate.
pub use urn_core;
pub use urn_core::prelude::*;

/// Every function of this crate, one per row of urn-arrow's operations table
/// ([`urn_arrow::operations`]) and, for a row that needs a URN, its `try_` form too: the
/// functions of urn-sql's SQL (`urn_key_v2`, `urn_check`, …) by the same names, `urn_key` (the
/// current rules), `urn_problem`, `urn_find` and `urn_repair`.
///
/// ```
/// let names: Vec<String> = urn_datafusion::all().iter().map(|f| f.name().to_owned()).collect();
/// assert!(names.contains(&"urn_key_v2".to_owned()) && names.contains(&"try_urn_key_v1".to_owned()));
/// assert_eq!(names.len(), urn_arrow::operations().len() + 6);
/// ```
pub fn all() -> Vec<Arc<ScalarUDF>> {
    urn_arrow::operations()
        .into_iter()
        .flat_map(|operation| {
            let strict = UrnFunction::new(operation.clone(), OnInvalid::Error).into_udf();
            let lenient = operation
                .try_sql_name()
                .map(|_| UrnFunction::new(operation, OnInvalid::Null).into_udf());
            std::iter::once(strict).chain(lenient)
        })
        .collect()
}

/// The function of this SQL name (`urn_key_v2`, `try_urn_key_v2`, `urn_find`, …), if there is
/// one.
///
/// ```
/// let key = urn_datafusion::function("urn_key_v1").unwrap();
/// assert_eq!(key.name(), "urn_key_v1");
/// assert!(urn_datafusion::function("urn_nope").is_none());
/// ```
pub fn function(name: &str) -> Option<Arc<ScalarUDF>> {
    all().into_iter().find(|f| f.name() == name)
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
