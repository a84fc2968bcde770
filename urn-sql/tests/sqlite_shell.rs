//! Other programs: the `sqlite3` shell with and without the `urn-sqlite-ext` loadable extension,
//! on a table made by `Dialect::Sqlite.create_table_sql`. With the extension it writes the same keys as
//! `Urn::key()` and refuses invalid URNs with the parser's message; without it, it can read the
//! table but not write it. Needs the `sqlite3` shell and the built extension (`.ci/run` builds
//! it: `cargo build --release --manifest-path urn-sqlite-ext/Cargo.toml`); skipped without them,
//! a failure under `CI=true`.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use urn_sql::{KeyRules, Urn, UrnTable};

fn missing(what: &str) -> bool {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but {what} is missing");
    }
    eprintln!("{what} is missing: skipping the sqlite3 shell test");
    true
}

/// Runs `sql` in the `sqlite3` shell on `db`; returns (stdout, stderr).
fn shell(db: &std::path::Path, sql: &str) -> (String, String) {
    let mut child = Command::new("sqlite3")
        .arg("-batch")
        .arg(db)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from another thread: a script with much output would otherwise fill the pipe
    // the shell writes to while this one still writes the script.
    let mut stdin = child.stdin.take().unwrap();
    let script = sql.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        // Lossy: the 3.40 shell quotes an error's SQL context from outside the statement when
        // the failing call is in the schema (a generated column), which can be any bytes.
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_sqlite3_shell_writes_through_the_loadable_extension_and_only_reads_without_it() {
    let extension = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../urn-sqlite-ext/target/release/liburn_sqlite_ext.so");
    if Command::new("sqlite3").arg("-version").output().is_err() && missing("the sqlite3 shell") {
        return;
    }
    if !extension.exists() && missing(&format!("{}", extension.display())) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("urn-sql-shell-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("items.db");
    let load = format!(".load {}\n", extension.with_extension("").display());
    let table = urn_sql::Dialect::Sqlite.create_table_sql(&UrnTable::new("items").unwrap());

    // The shell computes the same keys as Rust, under each version of the rules, for every
    // valid test vector and the inputs of the rules V2 added.
    let valid: Vec<Urn> = support::corpus::vector_inputs()
        .into_iter()
        .chain(support::corpus::generated_inputs())
        .filter(|s| s.contains("doi") || s.contains("lei") || s.starts_with("urn:example"))
        .chain(support::corpus::vector_inputs())
        .filter_map(|s| Urn::parse(&s).ok())
        .filter(|u| !u.as_str().contains('\n') && u.as_str().len() < 4096)
        .collect();
    let mut script = format!("{load}{table}");
    for urn in &valid {
        script.push_str(&format!(
            "SELECT urn_key_v1('{0}') || ' ' || urn_key_v2('{0}');\n",
            urn.as_str().replace('\'', "''")
        ));
    }
    let (out, err) = shell(&db, &script);
    assert!(err.is_empty(), "{err}");
    let keys: Vec<&str> = out.lines().collect();
    let expected: Vec<String> = valid
        .iter()
        .map(|u| format!("{} {}", u.key_with(KeyRules::V1), u.key_with(KeyRules::V2)))
        .collect();
    assert_eq!(keys, expected);
    assert!(valid.len() > 50);

    // Writes: the right key, duplicates refused, the parser's message for an invalid URN.
    let (out, err) = shell(
        &db,
        &format!(
            "{load}INSERT INTO items (urn) VALUES ('URN:ISBN:0-395-36341-1');\n\
             INSERT INTO items (urn) VALUES ('urn:isbn:0395363411#p4');\n\
             INSERT INTO items (urn) VALUES ('urn:example:a%zz');\n\
             INSERT INTO items (urn, urn_key) VALUES ('urn:example:a', 'urn:example:b');\n\
             SELECT urn, urn_key FROM items;\n"
        ),
    );
    assert_eq!(out, "URN:ISBN:0-395-36341-1|urn:isbn:0395363411\n");
    assert!(
        err.contains("UNIQUE constraint failed: items.urn_key"),
        "{err}"
    );
    assert!(
        err.contains("invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits"),
        "{err}"
    );
    assert!(err.contains("cannot INSERT into generated column"), "{err}");

    // Without the extension: reading works, writing is refused rather than done wrong.
    let (out, err) = shell(
        &db,
        "SELECT urn_key FROM items;\nINSERT INTO items (urn) VALUES ('urn:example:x');\n",
    );
    assert_eq!(out, "urn:isbn:0395363411\n");
    assert!(err.contains("urn_key_v2"), "{err}");
    let (out, _) = shell(&db, "SELECT count(*) FROM items;\n");
    assert_eq!(out, "1\n");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The re-key script in the sqlite3 shell: the collisions listed and refused (nothing
/// changes), moved with keep-first, the table keyed by urn_key_v2 after, and a second run
/// refused with "nothing was changed".
#[test]
fn the_sqlite3_shell_runs_the_rekey_script() {
    let extension = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../urn-sqlite-ext/target/release/liburn_sqlite_ext.so");
    if Command::new("sqlite3").arg("-version").output().is_err() && missing("the sqlite3 shell") {
        return;
    }
    if !extension.exists() && missing(&format!("{}", extension.display())) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("urn-sql-shell-rekey-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("items.db");
    let load = format!(".load {}\n", extension.with_extension("").display());
    let table = UrnTable::new("items")
        .unwrap()
        .with_key_rules(KeyRules::V1)
        .unwrap();
    let create = urn_sql::Dialect::Sqlite.create_table_sql(&table);
    let (_, err) = shell(
        &db,
        &format!(
            "{load}{create}INSERT INTO items (urn) VALUES ('urn:doi:10.1000/ABC'), \
             ('urn:example:a'), ('urn:doi:10.1000:abc');\n"
        ),
    );
    assert!(err.is_empty(), "{err}");
    let script = |policy| {
        urn_sql::Dialect::Sqlite
            .rekey_sql(&table, KeyRules::V2, policy)
            .unwrap()
    };
    let (out, err) = shell(
        &db,
        &format!("{load}{}", script(urn_sql::OnCollision::Refuse)),
    );
    assert_eq!(
        out,
        "urn:doi:10.1000/abc|1 3|urn:doi:10.1000/ABC urn:doi:10.1000:abc\n"
    );
    assert!(
        err.contains("one under the v2 rules (listed above): nothing was changed"),
        "{err}"
    );
    let (out, _) = shell(&db, "SELECT count(*) FROM items;\n");
    assert_eq!(out, "3\n");
    let (_, err) = shell(
        &db,
        &format!("{load}{}", script(urn_sql::OnCollision::KeepFirst)),
    );
    assert!(err.is_empty(), "{err}");
    let (out, _) = shell(
        &db,
        "SELECT id, urn_key FROM items ORDER BY id;\n\
         SELECT id, urn_sql_kept_id FROM items_urn_key_v2_collisions;\n",
    );
    assert_eq!(out, "1|urn:doi:10.1000/abc\n2|urn:example:a\n3|1\n");
    let (_, err) = shell(
        &db,
        &format!("{load}{}", script(urn_sql::OnCollision::Refuse)),
    );
    assert!(err.contains("not a table keyed by urn_key_v1"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
