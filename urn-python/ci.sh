#!/usr/bin/env bash
# urnkit's CI, from a clean clone: lint the Rust workspace, build the wheel with maturin,
# install it into a virtual environment with the pinned test dependencies, build the Rust
# oracle, and run pytest (every entry point against Rust's answers; Spark's on a standalone
# cluster the tests start), mypy --strict and the benchmarks as smoke runs. Prints the elapsed
# time before each step.
#
# Reused between runs on one machine (both outside the clone, since CI clones afresh):
#   URN_PYTHON_VENV   the virtual environment (default ~/.cache/urn-python-venv), refreshed
#                     when requirements-ci.txt changes
#   CARGO_TARGET_DIR  the Rust target directory (default ~/.cache/urn-ci-target/python): the
#                     Polars crates take most of the cold build
# URNKIT_PROFILE: the cargo profile of the wheel and the oracle (default release; .ci/run sets
# ci, the release profile at opt-level 0, see Cargo.toml).
# `bash ci.sh bless` (run by ../.ci/bless): builds and installs the wheel, then rewrites the
# generated parts of urnkit's Python files from it (tests/test_generated.py), and stops.
set -euo pipefail
cd "$(dirname "$0")"
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$cache/urn-ci-target/python}"
export CARGO_TERM_COLOR=never
venv="${URN_PYTHON_VENV:-$cache/urn-python-venv}"
profile="${URNKIT_PROFILE:-release}"
start=$SECONDS
step() { echo "== urn-python/ci.sh +$((SECONDS - start))s: $*"; }

step "virtual environment ($venv)"
stamp="$venv/.urnkit-requirements"
if [ ! -x "$venv/bin/python" ] || ! cmp -s requirements-ci.txt "$stamp"; then
    if ! python3 -m venv --clear "$venv" >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
        python3 -m venv --clear "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements-ci.txt
    cp requirements-ci.txt "$stamp"
fi
python="$venv/bin/python"

if [ "${1:-}" = bless ]; then
    "$venv/bin/maturin" build --profile "$profile" --quiet -o "$CARGO_TARGET_DIR/wheels-bless"
    "$python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
        "$CARGO_TARGET_DIR"/wheels-bless/urnkit-*.whl
    rm -rf "$CARGO_TARGET_DIR/wheels-bless"
    (cd tests && URNKIT_BLESS=1 "$python" -m pytest -q -p no:cacheprovider test_generated.py)
    exit
fi

step "fmt, clippy"
cargo fmt --all -- --check
if [ "$profile" = ci ]; then
    # The workspace's crates (the module and the oracle; neither has tests or benches) compiled
    # by clippy's driver (../.ci/clippy-rustc): the wheel's and the oracle's builds fail on any
    # lint, as `cargo clippy -- -D warnings` would, and the Polars crates are compiled once, not
    # checked first. Not for a wheel that is measured: the driver skips MIR's optimizations.
    export RUSTC_WORKSPACE_WRAPPER="$PWD/../.ci/clippy-rustc"
else
    cargo clippy --quiet --workspace --all-targets -- -D warnings
fi

step "wheel (maturin, profile $profile, abi3)"
dist="$CARGO_TARGET_DIR/wheels-ci"
rm -rf "$dist"
"$venv/bin/maturin" build --profile "$profile" --quiet -o "$dist"
"$python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$dist"/urnkit-*.whl

step "oracle"
cargo build --profile "$profile" --quiet -p urnkit-oracle
export URNKIT_ORACLE="$CARGO_TARGET_DIR/$profile/urnkit-oracle"

step "pytest"
# From outside the source tree, so the installed wheel is what is tested.
(cd tests && "$python" -m pytest -q -p no:cacheprovider .)

step "mypy --strict"
"$venv/bin/mypy" --config-file pyproject.toml

step "benchmarks (smoke runs)"
"$python" benches/bench.py --quick
"$python" benches/spark_bench.py --quick

step "done"
