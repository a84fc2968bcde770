//! One function type for every URN function: what it computes ([`Operation`]), what it does
//! with text that is not a URN ([`OnInvalid`]), and its name and signature. DataFusion's
//! `ScalarUDFImpl` for it is in [`crate::udf`]; the per-row work is urn-arrow's kernel, shared
//! with urnkit ([`crate::strings`] maps DataFusion's values onto it).

use std::sync::Arc;

use datafusion_common::DataFusionError;
use datafusion_expr::{ScalarUDF, Signature, Volatility};
use urn_arrow::Op;
use urn_core::{KeyRules, ParseError};

pub use urn_arrow::OnInvalid;

/// What a function computes from one URN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// The canonical key under `KeyRules::V2` (`urn_key_v2`), `Urn::key()`.
    KeyV2,
    /// The key under `KeyRules::V1` (`urn_key_v1`), which tables keyed before V2 hold.
    KeyV1,
    /// The RFC 8141 section 3 key (`urn_rfc8141_key`).
    Rfc8141Key,
    /// The NID as written (`urn_nid`).
    Nid,
    /// The NSS as written (`urn_nss`).
    Nss,
    /// NULL for a URN, the parser's message otherwise (`urn_check`).
    Check,
    /// Whether the text is a URN (`urn_valid`).
    Valid,
    /// The URNs in the text, a list of structs: byte span, text, key (the current rules), the
    /// resolver link's span (`urn_find`; urn-core's `find`).
    Find,
    /// What urn-core's `repair` makes of the text: a struct of the URN, the fixes and the
    /// parser's error (`urn_repair`).
    Repair,
}

impl Operation {
    /// The kernel's op.
    pub(crate) fn op(self) -> Op {
        match self {
            Operation::KeyV2 => Op::Key(KeyRules::V2),
            Operation::KeyV1 => Op::Key(KeyRules::V1),
            Operation::Rfc8141Key => Op::Rfc8141Key,
            Operation::Nid => Op::Nid,
            Operation::Nss => Op::Nss,
            Operation::Check => Op::Message,
            Operation::Valid => Op::IsValid,
            Operation::Find => Op::Find(KeyRules::CURRENT),
            Operation::Repair => Op::Repair,
        }
    }
}

/// A URN function of one string argument. Every layout DataFusion produces is accepted
/// (`Utf8`, `LargeUtf8`, `Utf8View`, dictionaries of those, scalars, `NULL`), and a text result
/// has the argument's layout (a dictionary keeps its keys: each distinct value is computed
/// once). NULL in gives NULL out; the result depends on the argument alone (`Immutable`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UrnFunction {
    name: &'static str,
    operation: Operation,
    on_invalid: OnInvalid,
    signature: Signature,
}

impl UrnFunction {
    /// The function computing `operation`, failing or giving NULL on invalid text. `Check`,
    /// `Valid`, `Find` and `Repair` never fail: `on_invalid` is ignored for them.
    pub fn new(operation: Operation, on_invalid: OnInvalid) -> Self {
        let on_invalid = match operation {
            Operation::Check | Operation::Valid | Operation::Find | Operation::Repair => {
                OnInvalid::Null
            }
            _ => on_invalid,
        };
        let name = match (operation, on_invalid) {
            (Operation::KeyV2, OnInvalid::Error) => "urn_key_v2",
            (Operation::KeyV2, OnInvalid::Null) => "try_urn_key_v2",
            (Operation::KeyV1, OnInvalid::Error) => "urn_key_v1",
            (Operation::KeyV1, OnInvalid::Null) => "try_urn_key_v1",
            (Operation::Rfc8141Key, OnInvalid::Error) => "urn_rfc8141_key",
            (Operation::Rfc8141Key, OnInvalid::Null) => "try_urn_rfc8141_key",
            (Operation::Nid, OnInvalid::Error) => "urn_nid",
            (Operation::Nid, OnInvalid::Null) => "try_urn_nid",
            (Operation::Nss, OnInvalid::Error) => "urn_nss",
            (Operation::Nss, OnInvalid::Null) => "try_urn_nss",
            (Operation::Check, _) => "urn_check",
            (Operation::Valid, _) => "urn_valid",
            (Operation::Find, _) => "urn_find",
            (Operation::Repair, _) => "urn_repair",
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

    /// The operation.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// The function's SQL name.
    pub(crate) fn sql_name(&self) -> &'static str {
        self.name
    }

    /// Its signature: any one argument, coerced by `coerce_types`.
    pub(crate) fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Whether the result is text (else boolean, list or struct).
    pub(crate) fn returns_text(&self) -> bool {
        !matches!(
            self.operation,
            Operation::Valid | Operation::Find | Operation::Repair
        )
    }

    /// The error of the kernel, as this function's: for text that is not a URN, the function,
    /// the value as an SQL literal and the parser's message, e.g. `urn_key_v1('urn:example:a%zz'):
    /// invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits`.
    pub(crate) fn error(&self, e: urn_arrow::Error) -> DataFusionError {
        match e {
            urn_arrow::Error::Invalid { value, error } => invalid(self.name, &value, &error),
            other => DataFusionError::Execution(format!("{}(): {other}", self.name)),
        }
    }
}

/// The error of a strict function on text that is not a URN: the function, the value as an
/// SQL literal (its first 200 bytes; control characters escaped), the parser's message. No
/// double quotes or backslashes of its own, so the text survives the Debug formatting Ballista
/// wraps executor errors in.
pub(crate) fn invalid(function: &str, text: &str, error: &ParseError) -> DataFusionError {
    DataFusionError::Execution(format!(
        "{function}({}): {error}",
        urn_arrow::sql_literal(text)
    ))
}
