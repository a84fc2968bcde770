#!/usr/bin/env bash
# Where a keyed load's time goes, against `text UNIQUE` (#54). Run after keyed.sh, on the
# databases it leaves: `urn_keyed_c_<n>` (PostgreSQL, C.UTF-8) and `urn_keyed_<n>` (MariaDB),
# <n> the position of a build on keyed.sh's command line from 0 (default: the last one).
#
#   bash urn-sql/benches/keyed-profile.sh [N]
#
# The corpus keyed.sh loaded (read back from the table it left) is inserted by
# `INSERT … SELECT` into `text UNIQUE` and into that build's keyed tables (urn_pg, the portable
# SQL; MariaDB's), each under:
#   - PostgreSQL's EXPLAIN (ANALYZE, BUFFERS, WAL) / MariaDB's profiler (SHOW PROFILE);
#   - perf, when it can record here: the server's hottest functions during that insert.
# Needs DATABASE_URL (with a database path: the other databases are reached by replacing it)
# and MARIADB_URL as keyed.sh does; perf is optional (all CPUs recorded; the server's
# processes reported).
set -euo pipefail
pg="${DATABASE_URL:?DATABASE_URL}"
maria="${MARIADB_URL:?MARIADB_URL}"
n="${1:-$(psql -X -At "$pg" -c "SELECT max(substr(datname, 13)::int) FROM pg_database
                                WHERE datname ~ '^urn_keyed_c_[0-9]+$'")}"
db="${pg%/*}/urn_keyed_c_$n"
# keyed.rs writes each database's build directory into its comment.
build="$(psql -X -At "$pg" -c "SELECT shobj_description(oid, 'pg_database') FROM pg_database
                               WHERE datname = 'urn_keyed_c_$n'")"
out="$(mktemp -d)"
perf_ok=false
if command -v perf >/dev/null && perf record -q -o "$out/probe" -a -- true >/dev/null 2>&1; then
    perf_ok=true
else
    echo "(perf cannot record here: no profiles)"
fi
# Runs a command under perf (every CPU; the server's processes reported) when it can.
profiled() {
    local name=$1 comm=$2
    shift 2
    if $perf_ok; then
        perf record -q -F 999 -a -o "$out/$name.data" -- "$@"
        echo "-- perf: the $comm processes' samples by library, then their hottest symbols"
        perf report -q -i "$out/$name.data" --comm "$comm" --percentage relative --sort dso \
            --percent-limit 1 2>/dev/null | sed 's/ *$//'
        perf report -q -i "$out/$name.data" --comm "$comm" --percentage relative \
            --sort dso,symbol 2>/dev/null | sed 's/ *$//' | awk 'NR <= 15'
    else
        "$@"
    fi
}

echo "== PostgreSQL, urn_keyed_c_$n ($build)"
psql -X -q -v ON_ERROR_STOP=1 "$db" -c 'DROP TABLE IF EXISTS src' \
    -c 'CREATE TABLE src AS SELECT urn::text AS x FROM public.t ORDER BY id' -c 'VACUUM ANALYZE src'
for name in "text UNIQUE" urn_pg portable; do
    if [ "$name" = urn_pg ] && [ ! -f "$build/urn_pg" ]; then
        echo "== PostgreSQL: urn_pg not built for this build (keyed.sh needs cargo-pgrx): skipped"
        continue
    fi
    case "$name" in
        "text UNIQUE") ddl="CREATE TABLE public.t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                                               urn text NOT NULL UNIQUE)" ;;
        *) ddl="$(cat "$build/postgres-table-$name.sql")" ;;
    esac
    echo "== PostgreSQL: $name"
    psql -X -q -v ON_ERROR_STOP=1 "$db" -c 'DROP TABLE IF EXISTS public.t' -c "$ddl" -c CHECKPOINT
    profiled "pg-${name// /_}" postgres psql -X -q -v ON_ERROR_STOP=1 "$db" -c \
        'EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) INSERT INTO public.t (urn) SELECT x FROM src'
done

# mysql://[user[:password]@]host[:port][/…], as keyed.rs reads it (root and 3306 by default).
rest="${maria#*://}"
user_info=root
if [[ "$rest" == *@* ]]; then
    user_info="${rest%%@*}"
    rest="${rest#*@}"
fi
host_port="${rest%%/*}"
host="${host_port%%:*}"
port=3306
[[ "$host_port" == *:* ]] && port="${host_port##*:}"
mdb=(mariadb -h "$host" -P "$port" -u "${user_info%%:*}" "urn_keyed_$n")
[[ "$user_info" == *:* ]] && export MYSQL_PWD="${user_info#*:}"
# MariaDB's database of the same position may hold another build (a run on MariaDB alone):
# its own comment names it.
build="$("${mdb[@]}" -N -e "SELECT SCHEMA_COMMENT FROM information_schema.SCHEMATA
                             WHERE SCHEMA_NAME = 'urn_keyed_$n'")"
echo "== MariaDB, urn_keyed_$n ($build)"
"${mdb[@]}" -e 'DROP TABLE IF EXISTS src; CREATE TABLE src AS SELECT urn AS x FROM t ORDER BY id'
for name in "TEXT UNIQUE" keyed; do
    echo "== MariaDB: $name"
    "${mdb[@]}" -e 'DROP TABLE IF EXISTS t'
    case "$name" in
        "TEXT UNIQUE") "${mdb[@]}" -e "CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
            urn LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL, UNIQUE (urn))" ;;
        keyed) "${mdb[@]}" < "$build/mariadb-table.sql" ;;
    esac
    profiled "mariadb-${name// /_}" mariadbd "${mdb[@]}" -e "SET profiling = 1;
        INSERT INTO t (urn) SELECT x FROM src; SHOW PROFILE FOR QUERY 1"
done
rm -rf "$out"
