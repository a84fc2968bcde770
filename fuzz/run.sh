#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 30) with the committed seeds and dictionary; stops
# at the first crash or broken invariant (libFuzzer exits non-zero; the input is saved under
# fuzz/artifacts/<target>/). Prints one summary line per target: runs, coverage, features.
# A libFuzzer process uses one core, so FUZZ_JOBS targets (default: the machine's cores) run
# at a time, each for the whole SECONDS.
# Usage: bash fuzz/run.sh [SECONDS] [TARGET...]      (from anywhere; needs cargo-fuzz)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
jobs=${FUZZ_JOBS:-$(nproc)}
cargo fuzz build -s none

declare -A pid log
# Starts one target in the background, its output in a log of its own.
start() {
    local target=$1 seeds=seeds/urns
    [ "$target" = equivalence ] && seeds=seeds/pairs
    mkdir -p "corpus/$target"
    log[$target]=$(mktemp)
    cargo fuzz run -s none "$target" "corpus/$target" "$seeds" -- \
        -dict=urn.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
        -print_final_stats=1 >"${log[$target]}" 2>&1 &
    pid[$target]=$!
}
# Waits for a target and prints its summary; on a crash prints the report, stops the others
# and fails.
finish() {
    local target=$1 file=${log[$1]}
    if ! wait "${pid[$target]}"; then
        grep -A 4 'panicked at' "$file" || true
        tail -n 20 "$file"
        echo "fuzz target $target FAILED (input saved under fuzz/artifacts/$target/)" >&2
        kill "${pid[@]}" 2>/dev/null || true
        exit 1
    fi
    local runs last cov ft corp
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$file")
    last=$(grep -E '^#[0-9]+' "$file" | tail -n 1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
    echo "fuzz $target: ${seconds}s, $runs runs, cov $cov, ft $ft, corpus $corp, no crash"
    rm -f "$file"
}

running=()
for target in "${targets[@]}"; do
    start "$target"
    running+=("$target")
    if [ "${#running[@]}" -ge "$jobs" ]; then
        finish "${running[0]}"
        running=("${running[@]:1}")
    fi
done
for target in "${running[@]}"; do
    finish "$target"
done
