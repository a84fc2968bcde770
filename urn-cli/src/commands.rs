//! The subcommands. Each streams its inputs and returns the exit code.

use std::borrow::Cow;
use std::hash::BuildHasher;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use hashbrown::hash_table::Entry;
use hashbrown::{DefaultHashBuilder, HashTable};
use serde::Serialize;
use urn_core::{KeyRules, NidStatus, ParseOptions, UrnKey, UrnRef};

use crate::input::{self, Input, LineFormat};

pub(crate) fn format(stdin_json: bool) -> LineFormat {
    if stdin_json {
        LineFormat::Json
    } else {
        LineFormat::Raw
    }
}

pub(crate) fn exit(any_bad: bool) -> ExitCode {
    if any_bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Why an input is not a URN: the parser's error kind, offset and message (urn-core names what
/// a shell pipeline typically adds too: a byte order mark, an empty line, white space around the
/// URN), or why a line could not be read.
struct Invalid {
    kind: &'static str,
    offset: usize,
    message: String,
}

/// Parses one input.
fn parse<'a>(
    text: &'a Result<Cow<'_, str>, input::Unreadable>,
    options: &ParseOptions,
) -> Result<UrnRef<'a>, Invalid> {
    match text {
        Ok(text) => UrnRef::parse_with(text, *options).map_err(|e| Invalid {
            kind: e.kind().name(),
            offset: e.offset(),
            message: e.to_string(),
        }),
        Err(u) => Err(Invalid {
            kind: u.kind,
            offset: u.offset,
            message: u.message.clone(),
        }),
    }
}

/// The `namespace` object of `urn inspect`: whether the NSS keeps its namespace's own rules;
/// `valid`, `message` and `offset` (into the input) are `null` when the tool knows no rules.
#[derive(Serialize)]
struct NamespaceRecord {
    known: bool,
    valid: Option<bool>,
    message: Option<String>,
    offset: Option<usize>,
}

impl NamespaceRecord {
    fn of(urn: &UrnRef<'_>) -> Self {
        let (known, result) = match urn.namespace() {
            None => (false, None),
            Some(_) => (true, Some(urn.validate_namespace())),
        };
        let error = result.as_ref().and_then(|r| r.as_ref().err());
        NamespaceRecord {
            known,
            valid: result.as_ref().map(Result::is_ok),
            message: error.map(ToString::to_string),
            offset: error.map(urn_core::NamespaceError::offset),
        }
    }
}

/// One line of `urn inspect` (the field order is the contract in the README).
#[derive(Serialize)]
#[serde(untagged)]
// Built and written once per line on the stack; boxing the big variant would allocate per line.
#[allow(clippy::large_enum_variant)]
enum Record<'a> {
    Valid {
        input: &'a str,
        valid: bool,
        nid: &'a str,
        nss: &'a str,
        r_component: Option<&'a str>,
        q_component: Option<&'a str>,
        f_component: Option<&'a str>,
        key: UrnKey<'a>,
        rfc8141_key: UrnKey<'a>,
        nid_status: StatusName,
        namespace: NamespaceRecord,
    },
    Invalid {
        input: &'a str,
        valid: bool,
        error: ErrorRecord,
    },
}

impl Record<'_> {
    /// Writes a valid record's JSON without escaping, when no string in it needs escaping (a
    /// URN's characters never do; a namespace message may); returns false otherwise, and for
    /// an invalid record. The output is byte for byte what serde_json writes.
    fn write_plain(&self, out: &mut String) -> bool {
        let Record::Valid {
            input,
            nid,
            nss,
            r_component,
            q_component,
            f_component,
            key,
            rfc8141_key,
            nid_status,
            namespace,
            ..
        } = self
        else {
            return false;
        };
        // (ASCII only: a non-ASCII character may be one `crate::json` escapes.)
        let plain = |s: &str| {
            s.bytes()
                .all(|b| (0x20..0x80).contains(&b) && b != b'"' && b != b'\\')
        };
        let message_plain = namespace.message.as_deref().is_none_or(plain);
        if !(plain(input) && message_plain) {
            return false;
        }
        let string = |out: &mut String, s: &str| {
            out.push('"');
            out.push_str(s);
            out.push('"');
        };
        let optional = |out: &mut String, s: Option<&str>| match s {
            Some(s) => string(out, s),
            None => out.push_str("null"),
        };
        out.push_str("{\"input\":");
        string(out, input);
        out.push_str(",\"valid\":true,\"nid\":");
        string(out, nid);
        out.push_str(",\"nss\":");
        string(out, nss);
        out.push_str(",\"r_component\":");
        optional(out, *r_component);
        out.push_str(",\"q_component\":");
        optional(out, *q_component);
        out.push_str(",\"f_component\":");
        optional(out, *f_component);
        out.push_str(",\"key\":");
        string(out, key.as_str());
        out.push_str(",\"rfc8141_key\":");
        string(out, rfc8141_key.as_str());
        out.push_str(",\"nid_status\":\"");
        let _ = FmtOut(out).write_fmt(format_args!("{}", nid_status.0));
        out.push_str("\",\"namespace\":{\"known\":");
        out.push_str(if namespace.known { "true" } else { "false" });
        out.push_str(",\"valid\":");
        out.push_str(match namespace.valid {
            Some(true) => "true",
            Some(false) => "false",
            None => "null",
        });
        out.push_str(",\"message\":");
        optional(out, namespace.message.as_deref());
        out.push_str(",\"offset\":");
        match namespace.offset {
            Some(offset) => {
                let _ = FmtOut(out).write_fmt(format_args!("{offset}"));
            }
            None => out.push_str("null"),
        }
        out.push_str("}}");
        true
    }
}

