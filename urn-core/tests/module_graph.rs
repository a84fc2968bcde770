//! The crate's modules depend on each other one way only: no module reaches, directly or
//! through others, back to itself. Read from the sources: every `crate::<module>` path outside
//! comments is an arrow, and a name re-exported by `lib.rs` (or a `#[macro_export]` macro, which
//! lives at the crate's root) stands for the module it comes from.
//! A module's own submodules (`namespaces/isbn.rs`) belong to it.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifier starting `text`.
fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Code lines of a file, comments and doc comments left out.
fn code(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .filter(|line| !line.trim().is_empty())
}

/// The module each name that `lib.rs` re-exports comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let flat: String = code(lib).collect::<Vec<_>>().join(" ");
    for statement in flat.split(';') {
        // (A statement may follow a block's `}` or an attribute.)
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let rest = &statement[at + "pub use ".len()..];
        let module = ident(rest).to_owned();
        let names = match rest.find('{') {
            Some(open) => rest[open + 1..rest.rfind('}').unwrap()].to_owned(),
            None => rest.rsplit("::").next().unwrap().to_owned(),
        };
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            out.insert(ident(name).to_owned(), module.clone());
        }
    }
    out
}

/// The arrows between the modules of the crate whose sources are in `src` (its root file
/// `root`, `lib.rs` or `main.rs`), after checking that none leads back to where it started.
fn arrows_of(src: &Path, root: &str) -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(src.join(root)).unwrap();
    let mut names = reexports(&lib);
    let mut files = Vec::new();
    sources(src, &mut files);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let module = path.strip_prefix(src).unwrap().components().next().unwrap();
        let module = module.as_os_str().to_str().unwrap().trim_end_matches(".rs");
        for (at, _) in text.match_indices("#[macro_export]") {
            if let Some(rest) = text[at..].split("macro_rules! ").nth(1) {
                // A macro named like a module (`urn!`, module `urn`): the path names both.
                let name = ident(rest);
                if !src.join(format!("{name}.rs")).exists() && !src.join(name).is_dir() {
                    names.insert(name.to_owned(), module.to_owned());
                }
            }
        }
    }
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &files {
        let relative = path.strip_prefix(src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let module = first.to_str().unwrap().trim_end_matches(".rs").to_owned();
        if module == root.trim_end_matches(".rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let targets = arrows.entry(module.clone()).or_default();
        for line in code(&text) {
            // `crate::x`, `crate::{x, y}`, and `use crate::{a::b, c}` all name modules or
            // re-exported items right after `crate::`.
            for (at, _) in line.match_indices("crate::") {
                // `$crate::` in a macro is the crate as its users see it.
                if line[..at].ends_with('$') {
                    continue;
                }
                let rest = &line[at + "crate::".len()..];
                let heads: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    group.split(',').map(|p| ident(p.trim())).collect()
                } else {
                    vec![ident(rest)]
                };
                for head in heads.into_iter().filter(|h| !h.is_empty()) {
                    let target = names.get(head).cloned().unwrap_or_else(|| head.to_owned());
                    if target != module {
                        targets.insert(target);
                    }
                }
            }
        }
    }
    // Every arrow ends at a module of the crate (a typo in this reading would hide cycles).
    let modules: BTreeSet<String> = arrows.keys().cloned().collect();
    for (from, targets) in &arrows {
        for to in targets {
            assert!(
                modules.contains(to),
                "{}: {from} -> {to}: not a module of the crate",
                src.display()
            );
        }
    }
    // Depth-first search for a path back to where it started.
    fn visit(
        at: &str,
        arrows: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if let Some(start) = path.iter().position(|m| m == at) {
            panic!("module cycle: {} -> {at}", path[start..].join(" -> "));
        }
        if done.contains(at) {
            return;
        }
        path.push(at.to_owned());
        for next in &arrows[at] {
            visit(next, arrows, path, done);
        }
        path.pop();
        done.insert(at.to_owned());
    }
    let mut done = BTreeSet::new();
    for module in arrows.keys() {
        visit(module, &arrows, &mut Vec::new(), &mut done);
    }
    arrows
}

#[test]
fn modules_depend_on_each_other_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let arrows = arrows_of(&src, "lib.rs");
    // The layering the crate's docs describe: the URN types above the key and the grammar.
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(m) = stack.pop() {
            if m == to {
                return true;
            }
            if seen.insert(m.clone()) {
                stack.extend(arrows[&m].iter().cloned());
            }
        }
        false
    };
    assert!(reaches("urn", "urn_ref") && reaches("urn_ref", "key") && reaches("key", "parse"));
    assert!(!reaches("namespaces", "canonical") && !reaches("parse", "key"));
}

/// No crate of the workspace has an import circle either (urn-sql's protocol and sqlite
/// modules named each other). Read from the repository, where the crates are siblings.
#[test]
fn every_crate_s_modules_depend_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let crates = [
        ("urn-serde", "lib.rs"),
        ("urn-sql", "lib.rs"),
        ("urn-schema", "lib.rs"),
        ("urn-cli", "main.rs"),
        ("urn-arrow", "lib.rs"),
        ("urn-datafusion", "lib.rs"),
        ("urn-python", "lib.rs"),
        ("urn-pg", "lib.rs"),
        ("urn-sqlite-ext", "lib.rs"),
    ];
    for (name, file) in crates {
        let src = root.join(name).join("src");
        if src.join(file).exists() {
            arrows_of(&src, file);
        }
    }
}
