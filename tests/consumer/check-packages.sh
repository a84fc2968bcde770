#!/usr/bin/env bash
# Compiles every crate tests/consumer/run.sh packaged from its unpacked .crate, as `cargo
# publish`'s verification would: its default features, the Cargo.lock packaged with it, the
# other packaged crates in place of crates.io's. With `cargo check` (everything but code
# generation), so that the toolchain given can be the MSRV: .ci/run runs this with 1.94, in the
# background, as the MSRV check of what users download. urn-pg aside: its package is built by
# .ci/run's urn-pg step (`cargo pgrx package`, which needs PostgreSQL's headers).
# Usage: bash tests/consumer/check-packages.sh [+TOOLCHAIN] [cargo check's options...]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=tests/consumer/unpacked.sh
. tests/consumer/unpacked.sh
toolchain=()
if [[ "${1:-}" == +* ]]; then
    toolchain=("$1")
    shift
fi
options=("$@")
[ "${#options[@]}" -gt 0 ] || options=(--target-dir target/check-packages)

# Adds to `own` the packaged crates that the unpacked crate in directory $1 depends on, directly
# or through another packaged crate (cargo package writes each dependency as a
# `[dependencies.<name>]` or `[dev-dependencies.<name>]` table).
packaged_dependencies() {
    local name found
    for name in $(sed -n 's/^\[\(dev-\)\{0,1\}dependencies\.\([a-z0-9_-]*\)\]$/\2/p' \
        "$1/Cargo.toml"); do
        found="$(compgen -G "$unpacked/$name-[0-9]*/" || true)"
        if [ -n "$found" ] && [[ " ${own[*]} " != *" $name "* ]]; then
            own+=("$name")
            packaged_dependencies "$found"
        fi
    done
}

checked=0
shopt -s nullglob
for dir in "$unpacked"/*-[0-9]*/; do
    case "$(basename "$dir")" in urn-pg-[0-9]*) continue ;; esac
    own=()
    packaged_dependencies "$dir"
    mapfile -t patched < <(patches "${own[@]}")
    cargo "${toolchain[@]}" check --manifest-path "$dir/Cargo.toml" "${patched[@]}" "${options[@]}"
    checked=$((checked + 1))
done
if [ "$checked" -eq 0 ]; then
    echo "tests/consumer/check-packages.sh: no packaged crate in $unpacked (run tests/consumer/run.sh)" >&2
    exit 1
fi
