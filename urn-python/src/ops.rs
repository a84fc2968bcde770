//! The columnar operations by name: the one list that the Arrow entry points (by name), the
//! Polars plugin (one exported function per operation) and the Python wrappers read
//! (`_urnkit.OPERATIONS`: `urnkit.arrow` and `urnkit.polars` are generated from it, and a test
//! holds them to it). Each computes urn-arrow's op.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use urn_arrow::Op;
use urn_core::KeyRules;

/// Calls `$then!` with one row per operation: its name, urn-arrow's op, the Polars plugin's
/// function symbol and field symbol, and what it returns.
macro_rules! operations {
    ($then:ident) => {
        $then! {
            key => urn_arrow::Op::Key(urn_core::KeyRules::CURRENT),
                _polars_plugin_urn_key, _polars_plugin_field_urn_key,
                "the canonical key (the current rules, V2), null for an invalid URN";
            key_v1 => urn_arrow::Op::Key(urn_core::KeyRules::V1),
                _polars_plugin_urn_key_v1, _polars_plugin_field_urn_key_v1,
                "the key under the V1 rules (a table keyed before V2 holds it), null for an invalid URN";
            is_valid => urn_arrow::Op::IsValid,
                _polars_plugin_urn_is_valid, _polars_plugin_field_urn_is_valid,
                "whether the value is a URN (RFC 8141)";
            nid => urn_arrow::Op::Nid,
                _polars_plugin_urn_nid, _polars_plugin_field_urn_nid,
                "the NID as written, null for an invalid URN";
            nss => urn_arrow::Op::Nss,
                _polars_plugin_urn_nss, _polars_plugin_field_urn_nss,
                "the NSS as written, null for an invalid URN";
            check => urn_arrow::Op::Problem,
                _polars_plugin_urn_check, _polars_plugin_field_urn_check,
                "why the value is not a URN: struct{kind: str, offset: i64}, null for a valid URN";
            find => urn_arrow::Op::Find(urn_core::KeyRules::CURRENT),
                _polars_plugin_urn_find, _polars_plugin_field_urn_find,
                "the URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes";
            repair => urn_arrow::Op::Repair,
                _polars_plugin_urn_repair, _polars_plugin_field_urn_repair,
                "what repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}";
        }
    };
}
pub(crate) use operations;

/// The names, Polars plugin functions and docs of the operations, and the op of a name.
macro_rules! declare {
    ($($name:ident => $op:expr, $symbol:ident, $field:ident, $doc:literal;)*) => {
        /// Each operation: its name, the Polars plugin function (its symbol without
        /// `_polars_plugin_`) and what it returns.
        pub const OPERATIONS: &[(&str, &str, &str)] = &[$((
            stringify!($name),
            const { match stringify!($symbol).split_at_checked(15) {
                Some((_, function)) => function,
                None => "",
            } },
            $doc,
        )),*];

        /// The op named `name`.
        fn named(name: &str) -> Option<Op> {
            match name {
                $(stringify!($name) => Some($op),)*
                _ => None,
            }
        }
    };
}
operations!(declare);

/// The op named `operation`, its key computed under `rules` (`"v2"`, `"v1"`, `"rfc8141"`;
/// `None`: the current rules).
pub fn op(operation: &str, rules: Option<&str>) -> PyResult<Op> {
    let op = named(operation)
        .ok_or_else(|| PyValueError::new_err(format!("no operation {operation:?}")))?;
    match (op, rules) {
        (Op::Key(_), Some(rules)) => Ok(Op::Key(key_rules(rules)?)),
        (Op::Find(_), Some(rules)) => Ok(Op::Find(key_rules(rules)?)),
        (op, None) => Ok(op),
        (_, Some(_)) => Err(PyValueError::new_err(format!(
            "{operation} takes no key rules"
        ))),
    }
}

/// The key rules named `name` (`"v2"`, `"v1"`, `"rfc8141"`), or `ValueError`.
pub fn key_rules(name: &str) -> PyResult<KeyRules> {
    name.parse()
        .map_err(|e: urn_core::UnknownKeyRules| PyValueError::new_err(e.to_string()))
}

/// Adds `OPERATIONS` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("OPERATIONS", OPERATIONS.to_vec())
}
