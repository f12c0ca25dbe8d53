#!/usr/bin/env bash
# Live tracking under load (issue 41): PARTICIPANTS participants each sending a batch of positions
# every 5 s to one instance (embedded SQLite, or PostgreSQL with CAMPUS_DATABASE_URL), one live
# page following; the batch POST's p99 and the live page's lag (Benchmarks/tracking.py).
#   Benchmarks/tracking.sh [CAMPUS_BINARY] [PARTICIPANTS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
participants=${2:-500}
seconds=${3:-60}
ulimit -n 8192
work=$(mktemp -d)
port=18142
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
"$binary" serve --demo --data-dir "$work/data" --port $port --log-level warning --max-connections-per-address 5000 >"$work/log" 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.05; done
id=$(python3 Benchmarks/make-competition.py "$work/data/campus.sqlite" "$participants" organizer@campus.test --tracking "$work/tokens")
echo "competition $id: $participants participants tracking"
python3 Benchmarks/tracking.py "http://127.0.0.1:$port" "$id" "$work/tokens" "$seconds"
