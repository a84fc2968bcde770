//! The READMEs' lists cannot go stale: every known namespace is in each list of namespaces,
//! every namespace with a key rule in each list of key rules, every feature of a manifest in its
//! crate's README. (The CLI's subcommands and flags are checked against its README by
//! `urn-cli/tests/cli.rs`.)
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeSet;
mod repo;

use std::path::Path;

use repo::read;
use urn_core::{KeyRules, KnownNamespace};

/// What `.ci/bless` renders into the docs: each region's name and its rendering. A region
/// is the text between `<!-- rendered: NAME (bash .ci/bless) -->` and `<!-- end rendered:
/// NAME -->`.
/// A region's rendering.
type Render = fn() -> String;

const RENDERED: [(&str, &str, Render); 1] = [("urn-core/README.md", "namespaces", namespace_table)];

/// urn-core's README table of the known namespaces, from the namespace table itself.
fn namespace_table() -> String {
    let current = KeyRules::CURRENT;
    let mut out = format!(
        "| namespace | NSS checked | key rule (`KeyRules::{}`; earlier versions where they \
         differ) | typed alias |\n|---|---|---|---|\n",
        current.name().to_uppercase()
    );
    for &ns in KnownNamespace::ALL {
        let rule = |rules: KeyRules| ns.key_rule_summary(rules).unwrap_or("none");
        let mut key = rule(current).to_owned();
        let mut later = current;
        for &rules in KeyRules::VERSIONS.iter().rev().skip(1) {
            if rule(rules) != rule(later) {
                key.push_str(&format!(
                    " ({}: {})",
                    rules.name().to_uppercase(),
                    rule(rules)
                ));
            }
            later = rules;
        }
        // The variant's name is the alias's stem (`Isbn`, `IsbnUrn`).
        let alias = format!("{ns:?}Urn");
        // A check digit is not a regular language: such a schema pattern checks the shape.
        let shape = if ns.pattern_is_exact() { "" } else { " ¹" };
        out.push_str(&format!(
            "| `{}` ({}) | {}{shape} | {key} | `{alias}` |\n",
            ns.nid(),
            ns.reference(),
            ns.syntax()
        ));
    }
    out
}

/// `text` with each rendered region's body (its marker lines start a line) replaced by
/// `render(name)`.
fn with_regions(file: &str, text: &str, render: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\n<!-- rendered: ").map(|at| at + 1) {
        let open_end = at + rest[at..].find("-->").unwrap() + 3;
        let name = rest[at + 15..].split(' ').next().unwrap();
        let close = format!("<!-- end rendered: {name} -->");
        let close_at = rest
            .find(&close)
            .unwrap_or_else(|| panic!("{file}: region {name} has no {close:?}"));
        out.push_str(&rest[..open_end]);
        out.push('\n');
        out.push_str(&render(name).unwrap_or_else(|| panic!("{file}: no region {name}")));
        rest = &rest[close_at..];
    }
    out.push_str(rest);
    out
}

/// Every rendered region is its rendering; `URN_DOCS_BLESS=1` (run by `.ci/bless`) writes
/// them.
#[test]
fn rendered_regions_are_their_rendering() {
    for (file, name, render) in RENDERED {
        let text = read(file);
        let want = with_regions(file, &text, |n| (n == name).then(render));
        if std::env::var_os("URN_DOCS_BLESS").is_some() && want != text {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            std::fs::write(root.join(file), &want).unwrap();
            continue;
        }
        assert!(
            want == text,
            "{file}: region {name} is not its rendering (bash .ci/bless):\n{}",
            render()
        );
    }
}

/// The repository's tracked files.
fn tracked() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new("git")
        .arg("ls-files")
        .current_dir(root)
        .output()
        .expect("git ls-files");
    assert!(out.status.success(), "git ls-files failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Files that may name every namespace by hand: the table itself (with each namespace's own
/// file), the CHANGELOG (each entry was true when written), the earlier SQL revisions the
/// upgrade tests install, the differential tests' fixed corpus (`urn-core/tests/frozen_keys.rs`
/// holds a digest over exactly these inputs; generated URNs of every namespace come from the
/// table), and the files `.ci/bless` writes.
const EXEMPT: [&str; 7] = [
    "urn-core/src/namespaces/",
    "CHANGELOG.md",
    "urn-sql/tests/fixtures/",
    "urn-sql/tests/support/corpus.rs",
    "schemas/",
    "urn-sql/migrations/",
    "urn-pg/sql/urn_pg.sql",
];

/// The text files the namespace checks read: tracked, not exempt, with their rendered regions
/// and urnkit's generated blocks left out.
fn hand_written() -> Vec<(String, String)> {
    tracked()
        .into_iter()
        .filter(|path| !EXEMPT.iter().any(|e| path.starts_with(e)))
        .filter(|path| {
            [
                ".md", ".rs", ".py", ".pyi", ".sql", ".toml", ".sh", ".txt", ".yml",
            ]
            .iter()
            .any(|ext| path.ends_with(ext))
                || path.starts_with(".ci/")
        })
        .filter_map(|path| {
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(&path),
            )
            .ok()?;
            let text = with_regions(&path, &text, |_| Some(String::new()));
            let text = without_blocks(&text, "BEGIN GENERATED", "END GENERATED");
            Some((path, text))
        })
        .collect()
}

