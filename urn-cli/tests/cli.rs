//! Runs the real `urn` binary: every subcommand, both syntaxes, JSON stdin, exit codes, large
//! streams and invalid UTF-8.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn urn(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_urn"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn inspect_prints_components_keys_and_status_in_order() {
    let o = urn(
        &["inspect", "URN:ISBN:0-395-36341-1?+r?=q#", "urn:example:a"],
        b"",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o).lines().next().unwrap(),
        r#"{"input":"URN:ISBN:0-395-36341-1?+r?=q#","valid":true,"nid":"ISBN","nss":"0-395-36341-1","r_component":"r","q_component":"q","f_component":"","key":"urn:isbn:0395363411","rfc8141_key":"urn:isbn:0-395-36341-1","nid_status":"formal","namespace":{"known":true,"valid":true,"message":null,"offset":null}}"#
    );
    let records = json_lines(&o);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1]["f_component"], serde_json::Value::Null);
    assert_eq!(records[1]["key"], "urn:example:a");
}

/// A URN can be valid RFC 8141 and still break its namespace's rules; `namespace` says which.
#[test]
fn inspect_reports_whether_the_nss_keeps_its_namespace_rules() {
    let o = urn(
        &[
            "inspect",
            "urn:isbn:0-395-36341-2",
            "urn:ietf:params:dns::soa",
            "urn:acme:x",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "RFC 8141 valid, so exit 0");
    let records = json_lines(&o);
    assert_eq!(
        records[0]["namespace"],
        serde_json::json!({
            "known": true,
            "valid": false,
            "message": "invalid isbn URN: the check digit does not match (byte 21)",
            "offset": 21,
        })
    );
    assert_eq!(records[1]["namespace"]["valid"], false);
    assert_eq!(records[1]["namespace"]["offset"], 20);
    assert_eq!(
        records[2]["namespace"],
        serde_json::json!({ "known": false, "valid": null, "message": null, "offset": null })
    );
}

#[test]
fn inspect_reports_errors_with_kind_offset_and_message() {
    let o = urn(&["inspect", "urn:example:a?b"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o).trim(),
        r#"{"input":"urn:example:a?b","valid":false,"error":{"kind":"bare_question_mark","offset":13,"message":"invalid URN: '?' at byte 13 must be followed by '+' or '='"}}"#
    );
}

#[test]
fn syntax_option_selects_the_grammar() {
    let o = urn(
        &[
            "inspect",
            "--syntax",
            "rfc2141",
            "urn:a:b",
            "urn:example:a/b",
        ],
        b"",
    );
    let r = json_lines(&o);
    assert_eq!(
        (r[0]["valid"].as_bool(), r[0]["nid"].as_str()),
        (Some(true), Some("a"))
    );
    assert_eq!(r[1]["error"]["kind"], "invalid_char");
    let o = urn(&["inspect", "urn:a:b"], b"");
    assert_eq!(json_lines(&o)[0]["error"]["kind"], "nid_length");
    assert_eq!(
        urn(&["check", "--syntax", "rfc2141", "urn:trailing-:x"], b"")
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        urn(&["check", "urn:trailing-:x"], b"").status.code(),
        Some(1)
    );
    assert_eq!(
        urn(&["inspect", "--syntax", "rfc9999", "urn:a:b"], b"")
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn stdin_lines_are_verbatim_without_their_line_ends() {
    let o = urn(
        &["inspect"],
        b"urn:example:a\r\nurn:example:b \nurn:example:c",
    );
    let r = json_lines(&o);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["input"], "urn:example:a");
    assert_eq!(
        r[1]["error"]["offset"], 13,
        "trailing space is an error, not trimmed"
    );
    assert_eq!(r[2]["nss"], "c");
}

#[test]
fn stdin_json_lines_may_hold_newlines_and_nul() {
    let o = urn(
        &["inspect", "--stdin-json"],
        b"\"urn:example:a\\nb\"\n\"urn:example:a\\u0000\"\n\"urn:example:ok\"\nnot json\n",
    );
    let r = json_lines(&o);
    assert_eq!(r.len(), 4);
    assert_eq!(r[0]["input"], "urn:example:a\nb");
    assert_eq!(
        r[0]["error"]["message"],
        "invalid URN: '\\n' at byte 13 is not allowed in the NSS"
    );
    assert_eq!(r[1]["input"], "urn:example:a\u{0}");
    assert_eq!(r[1]["error"]["offset"], 13);
    assert_eq!(r[2]["valid"], true);
    assert_eq!(r[3]["error"]["kind"], "invalid_json");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn key_prints_keys_and_reports_invalid_lines() {
    let o = urn(
        &["key"],
        b"URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6\nurn:example:a b\nurn:example:%2c\n",
    );
    assert_eq!(
        stdout(&o),
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\nurn:example:%2C\n"
    );
    assert_eq!(
        stderr(&o),
        "line 2: invalid URN: ' ' at byte 13 is not allowed in the NSS\n"
    );
    assert_eq!(o.status.code(), Some(1));
}

/// `--rules`: V2 by default (a DOI in any case and either URN form is one key), V1 and
/// RFC 8141 on request, for `key`, `eq` and `dedup` alike; another name is a usage error.
#[test]
fn rules_choose_the_key() {
    let input = b"urn:doi:10.1000/ABC\nurn:doi:10.1000:abc\n";
    for (rules, keys) in [
        (None, "urn:doi:10.1000/abc\nurn:doi:10.1000/abc\n"),
        (Some("v2"), "urn:doi:10.1000/abc\nurn:doi:10.1000/abc\n"),
        (Some("v1"), "urn:doi:10.1000/ABC\nurn:doi:10.1000:abc\n"),
        (
            Some("rfc8141"),
            "urn:doi:10.1000/ABC\nurn:doi:10.1000:abc\n",
        ),
    ] {
        let args: Vec<&str> = ["key"]
            .into_iter()
            .chain(rules.map(|r| ["--rules", r]).into_iter().flatten())
            .collect();
        assert_eq!(stdout(&urn(&args, input)), keys, "{rules:?}");
        let mut eq = vec!["eq", "urn:doi:10.1000/ABC", "urn:doi:10.1000:abc"];
        eq.extend(rules.map(|r| ["--rules", r]).into_iter().flatten());
        let same = keys.lines().next() == keys.lines().nth(1);
        assert_eq!(
            urn(&eq, b"").status.code(),
            Some(if same { 0 } else { 1 }),
            "{rules:?}"
        );
        let mut dedup = vec!["dedup"];
        dedup.extend(rules.map(|r| ["--rules", r]).into_iter().flatten());
        let kept = stdout(&urn(&dedup, input)).lines().count();
        assert_eq!(kept, if same { 1 } else { 2 }, "{rules:?}");
    }
    let bad = urn(&["key", "--rules", "v9", "urn:example:a"], b"");
    assert_eq!(bad.status.code(), Some(2));
    for rules in urn_core::KeyRules::ALL {
        assert!(stderr(&bad).contains(rules.name()), "{}", stderr(&bad));
    }
    let help = stdout(&urn(&["key", "--help"], b""));
    for rules in urn_core::KeyRules::ALL {
        assert!(help.contains(rules.name()), "{help}");
    }
}

/// `sql --table NAME --rekey v2`: the re-key script of each database, as urn-sql writes it
/// for the table keyed by V1; `--on-collision keep-first` chooses the other policy; a re-key
/// to V1 is a usage error.
#[test]
fn sql_rekey_prints_the_rekey_script() {
    let v1 = urn_sql::UrnTable::new("books")
        .unwrap()
        .with_key_rules(urn_core::KeyRules::V1)
        .unwrap();
    for (dialect, name) in [
        (urn_sql::Dialect::Postgres, "postgres"),
        (urn_sql::Dialect::MariaDb, "mariadb"),
        (urn_sql::Dialect::Sqlite, "sqlite"),
    ] {
        for (policy, flag) in [
            (urn_sql::OnCollision::Refuse, None),
            (urn_sql::OnCollision::KeepFirst, Some("keep-first")),
        ] {
            let mut args = vec![
                "sql",
                "--dialect",
                name,
                "--table",
                "books",
                "--rekey",
                "v2",
            ];
            args.extend(flag.map(|f| ["--on-collision", f]).into_iter().flatten());
            let o = urn(&args, b"");
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert_eq!(
                stdout(&o).trim_end(),
                dialect
                    .rekey_sql(&v1, urn_core::KeyRules::V2, policy)
                    .unwrap()
                    .trim_end()
            );
        }
    }
    let o = urn(
        &[
            "sql",
            "--dialect",
            "sqlite",
            "--table",
            "books",
            "--rekey",
            "v1",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nothing to re-key from"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn eq_exit_codes() {
    assert_eq!(
        urn(&["eq", "urn:example:a%2c", "URN:EXAMPLE:a%2C#f"], b"")
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        urn(&["eq", "urn:example:a", "urn:example:A"], b"")
            .status
            .code(),
        Some(1)
    );
    let o = urn(&["eq", "urn:example:a", "urn:x:a"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("argument 2: invalid URN: NID of 1 character"));
    assert_eq!(urn(&["eq", "urn:example:a"], b"").status.code(), Some(2));
    assert_eq!(urn(&["frobnicate"], b"").status.code(), Some(2));
}

#[test]
fn dedup_streams_a_large_input_keeping_first_spellings_in_order() {
    let mut input = String::new();
    for i in 0..100_000 {
        let n = i % 1000;
        // Three spellings of each of 1000 URNs, interleaved.
        let line = match i / 1000 % 3 {
            0 => format!("urn:example:item-{n}%2c"),
            1 => format!("URN:EXAMPLE:item-{n}%2C?=x"),
            _ => format!("urn:Example:item-{n}%2C#f"),
        };
        input.push_str(&line);
        input.push('\n');
    }
    let o = urn(&["dedup"], input.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 1000);
    assert_eq!(lines[0], "urn:example:item-0%2c");
    assert_eq!(lines[999], "urn:example:item-999%2c");
}

#[test]
fn check_reports_line_numbers_in_a_large_input() {
    let mut input = String::new();
    for i in 1..=100_000 {
        if i % 25_000 == 0 {
            input.push_str("urn:example:bad space\n");
        } else {
            input.push_str(&format!("urn:example:{i}\n"));
        }
    }
    let o = urn(&["check"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let errors: Vec<String> = stderr(&o).lines().map(str::to_owned).collect();
    assert_eq!(errors.len(), 4);
    assert_eq!(
        errors[0],
        "line 25000: invalid URN: ' ' at byte 15 is not allowed in the NSS"
    );
    assert!(errors[3].starts_with("line 100000: "));
    assert_eq!(
        urn(&["check", "urn:example:a", "urn:example:b"], b"")
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn invalid_utf8_is_an_error_for_that_line_only() {
    let o = urn(
        &["check"],
        b"urn:example:a\nurn:example:\xff\xfe\nurn:example:c\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "line 2: invalid URN: byte 12 is not UTF-8\n");
    let o = urn(&["inspect"], b"urn:example:\xff\nurn:example:c\n");
    let r = json_lines(&o);
    assert_eq!(r[0]["error"]["kind"], "invalid_utf8");
    assert_eq!(r[0]["error"]["offset"], 12);
    assert_eq!(r[0]["input"], "urn:example:\u{fffd}");
    assert_eq!(r[1]["valid"], true);
}

#[test]
fn help_shows_an_example_for_each_subcommand() {
    for sub in ["inspect", "key", "eq", "dedup", "check", "find", "fix"] {
        let o = urn(&[sub, "--help"], b"");
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Example:\n  $ "), "{sub}");
    }
}

/// A `$ command` of a help text or a README block, with what is shown under it: the output
/// (stdout and stderr, as a terminal shows them) and the exit status that a last line
/// `(exit status N)` states (0 without one).
#[derive(Debug)]
struct Example {
    command: String,
    output: Vec<String>,
    status: i32,
}

/// The examples in `lines`: each `$ ` line starts one, the lines up to the next belong to it.
fn examples<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<Example> {
    let mut found: Vec<Example> = Vec::new();
    for line in lines {
        if let Some(command) = line.strip_prefix("$ ") {
            found.push(Example {
                command: command.to_owned(),
                output: Vec::new(),
                status: 0,
            });
        } else if let Some(example) = found.last_mut() {
            match line
                .strip_prefix("(exit status ")
                .and_then(|rest| rest.strip_suffix(')'))
            {
                Some(code) => example.status = code.parse().unwrap(),
                None => example.output.push(line.to_owned()),
            }
        }
    }
    found
}

/// Runs `example` with `sh`, this build's `urn` first on the PATH; returns its output (stderr
/// joined to stdout, as `2>&1` does) and exit status.
fn run(example: &Example) -> (Vec<String>, i32) {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_urn"))
        .parent()
        .unwrap()
        .to_owned();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {}\n}} 2>&1", example.command))
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (
        text.lines().map(str::to_owned).collect(),
        out.status.code().unwrap(),
    )
}

/// Every example of a subcommand's help that shows output prints what it shows and exits as
/// it says. (Those without output, such as `urn sql … | psql`, need a database.)
#[test]
fn help_examples_print_what_they_show() {
    let mut ran = 0;
    for sub in [
        "inspect", "key", "eq", "dedup", "check", "find", "fix", "sql", "schema",
    ] {
        let help = stdout(&urn(&[sub, "--help"], b""));
        let section = help
            .split_once("Example:\n")
            .or_else(|| help.split_once("Examples:\n"))
            .unwrap_or_else(|| panic!("`urn {sub} --help` has no example"))
            .1;
        let lines = section
            .lines()
            .take_while(|l| l.starts_with("  "))
            .map(|l| &l[2..]);
        for example in examples(lines) {
            if example.output.is_empty() && example.status == 0 {
                continue;
            }
            let (output, status) = run(&example);
            assert_eq!(
                output, example.output,
                "urn {sub} --help: $ {}",
                example.command
            );
            assert_eq!(
                status, example.status,
                "urn {sub} --help: $ {}",
                example.command
            );
            ran += 1;
        }
    }
    assert!(ran >= 5, "{ran}");
}

/// Every `$ …` example of the README, in its `console` blocks, prints what the README shows
/// and exits with the status it states; no command with shown output hides in another kind
/// of block.
#[test]
fn readme_examples_print_what_they_show() {
    let readme = include_str!("../README.md");
    let mut ran = 0;
    let mut blocks = readme.split("```").skip(1).step_by(2);
    for block in &mut blocks {
        let (kind, body) = block.split_once('\n').unwrap();
        if kind != "console" {
            assert!(
                !body.lines().any(|l| l.starts_with("$ ")),
                "a `$ ` command in a ```{kind} block: make it a console block"
            );
            continue;
        }
        for example in examples(body.lines()) {
            let (output, status) = run(&example);
            assert_eq!(output, example.output, "README: $ {}", example.command);
            assert_eq!(status, example.status, "README: $ {}", example.command);
            ran += 1;
        }
    }
    assert!(ran >= 5, "{ran}");
}

/// The exit codes `urn --help` and each subcommand's help state are the ones the tool
/// returns.
#[test]
fn exit_codes_are_the_ones_the_help_states() {
    let help = stdout(&urn(&["--help"], b""));
    assert!(help.contains("Exit codes:\n  0  success"), "{help}");
    for sub in [
        "inspect", "key", "eq", "dedup", "check", "find", "fix", "sql", "schema",
    ] {
        let sub_help = stdout(&urn(&[sub, "--help"], b""));
        assert!(sub_help.contains("Exit status: "), "urn {sub} --help");
    }
    let cases: &[(&str, &[u8], i32)] = &[
        // 0: every input valid; one that breaks its namespace's rules is still a valid URN.
        ("inspect urn:isbn:0-395-36341-2", b"", 0),
        ("key urn:example:a", b"", 0),
        ("dedup", b"urn:example:a\nURN:EXAMPLE:a\n", 0),
        ("check", b"urn:example:a\n", 0),
        ("eq urn:example:a%2c URN:EXAMPLE:a%2C#f", b"", 0),
        ("sql --dialect sqlite", b"", 0),
        ("sql --dialect postgres --table t --urn-schema s", b"", 0),
        ("schema --namespace acme", b"", 0),
        ("find", b"see urn:example:a.\n", 0),
        ("fix urn:example:a isbn:0-395-36341-1", b"", 0),
        // 1: a negative answer.
        ("inspect urn:example:a urn:x:a", b"", 1),
        ("key", b"urn:example:a\nurn:x:a\n", 1),
        ("dedup urn:x:a", b"", 1),
        ("check --max-len 5 urn:example:a", b"", 1),
        ("eq urn:example:a urn:example:A", b"", 1),
        ("find", b"Saturn:x:y\n", 1),
        ("fix urn:example:a urn:example:a?b", b"", 1),
        // 2: usage errors, an invalid URN given to eq.
        ("eq urn:example:a urn:x:a", b"", 2),
        ("eq urn:example:a", b"", 2),
        ("frobnicate", b"", 2),
        ("key --no-such-option", b"", 2),
        ("sql --dialect sqlite --table a-b", b"", 2),
        ("sql --dialect mariadb --table t --urn-schema s", b"", 2),
        ("schema --namespace x", b"", 2),
        ("find /no/such/file", b"", 2),
    ];
    for (args, stdin, code) in cases {
        let args: Vec<&str> = args.split_whitespace().collect();
        assert_eq!(urn(&args, stdin).status.code(), Some(*code), "urn {args:?}");
    }
    // 2: a failure to read or write (Linux: a directory as stdin, a full device as stdout).
    if std::path::Path::new("/dev/full").exists() {
        let status = Command::new(env!("CARGO_BIN_EXE_urn"))
            .args(["key", "urn:example:a"])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "a write that fails");
        let status = Command::new(env!("CARGO_BIN_EXE_urn"))
            .arg("check")
            .stdin(std::fs::File::open("/").unwrap())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "a read that fails");
    }
}

#[test]
fn sql_prints_the_ddl_for_each_dialect() {
    let pg = urn(&["sql", "--dialect", "postgres"], b"");
    assert_eq!(pg.status.code(), Some(0));
    let text = stdout(&pg);
    assert_eq!(
        text.trim_end(),
        urn_sql::Dialect::Postgres.install_sql().trim_end()
    );
    assert!(text.contains("CREATE DOMAIN urn AS pg_catalog.text"));
    assert!(text.contains("CREATE OR REPLACE FUNCTION urn_key_v1(u urn)"));
    assert!(text.contains("CREATE OR REPLACE FUNCTION urn_key_v2(u urn)"));
    assert!(text.starts_with("BEGIN;\n") && text.contains("\nCOMMIT;\n"));
    assert!(text.contains("--   CREATE TABLE \"public\".\"items\" ("));
    let lite = urn(&["sql", "--dialect", "sqlite"], b"");
    assert_eq!(lite.status.code(), Some(0));
    assert!(stdout(&lite).contains(
        "\"urn_key\" TEXT NOT NULL GENERATED ALWAYS AS (urn_key_v2(\"urn\")) STORED UNIQUE"
    ));
    let bad = urn(&["sql", "--dialect", "mysql"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("invalid value 'mysql'"),
        "{}",
        stderr(&bad)
    );
}

/// `--table NAME`: one keyed table's statements, for MariaDB in the client's DELIMITER form;
/// a name that is no plain identifier is a usage error.
#[test]
fn sql_table_prints_one_keyed_table() {
    let maria = urn(&["sql", "--dialect", "mariadb", "--table", "books"], b"");
    assert_eq!(maria.status.code(), Some(0));
    let table = urn_sql::UrnTable::new("books").unwrap();
    assert_eq!(
        stdout(&maria),
        urn_sql::Dialect::MariaDb.create_table_script(&table)
    );
    assert!(stdout(&maria).starts_with("DELIMITER //\nBEGIN NOT ATOMIC\n"));
    assert!(stdout(&maria).ends_with("\nEND//\nDELIMITER ;\n"));
    let pg = urn(&["sql", "--dialect", "postgres", "--table", "books"], b"");
    assert_eq!(
        stdout(&pg).trim_end(),
        urn_sql::Dialect::Postgres
            .create_table_script(&table)
            .trim_end()
    );
    // One transaction: with psql -v ON_ERROR_STOP=1, a failure leaves no table behind.
    assert!(stdout(&pg).starts_with("BEGIN;\n") && stdout(&pg).ends_with("COMMIT;\n"));
    // --urn-schema: the statements name urn-sql's objects in that schema.
    let pg = urn(
        &[
            "sql",
            "--dialect",
            "postgres",
            "--table",
            "books",
            "--urn-schema",
            "urn",
        ],
        b"",
    );
    assert_eq!(pg.status.code(), Some(0));
    assert_eq!(
        stdout(&pg).trim_end(),
        urn_sql::Dialect::Postgres
            .create_table_script(&table.clone().with_urn_schema("urn").unwrap())
            .trim_end()
    );
    assert!(stdout(&pg).contains("\"urn\".urn_key_v2_inline(\"urn\")"));
    for args in [
        &[
            "sql",
            "--dialect",
            "mariadb",
            "--table",
            "books",
            "--urn-schema",
            "urn",
        ][..],
        &["sql", "--dialect", "postgres", "--urn-schema", "urn"],
        &[
            "sql",
            "--dialect",
            "postgres",
            "--table",
            "books",
            "--urn-schema",
            "a b",
        ],
    ] {
        let bad = urn(args, b"");
        assert_eq!(bad.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&bad), "");
    }
    let bad = urn(
        &[
            "sql",
            "--dialect",
            "sqlite",
            "--table",
            "books; DROP TABLE x",
        ],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).starts_with("urn sql: "), "{}", stderr(&bad));
    assert_eq!(stdout(&bad), "");
}

#[test]
fn schema_prints_the_documents() {
    let any = urn(&["schema"], b"");
    assert_eq!(any.status.code(), Some(0));
    assert_eq!(
        stdout(&any),
        urn_schema::to_file_text(&urn_schema::urn_document())
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&any)).unwrap();
    assert_eq!(doc["pattern"], urn_core::patterns::URN);
    let key: serde_json::Value =
        serde_json::from_str(&stdout(&urn(&["schema", "--key"], b""))).unwrap();
    assert_eq!(key["pattern"], urn_core::patterns::URN_KEY);
    let isbn: serde_json::Value =
        serde_json::from_str(&stdout(&urn(&["schema", "--namespace", "ISBN"], b""))).unwrap();
    assert!(
        isbn["pattern"]
            .as_str()
            .unwrap()
            .contains(urn_core::KnownNamespace::Isbn.nss_pattern())
    );
    let custom: serde_json::Value =
        serde_json::from_str(&stdout(&urn(&["schema", "--namespace", "acme"], b""))).unwrap();
    assert!(
        custom["pattern"]
            .as_str()
            .unwrap()
            .starts_with("^[Uu][Rr][Nn]:[Aa][Cc][Mm][Ee]:")
    );
    // Every known namespace has its document, and the help names each (from urn-core's table).
    let help = stdout(&urn(&["schema", "--help"], b""));
    for ns in urn_core::KnownNamespace::ALL {
        assert!(help.contains(ns.nid()), "{ns} missing from: {help}");
        let doc: serde_json::Value =
            serde_json::from_str(&stdout(&urn(&["schema", "--namespace", ns.nid()], b""))).unwrap();
        assert_eq!(doc["title"], format!("{} URN", ns.title()));
    }
    let bad = urn(&["schema", "--namespace", "a_b"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("\"a_b\" is not a valid NID"),
        "{}",
        stderr(&bad)
    );
    assert_eq!(
        urn(&["schema", "--namespace", "isbn", "--key"], b"")
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn any_length_by_default_and_max_len_caps() {
    // RFC 8141 sets no length limit: a 10 KB and a 100 KB URN are valid for the CLI.
    for n in [10_000, 100_000] {
        let long = format!("urn:example:{}", "a".repeat(n));
        let o = urn(&["inspect", &long], b"");
        assert_eq!(o.status.code(), Some(0), "{n}: {}", stdout(&o));
        assert_eq!(json_lines(&o)[0]["valid"], true);
        let o = urn(&["check"], format!("{long}\n").as_bytes());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let o = urn(&["check", "--max-len", "20", "urn:example:abcdefghij"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim_end(),
        "argument 1: invalid URN: longer than the maximum of 20 bytes (byte 20)"
    );
    let o = urn(&["key", "--max-len", "65536", "urn:example:Ab"], b"");
    assert_eq!(stdout(&o), "urn:example:Ab\n");
}

/// With `--max-len`, memory stays bounded by it whatever a line's length: a 100 MB line is read
/// past, reported with the parser's message and its length, and the next lines are processed,
/// under an address-space limit of 60 MB (the whole-line reader it replaced aborted there,
/// "memory allocation of 67108864 bytes failed"). JSON lines and short lines keep working.
/// `urn <args>` under `ulimit -v` (KiB), with `stdin`.
#[cfg(target_os = "linux")]
fn limited(kib: u32, args: &str, stdin: Vec<u8>) -> Output {
    let mut child = Command::new("sh")
        .args([
            "-c",
            &format!("ulimit -v {kib} && exec \"$0\" {args}"),
            env!("CARGO_BIN_EXE_urn"),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&stdin);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    o
}

/// A 100 MB line is searched a window at a time: in a 60 MB address space, every URN of it
/// is found (it aborted, holding the whole line).
#[cfg(target_os = "linux")]
#[test]
fn find_holds_a_window_of_a_long_line() {
    let unit = format!(
        "see urn:example:a-1 (https://doi.org/10.1/x) and 'urn:isbn:0-395-36341-1', {}",
        "and words ".repeat(100)
    );
    let mut stdin = Vec::with_capacity(100_000_100);
    let mut units = 0;
    while stdin.len() < 100_000_000 {
        stdin.extend_from_slice(unit.as_bytes());
        units += 1;
    }
    stdin.push(b'\n');
    let o = limited(60_000, "find --max-len 65536", stdin);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3 * units);
    assert!(
        stdout(&o)
            .lines()
            .last()
            .unwrap()
            .contains("urn:isbn:0-395-36341-1")
    );
}

/// Searched in windows, a long line gives what urn-core's `find` gives on the whole line:
/// URNs, links and runs of URN characters across every cut, and a run longer than any
/// window.
#[test]
fn find_in_windows_is_find_on_the_line() {
    let pieces = [
        "urn:example:a ",
        "https://nbn-resolving.org/urn:nbn:de:1-2 ",
        "x=urn:example:b&y ",
        "{https://doi.org/10.1000/182} ",
        "\"urn:xmpp:ping\" ",
        "é urn:example:c ",
        "urn:example:",
    ];
    let mut line = String::new();
    let mut state = 7u64;
    while line.len() < 3_000_000 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let pick = (state >> 33) as usize;
        match pick % 11 {
            // A run of URN characters longer than a window, now and then.
            0 if pick.is_multiple_of(7) => line.push_str(&"a".repeat(70_000 + pick % 50_000)),
            // Link heads far from their URN.
            1 => line.push_str(&format!(
                "https://example.org/{}/",
                "p".repeat(pick % 3_000)
            )),
            n => line.push_str(pieces[n % pieces.len()]),
        }
    }
    let mut stdin = line.clone().into_bytes();
    stdin.push(b'\n');
    // A small cap (windows of 64 KiB), and the default one (windows of 135 KB; runs of URN
    // characters longer than the cap).
    for max_len in [4096, 65536] {
        let options = urn_core::FindOptions::new()
            .with_parse_options(urn_core::ParseOptions::new().with_max_len(max_len));
        let expected: Vec<(usize, usize, String)> = urn_core::find_with(&line, options)
            .map(|f| (f.start(), f.end(), f.as_str().to_owned()))
            .collect();
        let o = urn(&["find", "--max-len", &max_len.to_string()], &stdin);
        let got: Vec<(usize, usize, String)> = json_lines(&o)
            .iter()
            .map(|h| {
                (
                    h["start"].as_u64().unwrap() as usize,
                    h["end"].as_u64().unwrap() as usize,
                    h["text"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert!(expected.len() > 1000, "{}", expected.len());
        let first_difference = got.iter().zip(&expected).position(|(a, b)| a != b);
        assert!(
            got == expected,
            "--max-len {max_len}: {} hits, {} expected; first difference at {first_difference:?}",
            got.len(),
            expected.len(),
        );
    }
}

/// Windows cut at any byte no URN holds (a stray UTF-8 continuation byte too), and a DOI
/// that ends at its link's `?` inside a run longer than a window is found.
#[test]
fn find_in_windows_keeps_what_a_long_run_hides() {
    let mut stdin = b"urn:ex:a\xa0".repeat(8000);
    stdin.push(b'\n');
    let o = urn(&["find", "--max-len", "100"], &stdin);
    assert_eq!(json_lines(&o).len(), 8000);
    let mut stdin = b"https://doi.org/10.1000/182?".to_vec();
    stdin.extend(std::iter::repeat_n(b'a', 70_000));
    stdin.push(b'\n');
    let o = urn(&["find", "--max-len", "100"], &stdin);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json_lines(&o)[0]["text"], "urn:doi:10.1000/182");
}

#[cfg(target_os = "linux")]
#[test]
fn max_len_bounds_the_memory_a_line_can_take() {
    let mut stdin = b"urn:example:x".to_vec();
    stdin.resize(100_000_000, b'a');
    stdin.extend_from_slice(b"\nurn:example:after\r\nURN:EXAMPLE:after\n");
    let o = limited(60_000, "dedup --max-len 65536", stdin);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "line 1: invalid URN: longer than the maximum of 65536 bytes (byte 65536)\n"
    );
    assert_eq!(stdout(&o), "urn:example:after\n");
    // JSON lines may take six bytes per byte of the input they stand for.
    let escaped = format!("\"urn:example:{}\"\n", "\\u0061".repeat(8));
    let o = urn(
        &["key", "--stdin-json", "--max-len", "20"],
        escaped.as_bytes(),
    );
    assert_eq!(stdout(&o), format!("urn:example:{}\n", "a".repeat(8)));
}

/// A byte order mark, an empty line and whitespace around a URN are named as such, not as
/// "expected 'urn:' at byte 0": by urn-core's parser, so every engine says the same.
#[test]
fn messages_name_a_bom_an_empty_line_and_surrounding_whitespace() {
    let o = urn(
        &["check"],
        "\u{feff}urn:example:a\n\n   \n urn:example:b\nurn:example:c \t\nurn:example:d e\n"
            .as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "line 1: invalid URN: the input starts with a UTF-8 byte order mark (U+FEFF, bytes EF BB BF) at byte 0; remove it",
            "line 2: invalid URN: the input is empty or only whitespace (byte 0)",
            "line 3: invalid URN: the input is empty or only whitespace (byte 0)",
            "line 4: invalid URN: leading whitespace at byte 0 (a URN has none; trim the input)",
            "line 5: invalid URN: trailing whitespace at byte 13 (a URN has none; trim the input)",
            "line 6: invalid URN: ' ' at byte 13 is not allowed in the NSS",
        ]
    );
    let o = urn(&["inspect"], b"urn:example:c \n");
    let record = &json_lines(&o)[0];
    assert_eq!(record["error"]["kind"], "trailing_whitespace");
    assert_eq!(record["error"]["offset"], 13);
}

/// `urn eq` reports every invalid argument, not just the first.
#[test]
fn eq_reports_every_invalid_argument() {
    let o = urn(&["eq", "urn:x:a", "http://b"], b"");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("argument 1: invalid URN: NID of 1 character"),
        "{err}"
    );
    assert!(
        err.contains("argument 2: invalid URN: expected 'urn:' at byte 0"),
        "{err}"
    );
}

/// `urn dedup` keeps the first spelling of each key, in order, across many distinct keys
/// (the key set grows through several resizes).
#[test]
fn dedup_keeps_the_first_spelling_of_each_key_at_scale() {
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(&format!("urn:example:item{i}\n"));
    }
    for i in (0..20_000).rev() {
        input.push_str(&format!("URN:EXAMPLE:item{i}#again\n"));
    }
    input.push_str("urn:example:new\n");
    let o = urn(&["dedup"], input.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 20_001);
    assert_eq!(lines[0], "urn:example:item0");
    assert_eq!(lines[19_999], "urn:example:item19999");
    assert_eq!(lines[20_000], "urn:example:new");
}

/// `inspect` writes its records by hand for speed: every line is exactly what serde_json would
/// write for the same (ordered) object, for valid URNs of every shape, namespace errors and
/// invalid inputs (with U+FEFF escaped, as every line the tool writes escapes it).
#[test]
fn inspect_lines_are_exactly_serde_json() {
    let input = "URN:ISBN:0-395-36341-1?+r?=q#\nurn:isbn:0-395-36341-2\nurn:ietf:params:dns::soa\n\
                 urn:example:a%2c/b#\nurn:acme:x\nurn:example:a?b\n\u{feff}urn:example:x\n \n";
    let o = urn(&["inspect"], input.as_bytes());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 8);
    for line in out.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let written = serde_json::to_string(&value).unwrap();
        assert_eq!(written.replace('\u{feff}', "\\ufeff"), line);
    }
}

/// What would reorder, hide or act on the text where a line of JSON is shown (C1 controls,
/// bidirectional overrides, line separators, invisible characters) is escaped in every
/// subcommand's JSON, and reads back as the input.
#[test]
fn json_escapes_what_a_terminal_would_act_on() {
    let hostile = "\u{202e}urn:example:a \u{85}\u{2028}\u{200b}";
    for args in [&["fix"][..], &["inspect"], &["find"]] {
        let o = urn(args, format!("{hostile} urn:example:b\n").as_bytes());
        let out = stdout(&o);
        assert!(
            !out.contains(|c: char| matches!(
                c,
                '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{202e}' | '\u{200b}'
            )),
            "{args:?}: {out}"
        );
        for line in out.lines() {
            let _: serde_json::Value = serde_json::from_str(line).unwrap();
        }
        if args != ["find"] {
            assert!(
                out.contains("\\u202eurn:example:a \\u0085\\u2028\\u200b"),
                "{args:?}: {out}"
            );
        }
    }
    // A file name is written as given, escaped.
    let dir = std::env::temp_dir().join(format!("urn-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a\u{202e}b.txt");
    std::fs::write(&file, "urn:example:a\n").unwrap();
    let out = stdout(&urn(&["find", file.to_str().unwrap()], b""));
    assert!(out.contains("a\\u202eb.txt"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The README lists what the tool has: each subcommand `urn --help` names has a row in the
/// README's table, and each of its flags is in that row; `urn schema --namespace` links
/// urn-core's table of namespaces.
#[test]
fn the_readme_lists_every_subcommand_and_flag() {
    let readme = include_str!("../README.md");
    let help = stdout(&urn(&["--help"], b""));
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 7, "{commands:?}");
    for command in commands {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `urn {command}")))
            .unwrap_or_else(|| panic!("no row for `urn {command}` in urn-cli/README.md"));
        let sub_help = stdout(&urn(&[command, "--help"], b""));
        for flag in sub_help
            .split_whitespace()
            .filter(|w| w.starts_with("--") && *w != "--help")
        {
            let flag = flag.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
            assert!(
                row.contains(flag),
                "urn-cli/README.md: `urn {command}` row lacks {flag}: {row}"
            );
        }
    }
    let schema = readme.split("## `urn schema").nth(1).unwrap();
    let schema = schema.split("\n## ").next().unwrap();
    // The namespaces are urn-core's rendered table, linked, not listed again.
    assert!(
        schema.contains("(../urn-core/README.md#namespaces)"),
        "urn-cli/README.md: `urn schema` does not link the namespace table"
    );
}

#[test]
fn find_prints_each_urn_with_its_line_span_key_and_link() {
    let text: &[u8] = b"first line\n\
        (see URN:ISBN:0-395-36341-1), and urn:example:a.\n\
        \xff urn:example:b \xfe https://urn.fi/URN:NBN:fi-fe2021\r\n";
    let o = urn(&["find"], text);
    assert_eq!(o.status.code(), Some(0));
    let hits: Vec<(u64, u64, u64, String, String, serde_json::Value)> = json_lines(&o)
        .into_iter()
        .map(|h| {
            (
                h["line"].as_u64().unwrap(),
                h["start"].as_u64().unwrap(),
                h["end"].as_u64().unwrap(),
                h["text"].as_str().unwrap().to_owned(),
                h["key"].as_str().unwrap().to_owned(),
                h["link"].clone(),
            )
        })
        .collect();
    let link =
        serde_json::json!({"start": 18, "end": 50, "text": "https://urn.fi/URN:NBN:fi-fe2021"});
    assert_eq!(
        hits,
        [
            (
                2,
                5,
                27,
                "URN:ISBN:0-395-36341-1".into(),
                "urn:isbn:0395363411".into(),
                serde_json::Value::Null
            ),
            (
                2,
                34,
                47,
                "urn:example:a".into(),
                "urn:example:a".into(),
                serde_json::Value::Null
            ),
            (
                3,
                2,
                15,
                "urn:example:b".into(),
                "urn:example:b".into(),
                serde_json::Value::Null
            ),
            (
                3,
                33,
                50,
                "URN:NBN:fi-fe2021".into(),
                "urn:nbn:fi-fe2021".into(),
                link
            ),
        ]
    );
    // The offsets are bytes of the line.
    let line3 = text.split(|&b| b == b'\n').nth(2).unwrap();
    assert_eq!(&line3[33..50], b"URN:NBN:fi-fe2021");
    // --longest keeps trailing punctuation; --rules v1 keys by V1; files are named.
    let o = urn(&["find", "--longest"], b"urn:example:a.\n");
    assert_eq!(json_lines(&o)[0]["text"], "urn:example:a.");
    let o = urn(&["find", "--rules", "v1"], b"urn:doi:10.1/ABC\n");
    assert_eq!(json_lines(&o)[0]["key"], "urn:doi:10.1/ABC");
    // A doi.org link is a hit (its span the DOI); --as-written keeps only `urn:…`.
    let o = urn(&["find"], b"url = {https://doi.org/10.1038/nphys1170}\n");
    let hit = &json_lines(&o)[0];
    assert_eq!(
        (&hit["text"], &hit["start"], &hit["end"]),
        (
            &serde_json::json!("urn:doi:10.1038/nphys1170"),
            &serde_json::json!(23),
            &serde_json::json!(40)
        )
    );
    assert_eq!(hit["link"]["text"], "https://doi.org/10.1038/nphys1170");
    let o = urn(
        &["find", "--as-written"],
        b"url = {https://doi.org/10.1038/nphys1170}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let dir = std::env::temp_dir().join(format!("urn-find-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("notes.txt");
    std::fs::write(&file, "x urn:example:c\n").unwrap();
    let o = urn(&["find", file.to_str().unwrap()], b"");
    assert_eq!(json_lines(&o)[0]["file"], file.to_str().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fix_prints_the_urn_every_fix_or_the_error() {
    let o = urn(
        &["fix", "--stdin-json"],
        b"\"URN : ISBN : 0\\u2013395363411\"\n\"urn:example:\"\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let records = json_lines(&o);
    assert_eq!(records[0]["urn"], "URN:ISBN:0-395363411");
    let kinds: Vec<&str> = records[0]["fixes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["spacing", "spacing", "spacing", "spacing", "dash"]);
    assert_eq!(
        records[0]["fixes"][4],
        serde_json::json!({"kind": "dash", "start": 14, "end": 17, "before": "\u{2013}", "after": "-"})
    );
    assert_eq!(records[0]["error"], serde_json::Value::Null);
    assert_eq!(records[1]["urn"], serde_json::Value::Null);
    assert_eq!(records[1]["fixes"], serde_json::json!([]));
    assert_eq!(records[1]["error"]["kind"], "empty_nss");
    assert_eq!(records[1]["error"]["offset"], 12);
}

/// What people paste: links, a URN encoded whole, quotes, a stray space; and a repair its
/// namespace refuses is no URN, with the namespace's message.
#[test]
fn fix_takes_what_people_paste() {
    let o = urn(
        &[
            "fix",
            "http://urn.fi/URN:NBN:fi-fe2021040112345",
            "https://doi.org/10.1016/j.cell.2020.01.001",
            "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange",
            "\"urn:xmpp:carbons:2\"",
            "urn:ietf:rfc: 7230",
            "URN:LEI:[20-digit LEI code]",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    let records = json_lines(&o);
    let urns: Vec<serde_json::Value> = records.iter().map(|r| r["urn"].clone()).collect();
    let expected = serde_json::json!([
        "URN:NBN:fi-fe2021040112345",
        "urn:doi:10.1016/j.cell.2020.01.001",
        "urn:ietf:params:oauth:grant-type:token-exchange",
        "urn:xmpp:carbons:2",
        "urn:ietf:rfc:7230",
        null,
    ]);
    assert_eq!(serde_json::Value::from(urns), expected);
    assert_eq!(records[0]["fixes"][0]["kind"], "link");
    assert_eq!(records[2]["fixes"][0]["kind"], "decoded");
    assert_eq!(records[5]["error"]["kind"], "invalid_nss");
    assert_eq!(
        records[5]["error"]["message"],
        "invalid lei URN: an LEI holds only letters and digits (byte 8)"
    );
    // What `inspect` accepts, `fix` repairs: no cap unless --max-len gives one.
    let long = format!(" urn:example:{}\n", "a".repeat(70_000));
    let o = urn(&["fix"], long.as_bytes());
    assert_eq!(o.status.code(), Some(0));
    let o = urn(&["fix", "--max-len", "65536"], long.as_bytes());
    assert_eq!(json_lines(&o)[0]["error"]["kind"], "too_long");
}
