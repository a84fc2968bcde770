//! Where inputs come from: command-line arguments, or standard input streamed line by line.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// Where one input came from, for error messages (`line 3`, `argument 2`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Origin {
    Argument(usize),
    Line(usize),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Why an input could not even be read as text.
#[derive(Clone, Debug)]
pub(crate) struct Unreadable {
    /// The input as far as it can be shown (lossy).
    pub(crate) shown: String,
    pub(crate) kind: &'static str,
    pub(crate) offset: usize,
    pub(crate) message: String,
}

/// One input: its text (borrowed from the argument or the line buffer when it can be), or why
/// it has none.
pub(crate) struct Input<'a> {
    pub(crate) origin: Origin,
    pub(crate) text: Result<Cow<'a, str>, Unreadable>,
}

/// How stdin lines are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineFormat {
    /// Each line verbatim (without its `\n` or `\r\n`).
    Raw,
    /// Each line is a JSON string literal, so an input may hold newlines or NUL.
    Json,
}

/// Calls `each` for every input, in order: the arguments if any, else stdin's lines, read
/// one at a time (never all at once). Stops early if `each` returns an error.
pub(crate) fn for_each(
    args: &[String],
    format: LineFormat,
    mut each: impl FnMut(Input<'_>) -> io::Result<()>,
) -> io::Result<()> {
    if !args.is_empty() {
        for (i, arg) in args.iter().enumerate() {
            each(Input {
                origin: Origin::Argument(i + 1),
                text: Ok(Cow::Borrowed(arg)),
            })?;
        }
        return Ok(());
    }
    let stdin = io::stdin();
    let mut reader = stdin.lock();
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        line += 1;
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        each(Input {
            origin: Origin::Line(line),
            text: decode(&buf, format),
        })?;
    }
}

fn decode(bytes: &[u8], format: LineFormat) -> Result<Cow<'_, str>, Unreadable> {
    let text = std::str::from_utf8(bytes).map_err(|e| Unreadable {
        shown: String::from_utf8_lossy(bytes).into_owned(),
        kind: "invalid_utf8",
        offset: e.valid_up_to(),
        message: format!("not UTF-8: invalid byte at byte {}", e.valid_up_to()),
    })?;
    match format {
        LineFormat::Raw => Ok(Cow::Borrowed(text)),
        LineFormat::Json => serde_json::from_str::<String>(text)
            .map(Cow::Owned)
            .map_err(|e| Unreadable {
                shown: text.to_owned(),
                kind: "invalid_json",
                offset: e.column().saturating_sub(1),
                message: format!("not a JSON string literal: {e}"),
            }),
    }
}
