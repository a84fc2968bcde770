#!/usr/bin/env bash
# Keyed loads against `text UNIQUE` on every database, for two commits in one run (#54):
#
#   bash urn-sql/benches/keyed.sh [REV ...]
#
# REV is a commit, or `.` for this working tree; the default is `f0b94f0 .` (the last round
# before V2 against the working tree; any REV given replaces both). For each, this builds what
# a user of that commit would run — the `urn` CLI, which renders the install and keyed-table
# statements; the SQLite loadable extension (urn-sqlite-ext); the urn_pg extension, installed
# into this machine's PostgreSQL under the name `urn_pg_<commit>` so that the commits' builds
# sit side by side — all release builds, cached per commit under ~/.cache/urn-bench (the
# working tree's are rebuilt). Then `cargo bench --bench keyed` loads the same URNs into each
# commit's keyed tables and into `text UNIQUE`, in interleaved rounds, and prints every ratio
# (see keyed.rs for what runs where).
#
# Needs: DATABASE_URL, a PostgreSQL server on this machine (Debian's layout,
# /usr/lib/postgresql/<major>/bin/pg_config) and a superuser role (it creates databases and the
# extension; it writes into the server's extension and library directories, with sudo when not
# root); cargo-pgrx 0.18.1 (`cargo pgrx init`) and the server's headers for urn_pg, whose rows
# are skipped without them; MARIADB_URL, a MariaDB on this machine whose user may LOAD DATA
# INFILE from the temporary directory (FILE privilege, secure_file_priv), and the `mariadb`
# client; psql. A database whose URL is missing is skipped. URN_BENCH_ROWS, URN_BENCH_RUNS and
# URN_BENCH_DATABASES pass through to keyed.rs.
set -euo pipefail
# A failed build step inside `$(build …)` must stop the script, not leave a half build cached.
shopt -s inherit_errexit
repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/urn-bench"
mkdir -p "$cache"
revs=("$@")
[ "${#revs[@]}" -gt 0 ] || revs=(f0b94f0 .)
pg_config="" major=""
if [ -n "${DATABASE_URL:-}" ]; then
    major="$(psql -X -At "$DATABASE_URL" -c 'SHOW server_version_num')"
    pg_config="/usr/lib/postgresql/$((major / 10000))/bin/pg_config"
fi
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Builds one commit's artefacts into $cache/build-<label> and prints that directory.
build() {
    local rev=$1 src label out
    if [ "$rev" = . ]; then
        src="$repo"
        label="$(git -C "$repo" rev-parse --short=7 HEAD)"
        [ -z "$(git -C "$repo" status --porcelain)" ] || label="${label}_wt"
    else
        label="$(git -C "$repo" rev-parse --short=7 "$rev^{commit}")"
        src="$(bash "$repo/urn-core/benches/rev-tree.sh" "$repo" "$label")"
    fi
    out="$cache/build-$label"
    # A commit's build is reused while it is whole: its urn_pg still installed when it is needed.
    if [ "$rev" != . ] && [ -f "$out/done" ] && { [ -z "$major" ] || { [ -f "$out/urn_pg" ] &&
        [ -f "$("$pg_config" --sharedir)/extension/$(cat "$out/urn_pg").control" ]; }; }; then
        echo "$out"
        return
    fi
    rm -rf "$out"
    mkdir -p "$out"
    echo "$label" > "$out/label"
    echo "keyed.sh: building $rev ($label) into $out" >&2
    # One target directory per crate set, shared by the commits: only what differs rebuilds.
    (cd "$src" && CARGO_TARGET_DIR="$cache/target" cargo build -q --release -p urn-cli) >&2
    local urn="$cache/target/release/urn"
    "$urn" sql --dialect postgres > "$out/postgres-install.sql"
    "$urn" sql --dialect postgres --table t --urn-schema portable > "$out/postgres-table-portable.sql"
    "$urn" sql --dialect postgres --table t --urn-schema public > "$out/postgres-table-urn_pg.sql"
    "$urn" sql --dialect mariadb --table t > "$out/mariadb-table.sql"
    "$urn" sql --dialect sqlite --table t > "$out/sqlite-table.sql"
    (cd "$src/urn-sqlite-ext" && CARGO_TARGET_DIR="$cache/target-sqlite-ext" \
        cargo build -q --release) >&2
    cp "$cache/target-sqlite-ext/release/liburn_sqlite_ext.so" "$out/"
    if [ -n "$major" ] && [ -x "$pg_config" ] && cargo pgrx --version >/dev/null 2>&1; then
        # `cargo pgrx package` (release, as users install it), renamed to urn_pg_<label>: its
        # control file, library and script, whose `ALTER EXTENSION urn_pg` (adoption) follows.
        rm -rf "$cache/target-pg/release/urn_pg-pg$((major / 10000))"
        (cd "$src/urn-pg" && CARGO_TARGET_DIR="$cache/target-pg" \
            cargo pgrx package --pg-config "$pg_config") >&2
        local tree="$cache/target-pg/release/urn_pg-pg$((major / 10000))"
        local name="urn_pg_$label" libdir sharedir script version
        libdir="$("$pg_config" --pkglibdir)"
        sharedir="$("$pg_config" --sharedir)/extension"
        script="$(cd "$tree$sharedir" && ls urn_pg--*.sql)"
        version="${script#urn_pg--}"
        version="${version%.sql}"
        # `install` replaces the file (a new inode): a backend that loaded the old one keeps it.
        as_root install -m 755 "$tree$libdir/urn_pg.so" "$libdir/$name.so"
        sed -e "s|\\\$libdir/urn_pg'|\$libdir/$name'|" -e "s|@CARGO_VERSION@|$version|" \
            "$tree$sharedir/urn_pg.control" | as_root tee "$sharedir/$name.control" >/dev/null
        sed -e "s/ALTER EXTENSION urn_pg /ALTER EXTENSION $name /g" "$tree$sharedir/$script" |
            as_root tee "$sharedir/$name--$version.sql" >/dev/null
        echo "$name" > "$out/urn_pg"
    else
        echo "keyed.sh: no DATABASE_URL, cargo-pgrx or pg_config: no urn_pg for $label" >&2
    fi
    touch "$out/done"
    echo "$out"
}

builds=()
for rev in "${revs[@]}"; do
    builds+=("$(build "$rev")")
done
cd "$repo"
URN_BENCH_BUILDS="$(IFS=,; echo "${builds[*]}")" \
    cargo bench -q -p urn-sql --all-features --bench keyed
