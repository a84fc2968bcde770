//! The columnar operations by name: urn-arrow's operations table, the one list that the Arrow
//! entry points (by name), the Polars plugin (its keyword argument `op`) and the Python
//! wrappers read (`_urnkit.OPERATIONS`: `urnkit.arrow`, `urnkit.polars` and `urnkit.spark` are
//! generated from it, and a test holds them to it).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use urn_arrow::Op;
use urn_core::KeyRules;

/// The op named `operation` (a row's column name: `key`, `key_v1`, `check`), its key computed
/// under `rules` (`"v2"`, `"v1"`, `"rfc8141"`; `None`: the row's own).
pub fn op(operation: &str, rules: Option<&str>) -> PyResult<Op> {
    let op = urn_arrow::operations()
        .into_iter()
        .find(|o| o.name() == operation)
        .map(|o| o.op())
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

/// Adds `OPERATIONS` to the module: each operation's name, what it returns (null where the
/// value is not the URN it needs), its SQL name, and the SQL name of the form that gives null
/// (`None` for an operation that never fails).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let rows: Vec<(String, String, String, Option<String>)> = urn_arrow::operations()
        .iter()
        .map(|o| {
            let invalid = if o.op().needs_urn() {
                ", null for an invalid URN"
            } else {
                ""
            };
            (
                o.name().to_owned(),
                format!("{}{invalid}", o.doc()),
                o.sql_name().to_owned(),
                o.try_sql_name(),
            )
        })
        .collect();
    m.add("OPERATIONS", rows)
}
