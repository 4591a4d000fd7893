#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, on a unix socket only (no TCP port).
#
#   scripts/pg_test_cluster.sh start DIR   # initdb + start in DIR (created); prints the TEST_DATABASE_URL
#   scripts/pg_test_cluster.sh stop DIR    # stop the cluster and delete DIR
#
# Run as root (CI), the cluster belongs to the `postgres` user; otherwise to the current user.
# Needs the PostgreSQL server binaries (PG_BIN, default: the newest /usr/lib/postgresql/*/bin).
set -euo pipefail

action="${1:-}"
dir="${2:-}"
if [ -z "$action" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi

if [ -z "${PG_BIN:-}" ]; then
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
fi
if [ -z "${PG_BIN:-}" ] || [ ! -x "$PG_BIN/initdb" ]; then
    echo "PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql-15 or set PG_BIN" >&2
    exit 3
fi

if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root, but there is no postgres user to own the cluster (install postgresql-15)" >&2
    exit 3
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$action" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres: "$dir"
    fi
    chmod 700 "$dir"
    as_owner "$PG_BIN/initdb" --pgdata="$dir/data" --username=postgres --auth=trust \
        --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # Throwaway data: no fsync; a unix socket in DIR only; enough connections for the threaded tests.
    as_owner "$PG_BIN/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 start \
        -o "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql+psycopg://postgres@/postgres?host=$dir"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$PG_BIN/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
