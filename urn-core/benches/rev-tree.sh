#!/usr/bin/env bash
# Prints the directory holding commit REV's tree, exported from REPO's git once and kept under
# ~/.cache/urn-bench/src-<commit>: what the scripts that measure a commit beside the working
# tree build from (urn-core/benches/instructions.sh, urn-sql/benches/keyed.sh).
#
#   bash urn-core/benches/rev-tree.sh REPO REV
set -euo pipefail
repo=$1 rev=$2
cache="${XDG_CACHE_HOME:-$HOME/.cache}/urn-bench"
label="$(git -C "$repo" rev-parse --short=7 "$rev^{commit}")"
src="$cache/src-$label"
if [ ! -d "$src" ]; then
    # Exported beside, then moved: an interrupted export never passes for a whole tree.
    rm -rf "$src.tmp"
    mkdir -p "$src.tmp"
    git -C "$repo" archive "$label" | tar -x -C "$src.tmp"
    mv "$src.tmp" "$src"
fi
echo "$src"
