//! One function type for every URN function: what it computes ([`Operation`]), what it does
//! with text that is not a URN ([`OnInvalid`]), its answer for one value and the error it
//! raises. DataFusion's `ScalarUDFImpl` for it is in [`crate::udf`]; the per-row work is
//! [`crate::strings`].

use std::sync::Arc;

use datafusion_common::{DataFusionError, Result};
use datafusion_expr::{ScalarUDF, Signature, Volatility};
use urn_core::{ParseError, UrnRef};

/// What a function computes from one URN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// The canonical key under `KeyRules::V1` (`urn_key_v1`).
    KeyV1,
    /// The RFC 8141 section 3 key (`urn_rfc8141_key`).
    Rfc8141Key,
    /// The NID as written (`urn_nid`).
    Nid,
    /// The NSS as written (`urn_nss`).
    Nss,
    /// NULL for a URN, the parser's message otherwise (`urn_check`).
    Check,
    /// Whether the text is a URN (`urn_valid`).
    Valid,
}

/// What a function does with text that is not a URN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnInvalid {
    /// Fails the query with the value and the parser's message (the SQL functions' behaviour).
    Error,
    /// Returns NULL for that row (the `try_` forms, like Spark's `try_cast`).
    Null,
}

/// A URN function of one string argument. Every layout DataFusion produces is accepted
/// (`Utf8`, `LargeUtf8`, `Utf8View`, dictionaries of those, scalars, `NULL`), and a text result
/// has the argument's layout (a dictionary keeps its keys: each distinct value is computed
/// once). NULL in gives NULL out; the result depends on the argument alone (`Immutable`).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct UrnFunction {
    name: &'static str,
    operation: Operation,
    on_invalid: OnInvalid,
    signature: Signature,
}

impl UrnFunction {
    /// The function computing `operation`, failing or giving NULL on invalid text. `Check` and
    /// `Valid` never fail: `on_invalid` is ignored for them.
    pub fn new(operation: Operation, on_invalid: OnInvalid) -> Self {
        let on_invalid = match operation {
            Operation::Check | Operation::Valid => OnInvalid::Null,
            _ => on_invalid,
        };
        let name = match (operation, on_invalid) {
            (Operation::KeyV1, OnInvalid::Error) => "urn_key_v1",
            (Operation::KeyV1, OnInvalid::Null) => "try_urn_key_v1",
            (Operation::Rfc8141Key, OnInvalid::Error) => "urn_rfc8141_key",
            (Operation::Rfc8141Key, OnInvalid::Null) => "try_urn_rfc8141_key",
            (Operation::Nid, OnInvalid::Error) => "urn_nid",
            (Operation::Nid, OnInvalid::Null) => "try_urn_nid",
            (Operation::Nss, OnInvalid::Error) => "urn_nss",
            (Operation::Nss, OnInvalid::Null) => "try_urn_nss",
            (Operation::Check, _) => "urn_check",
            (Operation::Valid, _) => "urn_valid",
        };
        UrnFunction {
            name,
            operation,
            on_invalid,
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }

    /// The function as DataFusion's `ScalarUDF`.
    pub fn into_udf(self) -> Arc<ScalarUDF> {
        Arc::new(ScalarUDF::new_from_impl(self))
    }

    /// What the function does with text that is not a URN.
    pub fn on_invalid(&self) -> OnInvalid {
        self.on_invalid
    }

    /// The operation.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// The function's SQL name.
    pub(crate) fn sql_name(&self) -> &'static str {
        self.name
    }

    /// Its signature: any one argument, coerced by `coerce_types`.
    pub(crate) fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Whether the result is text (else boolean).
    pub(crate) fn returns_text(&self) -> bool {
        self.operation != Operation::Valid
    }

    /// The function's answer for one value: `Ok(Some(text))`, `Ok(None)` for NULL (or, for
    /// `Valid`, the flag in [`Answer::Flag`]), or the error naming the value.
    pub(crate) fn answer<'a>(&self, text: &'a str) -> Result<Answer<'a>> {
        let parsed = UrnRef::parse(text);
        Ok(match (self.operation, parsed) {
            (Operation::Valid, parsed) => Answer::Flag(parsed.is_ok()),
            (Operation::Check, Ok(_)) => Answer::Null,
            (Operation::Check, Err(e)) => Answer::Owned(e.to_string()),
            (_, Err(e)) => match self.on_invalid {
                OnInvalid::Null => Answer::Null,
                OnInvalid::Error => return Err(invalid(self.name, text, &e)),
            },
            (Operation::KeyV1, Ok(urn)) => Answer::Key(urn.key()),
            (Operation::Rfc8141Key, Ok(urn)) => Answer::Key(urn.rfc8141_key()),
            (Operation::Nid, Ok(urn)) => Answer::Borrowed(urn.nid()),
            (Operation::Nss, Ok(urn)) => Answer::Borrowed(urn.nss()),
        })
    }
}

/// One value's result, borrowed from the input where it can be (no allocation per row for a
/// key that is its URN, or a NID or NSS; short keys are built inline).
pub(crate) enum Answer<'a> {
    Null,
    Flag(bool),
    Borrowed(&'a str),
    Key(urn_core::UrnKey<'a>),
    Owned(String),
}

impl Answer<'_> {
    /// The text of a text answer.
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Answer::Borrowed(s) => Some(s),
            Answer::Key(k) => Some(k.as_str()),
            Answer::Owned(s) => Some(s),
            Answer::Null | Answer::Flag(_) => None,
        }
    }
}

/// The error of a strict function on text that is not a URN: the function, the value as an
/// SQL literal (its first 200 bytes; control characters escaped), the parser's message, e.g.
/// `urn_key_v1('urn:example:a%zz'): invalid URN: '%' at byte 13 in the NSS must be followed by
/// two hex digits`. No double quotes or backslashes of its own, so the text survives the
/// Debug formatting Ballista wraps executor errors in.
pub(crate) fn invalid(function: &str, text: &str, error: &ParseError) -> DataFusionError {
    DataFusionError::Execution(format!("{function}({}): {error}", sql_literal(text)))
}

/// `text` as an SQL string literal for a message: `'` doubled, control characters as
/// `\u{…}`, cut after 200 bytes with `…`.
fn sql_literal(text: &str) -> String {
    const SHOWN: usize = 200;
    let mut out = String::with_capacity(text.len().min(SHOWN) + 8);
    out.push('\'');
    for (at, c) in text.char_indices() {
        if at >= SHOWN {
            out.push('…');
            break;
        }
        match c {
            '\'' => out.push_str("''"),
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
