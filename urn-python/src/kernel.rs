//! The per-value answers of the columnar functions (Arrow and Polars), each one call into
//! urn-core on a borrowed string: no allocation unless a key must be rewritten and is longer
//! than urn-core's inline buffer.

use urn_core::{UrnKey, UrnRef};

/// What a columnar function computes for each value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The canonical key (`Urn::key`, rules V1); null for an invalid URN.
    Key,
    /// Whether the value is a URN (RFC 8141).
    IsValid,
    /// The NID as written; null for an invalid URN.
    Nid,
    /// The NSS as written; null for an invalid URN.
    Nss,
    /// The parse error's kind and byte offset; null for a valid URN.
    Check,
}

impl Op {
    /// The operation named `name` (`"key"`, `"is_valid"`, `"nid"`, `"nss"`, `"check"`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "key" => Some(Op::Key),
            "is_valid" => Some(Op::IsValid),
            "nid" => Some(Op::Nid),
            "nss" => Some(Op::Nss),
            "check" => Some(Op::Check),
            _ => None,
        }
    }
}

/// A text result: a key (borrowed from the input or built by urn-core) or a part of the input.
pub enum Text<'a> {
    /// A canonical key.
    Key(UrnKey<'a>),
    /// A slice of the input (NID or NSS).
    Part(&'a str),
}

impl Text<'_> {
    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            Text::Key(key) => key.as_str(),
            Text::Part(part) => part,
        }
    }
}

/// The text answer of `op` (`Key`, `Nid` or `Nss`) for `value`; `None` when it is not a URN
/// (or `op` has no text answer).
pub fn text(op: Op, value: &str) -> Option<Text<'_>> {
    let urn = UrnRef::parse(value).ok()?;
    match op {
        Op::Key => Some(Text::Key(urn.key())),
        Op::Nid => Some(Text::Part(urn.nid())),
        Op::Nss => Some(Text::Part(urn.nss())),
        Op::IsValid | Op::Check => None,
    }
}

/// Whether `value` is a URN.
pub fn is_valid(value: &str) -> bool {
    UrnRef::parse(value).is_ok()
}

/// Why `value` is not a URN: the error kind (`ErrorKind::name`, as `urn inspect` prints it)
/// and the byte offset; `None` for a URN.
pub fn problem(value: &str) -> Option<(&'static str, usize)> {
    UrnRef::parse(value)
        .err()
        .map(|e| (e.kind().name(), e.offset()))
}

/// A byte offset as an Arrow/Polars `Int64` (saturating; offsets are bounded by the input).
pub fn offset_i64(offset: usize) -> i64 {
    i64::try_from(offset).unwrap_or(i64::MAX)
}
