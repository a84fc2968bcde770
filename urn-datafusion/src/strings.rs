//! DataFusion's values onto urn-arrow's kernel (the one shared with urnkit): an array of any
//! string layout as it is, a scalar as one value of the kernel's per-value [`answer`].

use datafusion_common::arrow::array::ArrayRef;
use datafusion_common::{Result, ScalarValue, exec_err};
use urn_arrow::{Answer, OnInvalid, Op, answer};

use crate::function::{UrnFunction, invalid};

/// `f` over an argument array of any layout DataFusion hands over.
pub(crate) fn array(f: &UrnFunction, array: &ArrayRef) -> Result<ArrayRef> {
    urn_arrow::compute(f.operation().op(), f.on_invalid(), array.as_ref()).map_err(|e| f.error(e))
}

/// `f` over a scalar argument: the result scalar of the same layout (a list or struct result
/// through the kernel, as a one-row array).
pub(crate) fn scalar(f: &UrnFunction, value: &ScalarValue) -> Result<ScalarValue> {
    if matches!(value, ScalarValue::Null) {
        return scalar(f, &ScalarValue::Utf8(None));
    }
    if matches!(f.operation().op(), Op::Find(_) | Op::Repair) {
        let result = array(f, &value.to_array()?)?;
        return ScalarValue::try_from_array(&result, 0);
    }
    let wrap = |text: Option<String>| match value {
        ScalarValue::LargeUtf8(_) => ScalarValue::LargeUtf8(text),
        ScalarValue::Utf8View(_) => ScalarValue::Utf8View(text),
        _ => ScalarValue::Utf8(text),
    };
    match value {
        ScalarValue::Utf8(v) | ScalarValue::LargeUtf8(v) | ScalarValue::Utf8View(v) => {
            let op = f.operation().op();
            let Some(text) = v.as_deref() else {
                return Ok(if f.returns_text() {
                    wrap(None)
                } else {
                    ScalarValue::Boolean(None)
                });
            };
            Ok(match answer(op, text) {
                Answer::Flag(flag) => ScalarValue::Boolean(Some(flag)),
                Answer::Invalid(error) if op.needs_urn() => match f.on_invalid() {
                    OnInvalid::Error => return Err(invalid(f.sql_name(), text, &error)),
                    OnInvalid::Null => wrap(None),
                },
                Answer::Invalid(error) => wrap(Some(error.to_string())),
                other => wrap(other.text().map(str::to_owned)),
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
