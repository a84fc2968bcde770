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

use urn_core::KnownNamespace;

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
    let ruled = nids(KnownNamespace::has_key_rule);
    for (file, anchor) in [
        ("urn-core/README.md", "(`KeyRules::V1`: "),
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
