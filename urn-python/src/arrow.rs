//! The columnar functions over Arrow string arrays (`urnkit.arrow`): input read through the
//! Arrow C Data Interface without copying (pyo3-arrow), one pass, each result appended to a
//! builder sized once, handed back to pyarrow without copying; a chunked array keeps its chunks.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, GenericStringBuilder, Int64Builder, StringBuilder, StringViewBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait, StructArray};
use arrow_buffer::NullBufferBuilder;
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::{PyArray, PyChunkedArray};

use crate::kernel::{self, Op};

/// The fields of `check`'s struct: the error kind and the byte offset.
fn check_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, true),
        Field::new("offset", DataType::Int64, true),
    ])
}

/// The result type of `op` over strings of type `input`.
fn output_type(op: Op, input: &DataType) -> DataType {
    match op {
        Op::Key | Op::Nid | Op::Nss => input.clone(),
        Op::IsValid => DataType::Boolean,
        Op::Check => DataType::Struct(check_fields()),
    }
}

/// A text result builder of one string layout.
trait TextBuilder {
    fn with_capacity(rows: usize, bytes: usize) -> Self;
    fn value(&mut self, text: &str);
    fn null(&mut self);
    fn done(self) -> ArrayRef;
}

impl<O: OffsetSizeTrait> TextBuilder for GenericStringBuilder<O> {
    fn with_capacity(rows: usize, bytes: usize) -> Self {
        GenericStringBuilder::with_capacity(rows, bytes)
    }
    fn value(&mut self, text: &str) {
        self.append_value(text);
    }
    fn null(&mut self) {
        self.append_null();
    }
    fn done(mut self) -> ArrayRef {
        Arc::new(self.finish())
    }
}

impl TextBuilder for StringViewBuilder {
    fn with_capacity(rows: usize, bytes: usize) -> Self {
        // One data block for all the long values (views of up to 12 bytes are inline).
        let block = u32::try_from(bytes).unwrap_or(u32::MAX).max(8 * 1024);
        StringViewBuilder::with_capacity(rows).with_fixed_block_size(block)
    }
    fn value(&mut self, text: &str) {
        self.append_value(text);
    }
    fn null(&mut self) {
        self.append_null();
    }
    fn done(mut self) -> ArrayRef {
        Arc::new(self.finish())
    }
}

/// The text results (`key`, `nid`, `nss`) of `values`, in builder `B`.
fn texts<'a, B: TextBuilder>(
    op: Op,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    bytes: usize,
) -> ArrayRef {
    // Sized once: a result is never longer than its input, but an ISSN key (which may gain a
    // hyphen) can be one byte longer; leave room for a few.
    let mut out = B::with_capacity(rows, bytes + bytes / 16);
    for value in values {
        match value.and_then(|v| kernel::text(op, v)) {
            Some(text) => out.value(text.as_str()),
            None => out.null(),
        }
    }
    out.done()
}

/// The flags (`is_valid`) of `values`.
fn flags<'a>(values: impl Iterator<Item = Option<&'a str>>, rows: usize) -> ArrayRef {
    let mut out = BooleanBuilder::with_capacity(rows);
    for value in values {
        out.append_option(value.map(kernel::is_valid));
    }
    Arc::new(out.finish())
}

/// The problems (`check`) of `values`: a struct of kind and offset, null for a valid URN and
/// for a null.
fn problems<'a>(values: impl Iterator<Item = Option<&'a str>>, rows: usize) -> PyResult<ArrayRef> {
    // Kind names are short and most rows of a real column are valid: the kinds' bytes grow
    // from nothing.
    let mut kinds = StringBuilder::with_capacity(rows, 0);
    let mut offsets = Int64Builder::with_capacity(rows);
    let mut valid = NullBufferBuilder::new(rows);
    for value in values {
        match value.and_then(kernel::problem) {
            Some((kind, offset)) => {
                kinds.append_value(kind);
                offsets.append_value(kernel::offset_i64(offset));
                valid.append_non_null();
            }
            None => {
                kinds.append_null();
                offsets.append_null();
                valid.append_null();
            }
        }
    }
    let columns: Vec<ArrayRef> = vec![Arc::new(kinds.finish()), Arc::new(offsets.finish())];
    let array = StructArray::try_new(check_fields(), columns, valid.finish())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(Arc::new(array))
}

/// `op` over the values of one string array, text results in builder `B`.
fn over<'a, B: TextBuilder>(
    op: Op,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    bytes: usize,
) -> PyResult<ArrayRef> {
    match op {
        Op::Key | Op::Nid | Op::Nss => Ok(texts::<B>(op, values, rows, bytes)),
        Op::IsValid => Ok(flags(values, rows)),
        Op::Check => problems(values, rows),
    }
}

/// `op` over one array of `string`, `large_string` or `string_view`.
pub fn compute(op: Op, array: &dyn Array) -> PyResult<ArrayRef> {
    let rows = array.len();
    match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            over::<GenericStringBuilder<i32>>(op, a.iter(), rows, a.values().len())
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            over::<GenericStringBuilder<i64>>(op, a.iter(), rows, a.values().len())
        }
        DataType::Utf8View => over::<StringViewBuilder>(op, array.as_string_view().iter(), rows, 0),
        other => Err(PyTypeError::new_err(format!(
            "urnkit.arrow takes an array of string, large_string or string_view, not {other}"
        ))),
    }
}

/// The operation named `name`.
fn op(name: &str) -> PyResult<Op> {
    Op::from_name(name).ok_or_else(|| PyValueError::new_err(format!("no operation {name:?}")))
}

/// `op` over an Arrow array (any object with `__arrow_c_array__`), as a `pyarrow.Array`.
#[pyfunction]
#[pyo3(name = "arrow_array")]
fn map_array(py: Python<'_>, operation: &str, array: PyArray) -> PyResult<Py<PyAny>> {
    let op = op(operation)?;
    let (array, _field) = array.into_inner();
    let out = PyArray::from_array_ref(py.detach(|| compute(op, array.as_ref()))?);
    // `pyarrow.array(out)`: pyarrow imports it through `__arrow_c_array__`, without a copy.
    let pyarrow_array = py.import("pyarrow")?.getattr("array")?;
    Ok(pyarrow_array.call1((out,))?.unbind())
}

/// `op` over each chunk of a chunked array (any object with `__arrow_c_stream__`), as a
/// `pyarrow.ChunkedArray` with the same chunks.
#[pyfunction]
#[pyo3(name = "arrow_chunked")]
fn map_chunked<'py>(
    py: Python<'py>,
    operation: &str,
    chunked: PyChunkedArray,
) -> PyResult<Bound<'py, PyAny>> {
    let op = op(operation)?;
    let (chunks, field) = chunked.into_inner();
    let out_type = output_type(op, field.data_type());
    if !matches!(
        field.data_type(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    ) {
        return Err(PyTypeError::new_err(format!(
            "urnkit.arrow takes an array of string, large_string or string_view, not {}",
            field.data_type()
        )));
    }
    let out = py.detach(|| {
        chunks
            .iter()
            .map(|chunk| compute(op, chunk.as_ref()))
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
