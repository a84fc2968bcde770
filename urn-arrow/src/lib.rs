//! urn-core's URN functions over Arrow string arrays: the one columnar kernel that
//! urn-datafusion's UDFs and urnkit's Arrow, Polars and Spark functions run, so every engine
//! computes each value the same way.
//!
//! One pass over an array of any string layout (`Utf8`, `LargeUtf8`, `Utf8View`, or a
//! dictionary of them), each value parsed once by urn-core, each result appended to a builder
//! sized once: no allocation per row where a result is borrowed from the input or built inline.
//! A text result has the argument's layout (a dictionary keeps its keys, and each distinct
//! value is computed once).
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Array, ArrayRef, StringArray, cast::AsArray};
//! use urn_arrow::{OnInvalid, Op, compute};
//! use urn_core::KeyRules;
//!
//! let urns: ArrayRef = Arc::new(StringArray::from(vec![
//!     Some("URN:ISBN:0-395-36341-1"),
//!     Some("urn:example:a b"),
//!     None,
//! ]));
//! let keys = compute(Op::Key(KeyRules::CURRENT), OnInvalid::Null, urns.as_ref())?;
//! let keys = keys.as_string::<i32>();
//! assert_eq!(keys.value(0), "urn:isbn:0395363411");
//! assert!(keys.is_null(1) && keys.is_null(2));
//!
//! let err = compute(Op::Key(KeyRules::CURRENT), OnInvalid::Error, urns.as_ref()).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "'urn:example:a b': invalid URN: ' ' at byte 13 is not allowed in the NSS"
//! );
//! # Ok::<(), urn_arrow::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, GenericStringBuilder, Int64Builder, StringBuilder, StringViewBuilder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{
    ArrowDictionaryKeyType, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type,
    UInt32Type, UInt64Type,
};
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, ListArray, OffsetSizeTrait, StructArray,
};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields};
// urn-core whole, and its prelude at the root: the same names in every sibling crate.
pub use urn_core;
pub use urn_core::prelude::*;

mod operation;
pub use operation::{Op, Operation, operation, operations};

/// What a function does with a value that is not a URN, where it needs one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnInvalid {
    /// Null for that row.
    Null,
    /// The whole call fails with the value and the parser's error ([`Error::Invalid`]).
    Error,
}

/// Why a call failed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A value is not a URN, under [`OnInvalid::Error`]: the value and the parser's error.
    Invalid {
        /// The value, as given.
        value: String,
        /// Why it is not a URN.
        error: ParseError,
    },
    /// The array does not hold strings.
    NotStrings(DataType),
    /// Arrow refused to build the result.
    Arrow(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { value, error } => write!(f, "{}: {error}", sql_literal(value)),
            Error::NotStrings(t) => write!(
                f,
                "takes strings (Utf8, LargeUtf8, Utf8View or a dictionary of them), not {t}"
            ),
            Error::Arrow(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ArrowError> for Error {
    fn from(e: ArrowError) -> Self {
        Error::Arrow(e.to_string())
    }
}

/// `text` as an SQL string literal for a message: `'` doubled, control characters as
/// `\u{…}`, cut after 200 bytes with `…` (no double quote or backslash of its own, so the
/// text survives Debug formatting, as Ballista wraps executor errors).
///
/// ```
/// assert_eq!(urn_arrow::sql_literal("it's\n"), "'it''s\\u{a}'");
/// ```
#[must_use]
pub fn sql_literal(text: &str) -> String {
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

/// The fields of each struct in [`Op::Find`]'s list: `start`, `end` (`Int64`, byte offsets in
/// the value), `text` (`Utf8`, the URN as written; for a DOI in a doi.org link, `urn:doi:` and
/// the DOI), `key` (`Utf8`), `link_start`, `link_end` (`Int64`, the span of the resolver link
/// around the URN, null when none).
#[must_use]
pub fn found_fields() -> Fields {
    Fields::from(vec![
        Field::new("start", DataType::Int64, false),
        Field::new("end", DataType::Int64, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("key", DataType::Utf8, false),
        Field::new("link_start", DataType::Int64, true),
        Field::new("link_end", DataType::Int64, true),
    ])
}

/// The fields of each fix in [`Op::Repair`]'s list: `kind` (`FixKind::name`), `start`, `end`
/// (byte offsets in the value), `before`, `after`.
#[must_use]
pub fn fix_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, false),
        Field::new("start", DataType::Int64, false),
        Field::new("end", DataType::Int64, false),
        Field::new("before", DataType::Utf8, false),
        Field::new("after", DataType::Utf8, false),
    ])
}

