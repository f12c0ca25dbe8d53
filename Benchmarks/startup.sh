#!/usr/bin/env bash
# Measures the foundation's targets on a release build: cold start to first 200 (hyperfine) and
# idle resident memory (ps, after the server has served a few requests and rested 10 s).
#   Benchmarks/startup.sh [CAMPUS_BINARY]      (default .build/release/campus)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
command -v hyperfine >/dev/null || { echo "install hyperfine (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=18111

echo "== Cold start to first 200, new empty data directory each run (creates the database, migrates)"
hyperfine -N --warmup 2 --runs 30 --prepare "rm -rf $work/fresh" \
  "Benchmarks/first-200.sh $binary $work/fresh $port" --export-markdown "$work/fresh.md" >/dev/null
cat "$work/fresh.md"

echo "== Cold start to first 200, existing data directory with the demo loaded"
"$binary" demo --data-dir "$work/demo" >/dev/null 2>&1
hyperfine -N --warmup 2 --runs 30 \
  "Benchmarks/first-200.sh $binary $work/demo $port --demo" --export-markdown "$work/demo.md" >/dev/null
cat "$work/demo.md"

echo "== Idle memory"
"$binary" serve --port $port --data-dir "$work/demo" --demo >/dev/null 2>&1 &
pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.01; done
for path in / /login /api /api/v1/institution /ready /metrics; do curl -s -o /dev/null "http://127.0.0.1:$port$path"; done
sleep 10
rss_kb=$(ps -o rss= -p $pid)
echo "idle RSS after serving pages: $((rss_kb / 1024)) MiB ($rss_kb KiB)"
grep -E 'VmHWM|VmRSS|Threads' /proc/$pid/status
kill $pid
wait $pid 2>/dev/null || true
