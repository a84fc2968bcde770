//! The subcommands for dirty data: `urn find` (the URNs in text) and `urn fix` (near-misses
//! repaired, every fix listed). Both map urn-core's `find` and `repair`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use urn_core::{
    FIND_CONTEXT, FindOptions, KeyRules, ParseOptions, UrnKey, find_with, outside_urns, repair_with,
};

use crate::commands::{ErrorRecord, exit, format};
use crate::input;

/// The resolver link a URN was found in.
#[derive(Serialize)]
struct LinkRecord<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// One line of `urn find` (its fields, `file` only with files, are the contract in the README).
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
/// A line is held a window at a time ([`window_len`]), so memory is bounded by `--max-len`
/// however long the line. Exit status 0 when any URN was found, 1 when none (as grep), 2
/// when a file cannot be read.
pub(crate) fn find(
    files: &[PathBuf],
    options: FindOptions,
    rules: KeyRules,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut found = false;
    let max_len = options.parse_options().max_len();
    let window = window_len(max_len);
    let mut search = |reader: &mut dyn BufRead, file: Option<&str>| -> io::Result<()> {
        let mut buf = Vec::with_capacity(1 << 12);
        let mut line = 0;
        loop {
            buf.clear();
            // The line's offset of `buf[0]`, and where the URNs not yet written start.
            let (mut base, mut from) = (0usize, 0usize);
            let mut read_any = false;
            loop {
                let Some((_, done)) = input::read_some(reader, &mut buf, window)? else {
                    if !read_any {
                        return Ok(());
                    }
                    break;
                };
                read_any = true;
                if done {
                    break;
                }
                if buf.len() >= window {
                    // Search up to the last byte no URN holds, and go on from there with what
                    // `find` reads before a URN. Without one far enough in, what follows is
                    // one run of URN characters: a URN written there would be longer than
                    // `max_len`, so only a link's NSS (which ends at a `?` or `#`) can start
                    // before its last `max_len` bytes; those are searched in the window.
                    let cut = buf
                        .iter()
                        .rposition(|&b| outside_urns(b))
                        .filter(|&cut| cut > FIND_CONTEXT);
                    let (bytes, until) = match cut {
                        Some(cut) => (buf.get(..cut).unwrap_or_default(), cut),
                        None => (buf.as_slice(), buf.len() - max_len - 1),
                    };
                    let piece = Piece {
                        line: line + 1,
                        base,
                        from,
                        until: base + until,
                        file,
                    };
                    found |= piece.write(bytes, options, rules, &mut out)?;
                    from = base + until;
                    let keep = until - FIND_CONTEXT;
                    buf.drain(..keep);
                    base += keep;
                }
            }
            line += 1;
            let piece = Piece {
                line,
                base,
                from,
                until: usize::MAX,
                file,
            };
            found |= piece.write(&buf, options, rules, &mut out)?;
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

/// The most of a line `urn find` holds before it searches a piece: room for two URNs of
/// `max_len` bytes and what `find` reads before each, and at least 64 KiB.
fn window_len(max_len: usize) -> usize {
    max_len
        .saturating_add(FIND_CONTEXT)
        .saturating_mul(2)
        .max(1 << 16)
}

/// A piece of a line to search: which line, the line's offset of its first byte, where the
/// URNs not yet written start, and the file.
struct Piece<'f> {
    line: usize,
    base: usize,
    from: usize,
    /// Where the URNs this piece writes end: those starting there or later are the next
    /// piece's.
    until: usize,
    file: Option<&'f str>,
}

impl Piece<'_> {
    /// Writes the URNs found in `bytes` (the piece) that start in `from..until`, in its
    /// UTF-8 stretches; returns whether it wrote any.
    fn write(
        &self,
        bytes: &[u8],
        options: FindOptions,
        rules: KeyRules,
        out: &mut impl Write,
    ) -> io::Result<bool> {
        let mut wrote = false;
        let mut base = self.base;
        for chunk in bytes.utf8_chunks() {
            let text = chunk.valid();
            for hit in find_with(text, options) {
                if !(self.from..self.until).contains(&(base + hit.start())) {
                    continue;
                }
                wrote = true;
                let link = hit.link().map(|span| LinkRecord {
                    start: base + span.start,
                    end: base + span.end,
                    text: text.get(span).unwrap_or_default(),
                });
                let record = Hit {
                    line: self.line,
                    start: base + hit.start(),
                    end: base + hit.end(),
                    text: hit.as_str(),
                    key: hit.urn().key_with(rules),
                    link,
                    file: self.file,
                };
                crate::json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")?;
            }
            base += text.len() + chunk.invalid().len();
        }
        Ok(wrote)
    }
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
pub(crate) fn fix(
    args: &[String],
    stdin_json: bool,
    options: ParseOptions,
) -> io::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut any_bad = false;
    input::for_each(args, format(stdin_json), options, |input| {
        let record = match &input.text {
            Ok(text) => {
                let repaired = repair_with(text, options);
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
                        // A URN the namespace refuses: its rule, not the generic message.
                        message: repaired
                            .refused()
                            .map_or_else(|| e.to_string(), ToString::to_string),
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
