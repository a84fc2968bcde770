//! DataFusion's values onto urn-arrow's kernel (the one shared with urnkit): an array of any
//! string layout as it is, a scalar as an array of one.

use datafusion_common::arrow::array::ArrayRef;
use datafusion_common::{Result, ScalarValue, exec_err};

use crate::function::UrnFunction;

/// `f` over an argument array of any layout DataFusion hands over.
pub(crate) fn array(f: &UrnFunction, array: &ArrayRef) -> Result<ArrayRef> {
    urn_arrow::compute(f.op(), f.on_invalid(), array.as_ref()).map_err(|e| f.error(e))
}

/// `f` over a scalar argument: the kernel over the scalar as an array of one, and its one
/// result (of the kernel's type for the argument's layout).
pub(crate) fn scalar(f: &UrnFunction, value: &ScalarValue) -> Result<ScalarValue> {
    let value = match value {
        ScalarValue::Null => ScalarValue::Utf8(None),
        ScalarValue::Utf8(_)
        | ScalarValue::LargeUtf8(_)
        | ScalarValue::Utf8View(_)
        | ScalarValue::Dictionary(..) => value.clone(),
        other => {
            return exec_err!(
                "{}() takes a string, not {}",
                f.sql_name(),
                other.data_type()
            );
        }
    };
    let result = array(f, &value.to_array()?)?;
    ScalarValue::try_from_array(&result, 0)
}
