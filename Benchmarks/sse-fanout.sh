#!/usr/bin/env bash
# A result change reaching 1,000 live-ranking subscribers (Server-Sent Events), on a competition
# of PARTICIPANTS participants (each event carries the first 100 places). All subscribers connect
# from 127.0.0.1, so the per-address connection limit is raised for it.
#   Benchmarks/sse-fanout.sh [CAMPUS_BINARY] [SUBSCRIBERS] [PARTICIPANTS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
subscribers=${2:-1000}
participants=${3:-200}
ulimit -n 8192
work=$(mktemp -d)
port=18141
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
"$binary" serve --demo --data-dir "$work/data" --port $port --log-level warning --max-connections-per-address 5000 >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.05; done
id=$(python3 Benchmarks/make-competition.py "$work/data/campus.sqlite" "$participants" organizer@campus.test)
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"organizer@campus.test","password":"campus-organizer"}' \
  "http://127.0.0.1:$port/api/v1/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
user=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/competitions/$id/ranking?limit=1" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["participant"]["id"])')
echo "competition $id: $participants participants"
python3 Benchmarks/sse-fanout.py "http://127.0.0.1:$port" "$token" "$id" "$user" "$subscribers" 5
