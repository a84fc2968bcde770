//! `urnkit._urnkit`: the Python extension of the urn workspace.
//!
//! Every rule comes from `urn-core` (parse, canonical key, namespace validation) and every
//! JSON Schema from `urn-schema`; this crate only carries their answers across the boundary:
//!
//! - [`scalar`]: `Urn`, `parse`, `key`, `is_valid`, one typed class per known namespace, and
//!   the `UrnError` raised with the Rust error kind, byte offset and message;
//! - [`arrow`]: the same over Arrow string arrays (C Data Interface, read without copying);
//! - [`polars_expr`]: the same as a Polars expression plugin (this library is the plugin);
//! - [`dirty`]: `find` and `repair`, URNs in free text and near-misses repaired;
//! - [`ops`]: the columnar operations by name, one list for Arrow, Polars, Spark and Python (the
//!   per-value work of each is urn-arrow's, shared with urn-datafusion);
//! - [`text`]: a Python `str` read as UTF-8, without a copy where the interpreter allows it.

use pyo3::prelude::*;

pub mod arrow;
pub mod dirty;
pub mod ops;
pub mod polars_expr;
pub mod scalar;
pub mod text;

/// The JSON Schema document urn-schema generates for a URN (`nid` `None`) or for URNs of one
/// namespace, as JSON text (`schemas/urn.schema.json`, `schemas/urn-<nid>.schema.json`).
#[pyfunction]
#[pyo3(signature = (nid = None))]
fn json_schema(nid: Option<&str>) -> PyResult<String> {
    let document = match nid {
        None => urn_schema::urn_document(),
        Some(nid) => urn_schema::namespace_document(nid).ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!("{nid:?} is not a valid NID"))
        })?,
    };
    Ok(document.to_string())
}

/// The module `urnkit._urnkit`.
#[pymodule]
fn _urnkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    scalar::register(m)?;
    arrow::register(m)?;
    dirty::register(m)?;
    ops::register(m)?;
    m.add_function(wrap_pyfunction!(json_schema, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
