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

use std::path::Path;

use urn_core::{KeyRules, KnownNamespace};

/// A file of the repository, by its path from the root.
fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of `file` from `anchor` (which must be there) to the first `end` after it.
fn section(file: &str, anchor: &str, end: &str) -> String {
    let text = read(file);
    let start = text
        .find(anchor)
        .unwrap_or_else(|| panic!("{file}: no {anchor:?}"));
    let rest = &text[start..];
    let stop = rest[anchor.len()..]
        .find(end)
        .map_or(rest.len(), |at| at + anchor.len());
    rest[..stop].to_owned()
}

fn nids(filter: impl Fn(KnownNamespace) -> bool) -> Vec<&'static str> {
    KnownNamespace::ALL
        .iter()
        .copied()
        .filter(|&ns| filter(ns))
        .map(KnownNamespace::nid)
        .collect()
}

fn missing<'a>(text: &str, names: &[&'a str]) -> Vec<&'a str> {
    names
        .iter()
        .copied()
        .filter(|nid| !text.contains(nid))
        .collect()
}

#[test]
fn every_known_namespace_is_in_each_list_of_namespaces() {
    let all = nids(|_| true);
    for (file, anchor, end) in [
        ("urn-core/README.md", "| namespace | NSS checked", "\n\n"),
        (
            "urn-cli/README.md",
            "the known namespaces get their own NSS",
            ")",
        ),
    ] {
        let list = section(file, anchor, end);
        assert!(
            missing(&list, &all).is_empty(),
            "{file}: {:?} missing from {list:?}",
            missing(&list, &all)
        );
    }
    // urn-schema names which namespaces' patterns are exact, and which are not.
    let exact = section(
        "urn-schema/README.md",
        "Of the known namespaces' NSS patterns",
        "accept exactly",
    );
    let inexact = section("urn-schema/README.md", "accept exactly", "check the shape");
    for ns in KnownNamespace::ALL.iter().copied() {
        let list = if ns.pattern_is_exact() {
            &exact
        } else {
            &inexact
        };
        assert!(
            list.contains(ns.nid()),
            "urn-schema/README.md: {} not in {list:?}",
            ns.nid()
        );
    }
}

#[test]
fn every_namespace_with_a_key_rule_is_in_each_list_of_key_rules() {
    let ruled = nids(|ns| ns.has_key_rule(KeyRules::CURRENT));
    for (file, anchor) in [
        ("urn-core/README.md", "(`KeyRules::CURRENT` ="),
        ("urn-sql/README.md", "RFC 8141 section 3 plus the "),
        ("urn-datafusion/README.md", "RFC 8141 section 3 plus the "),
        ("urn-sqlite-ext/README.md", "RFC 8141 section 3 plus the "),
        (
            "urn-sql/migrations/postgres/2026-11-23-000000_urn_types/up.sql",
            "plus the namespace rules of ",
        ),
    ] {
        let list = section(file, anchor, ")");
        let list: String = list.chars().take(anchor.len() + 120).collect();
        assert!(
            missing(&list, &ruled).is_empty(),
            "{file}: {:?} missing from {list:?}",
            missing(&list, &ruled)
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
