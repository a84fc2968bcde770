//! The subcommands. Each streams its inputs and returns the exit code.

use std::collections::HashSet;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use serde_json::{Value, json};
use urn_core::{ParseOptions, UrnRef};

use crate::input::{self, Input, LineFormat};

fn format(stdin_json: bool) -> LineFormat {
    if stdin_json {
        LineFormat::Json
    } else {
        LineFormat::Raw
    }
}

fn exit(any_bad: bool) -> ExitCode {
    if any_bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Parses one input; on failure returns the error as `(kind, offset, message)`.
fn parse<'a>(
    text: &'a Result<String, input::Unreadable>,
    options: &ParseOptions,
) -> Result<UrnRef<'a>, (&'static str, usize, String)> {
    match text {
        Ok(text) => options
            .parse_ref(text)
            .map_err(|e| (e.kind().name(), e.offset(), e.to_string())),
        Err(u) => Err((u.kind, u.offset, u.message.clone())),
    }
}

/// Whether the NSS keeps its namespace's own rules: `known` says whether this tool knows them;
/// `valid`, `message` and `offset` (into the input) are `null` when it does not.
fn namespace_record(urn: &UrnRef<'_>) -> Value {
    match (urn.namespace(), urn.validate_namespace()) {
        (None, _) => json!({ "known": false, "valid": null, "message": null, "offset": null }),
        (Some(_), Ok(())) => {
            json!({ "known": true, "valid": true, "message": null, "offset": null })
        }
        (Some(_), Err(e)) => json!({
            "known": true,
            "valid": false,
            "message": e.to_string(),
            "offset": e.offset(),
        }),
    }
}

fn inspect_record(input: &Input, options: &ParseOptions) -> Value {
    let shown = match &input.text {
        Ok(t) => t.as_str(),
        Err(u) => u.shown.as_str(),
    };
    match parse(&input.text, options) {
        Ok(urn) => json!({
            "input": shown,
            "valid": true,
            "nid": urn.nid(),
            "nss": urn.nss(),
            "r_component": urn.r_component(),
            "q_component": urn.q_component(),
            "f_component": urn.f_component(),
            "key": urn.key().as_str(),
            "rfc8141_key": urn.rfc8141_key().as_str(),
            "nid_status": urn.nid_status().to_string(),
            "namespace": namespace_record(&urn),
        }),
        Err((kind, offset, message)) => json!({
            "input": shown,
            "valid": false,
            "error": { "kind": kind, "offset": offset, "message": message },
        }),
    }
}

/// `urn inspect`: one JSON object per input.
pub(crate) fn inspect(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut any_bad = false;
    input::for_each(args, format(stdin_json), |input| {
        let record = inspect_record(&input, &options);
        any_bad |= record.get("valid") == Some(&Value::Bool(false));
        serde_json::to_writer(&mut out, &record)?;
        out.write_all(b"\n")
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
    input::for_each(args, format(stdin_json), |input| {
        match parse(&input.text, &options) {
            Ok(urn) => each(urn)?,
            Err((_, _, message)) => {
                any_bad = true;
                writeln!(err, "{}: {message}", input.origin)?;
            }
        }
        Ok(())
    })?;
    Ok(any_bad)
}

/// `urn key`: the canonical key of each input.
pub(crate) fn key(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::new(io::stdout().lock());
    let any_bad = for_each_valid(args, options, stdin_json, |urn| {
        writeln!(out, "{}", urn.key())
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}

/// `urn dedup`: the first input of each key, in order. Holds only the set of keys seen.
pub(crate) fn dedup(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut seen = HashSet::new();
    let any_bad = for_each_valid(args, options, stdin_json, |urn| {
        if seen.insert(urn.key().into_string()) {
            writeln!(out, "{}", urn.as_str())?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}

/// `urn check`: silence for valid inputs, `line N: <message>` for invalid ones.
pub(crate) fn check(
    args: &[String],
    options: ParseOptions,
    stdin_json: bool,
) -> io::Result<ExitCode> {
    let any_bad = for_each_valid(args, options, stdin_json, |_| Ok(()))?;
    Ok(exit(any_bad))
}

/// `urn eq A B`: 0 when equivalent, 1 when not, 2 when either is invalid.
pub(crate) fn eq(a: &str, b: &str, options: ParseOptions) -> io::Result<ExitCode> {
    let mut err = io::stderr().lock();
    let mut parsed = Vec::with_capacity(2);
    for (n, text) in [a, b].into_iter().enumerate() {
        match options.parse_ref(text) {
            Ok(urn) => parsed.push(urn),
            Err(e) => {
                writeln!(err, "argument {}: {e}", n + 1)?;
                return Ok(ExitCode::from(2));
            }
        }
    }
    Ok(exit(parsed.first() != parsed.get(1)))
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
