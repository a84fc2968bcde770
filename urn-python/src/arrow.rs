//! The columnar functions over Arrow string arrays (`urnkit.arrow`): input read through the
//! Arrow C Data Interface without copying (pyo3-arrow), computed by urn-arrow's kernel (the one
//! urn-datafusion runs too), handed back to pyarrow without copying; a chunked array keeps its
//! chunks.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_schema::Field;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::{PyArray, PyChunkedArray};
use urn_arrow::{OnInvalid, Op};

use crate::ops;

/// The kernel's error as Python's: a type that holds no strings is a `TypeError`.
fn error(e: urn_arrow::Error) -> PyErr {
    match e {
        urn_arrow::Error::NotStrings(t) => PyTypeError::new_err(format!(
            "urnkit.arrow takes an array of string, large_string or string_view (or a \
             dictionary of them), not {t}"
        )),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// `op` over one array: null for a value that is not a URN, or, when `strict`, a
/// `ValueError` naming the first such value and its error (the ops that need a URN).
pub fn compute(op: Op, array: &dyn arrow_array::Array, strict: bool) -> PyResult<ArrayRef> {
    let on_invalid = if strict {
        OnInvalid::Error
    } else {
        OnInvalid::Null
    };
    urn_arrow::compute(op, on_invalid, array).map_err(error)
}

/// `op` over an Arrow array (any object with `__arrow_c_array__`), as a `pyarrow.Array`.
#[pyfunction]
#[pyo3(name = "arrow_array", signature = (operation, array, rules = None, strict = false))]
fn map_array(
    py: Python<'_>,
    operation: &str,
    array: PyArray,
    rules: Option<&str>,
    strict: bool,
) -> PyResult<Py<PyAny>> {
    let op = ops::op(operation, rules)?;
    let (array, _field) = array.into_inner();
    let out = PyArray::from_array_ref(py.detach(|| compute(op, array.as_ref(), strict))?);
    // `pyarrow.array(out)`: pyarrow imports it through `__arrow_c_array__`, without a copy.
    let pyarrow_array = py.import("pyarrow")?.getattr("array")?;
    Ok(pyarrow_array.call1((out,))?.unbind())
}

/// `op` over each chunk of a chunked array (any object with `__arrow_c_stream__`), as a
/// `pyarrow.ChunkedArray` with the same chunks.
#[pyfunction]
#[pyo3(name = "arrow_chunked", signature = (operation, chunked, rules = None, strict = false))]
fn map_chunked<'py>(
    py: Python<'py>,
    operation: &str,
    chunked: PyChunkedArray,
    rules: Option<&str>,
    strict: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let op = ops::op(operation, rules)?;
    let (chunks, field) = chunked.into_inner();
    let out_type = urn_arrow::output_type(op, field.data_type()).map_err(error)?;
    let out = py.detach(|| {
        chunks
            .iter()
            .map(|chunk| compute(op, chunk.as_ref(), strict))
            .collect::<PyResult<Vec<ArrayRef>>>()
    })?;
    let field = Arc::new(Field::new(field.name().clone(), out_type, true));
    PyChunkedArray::try_new(out, field)?.into_pyarrow(py)
}

/// Adds the Arrow entry points (wrapped by `urnkit/arrow.py`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(map_array, m)?)?;
    m.add_function(wrap_pyfunction!(map_chunked, m)?)?;
    Ok(())
}
