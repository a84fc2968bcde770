# Sourced by tests/consumer/run.sh and tests/consumer/check-packages.sh (from the repository's
# root): where the packaged crates are unpacked, and the cargo arguments that put them in place
# of crates.io's.

# Outside the repository, as a download would be (inside, cargo would take the unpacked crates
# for members of the repository's workspace).
unpacked="${URN_PACKAGED_CRATES:-${TMPDIR:-/tmp}/urn-packaged-crates}"

# `--config` arguments that point crates-io's copies of the named crates at the unpacked ones.
patches() {
    local name
    for name in "$@"; do
        printf '%s\n' --config "patch.crates-io.$name.path=\"$(ls -d "$unpacked/$name"-[0-9]*/)\""
    done
}
