//! A key version is a row of urn-core's `key_versions!` table: the recipe for a new one (in
//! `urn-core/src/key_rules.rs`) has the steps it says, and every engine's per-version names are
//! made from the table, so each rendering names every version.
#![allow(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod repo;

use repo::read;
use urn_core::KeyRules;

/// The numbered steps of the `# Adding a version` recipe in `key_rules.rs`'s docs.
fn recipe_steps() -> Vec<String> {
    let source = read("urn-core/src/key_rules.rs");
    let recipe = source
        .split("/// # Adding a version")
        .nth(1)
        .expect("the recipe");
    let recipe = &recipe[..recipe.find("#[doc(hidden)]").expect("its end")];
    recipe
        .lines()
        .filter_map(|line| line.trim_start_matches("///").trim_start().split_once(". "))
        .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .map(|(_, step)| step.to_owned())
        .collect()
}

#[test]
fn a_version_is_three_steps() {
    let steps = recipe_steps();
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert!(steps[2].contains("bash .ci/bless"), "{steps:?}");
    let source = read("urn-core/src/key_rules.rs");
    assert!(source.contains(&format!("counts these {} steps", steps.len())));
}

/// Every rendering that declares something per version declares it for each version of the
/// table: the SQL migrations and urn_pg's script (written by `.ci/bless` from the table),
/// urnkit's generated Python, urn-datafusion's rendered function table.
#[test]
fn every_engine_names_every_version() {
    let postgres = read("urn-sql/migrations/postgres/2026-11-23-000000_urn_types/up.sql");
    let urn_pg = read("urn-pg/sql/urn_pg.sql");
    let mariadb = read("urn-sql/migrations/mariadb/2026-11-24-000000_urn_types/up.sql");
    let arrow = read("urn-python/python/urnkit/arrow.py");
    let polars = read("urn-python/python/urnkit/polars.py");
    let datafusion = read("urn-datafusion/README.md");
    for &rules in KeyRules::VERSIONS {
        let sql = rules.sql_function().expect("a version has a key function");
        let column = format!("key_{}", rules.name());
        let wanted = [
            ("PostgreSQL", &postgres, format!("FUNCTION {sql}(u urn)")),
            (
                "PostgreSQL",
                &postgres,
                format!("FUNCTION {sql}_inline(u urn)"),
            ),
            ("urn_pg", &urn_pg, format!("FUNCTION {sql}_inline(u urn)")),
            ("MariaDB", &mariadb, format!("FUNCTION {sql}(")),
            ("urnkit.arrow", &arrow, format!("def {column}(")),
            ("urnkit.polars", &polars, format!("def {column}(")),
            ("urn-datafusion", &datafusion, format!("`try_{sql}(s)`")),
        ];
        for (engine, text, name) in wanted {
            assert!(text.contains(&name), "{engine} lacks {name}");
        }
    }
}
