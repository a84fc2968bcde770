#!/usr/bin/env bash
# Instructions per URN for each library and operation, counted by callgrind.
# Usage: bash urn-core/benches/instructions.sh [REV]   (from the workspace root; needs valgrind)
# With REV (a commit), urn-core's rows also count that commit's build of the same example, in
# the same run: "before" and "after" side by side (the commit's tree exported by rev-tree.sh).
set -euo pipefail
cargo build -q --release -p urn-core --example instructions
bin=target/release/examples/instructions
before=""
if [ $# -gt 0 ]; then
    cache="${XDG_CACHE_HOME:-$HOME/.cache}/urn-bench"
    label="$(git rev-parse --short=7 "$1^{commit}")"
    src="$(bash "$(dirname "$0")/rev-tree.sh" . "$label")"
    (cd "$src" && CARGO_TARGET_DIR="$cache/target" cargo build -q --release -p urn-core \
        --example instructions)
    before="$cache/target/release/examples/instructions"
fi
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
reps=20
# Prints one row: instructions per URN of `lib op` over the corpus less the run of `minus`
# (`none`: urn-core reading the corpus and nothing else; `eq_setup`: parsing the pairs), and
# for urn-core the same counted on REV's build.
row() {
    local op=$1 lib=$2 minus=$3 line
    line="$corpus $op $lib $(per_urn "$bin" "$lib" "$op" "$minus") instructions/URN"
    if [ -n "$before" ] && [ "$lib" = urn-core ]; then
        line="$line ($label: $(per_urn "$before" "$lib" "$op" "$minus"))"
    fi
    echo "$line"
}
per_urn() {
    local bin=$1 lib=$2 op=$3 minus=$4 ir base
    ir=$(count "$bin" "$lib" "$op" "$corpus" "$reps")
    if [ "$minus" = none ]; then
        base=$(count "$bin" urn-core none "$corpus" "$reps")
    else
        base=$(count "$bin" "$lib" "$minus" "$corpus" "$reps")
    fi
    echo $(( (ir - base) / (reps * n) ))
}
for corpus in mixed long; do
    n=$([ "$corpus" = long ] && echo 100 || echo 1000)
    for op in parse owned key rfc8141_key; do
        for lib in urn-core urn-rs urn; do
            row "$op" "$lib" none
        done
    done
    # The key under the V1 rules (`key` is the current rules', V2), urn-core alone.
    row key_v1 urn-core none
    # `==` of each valid URN with its key's text (parsing the pairs subtracted).
    for lib in urn-core urn-rs urn; do
        row eq "$lib" eq_setup
    done
done
