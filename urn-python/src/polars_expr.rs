//! The Polars expression plugin (`urnkit.polars` registers the `urn` namespace over it): one
//! plugin function, `urn`, whose keyword argument `op` names a row of urn-arrow's operations
//! table; it hands the string column's chunks to urn-arrow's kernel through the Arrow C Data
//! Interface (no copy, no Python call per row), in eager, lazy and streaming queries alike.
//!
//! Polars loads this library as a plugin and calls the symbols `_polars_plugin_urn` (the
//! series in, the series out, through `polars_ffi::version_0`) and `_polars_plugin_field_urn`
//! (the output field), plus `_polars_plugin_get_version` and
//! `_polars_plugin_get_last_error_message`: the ABI pyo3-polars' `polars_expr` macro generates,
//! written out here so that the build needs polars-core and polars-ffi only.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use polars_arrow::ffi::{
    ArrowSchema, export_array_to_c, export_field_to_c, import_array_from_c, import_field_from_c,
};
use polars_core::prelude::*;
use polars_error::polars_err;
use polars_ffi::version_0::{CallerContext, SeriesExport, export_series, import_series_buffer};

use urn_arrow::{OnInvalid, Op};

thread_local! {
    /// The message of the last error on this thread, which Polars asks for after a call that
    /// left its return value empty.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records `message` as the last error.
fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', "\u{fffd}")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

/// The last error's message (valid until the next error on this thread).
#[unsafe(no_mangle)]
pub extern "C" fn _polars_plugin_get_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The plugin ABI version this library was built for (polars-ffi's, major << 16 | minor).
#[unsafe(no_mangle)]
pub extern "C" fn _polars_plugin_get_version() -> u32 {
    let (major, minor) = polars_ffi::get_version();
    (u32::from(major) << 16) + u32::from(minor)
}

/// The operation Polars' call names in its keyword arguments: `{"op": name}`, as Polars
/// hands them over (pickled, protocol 5: `urnkit/polars.py` passes nothing else), or why not.
/// Read strictly: any other shape is an error, never a guess.
fn operation_of(kwargs: &[u8]) -> PolarsResult<Op> {
    let refused = || polars_err!(ComputeError: "urnkit: the plugin's keyword arguments are not {{\"op\": name}}");
    let rest = kwargs.strip_prefix(b"\x80\x05").ok_or_else(refused)?;
    // An optional frame: its opcode and length.
    let rest = match rest.strip_prefix(b"\x95") {
        Some(framed) => framed.get(8..).ok_or_else(refused)?,
        None => rest,
    };
    let rest = rest
        .strip_prefix(b"}\x94\x8c\x02op\x94")
        .ok_or_else(refused)?;
    let (len, rest) = match rest.split_first() {
        Some((0x8c, rest)) => {
            let (&len, rest) = rest.split_first().ok_or_else(refused)?;
            (usize::from(len), rest)
        }
        Some((b'X', rest)) => {
            let (len, rest) = rest.split_first_chunk::<4>().ok_or_else(refused)?;
            (
                usize::try_from(u32::from_le_bytes(*len)).map_err(|_| refused())?,
                rest,
            )
        }
        _ => return Err(refused()),
    };
    let (name, rest) = rest.split_at_checked(len).ok_or_else(refused)?;
    if rest != b"\x94s." {
        return Err(refused());
    }
    let name = std::str::from_utf8(name).map_err(|_| refused())?;
    let operation = urn_arrow::operation(name)
        .ok_or_else(|| polars_err!(ComputeError: "urnkit: no operation {name:?}"))?;
    Ok(operation.op())
}

/// The keyword arguments Polars passes, as bytes.
///
/// # Safety
/// `kwargs` points to `len` readable bytes (or is null with `len` 0): what Polars passes.
unsafe fn kwargs_bytes<'a>(kwargs: *const u8, len: usize) -> &'a [u8] {
    if kwargs.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(kwargs, len) }
}

/// `urn`: the operation its keyword arguments name, over the column through urn-arrow's
/// kernel, or the error recorded (a panic included) with `return_value` left as it is.
///
/// # Safety
/// Called by Polars only, with the plugin ABI's arguments: `inputs` points to `len` series
/// exports that this call takes over, `kwargs` to `kwargs_len` bytes, and `return_value` to a
/// series export this call may overwrite.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _polars_plugin_urn(
    inputs: *mut SeriesExport,
    len: usize,
    kwargs: *const u8,
    kwargs_len: usize,
    return_value: *mut SeriesExport,
    _context: *mut CallerContext,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        let inputs = unsafe { import_series_buffer(inputs, len) }?;
        // SAFETY: the caller's contract.
        let op = operation_of(unsafe { kwargs_bytes(kwargs, kwargs_len) })?;
        through_kernel(op, &inputs)
    }));
    match result {
        // SAFETY: the caller's contract.
        Ok(Ok(out)) => unsafe { *return_value = export_series(&out) },
        Ok(Err(e)) => set_last_error(&e.to_string()),
        Err(_) => set_last_error("urnkit: the plugin function panicked"),
    }
}

