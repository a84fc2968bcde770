//! The example runner `examples/query.rs`, as a user runs it: CSV (RFC 4180 quoting) and
//! Parquet tables, results as CSV on stdout, errors on stderr with a non-zero exit, and the same
//! rows from a standalone Ballista cluster as from DataFusion in the process.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use datafusion::prelude::SessionContext;

/// The example binary cargo built beside this test (`cargo test` builds the examples).
fn query_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile_dir.join("examples").join("query");
    assert!(
        binary.exists(),
        "{} is not built (cargo test builds it)",
        binary.display()
    );
    binary
}

fn run(args: &[&str]) -> Output {
    Command::new(query_binary()).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "query failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A CSV file with URNs that need quoting (a comma is a URN character), invalid and empty
/// values, and a Parquet file of the same rows written by DataFusion.
async fn files(dir: &Path) -> (String, String) {
    let csv = dir.join("books.csv");
    std::fs::write(
        &csv,
        "id,urn,title\n\
         1,URN:ISBN:0-395-36341-1,\"The Hobbit, or There and Back Again\"\n\
         2,urn:isbn:0395363411,\"the \"\"same\"\" book\"\n\
         3,\"urn:example:a,b\",comma\n\
         4,urn:Example:a%2cb,escaped comma\n\
         5,urn:example:a%zz,broken\n\
         6,,empty\n\
         7,urn:uuid:6E8BC430-9C3A-11D9-9669-0800200C9A66,uuid\n",
    )
    .unwrap();
    let parquet = dir.join("books.parquet");
    let ctx = SessionContext::new();
    ctx.register_csv("books", csv.to_str().unwrap(), Default::default())
        .await
        .unwrap();
    ctx.sql(&format!(
        "COPY books TO '{}' STORED AS PARQUET",
        parquet.display()
    ))
    .await
    .unwrap()
    .collect()
    .await
    .unwrap();
    (csv.display().to_string(), parquet.display().to_string())
}

/// Every query gives the same CSV embedded and on Ballista, for both files; the answers are
/// the keys urn-core gives.
#[tokio::test(flavor = "multi_thread")]
async fn embedded_and_ballista_give_the_same_rows() {
    let dir = std::env::temp_dir().join(format!("urn_datafusion_query_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (csv, parquet) = files(&dir).await;
    let queries = [
        (
            "SELECT id, try_urn_key_v2(urn) AS key, urn_check(urn) AS problem FROM t ORDER BY id",
            "id,key,problem\n\
             1,urn:isbn:0395363411,\n\
             2,urn:isbn:0395363411,\n\
             3,\"urn:example:a,b\",\n\
             4,urn:example:a%2Cb,\n\
             5,,invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits\n\
             6,,\n\
             7,urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66,\n",
        ),
        (
            "SELECT count(*) AS rows, count(DISTINCT try_urn_key_v2(urn)) AS urns, \
             sum(CASE WHEN NOT urn_valid(urn) THEN 1 ELSE 0 END) AS invalid FROM t",
            "rows,urns,invalid\n7,4,1\n",
        ),
        (
            "SELECT urn_nid(urn) AS nid, count(*) AS n FROM t WHERE urn_valid(urn) \
             GROUP BY urn_nid(urn) ORDER BY nid",
            "nid,n\nExample,1\nISBN,1\nexample,1\nisbn,1\nuuid,1\n",
        ),
    ];
    for (name, path) in [("csv", &csv), ("parquet", &parquet)] {
        let table = format!("t={path}");
        for (sql, want) in queries {
            let embedded = stdout(&run(&["--table", &table, sql]));
            assert_eq!(embedded, want, "{name}: {sql}");
            let ballista = stdout(&run(&["--ballista", "--table", &table, sql]));
            assert_eq!(ballista, embedded, "{name} on Ballista: {sql}");
        }
    }
    // A strict function's error, on stderr with a non-zero exit, in both modes.
    for ballista in [false, true] {
        let table = format!("t={csv}");
        let mut args = vec!["--table", table.as_str(), "SELECT urn_key_v2(urn) FROM t"];
        if ballista {
            args.insert(0, "--ballista");
        }
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(
                "urn_key_v2('urn:example:a%zz'): invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"
            ),
            "ballista {ballista}: {stderr}"
        );
        assert!(output.stdout.is_empty());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The runner only reads unless `--allow-writes` is given: `COPY … TO` (which writes a file),
/// `CREATE EXTERNAL TABLE` (which opens any file) and `SET` are refused, and write nothing;
/// with the flag, `COPY … TO` writes its file.
#[test]
fn the_runner_is_read_only_unless_writes_are_allowed() {
    let dir = std::env::temp_dir().join(format!("urn-datafusion-readonly-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("t.csv");
    std::fs::write(&csv, "urn\nURN:ISBN:0-395-36341-1\n").unwrap();
    let table = format!("t={}", csv.display());
    let out = dir.join("out.csv");
    let copy = format!(
        "COPY (SELECT urn_key_v2(urn) AS k FROM t) TO '{}' STORED AS CSV",
        out.display()
    );
    let create = format!(
        "CREATE EXTERNAL TABLE other STORED AS CSV LOCATION '{}'",
        csv.display()
    );
    for (sql, refused) in [
        (copy.as_str(), "DML not supported"),
        (create.as_str(), "DDL not supported"),
        (
            "SET datafusion.execution.batch_size = 1",
            "Statement not supported",
        ),
    ] {
        let output = run(&["--table", &table, sql]);
        assert_eq!(output.status.code(), Some(1), "{sql}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(refused), "{sql}: {stderr}");
    }
    assert!(!out.exists());
    let written = run(&["--allow-writes", "--table", &table, &copy]);
    stdout(&written);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("urn:isbn:0395363411")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Usage mistakes exit with 2 and say what is wrong.
#[test]
fn bad_command_lines() {
    for (args, message) in [
        (vec![], "no SQL query given"),
        (vec!["--table", "t", "SELECT 1"], "expected NAME=PATH"),
        (
            vec!["--table", "t=x.json", "SELECT 1"],
            "must end in .csv or .parquet",
        ),
        (vec!["--nope", "SELECT 1"], "unknown option --nope"),
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(message),
            "{args:?}"
        );
    }
}

/// The `query` commands of a README's `sh` blocks: each `cargo run … --example query --`
/// command (continued over `\` lines and open quotes) as its arguments, with the `# ` lines
/// that follow it (the output the README shows).
fn readme_commands(readme: &str) -> Vec<(Vec<String>, String)> {
    let mut commands: Vec<(Vec<String>, String)> = Vec::new();
    let mut in_sh = false;
    // Whether `# ` lines now show the output of the last query command.
    let mut showing = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line == "```sh" || line == "```" {
            in_sh = line == "```sh";
            showing = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        if pending.is_empty() && line.starts_with("# ") {
            if let Some((_, shown)) = commands.last_mut().filter(|_| showing) {
                shown.push_str(&line[2..]);
                shown.push('\n');
            }
            continue;
        }
        // A comment after the command (outside quotes) is not part of it.
        let text = match line.split_once("   # ") {
            Some((command, _)) if command.matches('"').count() % 2 == 0 => command,
            _ => line,
        }
        .trim_end();
        pending.push_str(text.trim_end_matches('\\'));
        pending.push(if text.ends_with('\\') { ' ' } else { '\n' });
        if !text.ends_with('\\') && pending.matches('"').count().is_multiple_of(2) {
            showing = match pending.split_once("--example query -- ") {
                Some((_, args)) => {
                    commands.push((shell_words(args), String::new()));
                    true
                }
                None => false,
            };
            pending.clear();
        }
    }
    commands
}

/// `text` split as a shell splits words with double quotes (all the READMEs use); a newline
/// inside quotes stays in the word.
fn shell_words(text: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// The commands of this crate's README (run from `urn-datafusion/`) work as written, on the
/// records file this crate ships, and print what the README shows. (The repository's README
/// shows none: it links here.)
#[test]
fn the_readme_commands_run_as_written() {
    assert!(readme_commands(include_str!("../../README.md")).is_empty());
    for (readme, records) in [(include_str!("../README.md"), "examples/records.csv")] {
        let commands = readme_commands(readme);
        assert!(!commands.is_empty());
        let dir =
            std::env::temp_dir().join(format!("urn-datafusion-readme-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join(records);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy("examples/records.csv", &path).unwrap();
        for (args, shown) in commands {
            let output = Command::new(query_binary())
                .args(&args)
                .current_dir(&dir)
                .output()
                .unwrap();
            let printed = stdout(&output);
            if !shown.is_empty() {
                assert_eq!(printed, shown, "{args:?}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
