#!/usr/bin/env bash
# Packages the publishable crates as `cargo publish` would, unpacks the .crate files and runs
# tests/consumer against them through `patch.crates-io`, as a project outside the workspace would
# use them after `cargo add`. Then packages urn-sqlite-ext, urn-arrow, urn-datafusion and urn-pg
# against the same unpacked crates, builds the SQLite extension from its own unpacked .crate
# (urn-pg's is built by .ci/run's urn-pg step), and checks every package from its .crate
# (tests/consumer/check-packages.sh: cargo publish's verification). `cargo package` verifies
# nothing itself: its verification compiled each crate's dependencies once more, in that crate's
# own feature set, where check-packages.sh checks them, with a toolchain of the caller's choice.
# Usage: bash tests/consumer/run.sh [--allow-dirty]   (DATABASE_URL as for the tests)
# With URN_DEFER_PACKAGE_CHECK set, check-packages.sh is left to the caller (.ci/run runs it with
# the MSRV, in the background).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dirty=("$@")
# shellcheck source=tests/consumer/unpacked.sh
. tests/consumer/unpacked.sh
rm -rf "$unpacked" target/package/*.crate
mkdir -p "$unpacked"

# The workspace's publishable crates (urn-examples is publish = false).
cargo package --workspace --exclude urn-examples --no-verify "${dirty[@]}"
# `--touch`: the files get the time of unpacking, not the fixed time cargo writes into every
# .crate. With that fixed time, a build directory that had compiled the same path from an
# earlier .crate (.ci/run's target directories outlive the clone) took the old build as up to
# date, and a package was verified against the previous urn-core (it failed to find
# urn_core::find).
for crate in target/package/*.crate; do
    tar -xzf "$crate" -C "$unpacked" --touch
done

mapfile -t libraries < <(patches urn-core urn-serde urn-sql urn-schema)

# The consumer shares the workspace's target directory: its dependencies are mostly built.
locked=(--locked)
[ -n "${CONSUMER_UNLOCKED:-}" ] && locked=()
# Linted as it is built: the consumer compiled by clippy's driver (.ci/clippy-rustc, as .ci/run
# lints; the packaged crates, its dependencies, by rustc), so its dependencies are compiled
# once, not checked and then compiled.
export CARGO_TARGET_DIR="$root/target"
RUSTC_WORKSPACE_WRAPPER="$root/.ci/clippy-rustc" \
    cargo run "${locked[@]}" --manifest-path tests/consumer/Cargo.toml "${libraries[@]}"
unset CARGO_TARGET_DIR

# The crates of the separate workspaces (the extensions, urn-arrow, urn-datafusion), against the
# packaged urn-core, urn-sql and urn-arrow. Their path dependencies take precedence over the
# patches while they are packaged, and cargo records that in their Cargo.lock: the lock file is
# put back afterwards, and nothing else of theirs may be uncommitted. The .crate goes to the
# workspace's target/package beside the others.
package_separate() {
    local dir=$1
    shift
    if [ "${#dirty[@]}" -eq 0 ] &&
        git status --porcelain -- "$dir" | grep -v "^.. $dir/Cargo.lock\$" | grep -q .; then
        echo "tests/consumer/run.sh: uncommitted changes in $dir:" >&2
        git status --short -- "$dir" >&2
        return 1
    fi
    local lock
    lock="$(mktemp)"
    cp "$dir/Cargo.lock" "$lock"
    cargo package --manifest-path "$dir/Cargo.toml" --target-dir "$root/target" --no-verify \
        --allow-dirty "$@"
    cp "$lock" "$dir/Cargo.lock"
    rm -f "$lock"
    rm -rf "$unpacked/$dir"-[0-9]*/
    tar -xzf "$root/target/package/$dir"-[0-9]*.crate -C "$unpacked" --touch
}
mapfile -t sqlite_ext < <(patches urn-core urn-sql)
package_separate urn-sqlite-ext "${sqlite_ext[@]}"
mapfile -t core_only < <(patches urn-core)
package_separate urn-arrow "${core_only[@]}"
mapfile -t core_and_arrow < <(patches urn-core urn-arrow)
package_separate urn-datafusion "${core_and_arrow[@]}"
package_separate urn-pg "${core_only[@]}"
# A user's build of the SQLite extension: the unpacked crate, nothing of the repository.
cargo build --release --manifest-path "$(ls -d "$unpacked"/urn-sqlite-ext-[0-9]*/)Cargo.toml" \
    --target-dir target/consumer-sqlite-ext "${sqlite_ext[@]}"
ls target/consumer-sqlite-ext/release/liburn_sqlite_ext.so

[ -n "${URN_DEFER_PACKAGE_CHECK:-}" ] || bash tests/consumer/check-packages.sh
