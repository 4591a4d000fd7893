#!/usr/bin/env bash
# Restart time of `bash serve`: from starting the script to the first 200 on /, several times.
#
#   bash benchmarks/serve_restart.sh [SCRIPT] [RUNS]    # default: serve, 5 runs
#
# Run it once beforehand so that .venv exists and is installed: the runs measure restarts. To
# time another version of the script, put it beside `serve` (it cds to its own folder), e.g.
# `git show REV:serve > serve.before && bash benchmarks/serve_restart.sh serve.before; rm serve.before`.
# Each server gets a free port, is stopped with SIGTERM (its process group) and waited for.
set -euo pipefail
cd "$(dirname "$0")/.."
script="${1:-serve}"
runs="${2:-5}"
log="$(mktemp /tmp/serve-restart.XXXXXX)"
trap 'rm -f "$log"' EXIT
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
echo "$script, port $port, $(nproc) cores, load average $(cut -d ' ' -f 1 /proc/loadavg) before"
for run in $(seq "$runs"); do
    start="$(date +%s.%N)"
    PORT="$port" setsid bash "$script" >"$log" 2>&1 &
    pid=$!
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" || true)" = 200 ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$log" >&2
            exit 1
        fi
        sleep 0.02
    done
    end="$(date +%s.%N)"
    kill -TERM -- "-$pid"
    wait "$pid" || true
    python3 -c "print(f'run $run: first 200 after {$end - $start:.2f} s')"
done
echo "load average $(cut -d ' ' -f 1 /proc/loadavg) after"
