//! `urnkit-oracle`: Rust's answers, for urnkit's Python tests and benchmarks to compare with.
//!
//! - `urnkit-oracle corpus N`: urn-sql's differential-test corpus (the combinatorial set and
//!   `N` proptest strings), one JSON string per line;
//! - `urnkit-oracle answers`: for each stdin line (a JSON string), one JSON object with what
//!   urn-core says of it (verdict, components, keys, error kind/offset/message under both
//!   syntaxes, namespace validation, each typed namespace's verdict, the URNs `find` finds and what `repair` makes of it);
//! - `urnkit-oracle namespaces`: the NIDs of `KnownNamespace::ALL`, one a line;
//! - `urnkit-oracle bench-key FILE ROUNDS`: times `UrnRef::parse` + `key()` over the JSON
//!   strings of FILE (each key copied into one output buffer, as a columnar kernel does) and
//!   prints the best round in seconds.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use serde_json::{Value, json};
use urn_core::{KeyRules, NsUrnError, ParseError, Syntax, Urn, UrnRef};

// urn-sql's test support, compiled in unchanged: test code, with test code's unwraps.
#[allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::panic,
    clippy::indexing_slicing
)]
#[path = "../../../urn-sql/tests/support/corpus.rs"]
mod corpus;

/// A parse error as `{kind, offset, message}` (kind as `urn inspect` prints it).
fn parse_error(e: &ParseError) -> Value {
    json!({"kind": e.kind().name(), "offset": e.offset(), "message": e.to_string()})
}

/// A typed namespace's refusal as `{kind, offset, message}`, with urn-core's kinds.
fn ns_error(e: &NsUrnError) -> Value {
    json!({"kind": e.kind().name(), "offset": e.offset(), "message": e.to_string()})
}

