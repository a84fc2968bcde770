//! Nothing here: the tests in `tests/` are the point (see Cargo.toml).
