//! The Polars expression plugin (`urnkit.polars` registers the `urn` namespace over these):
//! each function runs over the string column's chunks in Rust, with no Python call per row,
//! in eager, lazy and streaming queries alike.
//!
//! Polars loads this library as a plugin and calls, for a function `f`, the symbols
//! `_polars_plugin_f` (the series in, the series out, through `polars_ffi::version_0`) and
//! `_polars_plugin_field_f` (the output field), plus `_polars_plugin_get_version` and
//! `_polars_plugin_get_last_error_message`: the ABI pyo3-polars' `polars_expr` macro generates,
//! written out here so that the build needs polars-core and polars-ffi only.

use std::cell::RefCell;
use std::ffi::{CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use polars_arrow::array::{BooleanArray, MutableBinaryViewArray, Utf8ViewArray};
use polars_arrow::bitmap::Bitmap;
use polars_arrow::ffi::{
    ArrowSchema, export_array_to_c, export_field_to_c, import_array_from_c, import_field_from_c,
};
use polars_core::prelude::*;
use polars_error::polars_err;
use polars_ffi::version_0::{CallerContext, SeriesExport, export_series, import_series_buffer};

use urn_arrow::{Answer, OnInvalid, Op, answer, offset_i64};

use crate::ops::operations;

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

/// Runs `compute` on the series Polars hands over and writes its result, or records the error
/// (a panic included) and leaves `return_value` as it is.
///
/// # Safety
/// `inputs` points to `len` series exports that this call takes over, and `return_value` to a
/// series export this call may overwrite: what Polars passes to a plugin function.
unsafe fn run(
    inputs: *mut SeriesExport,
    len: usize,
    return_value: *mut SeriesExport,
    compute: fn(&[Series]) -> PolarsResult<Series>,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        let inputs = unsafe { import_series_buffer(inputs, len) }?;
        compute(&inputs)
    }));
    match result {
        // SAFETY: the caller's contract.
        Ok(Ok(out)) => unsafe { *return_value = export_series(&out) },
        Ok(Err(e)) => set_last_error(&e.to_string()),
        Err(_) => set_last_error("urnkit: the plugin function panicked"),
    }
}

/// Computes the output field from the input fields Polars hands over, or records the error.
///
/// # Safety
/// `fields` points to `len` Arrow schemas that this call only reads, and `return_value` to a
/// schema this call may overwrite: what Polars passes to a plugin's field function.
unsafe fn output_field(
    fields: *const ArrowSchema,
    len: usize,
    return_value: *mut ArrowSchema,
    field: fn(&[Field]) -> PolarsResult<Field>,
) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract.
        let schemas = unsafe { std::slice::from_raw_parts(fields, len) };
        let inputs = schemas
            .iter()
            // SAFETY: each schema is a valid Arrow C schema (the caller's contract).
            .map(|schema| unsafe { import_field_from_c(schema) }.map(|f| Field::from(&f)))
            .collect::<PolarsResult<Vec<Field>>>()?;
        field(&inputs)
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

/// Exports a plugin function `$name` (symbols `_polars_plugin_$name`, `_polars_plugin_field_$name`).
macro_rules! plugin_function {
    ($doc:expr, $export:ident, $field_export:ident, $compute:expr, $field:expr) => {
        #[doc = $doc]
        ///
        /// # Safety
        /// Called by Polars only, with the plugin ABI's arguments.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $export(
            inputs: *mut SeriesExport,
            len: usize,
            _kwargs: *const u8,
            _kwargs_len: usize,
            return_value: *mut SeriesExport,
            _context: *mut CallerContext,
        ) {
            // SAFETY: Polars passes the ABI's arguments.
            unsafe { run(inputs, len, return_value, $compute) }
        }

        #[doc = concat!("The output field of `", stringify!($export), "`.")]
        ///
        /// # Safety
        /// Called by Polars only, with the plugin ABI's arguments.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $field_export(
            fields: *const ArrowSchema,
            len: usize,
            return_value: *mut ArrowSchema,
            _kwargs: *const u8,
            _kwargs_len: usize,
        ) {
            // SAFETY: Polars passes the ABI's arguments.
            unsafe { output_field(fields, len, return_value, $field) }
        }
    };
}

/// The one input column, as strings.
fn strings(inputs: &[Series]) -> PolarsResult<&StringChunked> {
    match inputs {
        [series] => series.str(),
        _ => Err(polars_err!(ComputeError: "the urn functions take one column")),
    }
}

