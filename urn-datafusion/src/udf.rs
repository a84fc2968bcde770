//! DataFusion's `ScalarUDFImpl` for [`UrnFunction`]: the type rules, and the dispatch of each
//! call to the per-row work in [`crate::strings`].

use datafusion_common::arrow::datatypes::DataType;
use datafusion_common::{Result, plan_err};
use datafusion_expr::{ColumnarValue, ScalarFunctionArgs, ScalarUDFImpl, Signature};

use crate::function::UrnFunction;
use crate::strings;

/// Whether DataFusion can hand this type to the functions as it is.
fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

impl ScalarUDFImpl for UrnFunction {
    fn name(&self) -> &str {
        self.sql_name()
    }

    fn signature(&self) -> &Signature {
        UrnFunction::signature(self)
    }

    /// Strings of every layout pass as they are; `NULL` becomes `Utf8`; anything else is a
    /// planning error that says what the function takes.
    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        match arg_types {
            [t] if is_string(t) => Ok(vec![t.clone()]),
            [DataType::Dictionary(key, value)]
                if key.is_dictionary_key_type() && is_string(value) =>
            {
                Ok(arg_types.to_vec())
            }
            [DataType::Null] => Ok(vec![DataType::Utf8]),
            [t] => plan_err!(
                "{}() takes a string (Utf8, LargeUtf8, Utf8View or a dictionary of them), not {t}",
                self.sql_name()
            ),
            _ => plan_err!(
                "{}() takes one argument, not {}",
                self.sql_name(),
                arg_types.len()
            ),
        }
    }

    /// urn-arrow's output type: a text result has the argument's layout (a dictionary's
    /// values too); `urn_valid` is boolean, `urn_find` a list, `urn_problem` and `urn_repair`
    /// structs.
    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        let input = match arg_types {
            [DataType::Null] => &DataType::Utf8,
            [t] => t,
            _ => {
                return plan_err!(
                    "{}() takes one string argument, not {arg_types:?}",
                    self.sql_name()
                );
            }
        };
        urn_arrow::output_type(self.op(), input)
            .or_else(|e| plan_err!("{}(): {e}", self.sql_name()))
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        match args.args.as_slice() {
            [ColumnarValue::Array(array)] => strings::array(self, array).map(ColumnarValue::Array),
            [ColumnarValue::Scalar(value)] => {
                strings::scalar(self, value).map(ColumnarValue::Scalar)
            }
            _ => plan_err!("{}() takes one argument", self.sql_name()),
        }
    }
}
