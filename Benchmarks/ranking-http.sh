#!/usr/bin/env bash
# The ranking of a competition with 100,000 participants over HTTP: wrk with 64 connections on
# the first page, on a page deep in the ranking, and on the organizer's CSV export (every row).
# Each request is authenticated (a bearer token) and checks who may see the competition.
#   Benchmarks/ranking-http.sh [CAMPUS_BINARY] [PARTICIPANTS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
participants=${2:-100000}
seconds=${3:-15}
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d)
port=18131
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

"$binary" serve --demo --data-dir "$work/data" --port $port --log-level warning >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.05; done
id=$(python3 Benchmarks/make-competition.py "$work/data/campus.sqlite" "$participants" organizer@campus.test)
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"organizer@campus.test","password":"campus-organizer"}' \
  "http://127.0.0.1:$port/api/v1/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
auth="Authorization: Bearer $token"
start=$(date +%s.%N)
curl -sf -H "$auth" -o /dev/null "http://127.0.0.1:$port/api/v1/competitions/$id/ranking?limit=50"
echo "competition $id with $participants participants; first ranking: $(python3 -c "print(round(($(date +%s.%N) - $start) * 1000))") ms"

for page in "ranking, first page|ranking?limit=50" "ranking, page 1000 of 50|ranking?limit=50&offset=49950" \
  "records of the competition and its series|records"; do
  name=${page%%|*}
  url="http://127.0.0.1:$port/api/v1/competitions/$id/${page#*|}"
  for connections in ${CONNECTIONS:-8 64}; do
    wrk -t${WRK_THREADS:-1} -c$connections -d2s -H "$auth" "$url" >/dev/null
    echo "== $name, $connections connections"
    wrk -t${WRK_THREADS:-1} -c$connections -d"${seconds}s" --latency -H "$auth" "$url" | grep -E "Requests/sec|  50%|  99%|Non-2xx"
  done
done

echo "== one result changes, then the first page (ranking computed again)"
user=$(curl -sf -H "$auth" "http://127.0.0.1:$port/api/v1/competitions/$id/ranking?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["participant"]["id"])')
for value in 1100 1101 1102 1103 1104; do
  start=$(date +%s.%N)
  curl -sf -X PUT -H "$auth" -H 'Content-Type: application/json' -d "{\"value\": $value}" -o /dev/null \
    "http://127.0.0.1:$port/api/v1/competitions/$id/participants/$user/result"
  echo "result $value entered and ranked: $(python3 -c "print(round(($(date +%s.%N) - $start) * 1000))") ms"
done