/// `text` without the lines from each `begin` line to its `end` line.
fn without_blocks(text: &str, begin: &str, end: &str) -> String {
    let mut inside = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.contains(begin) {
            inside = true;
        }
        if !inside {
            out.push_str(line);
            out.push('\n');
        }
        if line.contains(end) {
            inside = false;
        }
    }
    out
}

/// The known namespaces `text` names as words (a NID in lower case, not inside a URN, a path
/// or a longer name).
fn named(text: &str) -> BTreeSet<KnownNamespace> {
    KnownNamespace::ALL
        .iter()
        .copied()
        .filter(|ns| {
            text.match_indices(ns.nid()).any(|(at, nid)| {
                let before = text[..at].chars().next_back();
                let after = text[at + nid.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || ":/._-".contains(c))
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || ":/_-".contains(c))
            })
        })
        .collect()
}

/// The paragraphs of `text`: runs of lines that hold more than comment markers.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        let blank = line
            .trim()
            .trim_start_matches(['/', '!', '-', '#', '*'])
            .trim()
            .is_empty();
        match (blank, open) {
            (true, _) => open = false,
            (false, true) => {
                let last = out.last_mut().unwrap();
                last.1.push('\n');
                last.1.push_str(line);
            }
            (false, false) => {
                out.push((n + 1, line.to_owned()));
                open = true;
            }
        }
    }
    out
}

/// The lists of namespaces a hand edit would have to keep up: the known namespaces and those
/// with a rule in the current key rules. (A list of the rules of an earlier version, or of
/// those a version added, stays true: a new rule comes with a new version.)
fn growing_lists() -> Vec<BTreeSet<KnownNamespace>> {
    let all: BTreeSet<_> = KnownNamespace::ALL.iter().copied().collect();
    let ruled = all
        .iter()
        .copied()
        .filter(|ns| ns.has_key_rule(KeyRules::CURRENT))
        .collect();
    vec![all, ruled]
}

fn stable_lists() -> Vec<BTreeSet<KnownNamespace>> {
    let mut out = Vec::new();
    for &rules in KeyRules::VERSIONS {
        let ruled = |ns: &KnownNamespace| ns.has_key_rule(rules);
        if rules != KeyRules::CURRENT {
            out.push(KnownNamespace::ALL.iter().copied().filter(ruled).collect());
        }
        out.push(
            KnownNamespace::ALL
                .iter()
                .copied()
                .filter(|ns| {
                    ruled(ns) && ns.key_rule(rules) != previous(rules).and_then(|p| ns.key_rule(p))
                })
                .collect(),
        );
    }
    out
}

/// The version before `rules`, if any.
fn previous(rules: KeyRules) -> Option<KeyRules> {
    let at = KeyRules::VERSIONS.iter().position(|&r| r == rules)?;
    at.checked_sub(1).map(|p| KeyRules::VERSIONS[p])
}