/// Formatting into a `String` (this module's `Write` is `io::Write`).
struct FmtOut<'a>(&'a mut String);

impl FmtOut<'_> {
    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> std::fmt::Result {
        std::fmt::Write::write_fmt(self.0, args)
    }
}

/// An error as `urn inspect` and `urn fix` print it.
#[derive(Serialize)]
pub(crate) struct ErrorRecord {
    pub(crate) kind: &'static str,
    pub(crate) offset: usize,
    pub(crate) message: String,
}

fn inspect_record<'a>(input: &'a Input<'_>, options: &ParseOptions) -> Record<'a> {
    let shown = match &input.text {
        Ok(t) => t.as_ref(),
        Err(u) => u.shown.as_str(),
    };
    match parse(&input.text, options) {
        Ok(urn) => Record::Valid {
            input: shown,
            valid: true,
            nid: urn.nid(),
            nss: urn.nss(),
            r_component: urn.r_component(),
            q_component: urn.q_component(),
            f_component: urn.f_component(),
            key: urn.key(),
            rfc8141_key: urn.rfc8141_key(),
            nid_status: StatusName(urn.nid_status()),
            namespace: NamespaceRecord::of(&urn),
        },
        Err(e) => Record::Invalid {
            input: shown,
            valid: false,
            error: ErrorRecord {
                kind: e.kind,
                offset: e.offset,
                message: e.message,
            },
        },
    }
}

/// A NID status written as its name (`formal`...), without building a string.
struct StatusName(NidStatus);

impl Serialize for StatusName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// `urn inspect`: one JSON object per input.
pub(crate) fn inspect(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut any_bad = false;
    let mut line = String::with_capacity(512);
    input::for_each(args, format(stdin_json), options, |input| {
        let record = inspect_record(&input, &options);
        any_bad |= matches!(record, Record::Invalid { .. });
        line.clear();
        if !record.write_plain(&mut line) {
            line.clear();
            line.push_str(&crate::json::to_string(&record)?);
        }
        line.push('\n');
        out.write_all(line.as_bytes())
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}

/// Runs `each` on every valid input; reports invalid ones as `<origin>: <message>` on
/// stderr. Returns whether any was invalid.
fn for_each_valid(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
    mut each: impl FnMut(UrnRef<'_>) -> io::Result<()>,
) -> io::Result<bool> {
    let mut any_bad = false;
    let mut err = io::stderr().lock();
    input::for_each(args, format(stdin_json), options, |input| {
        match parse(&input.text, &options) {
            Ok(urn) => each(urn)?,
            Err(e) => {
                any_bad = true;
                writeln!(err, "{}: {}", input.origin, e.message)?;
            }
        }
        Ok(())
    })?;
    Ok(any_bad)
}

/// `urn key`: the canonical key of each input under `rules`.
pub(crate) fn key(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
    rules: KeyRules,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::new(io::stdout().lock());
    let any_bad = for_each_valid(args, options, stdin_json, |urn| {
        writeln!(out, "{}", urn.key_with(rules))
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}

/// `urn dedup`: the first input of each key under `rules`, in order. Holds only the keys
/// seen, back to back in one buffer (memory proportional to the distinct keys, no allocation
/// per key).
pub(crate) fn dedup(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
    rules: KeyRules,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut seen = KeySet::default();
    let any_bad = for_each_valid(args, options, stdin_json, |urn| {
        if seen.insert(urn.key_with(rules).as_str()) {
            out.write_all(urn.as_str().as_bytes())?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}

/// A set of strings stored back to back in one buffer, indexed by a hash table of their hashes
/// and positions (the stored hash spares re-reading the text when the table grows).
#[derive(Default)]
struct KeySet {
    text: String,
    index: HashTable<(u64, usize, usize)>,
    hasher: DefaultHashBuilder,
}

impl KeySet {
    /// Adds `key`; returns whether it was new.
    fn insert(&mut self, key: &str) -> bool {
        let KeySet {
            text,
            index,
            hasher,
        } = self;
        let hash = hasher.hash_one(key);
        let same =
            |&(h, start, end): &(u64, usize, usize)| h == hash && text.get(start..end) == Some(key);
        match index.entry(hash, same, |&(h, _, _)| h) {
            Entry::Occupied(_) => false,
            Entry::Vacant(vacant) => {
                let start = text.len();
                text.push_str(key);
                vacant.insert((hash, start, text.len()));
                true
            }
        }
    }
}

/// `urn check`: silence for valid inputs, `line N: <message>` (or `argument N: <message>`)
/// for invalid ones.
pub(crate) fn check(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let any_bad = for_each_valid(args, options, stdin_json, |_| Ok(()))?;
    Ok(exit(any_bad))
}

/// `urn eq A B`: 0 when equivalent under `rules`, 1 when not, 2 when either is invalid (each
/// invalid one is reported).
pub(crate) fn eq(a: &str, b: &str, options: ParseOptions, rules: KeyRules) -> io::Result<ExitCode> {
    let mut err = io::stderr().lock();
    let inputs = [Ok(Cow::Borrowed(a)), Ok(Cow::Borrowed(b))];
    let mut parsed = Vec::with_capacity(2);
    for (n, text) in inputs.iter().enumerate() {
        match parse(text, &options) {
            Ok(urn) => parsed.push(urn),
            Err(e) => writeln!(err, "argument {}: {}", n + 1, e.message)?,
        }
    }
    match parsed.as_slice() {
        [x, y] => Ok(exit(x.key_with(rules) != y.key_with(rules))),
        _ => Ok(ExitCode::from(2)),
    }
}

/// `urn sql` and `urn schema`: print a generated document.
pub(crate) fn print(text: &str) -> io::Result<ExitCode> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