/// The fields of [`Op::Repair`]'s struct: `urn` (`Utf8`, null when not repaired), `fixes` (a
/// list of [`fix_fields`] structs) and `error` (the struct of [`problem_fields`], null when
/// repaired).
#[must_use]
pub fn repair_fields() -> Fields {
    Fields::from(vec![
        Field::new("urn", DataType::Utf8, true),
        Field::new("fixes", list_of(fix_fields()), false),
        Field::new("error", DataType::Struct(problem_fields()), true),
    ])
}

/// A list of structs of `fields`.
fn list_of(fields: Fields) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(
        DataType::Struct(fields),
        false,
    )))
}

/// One value's answer, borrowed from the input where it can be (a key that is its URN, a NID
/// or NSS) or built inline (short keys). ([`Op::Find`] and [`Op::Repair`] answer with lists and
/// structs, built by [`compute`] only: their answer here is [`Answer::Null`].)
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer<'a> {
    /// A key.
    Key(UrnKey<'a>),
    /// A part of the value (NID, NSS).
    Part(&'a str),
    /// [`Op::IsValid`]'s flag.
    Flag(bool),
    /// No answer: the value is a URN ([`Op::Message`], [`Op::Problem`]).
    Null,
    /// The value is not a URN: the parser's error (the answer of [`Op::Message`] and
    /// [`Op::Problem`], and the reason an op that needs a URN has none).
    Invalid(ParseError),
}

impl Answer<'_> {
    /// The text of a key or a part.
    #[must_use]
    pub fn text(&self) -> Option<&str> {
        match self {
            Answer::Key(key) => Some(key.as_str()),
            Answer::Part(part) => Some(part),
            _ => None,
        }
    }
}

/// `op`'s answer for one value: the per-value work of every engine.
///
/// ```
/// use urn_arrow::{Answer, Op, answer};
/// assert_eq!(answer(Op::Nid, "URN:Example:x").text(), Some("Example"));
/// assert!(matches!(answer(Op::IsValid, "urn:x"), Answer::Flag(false)));
/// ```
#[must_use]
pub fn answer(op: Op, value: &str) -> Answer<'_> {
    if matches!(op, Op::Find(_) | Op::Repair) {
        return Answer::Null;
    }
    let urn = match UrnRef::parse(value) {
        Ok(urn) => urn,
        Err(e) => {
            return match op {
                Op::IsValid => Answer::Flag(false),
                _ => Answer::Invalid(e),
            };
        }
    };
    match op {
        Op::Key(rules) => Answer::Key(urn.key_with(rules)),
        Op::Rfc8141Key => Answer::Key(urn.rfc8141_key()),
        Op::Nid => Answer::Part(urn.nid()),
        Op::Nss => Answer::Part(urn.nss()),
        Op::IsValid => Answer::Flag(true),
        Op::Message | Op::Problem | Op::Find(_) | Op::Repair => Answer::Null,
    }
}

/// The fields of [`Op::Problem`]'s struct: `kind` (`Utf8`) and `offset` (`Int64`).
#[must_use]
pub fn problem_fields() -> Fields {
    Fields::from(vec![
        Field::new("kind", DataType::Utf8, true),
        Field::new("offset", DataType::Int64, true),
    ])
}

/// A byte offset as an Arrow `Int64` (offsets are bounded by the input; saturating).
#[must_use]
pub fn offset_i64(offset: usize) -> i64 {
    i64::try_from(offset).unwrap_or(i64::MAX)
}

