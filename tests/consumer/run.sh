#!/usr/bin/env bash
# Packages the publishable crates as `cargo publish` would (verified: each builds from its
# .crate), unpacks the .crate files and runs tests/consumer against them through
# `patch.crates-io`, as a project outside the workspace would use them after `cargo add`.
# Then packages urn-sqlite-ext and urn-pg against the same unpacked crates, and builds the SQLite
# extension from its own unpacked .crate (urn-pg's is built by .ci/run's urn-pg step).
# Usage: bash tests/consumer/run.sh [--allow-dirty]   (DATABASE_URL as for the tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
dirty=("$@")
# Outside the repository, as a download would be (inside, cargo would take the unpacked
# crates for members of the repository's workspace).
unpacked="${URN_PACKAGED_CRATES:-${TMPDIR:-/tmp}/urn-packaged-crates}"
rm -rf "$unpacked" target/package/*.crate
mkdir -p "$unpacked"

# The workspace's publishable crates (urn-examples is publish = false).
cargo package --workspace --exclude urn-examples "${dirty[@]}"
# `--touch`: the files get the time of unpacking, not the fixed time cargo writes into every
# .crate. With that fixed time, a build directory that had compiled the same path from an
# earlier .crate (URN_CI_TARGETS outlives the clone) took the old build as up to date, and a
# package verified against the previous urn-core (it failed to find urn_core::find).
for crate in target/package/*.crate; do
    tar -xzf "$crate" -C "$unpacked" --touch
done

# `--config` arguments that point crates-io's copies of the named crates at the unpacked ones.
patches() {
    local name
    for name in "$@"; do
        printf '%s\n' --config "patch.crates-io.$name.path=\"$(ls -d "$unpacked/$name"-[0-9]*/)\""
    done
}
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

# The crates of the separate workspaces (the extensions, urn-datafusion), against the packaged
# urn-core and urn-sql. Their path dependencies take precedence over the patches while they are
# packaged, and cargo records that in their Cargo.lock: the lock file is put back afterwards,
# and nothing else of theirs may be uncommitted.
# The directory under URN_CI_TARGETS where .ci/run builds the crate of `dir`.
target_of() {
    case "$1" in
        urn-arrow | urn-datafusion) echo datafusion ;;
        *) echo "package-$1" ;;
    esac
}

package_separate() {
    local dir=$1
    shift
    if [ "${#dirty[@]}" -eq 0 ] &&
        git status --porcelain -- "$dir" | grep -v "^.. $dir/Cargo.lock\$" | grep -q .; then
        echo "tests/consumer/run.sh: uncommitted changes in $dir:" >&2
        git status --short -- "$dir" >&2
        return 1
    fi
    local lock target
    lock="$(mktemp)"
    # URN_CI_TARGETS (set by .ci/run): the target directory outside the clone that .ci/run's
    # step for the crate builds in too (verifying urn-datafusion's package builds DataFusion),
    # and which later runs reuse.
    target="${URN_CI_TARGETS:+$URN_CI_TARGETS/$(target_of "$dir")}"
    target="${target:-$dir/target}"
    cp "$dir/Cargo.lock" "$lock"
    cargo package --manifest-path "$dir/Cargo.toml" --target-dir "$target" --allow-dirty "$@"
    cp "$lock" "$dir/Cargo.lock"
    rm -f "$lock"
    rm -rf "$unpacked/$dir"-[0-9]*/
    tar -xzf "$target"/package/"$dir"-*.crate -C "$unpacked" --touch
}
mapfile -t sqlite_ext < <(patches urn-core urn-sql)
package_separate urn-sqlite-ext "${sqlite_ext[@]}"
mapfile -t core_only < <(patches urn-core)
package_separate urn-arrow "${core_only[@]}"
mapfile -t core_and_arrow < <(patches urn-core urn-arrow)
package_separate urn-datafusion "${core_and_arrow[@]}"
# urn-pg's verification would need PostgreSQL's headers and cargo-pgrx's configuration:
# .ci/run's urn-pg step builds it from this package with `cargo pgrx package`.
package_separate urn-pg --no-verify "${core_only[@]}"
# A user's build of the SQLite extension: the unpacked crate, nothing of the repository.
cargo build --release --manifest-path "$(ls -d "$unpacked"/urn-sqlite-ext-[0-9]*/)Cargo.toml" \
    --target-dir target/consumer-sqlite-ext "${sqlite_ext[@]}"
ls target/consumer-sqlite-ext/release/liburn_sqlite_ext.so