/// The input's name with type `dtype`.
fn named(inputs: &[Field], dtype: DataType) -> PolarsResult<Field> {
    let name = inputs.first().map(|f| f.name().clone()).unwrap_or_default();
    Ok(Field::new(name, dtype))
}

/// A text result per value, chunk by chunk.
fn texts(op: Op, inputs: &[Series]) -> PolarsResult<Series> {
    let ca = strings(inputs)?;
    let chunks = ca.downcast_iter().map(|array| {
        let mut out = MutableBinaryViewArray::<str>::with_capacity(array.len());
        for value in array.iter() {
            match value.map(|v| answer(op, v)) {
                Some(answer) => match answer.text() {
                    Some(text) => out.push_value(text),
                    None => out.push_null(),
                },
                None => out.push_null(),
            }
        }
        let frozen: Utf8ViewArray = out.freeze();
        frozen
    });
    Ok(StringChunked::from_chunk_iter(ca.name().clone(), chunks).into_series())
}

/// `is_valid` per value, chunk by chunk (a null stays null).
fn flags(inputs: &[Series]) -> PolarsResult<Series> {
    let ca = strings(inputs)?;
    let chunks = ca.downcast_iter().map(|array| {
        array
            .iter()
            .map(|value| value.map(|v| matches!(answer(Op::IsValid, v), Answer::Flag(true))))
            .collect::<BooleanArray>()
    });
    Ok(BooleanChunked::from_chunk_iter(ca.name().clone(), chunks).into_series())
}

/// The struct type of `check`: `{kind: str, offset: i64}`.
fn check_dtype() -> DataType {
    DataType::Struct(vec![
        Field::new("kind".into(), DataType::String),
        Field::new("offset".into(), DataType::Int64),
    ])
}

/// `check`: the parse error's kind and byte offset, null for a valid URN and for a null.
fn problems(inputs: &[Series]) -> PolarsResult<Series> {
    let ca = strings(inputs)?;
    let problems: Vec<Option<(&'static str, usize)>> = ca
        .iter()
        .map(|v| match v.map(|v| answer(Op::Problem, v)) {
            Some(Answer::Invalid(e)) => Some((e.kind().name(), e.offset())),
            _ => None,
        })
        .collect();
    let kinds: StringChunked = problems.iter().map(|p| p.map(|(kind, _)| kind)).collect();
    let offsets: Int64Chunked = problems
        .iter()
        .map(|p| p.map(|(_, offset)| offset_i64(offset)))
        .collect();
    let fields = [
        kinds.with_name("kind".into()).into_series(),
        offsets.with_name("offset".into()).into_series(),
    ];
    let mut out = StructChunked::from_series(ca.name().clone(), ca.len(), fields.iter())?;
    if out.chunks().len() != 1 {
        out = out.rechunk().into_owned();
    }
    let validity: Bitmap = problems.iter().map(Option::is_some).collect();
    Ok(out.with_outer_validity(Some(validity)).into_series())
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

/// `op` over the input column through urn-arrow's kernel, chunk by chunk (the lists and
/// structs of `find` and `repair`).
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

/// `op` over the input column: its text, flag, problem, hits or repair per value.
fn compute(op: Op, inputs: &[Series]) -> PolarsResult<Series> {
    match op {
        Op::IsValid => flags(inputs),
        Op::Problem => problems(inputs),
        Op::Find(_) | Op::Repair => through_kernel(op, inputs),
        _ => texts(op, inputs),
    }
}

/// The output field of `op` over the input column.
fn field(op: Op, inputs: &[Field]) -> PolarsResult<Field> {
    match op {
        Op::IsValid => named(inputs, DataType::Boolean),
        Op::Problem => named(inputs, check_dtype()),
        Op::Find(_) | Op::Repair => named(inputs, kernel_dtype(op)?),
        _ => named(inputs, DataType::String),
    }
}

/// One plugin function per operation of [`crate::ops`].
macro_rules! plugin_functions {
    ($($name:ident => $op:expr, $symbol:ident, $field:ident, $doc:literal;)*) => {
        $(plugin_function!(
            concat!("`urn.", stringify!($name), "()`: ", $doc, "."),
            $symbol,
            $field,
            |inputs| compute($op, inputs),
            |fields| field($op, fields)
        );)*
    };
}
operations!(plugin_functions);