/// The type of `op`'s result over values of type `input`: a text result has the input's
/// layout (a dictionary's values too), [`Op::IsValid`] is `Boolean`, [`Op::Problem`] the
/// struct of [`problem_fields`], [`Op::Find`] a list of [`found_fields`] structs and
/// [`Op::Repair`] the struct of [`repair_fields`].
pub fn output_type(op: Op, input: &DataType) -> Result<DataType, Error> {
    let strings =
        |t: &DataType| matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View);
    let dictionary_of_strings = matches!(input, DataType::Dictionary(_, v) if strings(v));
    match op {
        Op::Find(_) if strings(input) || dictionary_of_strings => {
            return Ok(list_of(found_fields()));
        }
        Op::Repair if strings(input) || dictionary_of_strings => {
            return Ok(DataType::Struct(repair_fields()));
        }
        _ => {}
    }
    match (op, input) {
        (Op::IsValid, t) if strings(t) => Ok(DataType::Boolean),
        (Op::Problem, t) if strings(t) => Ok(DataType::Struct(problem_fields())),
        (_, t) if strings(t) => Ok(t.clone()),
        (Op::IsValid, DataType::Dictionary(_, v)) if strings(v) => Ok(DataType::Boolean),
        (Op::Problem, DataType::Dictionary(_, v)) if strings(v) => {
            Ok(DataType::Struct(problem_fields()))
        }
        (_, DataType::Dictionary(k, v)) if strings(v) => {
            Ok(DataType::Dictionary(k.clone(), v.clone()))
        }
        (_, other) => Err(Error::NotStrings(other.clone())),
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

/// The answer's error under `on_invalid`: `Err` for a value an op that needs a URN cannot
/// answer, when it fails.
fn strict(op: Op, on_invalid: OnInvalid, value: &str, answer: &Answer<'_>) -> Result<(), Error> {
    match answer {
        Answer::Invalid(error) if op.needs_urn() && on_invalid == OnInvalid::Error => {
            Err(Error::Invalid {
                value: value.to_owned(),
                error: *error,
            })
        }
        _ => Ok(()),
    }
}

/// The text results of `values`, in builder `B`.
fn texts<'a, B: TextBuilder>(
    op: Op,
    on_invalid: OnInvalid,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    bytes: usize,
) -> Result<ArrayRef, Error> {
    // Sized once: a result is never longer than its input, but an ISSN key (which may gain a
    // hyphen) can be one byte longer; leave room for a few. (A message is longer: the builder
    // grows for it.)
    let mut out = B::with_capacity(rows, bytes + bytes / 16);
    for value in values {
        let Some(value) = value else {
            out.null();
            continue;
        };
        let answer = answer(op, value);
        strict(op, on_invalid, value, &answer)?;
        match (&answer, op) {
            (Answer::Invalid(e), Op::Message) => out.value(&e.to_string()),
            _ => match answer.text() {
                Some(text) => out.value(text),
                None => out.null(),
            },
        }
    }
    Ok(out.done())
}

/// The flags ([`Op::IsValid`]) of `values`.
fn flags<'a>(values: impl Iterator<Item = Option<&'a str>>, rows: usize) -> ArrayRef {
    let mut out = BooleanBuilder::with_capacity(rows);
    for value in values {
        out.append_option(value.map(|v| matches!(answer(Op::IsValid, v), Answer::Flag(true))));
    }
    Arc::new(out.finish())
}

/// The problems ([`Op::Problem`]) of `values`: null for a URN and for a null.
fn problems<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
) -> Result<ArrayRef, Error> {
    // Kind names are short and most rows of a real column are valid: the kinds' bytes grow
    // from nothing.
    let mut kinds = StringBuilder::with_capacity(rows, 0);
    let mut offsets = Int64Builder::with_capacity(rows);
    let mut valid = NullBufferBuilder::new(rows);
    for value in values {
        match value.map(|v| answer(Op::Problem, v)) {
            Some(Answer::Invalid(e)) => {
                kinds.append_value(e.kind().name());
                offsets.append_value(offset_i64(e.offset()));
                valid.append_non_null();
            }
            _ => {
                kinds.append_null();
                offsets.append_null();
                valid.append_null();
            }
        }
    }
    let columns: Vec<ArrayRef> = vec![Arc::new(kinds.finish()), Arc::new(offsets.finish())];
    Ok(Arc::new(StructArray::try_new(
        problem_fields(),
        columns,
        valid.finish(),
    )?))
}

/// An `i32` list offset, or the error of a list too long for one.
fn list_offset(n: usize) -> Result<i32, Error> {
    i32::try_from(n).map_err(|_| Error::Arrow(format!("a list of {n} entries is too long")))
}

