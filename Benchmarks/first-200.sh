#!/usr/bin/env bash
# Starts `campus serve` and returns as soon as GET /health answers 200; the server is then
# killed. Timed by hyperfine (see startup.sh), this is "cold start to first 200".
#   first-200.sh CAMPUS_BINARY DATA_DIR PORT [extra serve options…]
set -euo pipefail
binary=$1 data=$2 port=$3
shift 3
"$binary" serve --port "$port" --data-dir "$data" "$@" >/dev/null 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health")" = 200 ]; do
  kill -0 $pid 2>/dev/null || { echo "campus exited" >&2; exit 1; }
  sleep 0.002
done
