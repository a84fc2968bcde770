//! One function type for every URN function: a row of urn-arrow's operations table
//! ([`urn_arrow::Operation`]), what it does with text that is not a URN ([`OnInvalid`]), and
//! its name and signature. DataFusion's `ScalarUDFImpl` for it is in [`crate::udf`]; the work
//! is urn-arrow's kernel, arrays and scalars alike ([`crate::strings`]).

use std::sync::Arc;

use datafusion_common::DataFusionError;
use datafusion_expr::{ScalarUDF, Signature, Volatility};
use urn_arrow::{Op, Operation};

pub use urn_arrow::OnInvalid;

/// A URN function of one string argument. Every layout DataFusion produces is accepted
/// (`Utf8`, `LargeUtf8`, `Utf8View`, dictionaries of those, scalars, `NULL`), and a text result
/// has the argument's layout (a dictionary keeps its keys: each distinct value is computed
/// once). NULL in gives NULL out; the result depends on the argument alone (`Immutable`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UrnFunction {
    name: String,
    operation: Operation,
    on_invalid: OnInvalid,
    signature: Signature,
}

impl UrnFunction {
    /// The function computing `operation`, failing (its SQL name, `urn_key_v1`) or giving NULL
    /// (`try_urn_key_v1`) on text that is not a URN. An operation that needs no URN
    /// (`urn_check`, `urn_valid`, `urn_find`, …) never fails: `on_invalid` is ignored for it.
    pub fn new(operation: Operation, on_invalid: OnInvalid) -> Self {
        let (name, on_invalid) = match (operation.try_sql_name(), on_invalid) {
            (Some(name), OnInvalid::Null) => (name, OnInvalid::Null),
            (Some(_), OnInvalid::Error) => (operation.sql_name().to_owned(), OnInvalid::Error),
            (None, _) => (operation.sql_name().to_owned(), OnInvalid::Null),
        };
        UrnFunction {
            name,
            operation,
            on_invalid,
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }

    /// The function as DataFusion's `ScalarUDF`.
    pub fn into_udf(self) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::new_from_impl(self))
    }

    /// What the function does with text that is not a URN.
    pub fn on_invalid(&self) -> OnInvalid {
        self.on_invalid
    }

    /// The operation (its row of urn-arrow's table).
    pub fn operation(&self) -> &Operation {
        &self.operation
    }

    /// The kernel's op.
    pub(crate) fn op(&self) -> Op {
        self.operation.op()
    }

    /// The function's SQL name.
    pub(crate) fn sql_name(&self) -> &str {
        &self.name
    }

    /// Its signature: any one argument, coerced by `coerce_types`.
    pub(crate) fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The error of the kernel, as this function's: for text that is not a URN, the function,
    /// the value as an SQL literal (its first 200 bytes; control characters escaped) and the
    /// parser's message, e.g. `urn_key_v1('urn:example:a%zz'): invalid URN: '%' at byte 13 in
    /// the NSS must be followed by two hex digits` (no double quote or backslash of its own,
    /// so the text survives the Debug formatting Ballista wraps executor errors in).
    pub(crate) fn error(&self, e: urn_arrow::Error) -> DataFusionError {
        match e {
            urn_arrow::Error::Invalid { value, error } => DataFusionError::Execution(format!(
                "{}({}): {error}",
                self.name,
                urn_arrow::sql_literal(&value)
            )),
            other => DataFusionError::Execution(format!("{}(): {other}", self.name)),
        }
    }
}