/// The URNs found in `values` ([`Op::Find`]): a list per row, null for a null.
fn finds<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    rules: KeyRules,
) -> Result<ArrayRef, Error> {
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0i32);
    let (mut starts, mut ends) = (Int64Builder::new(), Int64Builder::new());
    let (mut texts, mut keys) = (StringBuilder::new(), StringBuilder::new());
    let (mut link_starts, mut link_ends) = (Int64Builder::new(), Int64Builder::new());
    let mut valid = NullBufferBuilder::new(rows);
    let mut count = 0usize;
    for value in values {
        match value {
            Some(text) => {
                for found in urn_core::find(text) {
                    starts.append_value(offset_i64(found.start()));
                    ends.append_value(offset_i64(found.end()));
                    texts.append_value(found.as_str());
                    keys.append_value(found.urn().key_with(rules).as_str());
                    let link = found.link();
                    link_starts.append_option(link.as_ref().map(|l| offset_i64(l.start)));
                    link_ends.append_option(link.map(|l| offset_i64(l.end)));
                    count += 1;
                }
                valid.append_non_null();
            }
            None => valid.append_null(),
        }
        offsets.push(list_offset(count)?);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(starts.finish()),
        Arc::new(ends.finish()),
        Arc::new(texts.finish()),
        Arc::new(keys.finish()),
        Arc::new(link_starts.finish()),
        Arc::new(link_ends.finish()),
    ];
    let entries = StructArray::try_new(found_fields(), columns, None)?;
    list(found_fields(), offsets, entries, valid)
}

/// A list array of `entries`, split at `offsets`, null where `valid` says.
fn list(
    fields: Fields,
    offsets: Vec<i32>,
    entries: StructArray,
    mut valid: NullBufferBuilder,
) -> Result<ArrayRef, Error> {
    let field = Arc::new(Field::new_list_field(DataType::Struct(fields), false));
    Ok(Arc::new(ListArray::try_new(
        field,
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Arc::new(entries),
        valid.finish(),
    )?))
}

/// What repair makes of `values` ([`Op::Repair`]): a struct per row, null for a null.
fn repairs<'a>(
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
) -> Result<ArrayRef, Error> {
    let mut urns = StringBuilder::new();
    let mut offsets = Vec::with_capacity(rows + 1);
    offsets.push(0i32);
    let (mut kinds, mut befores, mut afters) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let (mut starts, mut ends) = (Int64Builder::new(), Int64Builder::new());
    let (mut error_kinds, mut error_offsets) = (StringBuilder::new(), Int64Builder::new());
    let mut errors = NullBufferBuilder::new(rows);
    let mut valid = NullBufferBuilder::new(rows);
    let mut count = 0usize;
    for value in values {
        let repaired = value.map(urn_core::repair);
        urns.append_option(repaired.as_ref().and_then(|r| r.urn()).map(|u| u.as_str()));
        for fix in repaired.iter().flat_map(|r| r.fixes()) {
            kinds.append_value(fix.kind.name());
            starts.append_value(offset_i64(fix.start));
            ends.append_value(offset_i64(fix.end));
            befores.append_value(&fix.before);
            afters.append_value(&fix.after);
            count += 1;
        }
        offsets.push(list_offset(count)?);
        match repaired.as_ref().and_then(|r| r.error()) {
            Some(e) => {
                error_kinds.append_value(e.kind().name());
                error_offsets.append_value(offset_i64(e.offset()));
                errors.append_non_null();
            }
            None => {
                error_kinds.append_null();
                error_offsets.append_null();
                errors.append_null();
            }
        }
        match repaired {
            Some(_) => valid.append_non_null(),
            None => valid.append_null(),
        }
    }
    let fix_columns: Vec<ArrayRef> = vec![
        Arc::new(kinds.finish()),
        Arc::new(starts.finish()),
        Arc::new(ends.finish()),
        Arc::new(befores.finish()),
        Arc::new(afters.finish()),
    ];
    let fixes = StructArray::try_new(fix_fields(), fix_columns, None)?;
    let error_columns: Vec<ArrayRef> = vec![
        Arc::new(error_kinds.finish()),
        Arc::new(error_offsets.finish()),
    ];
    let errors = StructArray::try_new(problem_fields(), error_columns, errors.finish())?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(urns.finish()),
        list(fix_fields(), offsets, fixes, NullBufferBuilder::new(0))?,
        Arc::new(errors),
    ];
    Ok(Arc::new(StructArray::try_new(
        repair_fields(),
        columns,
        valid.finish(),
    )?))
}

