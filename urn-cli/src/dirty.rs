//! The subcommands for dirty data: `urn find` (the URNs in text) and `urn fix` (near-misses
//! repaired, every fix listed). Both map urn-core's `find` and `repair`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use urn_core::{FindOptions, KeyRules, ParseOptions, UrnEnd, UrnKey, find_with, repair};

use crate::commands::{ErrorRecord, exit, format};
use crate::input;

/// The resolver link a URN was found in.
#[derive(Serialize)]
struct LinkRecord<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// One line of `urn find` (the first five fields are the contract in the README).
#[derive(Serialize)]
struct Hit<'a> {
    line: usize,
    start: usize,
    end: usize,
    text: &'a str,
    key: UrnKey<'a>,
    link: Option<LinkRecord<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
}

/// `urn find`: one JSON object per URN found in `files` (stdin when none), line by line;
/// offsets are bytes in the line. A line that is not UTF-8 is searched in its UTF-8 stretches.
/// Exit status 0 when any URN was found, 1 when none (as grep), 2 when a file cannot be read.
pub(crate) fn find(
    files: &[PathBuf],
    options: ParseOptions,
    rules: KeyRules,
    longest: bool,
) -> io::Result<ExitCode> {
    let end = if longest {
        UrnEnd::Longest
    } else {
        UrnEnd::Prose
    };
    let options = FindOptions::new().with_parse_options(options).with_end(end);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut found = false;
    let mut search = |reader: &mut dyn BufRead, file: Option<&str>| -> io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 12);
        let mut line = 0;
        loop {
            buf.clear();
            if reader.read_until(b'\n', &mut buf)? == 0 {
                return Ok(());
            }
            line += 1;
            let mut base = 0;
            for chunk in buf.utf8_chunks() {
                let text = chunk.valid();
                for hit in find_with(text, options) {
                    found = true;
                    let link = hit.link().map(|span| LinkRecord {
                        start: base + span.start,
                        end: base + span.end,
                        text: text.get(span).unwrap_or_default(),
                    });
                    let record = Hit {
                        line,
                        start: base + hit.start(),
                        end: base + hit.end(),
                        text: hit.as_str(),
                        key: hit.urn().key_with(rules),
                        link,
                        file,
                    };
                    crate::json::to_writer(&mut out, &record)?;
                    out.write_all(b"\n")?;
                }
                base += text.len() + chunk.invalid().len();
            }
        }
    };
    if files.is_empty() {
        search(&mut io::stdin().lock(), None)?;
    }
    for path in files {
        let mut reader = match File::open(path) {
            Ok(file) => BufReader::with_capacity(1 << 16, file),
            Err(e) => {
                out.flush()?;
                eprintln!("urn find: {}: {e}", path.display());
                return Ok(ExitCode::from(2));
            }
        };
        let name = path.to_string_lossy();
        search(&mut reader, Some(&name))?;
    }
    out.flush()?;
    Ok(exit(!found))
}

/// One fix of `urn fix`.
#[derive(Serialize)]
struct FixRecord<'a> {
    kind: &'static str,
    start: usize,
    end: usize,
    before: &'a str,
    after: &'a str,
}

/// One line of `urn fix` (the field order is the contract in the README).
#[derive(Serialize)]
struct Repaired<'a> {
    input: &'a str,
    urn: Option<&'a str>,
    fixes: Vec<FixRecord<'a>>,
    error: Option<ErrorRecord>,
}

/// `urn fix`: one JSON object per input: the URN `repair` makes of it and every fix, or the
/// parser's error. Exit status 0 when every input is a URN after the fixes, 1 when any is not.
pub(crate) fn fix(args: &[String], stdin_json: bool) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut any_bad = false;
    input::for_each(args, format(stdin_json), ParseOptions::new(), |input| {
        let record = match &input.text {
            Ok(text) => {
                let repaired = repair(text);
                any_bad |= repaired.urn().is_none();
                let record = Repaired {
                    input: text,
                    urn: repaired.urn().map(|u| u.as_str()),
                    fixes: repaired
                        .fixes()
                        .iter()
                        .map(|f| FixRecord {
                            kind: f.kind.name(),
                            start: f.start,
                            end: f.end,
                            before: &f.before,
                            after: &f.after,
                        })
                        .collect(),
                    error: repaired.error().map(|e| ErrorRecord {
                        kind: e.kind().name(),
                        offset: e.offset(),
                        message: e.to_string(),
                    }),
                };
                crate::json::to_string(&record)?
            }
            Err(unreadable) => {
                any_bad = true;
                crate::json::to_string(&Repaired {
                    input: &unreadable.shown,
                    urn: None,
                    fixes: Vec::new(),
                    error: Some(ErrorRecord {
                        kind: unreadable.kind,
                        offset: unreadable.offset,
                        message: unreadable.message.clone(),
                    }),
                })?
            }
        };
        out.write_all(record.as_bytes())?;
        out.write_all(b"\n")
    })?;
    out.flush()?;
    Ok(exit(any_bad))
}
