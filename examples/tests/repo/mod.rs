//! The repository's files, for the tests that check the docs and the engines against the code.

use std::path::Path;

/// A file of the repository, by its path from the root.
pub(crate) fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}
