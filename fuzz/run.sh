#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 30) with the committed seeds and dictionary; stops
# at the first crash or broken invariant (libFuzzer exits non-zero; the input is saved under
# fuzz/artifacts/<target>/). Prints one summary line per target: runs, coverage, features.
# Usage: bash fuzz/run.sh [SECONDS] [TARGET...]      (from anywhere; needs cargo-fuzz)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
cargo fuzz build -s none
for target in "${targets[@]}"; do
    seeds=seeds/urns
    [ "$target" = equivalence ] && seeds=seeds/pairs
    mkdir -p "corpus/$target"
    log=$(mktemp)
    if ! cargo fuzz run -s none "$target" "corpus/$target" "$seeds" -- \
        -dict=urn.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1; then
        grep -A 4 'panicked at' "$log" || true
        tail -n 20 "$log"
        echo "fuzz target $target FAILED (input saved under fuzz/artifacts/$target/)" >&2
        exit 1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
    echo "fuzz $target: ${seconds}s, $runs runs, cov $cov, ft $ft, corpus $corp, no crash"
    rm -f "$log"
done
