#!/usr/bin/env bash
# Instructions per URN for each library and operation, counted by callgrind.
# Usage: bash urn-core/benches/instructions.sh   (from the workspace root; needs valgrind)
set -euo pipefail
cargo build -q --release -p urn-core --example instructions
bin=target/release/examples/instructions
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
reps=20
for corpus in mixed long; do
    n=$([ "$corpus" = long ] && echo 100 || echo 1000)
    base=$(count urn-core none "$corpus" "$reps")
    for op in parse owned key rfc8141_key; do
        for lib in urn-core urn-rs urn; do
            ir=$(count "$lib" "$op" "$corpus" "$reps")
            echo "$corpus $op $lib $(( (ir - base) / (reps * n) )) instructions/URN"
        done
    done
    # The key under the V1 rules (`key` is the current rules', V2), urn-core alone.
    ir=$(count urn-core key_v1 "$corpus" "$reps")
    echo "$corpus key_v1 urn-core $(( (ir - base) / (reps * n) )) instructions/URN"
    # `==` of each valid URN with its key's text (parsing the pairs subtracted).
    for lib in urn-core urn-rs urn; do
        setup=$(count "$lib" eq_setup "$corpus" "$reps")
        ir=$(count "$lib" eq "$corpus" "$reps")
        echo "$corpus eq $lib $(( (ir - setup) / (reps * n) )) instructions/URN"
    done
done
