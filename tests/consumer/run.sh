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
for crate in target/package/*.crate; do
    tar -xzf "$crate" -C "$unpacked"
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
export CARGO_TARGET_DIR="$root/target"
cargo clippy "${locked[@]}" --manifest-path tests/consumer/Cargo.toml "${libraries[@]}" -- -D warnings
cargo run "${locked[@]}" --manifest-path tests/consumer/Cargo.toml "${libraries[@]}"
unset CARGO_TARGET_DIR

# The extensions' crates, against the packaged urn-core and urn-sql. urn-pg's verification
# would need PostgreSQL's headers and cargo-pgrx's configuration: .ci/run's urn-pg step builds
# it from this package with `cargo pgrx package`.
mapfile -t sqlite_ext < <(patches urn-core urn-sql)
cargo package --manifest-path urn-sqlite-ext/Cargo.toml --target-dir urn-sqlite-ext/target \
    "${sqlite_ext[@]}" "${dirty[@]}"
mapfile -t pg < <(patches urn-core)
cargo package --manifest-path urn-pg/Cargo.toml --target-dir urn-pg/target --no-verify \
    "${pg[@]}" "${dirty[@]}"
for ext in urn-sqlite-ext urn-pg; do
    tar -xzf "$ext"/target/package/"$ext"-*.crate -C "$unpacked"
done
# A user's build of the SQLite extension: the unpacked crate, nothing of the repository.
cargo build --release --manifest-path "$(ls -d "$unpacked"/urn-sqlite-ext-[0-9]*/)Cargo.toml" \
    --target-dir target/consumer-sqlite-ext "${sqlite_ext[@]}"
ls target/consumer-sqlite-ext/release/liburn_sqlite_ext.so
