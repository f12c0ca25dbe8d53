#!/usr/bin/env bash
# Starts `campus serve` and returns as soon as GET /health answers 200; the server is then
# killed. Timed by hyperfine (see startup.sh), this is "cold start to first 200".
#   first-200.sh CAMPUS_BINARY DATA_DIR PORT [extra serve options…]
#
# The server is polled every 2 ms by bash itself (/dev/tcp, and `read -t` on a FIFO as the
# sleep), starting no process: a curl and a sleep every 2 ms took a third of the two cores'
# samples during a start (perf, 2026-12-07), so the poller had slowed what it measured.
set -euo pipefail
binary=$1 data=$2 port=$3
shift 3
fifo=$(mktemp -u)
mkfifo "$fifo"
exec 4<>"$fifo"
rm -f "$fifo"
"$binary" serve --port "$port" --data-dir "$data" "$@" >/dev/null 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
while :; do
  if { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
    printf 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
    status=""
    read -r -t 5 -u 3 status || true
    exec 3>&-
    [[ $status == "HTTP/1.1 200"* ]] && exit 0
  fi
  kill -0 $pid 2>/dev/null || { echo "campus exited" >&2; exit 1; }
  read -r -t 0.002 -u 4 _ || true
done