/// The output field of `urn` for the operation its keyword arguments name, or the error
/// recorded.
///
/// # Safety
/// Called by Polars only, with the plugin ABI's arguments: `fields` points to `len` Arrow
/// schemas that this call only reads, `kwargs` to `kwargs_len` bytes, and `return_value` to a
/// schema this call may overwrite.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _polars_plugin_field_urn(
    fields: *const ArrowSchema,
    len: usize,
    return_value: *mut ArrowSchema,
    kwargs: *const u8,
    kwargs_len: usize,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        let schemas = unsafe { std::slice::from_raw_parts(fields, len) };
        let inputs = schemas
            .iter()
            // SAFETY: each schema is a valid Arrow C schema (the caller's contract).
            .map(|schema| unsafe { import_field_from_c(schema) }.map(|f| Field::from(&f)))
            .collect::<PolarsResult<Vec<Field>>>()?;
        // SAFETY: the caller's contract.
        let op = operation_of(unsafe { kwargs_bytes(kwargs, kwargs_len) })?;
        let name = inputs.first().map(|f| f.name().clone()).unwrap_or_default();
        PolarsResult::Ok(Field::new(name, kernel_dtype(op)?))
    }));
    match result {
        Ok(Ok(out)) => {
            let schema = export_field_to_c(&out.to_arrow(CompatLevel::newest()));
            // SAFETY: the caller's contract.
            unsafe { *return_value = schema };
        }
        Ok(Err(e)) => set_last_error(&e.to_string()),
        Err(_) => set_last_error("urnkit: the plugin's field function panicked"),
    }
}

/// The one input column, as strings.
fn strings(inputs: &[Series]) -> PolarsResult<&StringChunked> {
    match inputs {
        [series] => series.str(),
        _ => Err(polars_err!(ComputeError: "the urn functions take one column")),
    }
}

/// A polars-arrow array as an arrow-rs array, through the Arrow C Data Interface (no copy).
fn to_arrow_rs(chunk: Box<dyn polars_arrow::array::Array>) -> PolarsResult<arrow_array::ArrayRef> {
    let field = polars_arrow::datatypes::Field::new("".into(), chunk.dtype().clone(), true);
    let schema = export_field_to_c(&field);
    let array = export_array_to_c(chunk);
    // SAFETY: both libraries' structs are the C Data Interface's `ArrowArray` and
    // `ArrowSchema` (`repr(C)`, the same fields; `transmute` checks the sizes). The array's
    // ownership (its release callback) moves to arrow-rs, which releases it once; the schema
    // is released when `schema` drops.
    let (array, schema) = unsafe {
        (
            std::mem::transmute::<polars_arrow::ffi::ArrowArray, FFI_ArrowArray>(array),
            std::mem::transmute::<ArrowSchema, FFI_ArrowSchema>(schema),
        )
    };
    // SAFETY: `array` and `schema` were exported just above, valid and matching.
    let data = unsafe { arrow_array::ffi::from_ffi(array, &schema) }
        .map_err(|e| polars_err!(ComputeError: "urnkit: {e}"))?;
    Ok(arrow_array::make_array(data))
}

/// An arrow-rs array as a polars-arrow array, through the Arrow C Data Interface (no copy).
fn from_arrow_rs(
    array: &arrow_array::ArrayRef,
) -> PolarsResult<Box<dyn polars_arrow::array::Array>> {
    let (array, schema) = arrow_array::ffi::to_ffi(&array.to_data())
        .map_err(|e| polars_err!(ComputeError: "urnkit: {e}"))?;
    // SAFETY: as in `to_arrow_rs`, the other way.
    let (array, schema) = unsafe {
        (
            std::mem::transmute::<FFI_ArrowArray, polars_arrow::ffi::ArrowArray>(array),
            std::mem::transmute::<FFI_ArrowSchema, ArrowSchema>(schema),
        )
    };
    // SAFETY: `schema` and `array` were exported by arrow-rs just above, valid and matching.
    let field = unsafe { import_field_from_c(&schema) }?;
    // SAFETY: as above; the array's ownership moves to polars-arrow.
    unsafe { import_array_from_c(array, field.dtype().clone()) }
}

/// `op` over the input column through urn-arrow's kernel, chunk by chunk, each handed over
/// and back through the Arrow C Data Interface without a copy.
fn through_kernel(op: Op, inputs: &[Series]) -> PolarsResult<Series> {
    let ca = strings(inputs)?;
    let chunks = ca
        .downcast_iter()
        .map(|chunk| {
            let input = to_arrow_rs(chunk.clone().boxed())?;
            let output = urn_arrow::compute(op, OnInvalid::Null, input.as_ref())
                .map_err(|e| polars_err!(ComputeError: "urnkit: {e}"))?;
            from_arrow_rs(&output)
        })
        .collect::<PolarsResult<Vec<_>>>()?;
    Series::from_arrow_chunks(ca.name().clone(), chunks)
}

/// The Polars type of urn-arrow's output for `op` over strings.
fn kernel_dtype(op: Op) -> PolarsResult<DataType> {
    let output = urn_arrow::output_type(op, &arrow_schema::DataType::Utf8View)
        .map_err(|e| polars_err!(ComputeError: "urnkit: {e}"))?;
    let schema = FFI_ArrowSchema::try_from(&arrow_schema::Field::new("", output, true))
        .map_err(|e| polars_err!(ComputeError: "urnkit: {e}"))?;
    // SAFETY: as in `to_arrow_rs`.
    let schema = unsafe { std::mem::transmute::<FFI_ArrowSchema, ArrowSchema>(schema) };
    // SAFETY: `schema` was exported by arrow-rs just above.
    let field = unsafe { import_field_from_c(&schema) }?;
    Ok(Field::from(&field).dtype().clone())
}