/// No hand-written paragraph lists the known namespaces, or those with a current rule, or
/// such a list short of one or two (a stale one): it links to urn-core's README table, which
/// `.ci/bless` renders, so a new namespace changes no prose.
#[test]
fn no_hand_written_list_of_namespaces() {
    let growing = growing_lists();
    let stable = stable_lists();
    let mut found = Vec::new();
    for (path, text) in hand_written() {
        for (line, paragraph) in paragraphs(&text) {
            let names = named(&paragraph);
            let near = growing
                .iter()
                .any(|list| names.len() >= 4 && list.difference(&names).count() <= 2);
            if near && !stable.contains(&names) {
                found.push(format!("{path}:{line}: {names:?}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "hand-written lists of namespaces (link to urn-core's README table instead):\n{}",
        found.join("\n")
    );
}

/// The files a new namespace is written into by hand: its own and the table's. Every other
/// file that names every known namespace is exempt above (history, or written by
/// `.ci/bless`); CONTRIBUTING.md states the count.
#[test]
fn a_namespace_is_a_file_and_a_row() {
    let variants = |text: &str| {
        KnownNamespace::ALL
            .iter()
            .filter(|ns| {
                text.contains(&format!("{ns:?} =>")) || text.contains(&format!("::{ns:?}"))
            })
            .count()
    };
    let every: Vec<String> = hand_written()
        .into_iter()
        .filter(|(_, text)| {
            named(text).len() == KnownNamespace::ALL.len()
                || variants(text) == KnownNamespace::ALL.len()
        })
        .map(|(path, _)| path)
        .collect();
    assert!(
        every.is_empty(),
        "files that name every namespace by hand: {every:?}"
    );
    let table = read("urn-core/src/namespaces/mod.rs");
    assert_eq!(variants(&table), KnownNamespace::ALL.len());
    for file in ["CONTRIBUTING.md", "urn-core/src/namespaces/mod.rs"] {
        assert!(
            read(file).contains("namespace is 2 hand-edited files"),
            "{file} must state the count"
        );
    }
}

/// The features declared in `manifest`'s `[features]` table, but `default`.
fn features(manifest: &str) -> Vec<String> {
    let text = read(manifest);
    let mut in_features = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            in_features = line == "[features]";
        } else if in_features
            && let Some((name, _)) = line.split_once('=')
            && !line.starts_with('#')
        {
            let name = name.trim();
            if name != "default" {
                out.push(name.to_owned());
            }
        }
    }
    out
}

#[test]
fn every_feature_is_in_its_readme() {
    for krate in [
        "urn-core",
        "urn-serde",
        "urn-sql",
        "urn-schema",
        "urn-cli",
        "urn-datafusion",
    ] {
        let readme = read(&format!("{krate}/README.md"));
        for feature in features(&format!("{krate}/Cargo.toml")) {
            assert!(
                readme.contains(&format!("`{feature}`")),
                "{krate}/README.md: feature `{feature}` missing"
            );
        }
    }
    assert!(features("urn-core/Cargo.toml").len() > 10);
}

/// The user-facing docs that must not restate measured figures: those live in BENCHMARKS.md,
/// with their date, commit, machine and command.
const FIGURE_FREE: [&str; 12] = [
    "urn-core/README.md",
    "urn-core/API.md",
    "urn-serde/README.md",
    "urn-schema/README.md",
    "urn-cli/README.md",
    "urn-pg/README.md",
    "urn-sqlite-ext/README.md",
    "urn-datafusion/README.md",
    "urn-python/README.md",
    "fuzz/README.md",
    "testdata/README.md",
    "examples/README.md",
];

/// Whether `text` holds a measured figure: a ratio (`1.6×`), a time per item (`µs`, `ns`), a
/// throughput (`rows/s`, `lines/s`, `GiB/s`) or an instruction count.
fn figures(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| {
            let digit_before = |unit: &str| {
                line.match_indices(unit).any(|(at, _)| {
                    line[..at]
                        .trim_end()
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_ascii_digit())
                })
            };
            digit_before("×")
                || digit_before("µs")
                || digit_before(" ns")
                || line.contains("rows/s")
                || line.contains("lines/s")
                || line.contains("GiB/s")
                || line.contains("rows a second")
                || line.contains("instructions per")
        })
        .collect()
}

#[test]
fn measured_figures_live_in_benchmarks_md() {
    for file in FIGURE_FREE {
        let text = read(file);
        assert!(
            figures(&text).is_empty(),
            "{file} restates figures (they belong in BENCHMARKS.md): {:?}",
            figures(&text)
        );
    }
    // The check sees figures where they are.
    assert!(!figures(&read("BENCHMARKS.md")).is_empty());
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as
/// `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every relative link of these docs (and of BENCHMARKS.md) names a file of the repository,
/// and a `#fragment` names one of its headings: a moved or renamed file or section (such as the
/// former `urn-core/BENCHMARKS.md`) leaves no dead link behind.
#[test]
fn relative_links_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for file in FIGURE_FREE.iter().copied().chain(["BENCHMARKS.md"]) {
        let text = read(file);
        let dir = Path::new(file).parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let target = &target[..target.find(')').unwrap()];
            if target.contains("://") || target.starts_with('#') {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let linked = dir.join(path);
            assert!(
                root.join(&linked).exists(),
                "{file}: link to {target}, which does not exist"
            );
            if !fragment.is_empty() {
                let headings: Vec<String> = read(linked.to_str().unwrap())
                    .lines()
                    .filter_map(|l| l.strip_prefix('#'))
                    .map(|l| anchor(l.trim_start_matches('#')))
                    .collect();
                assert!(
                    headings.iter().any(|h| h == fragment),
                    "{file}: no heading for #{fragment} in {path}: {headings:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// Each engine's install script and the doc that lists its SQL functions.
const SQL_FUNCTION_DOCS: [(&str, &str); 3] = [
    (
        "urn-sql/migrations/postgres/2026-11-23-000000_urn_types/up.sql",
        "urn-sql/docs/postgresql.md",
    ),
    ("urn-pg/sql/urn_pg.sql", "urn-pg/README.md"),
    (
        "urn-sql/migrations/mariadb/2026-11-24-000000_urn_types/up.sql",
        "urn-sql/docs/mariadb.md",
    ),
];

/// The functions and procedures `sql` creates.
fn created_functions(sql: &str) -> BTreeSet<String> {
    sql.lines()
        .filter_map(|line| {
            let lower = line.trim_start().to_ascii_lowercase();
            let rest = [
                "create or replace function ",
                "create function ",
                "create or replace procedure ",
                "create procedure ",
            ]
            .into_iter()
            .find_map(|start| lower.strip_prefix(start))?;
            let name = rest.split('(').next()?.trim().trim_matches('"');
            Some(name.rsplit('.').next().unwrap_or(name).to_owned())
        })
        .collect()
}

/// The `urn_…` names `doc` writes as an SQL call (`urn_check(text)`).
fn called_functions(doc: &str) -> BTreeSet<String> {
    doc.match_indices("urn_")
        .filter_map(|(at, _)| {
            let name: String = doc[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let after = doc[at + name.len()..].chars().next();
            let before = doc[..at].chars().next_back();
            // Not part of a longer name, nor a Rust path's last segment (`sqlite::urn_guards(`).
            let whole = !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
            (whole && after == Some('(')).then_some(name)
        })
        .collect()
}

/// The lists of SQL functions are checked against the installs: every function a doc writes
/// as a call is one its engine's install creates, and every function that more than one
/// install creates (the functions users call; each install's internal helpers are its own) is
/// named in the doc of each engine that creates it.
#[test]
fn sql_function_lists_are_the_installs() {
    let installs: Vec<(BTreeSet<String>, String, &str)> = SQL_FUNCTION_DOCS
        .iter()
        .map(|(sql, doc)| (created_functions(&read(sql)), read(doc), *doc))
        .collect();
    for (created, _, doc) in &installs {
        assert!(created.len() >= 4, "{doc}: {created:?}");
    }
    for (i, (created, text, doc)) in installs.iter().enumerate() {
        let called = called_functions(text);
        let extra: Vec<&String> = called.iter().filter(|f| !created.contains(*f)).collect();
        assert!(
            extra.is_empty(),
            "{doc} names functions its install does not create: {extra:?}"
        );
        let shared = created.iter().filter(|f| {
            installs
                .iter()
                .enumerate()
                .any(|(j, (other, _, _))| j != i && other.contains(*f))
        });
        let missing: Vec<&String> = shared
            .filter(|f| !text.contains(&format!("`{f}(")) && !text.contains(&format!("`{f}`")))
            .collect();
        assert!(missing.is_empty(), "{doc} does not name {missing:?}");
    }
}

/// The SQLite functions urn-sql registers (read back from a connection), and the docs that
/// list them: each names every one, and names no other as a call.
#[test]
fn sqlite_function_lists_are_the_registered_functions() {
    let conn = rusqlite::Connection::open_in_memory().expect("an in-memory database");
    urn_sql::rusqlite::register_functions(&conn).expect("registered");
    let mut query = conn
        .prepare(
            "SELECT DISTINCT name FROM pragma_function_list WHERE name LIKE 'urn\\_%' ESCAPE '\\'",
        )
        .expect("pragma_function_list");
    let registered: BTreeSet<String> = query
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("names");
    assert!(registered.len() >= 3, "{registered:?}");
    for doc in ["urn-sqlite-ext/README.md", "urn-sql/docs/sqlite.md"] {
        let text = read(doc);
        let called = called_functions(&text);
        let extra: Vec<&String> = called.difference(&registered).collect();
        assert!(
            extra.is_empty(),
            "{doc} names functions urn-sql does not register: {extra:?}"
        );
        let missing: Vec<&String> = registered.difference(&called).collect();
        assert!(missing.is_empty(), "{doc} does not name {missing:?}");
    }
}