/// Each typed alias's verdict on `text` (urn-core's table of namespaces): `null` when
/// accepted, else the error.
fn typed(text: &str) -> Value {
    let mut map = serde_json::Map::new();
    macro_rules! each {
        ($($(#[$doc:meta])* $variant:ident => $module:ident, $alias:ident;)*) => {
            $(
                let verdict = match urn_core::$alias::parse(text) {
                    Ok(_) => Value::Null,
                    Err(e) => ns_error(&e),
                };
                map.insert(urn_core::KnownNamespace::$variant.nid().to_owned(), verdict);
            )*
        };
    }
    urn_core::known_namespaces!(each);
    Value::Object(map)
}

/// What `urn_core::find` finds in `text` (byte offsets, keys under the current rules).
fn found(text: &str) -> Value {
    urn_core::find(text)
        .map(|f| {
            let link = f.link();
            json!({
                "start": f.start(), "end": f.end(), "text": f.as_str(),
                "key": f.urn().key().as_str(),
                "link_start": link.as_ref().map(|l| l.start), "link_end": link.map(|l| l.end),
            })
        })
        .collect()
}

/// What `urn_core::repair` makes of `text` (byte offsets).
fn repaired(text: &str) -> Value {
    let r = urn_core::repair(text);
    json!({
        "urn": r.urn().map(|u| u.as_str()),
        "fixes": r.fixes().iter().map(|f| json!({
            "kind": f.kind.name(), "start": f.start, "end": f.end,
            "before": f.before, "after": f.after,
        })).collect::<Vec<Value>>(),
        "error": r.error().map(|e| json!({"kind": e.kind().name(), "offset": e.offset()})),
    })
}

/// What urn-core says of `text`.
fn answer(text: &str) -> Value {
    let mut answer = parsed(text);
    if let Value::Object(map) = &mut answer {
        map.insert("found".to_owned(), found(text));
        map.insert("repaired".to_owned(), repaired(text));
    }
    answer
}

/// What urn-core's parser says of `text`.
fn parsed(text: &str) -> Value {
    let rfc2141 = match Urn::parse_with(text, Syntax::Rfc2141) {
        Ok(u) => json!({"valid": true, "key": u.key().as_str(), "error": null}),
        Err(e) => json!({"valid": false, "key": null, "error": parse_error(&e)}),
    };
    let typed = typed(text);
    match Urn::parse(text) {
        Ok(u) => {
            let problem = u.validate_namespace().err().map(
                |e| json!({"kind": e.kind().name(), "offset": e.offset(), "message": e.to_string()}),
            );
            json!({
                "input": text, "valid": true, "nid": u.nid(), "nss": u.nss(),
                "r_component": u.r_component(), "q_component": u.q_component(),
                "f_component": u.f_component(), "key": u.key().as_str(),
                "keys": KeyRules::VERSIONS.iter()
                    .map(|&rules| (rules.name().to_owned(), Value::from(u.key_with(rules).as_str())))
                    .collect::<serde_json::Map<String, Value>>(),
                "rfc8141_key": u.rfc8141_key().as_str(),
                "namespace": u.namespace().map(urn_core::KnownNamespace::nid),
                "namespace_problem": problem, "error": null,
                "rfc2141": rfc2141, "typed": typed,
            })
        }
        Err(e) => json!({
            "input": text, "valid": false, "error": parse_error(&e),
            "rfc2141": rfc2141, "typed": typed,
        }),
    }
}

fn answers() -> io::Result<()> {
    let mut stdin = BufReader::new(io::stdin().lock());
    let mut out = BufWriter::new(io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.read_line(&mut line)? == 0 {
            return out.flush();
        }
        let text: String = serde_json::from_str(&line)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        serde_json::to_writer(&mut out, &answer(&text))?;
        out.write_all(b"\n")?;
        // The caller may wait for this answer before it writes more: flush when no more
        // input is waiting.
        if stdin.buffer().is_empty() {
            out.flush()?;
        }
    }
}

fn corpus(proptest_count: usize) -> io::Result<()> {
    let mut out = BufWriter::new(io::stdout().lock());
    let inputs = corpus::generated_inputs()
        .into_iter()
        .chain(corpus::proptest_strings(proptest_count));
    for text in inputs {
        serde_json::to_writer(&mut out, &text)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

fn bench_key(path: &str, rounds: usize) -> io::Result<()> {
    let inputs: Vec<String> = std::fs::read_to_string(path)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let bytes: usize = inputs.iter().map(String::len).sum();
    let mut best = f64::INFINITY;
    let mut valid = 0;
    for _ in 0..rounds.max(1) {
        let mut out = String::with_capacity(bytes + bytes / 16);
        let mut ends = Vec::with_capacity(inputs.len());
        let start = Instant::now();
        for text in &inputs {
            if let Ok(urn) = UrnRef::parse(text) {
                out.push_str(urn.key().as_str());
            }
            ends.push(out.len());
        }
        best = best.min(start.elapsed().as_secs_f64());
        valid = std::hint::black_box(&ends).len() + std::hint::black_box(&out).len();
    }
    println!("{best:.6}");
    eprintln!("{} strings, checksum {valid}", inputs.len());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["answers"] => answers(),
        ["namespaces"] => {
            for ns in urn_core::KnownNamespace::ALL {
                println!("{}", ns.nid());
            }
            Ok(())
        }
        ["corpus", n] => match n.parse() {
            Ok(n) => corpus(n),
            Err(e) => Err(io::Error::new(io::ErrorKind::InvalidInput, e)),
        },
        ["bench-key", path, rounds] => match rounds.parse() {
            Ok(rounds) => bench_key(path, rounds),
            Err(e) => Err(io::Error::new(io::ErrorKind::InvalidInput, e)),
        },
        _ => {
            eprintln!(
                "usage: urnkit-oracle answers | corpus N | namespaces | bench-key FILE ROUNDS"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urnkit-oracle: {e}");
            ExitCode::FAILURE
        }
    }
}
