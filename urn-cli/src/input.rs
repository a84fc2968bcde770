//! Where inputs come from: command-line arguments, or standard input streamed line by line.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

use urn_core::{ParseError, ParseOptions, UrnRef};

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

/// Why an input could not even be read as text: urn-core's diagnosis (bytes that are not
/// UTF-8, a line over the length cap), or a `--stdin-json` line that is no JSON string.
#[derive(Clone, Debug)]
pub(crate) struct Unreadable {
    /// The input as far as it can be shown (lossy).
    pub(crate) shown: String,
    pub(crate) kind: &'static str,
    pub(crate) offset: usize,
    pub(crate) message: String,
}

impl Unreadable {
    /// urn-core's error on the input `shown`.
    fn of(shown: String, error: &ParseError) -> Self {
        Unreadable {
            shown,
            kind: error.kind().name(),
            offset: error.offset(),
            message: error.to_string(),
        }
    }
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
/// one at a time (never all at once). A line is kept only up to what an input
/// of `options`' maximum length can take (its `\r\n`; in JSON, six bytes per escaped byte):
/// the rest of a longer line is read past, not stored, and the line gets urn-core's error for
/// an input over the cap, so with `--max-len` memory stays bounded whatever the input (without
/// it the cap is `usize::MAX`). Stops early if `each` returns an error.
pub(crate) fn for_each(
    args: &[String],
    format: LineFormat,
    options: ParseOptions,
    mut each: impl FnMut(Input<'_>) -> io::Result<()>,
) -> io::Result<()> {
    let max_len = options.max_len();
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
    let limit = match format {
        LineFormat::Raw => max_len.saturating_add(2),
        LineFormat::Json => max_len.saturating_mul(6).saturating_add(4),
    };
    let mut buf = Vec::new();
    let mut line = 0;
    loop {
        buf.clear();
        let Some(length) = read_line(&mut reader, &mut buf, limit)? else {
            return Ok(());
        };
        line += 1;
        let text = if length > buf.len() {
            let shown = buf.get(..max_len).unwrap_or(&buf);
            Err(Unreadable::of(
                format!("{}…", String::from_utf8_lossy(shown)),
                &options.too_long(),
            ))
        } else {
            if buf.last() == Some(&b'\n') {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            decode(&buf, format, options)
        };
        each(Input {
            origin: Origin::Line(line),
            text,
        })?;
    }
}

/// Reads one line (through its `\n`, or to the end of input) into `buf`, keeping at most
/// `limit` bytes of it and reading past the rest. Returns the line's whole length, or `None`
/// at the end of input.
fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<usize>> {
    let mut length = 0;
    loop {
        let Some((taken, done)) = read_some(reader, buf, limit)? else {
            return Ok((length > 0).then_some(length));
        };
        length += taken;
        if done {
            return Ok(Some(length));
        }
    }
}

/// Reads what `reader` holds of the current line (through its `\n`) into `buf`, keeping
/// `buf` at most `limit` bytes long and reading past the rest: the one line reader of every
/// subcommand (`urn find` holds a window of a line with it). Returns how many bytes were read
/// and whether the line ended, or `None` at the end of input.
pub(crate) fn read_some(
    reader: &mut (impl BufRead + ?Sized),
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Option<(usize, bool)>> {
    // std's line search (memchr), bounded by the room left; past it, the rest of the line
    // is read without being stored.
    let room = limit.saturating_sub(buf.len());
    if room == 0 {
        let skipped = reader.skip_until(b'\n')?;
        return Ok((skipped > 0).then_some((skipped, true)));
    }
    let room = u64::try_from(room).unwrap_or(u64::MAX);
    let taken = (&mut *reader).take(room).read_until(b'\n', buf)?;
    Ok((taken > 0).then(|| (taken, buf.last() == Some(&b'\n'))))
}

/// A line's text: the line itself, or the string its JSON literal holds. Bytes that are not
/// UTF-8 get urn-core's diagnosis (of the URN, or where the JSON line stops being UTF-8).
fn decode(
    bytes: &[u8],
    format: LineFormat,
    options: ParseOptions,
) -> Result<Cow<'_, str>, Unreadable> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let error = match format {
            LineFormat::Raw => UrnRef::parse_bytes_with(bytes, options).err(),
            LineFormat::Json => None,
        };
        let error = error.unwrap_or_else(|| ParseError::not_utf8(e.valid_up_to()));
        Unreadable::of(String::from_utf8_lossy(bytes).into_owned(), &error)
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
