//! The vectorized work: one pass over an argument array of any string layout, each value
//! parsed once by urn-core ([`UrnFunction`]'s answer), each result appended to an Arrow builder
//! (no allocation per row where the result is borrowed from the input or built inline).

use std::sync::Arc;

use crate::function::{Answer, OnInvalid, UrnFunction};
use datafusion_common::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, BooleanBuilder, GenericStringBuilder, OffsetSizeTrait,
    StringViewBuilder,
};
use datafusion_common::arrow::compute::take;
use datafusion_common::arrow::datatypes::DataType;
use datafusion_common::{Result, ScalarValue, exec_err};

/// An Arrow builder for a text result of one layout.
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
    fn with_capacity(rows: usize, _bytes: usize) -> Self {
        StringViewBuilder::with_capacity(rows)
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

/// The text results of `values` in builder `B`.
fn text<'a, B: TextBuilder>(
    f: &UrnFunction,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    bytes: usize,
) -> Result<ArrayRef> {
    // An ISSN key can be one byte longer than its URN: leave room for a few.
    let mut out = B::with_capacity(rows, bytes + bytes / 16);
    for value in values {
        match value.map(|v| f.answer(v)).transpose()? {
            Some(answer) => match answer.text() {
                Some(text) => out.value(text),
                None => out.null(),
            },
            None => out.null(),
        }
    }
    Ok(out.done())
}

/// The boolean results (`urn_valid`) of `values`.
fn flags<'a>(
    f: &UrnFunction,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
) -> Result<ArrayRef> {
    let mut out = BooleanBuilder::with_capacity(rows);
    for value in values {
        match value.map(|v| f.answer(v)).transpose()? {
            Some(Answer::Flag(flag)) => out.append_value(flag),
            _ => out.append_null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

/// `f` over a plain string array (not a dictionary).
fn plain(f: &UrnFunction, array: &dyn Array) -> Result<ArrayRef> {
    let rows = array.len();
    match (array.data_type(), f.returns_text()) {
        (DataType::Utf8, true) => {
            let a = array.as_string::<i32>();
            text::<GenericStringBuilder<i32>>(f, a.iter(), rows, a.values().len())
        }
        (DataType::LargeUtf8, true) => {
            let a = array.as_string::<i64>();
            text::<GenericStringBuilder<i64>>(f, a.iter(), rows, a.values().len())
        }
        (DataType::Utf8View, true) => {
            text::<StringViewBuilder>(f, array.as_string_view().iter(), rows, 0)
        }
        (DataType::Utf8, false) => flags(f, array.as_string::<i32>().iter(), rows),
        (DataType::LargeUtf8, false) => flags(f, array.as_string::<i64>().iter(), rows),
        (DataType::Utf8View, false) => flags(f, array.as_string_view().iter(), rows),
        (other, _) => exec_err!("{}() takes a string, not {other}", f.sql_name()),
    }
}

/// `f` over an argument array of any layout DataFusion hands over.
pub(crate) fn array(f: &UrnFunction, array: &ArrayRef) -> Result<ArrayRef> {
    let Some(dictionary) = array.as_any_dictionary_opt() else {
        return plain(f, array.as_ref());
    };
    // Each distinct value once, then the keys: a strict function fails only on a value some
    // row refers to (a dictionary may hold values no row uses).
    let values = dictionary.values();
    let lenient = UrnFunction::new(f.operation(), OnInvalid::Null);
    let results = plain(&lenient, values.as_ref())?;
    if f.on_invalid() == OnInvalid::Error && results.null_count() > values.null_count() {
        let keys = dictionary.normalized_keys();
        for (row, &key) in keys.iter().enumerate() {
            if array.is_valid(row) && values.is_valid(key) && results.is_null(key) {
                // The strict function's own error for that value.
                f.answer(string_at(values.as_ref(), key).unwrap_or_default())?;
                return exec_err!("{}(): no result for a valid URN", f.sql_name());
            }
        }
    }
    if f.returns_text() {
        Ok(dictionary.with_values(results))
    } else {
        // A boolean per row: the values' flags taken by the keys (a null key stays null).
        let flags: &BooleanArray = results.as_boolean();
        Ok(take(flags, dictionary.keys(), None)?)
    }
}

/// The text at `index` of a plain string array.
fn string_at(array: &dyn Array, index: usize) -> Option<&str> {
    match array.data_type() {
        DataType::Utf8 => Some(array.as_string::<i32>().value(index)),
        DataType::LargeUtf8 => Some(array.as_string::<i64>().value(index)),
        DataType::Utf8View => Some(array.as_string_view().value(index)),
        _ => None,
    }
}

/// `f` over a scalar argument: the result scalar of the same layout.
pub(crate) fn scalar(f: &UrnFunction, value: &ScalarValue) -> Result<ScalarValue> {
    let wrap = |text: Option<String>| match value {
        ScalarValue::LargeUtf8(_) => ScalarValue::LargeUtf8(text),
        ScalarValue::Utf8View(_) => ScalarValue::Utf8View(text),
        _ => ScalarValue::Utf8(text),
    };
    match value {
        ScalarValue::Utf8(v) | ScalarValue::LargeUtf8(v) | ScalarValue::Utf8View(v) => {
            Ok(match v.as_deref().map(|t| f.answer(t)).transpose()? {
                None => {
                    if f.returns_text() {
                        wrap(None)
                    } else {
                        ScalarValue::Boolean(None)
                    }
                }
                Some(Answer::Flag(flag)) => ScalarValue::Boolean(Some(flag)),
                Some(answer) => wrap(answer.text().map(str::to_owned)),
            })
        }
        ScalarValue::Dictionary(key, inner) => {
            let result = scalar(f, inner)?;
            Ok(if f.returns_text() {
                ScalarValue::Dictionary(key.clone(), Box::new(result))
            } else {
                result
            })
        }
        ScalarValue::Null => scalar(f, &ScalarValue::Utf8(None)),
        other => exec_err!(
            "{}() takes a string, not {}",
            f.sql_name(),
            other.data_type()
        ),
    }
}