/// `op` over the values of one array, text results in builder `B`.
fn over<'a, B: TextBuilder>(
    op: Op,
    on_invalid: OnInvalid,
    values: impl Iterator<Item = Option<&'a str>>,
    rows: usize,
    bytes: usize,
) -> Result<ArrayRef, Error> {
    match op {
        Op::IsValid => Ok(flags(values, rows)),
        Op::Problem => problems(values, rows),
        Op::Find(rules) => finds(values, rows, rules),
        Op::Repair => repairs(values, rows),
        _ => texts::<B>(op, on_invalid, values, rows, bytes),
    }
}

/// `op` over a plain string array (not a dictionary).
fn plain(op: Op, on_invalid: OnInvalid, array: &dyn Array) -> Result<ArrayRef, Error> {
    let rows = array.len();
    match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            over::<GenericStringBuilder<i32>>(op, on_invalid, a.iter(), rows, a.values().len())
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            over::<GenericStringBuilder<i64>>(op, on_invalid, a.iter(), rows, a.values().len())
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            let bytes = a.data_buffers().iter().map(|b| b.len()).sum();
            over::<StringViewBuilder>(op, on_invalid, a.iter(), rows, bytes)
        }
        other => Err(Error::NotStrings(other.clone())),
    }
}

/// `op` over an array of any string layout (see the crate docs), `on_invalid` deciding what a
/// value that is not a URN gives where the op needs one.
pub fn compute(op: Op, on_invalid: OnInvalid, array: &dyn Array) -> Result<ArrayRef, Error> {
    let DataType::Dictionary(key, _) = array.data_type() else {
        return plain(op, on_invalid, array);
    };
    match key.as_ref() {
        DataType::Int8 => dictionary::<Int8Type>(op, on_invalid, array),
        DataType::Int16 => dictionary::<Int16Type>(op, on_invalid, array),
        DataType::Int32 => dictionary::<Int32Type>(op, on_invalid, array),
        DataType::Int64 => dictionary::<Int64Type>(op, on_invalid, array),
        DataType::UInt8 => dictionary::<UInt8Type>(op, on_invalid, array),
        DataType::UInt16 => dictionary::<UInt16Type>(op, on_invalid, array),
        DataType::UInt32 => dictionary::<UInt32Type>(op, on_invalid, array),
        DataType::UInt64 => dictionary::<UInt64Type>(op, on_invalid, array),
        _ => Err(Error::NotStrings(array.data_type().clone())),
    }
}

/// `op` over a dictionary: each distinct value once (a failing op fails only on a value some
/// row refers to: a dictionary may hold values no row uses), then the keys.
fn dictionary<K: ArrowDictionaryKeyType>(
    op: Op,
    on_invalid: OnInvalid,
    array: &dyn Array,
) -> Result<ArrayRef, Error> {
    let dictionary: &DictionaryArray<K> = array.as_dictionary();
    let values = dictionary.values();
    let keys: Vec<Option<usize>> = dictionary.keys_iter().collect();
    if matches!(op, Op::Problem | Op::Find(_) | Op::Repair) {
        // A struct or list per row: no string layout, so the rows are computed one by one.
        let strings: Vec<Option<&str>> = keys
            .iter()
            .map(|key| key.and_then(|k| string_at(values.as_ref(), k)))
            .collect();
        return over::<StringBuilder>(op, on_invalid, strings.into_iter(), array.len(), 0);
    }
    let results = plain(op, OnInvalid::Null, values.as_ref())?;
    if op.needs_urn()
        && on_invalid == OnInvalid::Error
        && results.null_count() > values.null_count()
    {
        for key in keys.iter().flatten() {
            if values.is_valid(*key) && results.is_null(*key) {
                let value = string_at(values.as_ref(), *key).unwrap_or_default();
                if let Answer::Invalid(error) = answer(op, value) {
                    return Err(Error::Invalid {
                        value: value.to_owned(),
                        error,
                    });
                }
            }
        }
    }
    match op {
        Op::IsValid => {
            // A flag per row, taken through the keys (a null key stays null).
            let flags: &BooleanArray = results.as_boolean();
            let taken: BooleanArray = keys
                .iter()
                .map(|key| key.and_then(|k| flags.is_valid(k).then(|| flags.value(k))))
                .collect();
            Ok(Arc::new(taken))
        }
        _ => Ok(Arc::new(dictionary.with_values(results))),
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

#[cfg(test)]
mod tests;

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct Readme;
