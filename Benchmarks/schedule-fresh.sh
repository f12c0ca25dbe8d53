#!/usr/bin/env bash
# A group's week made afresh, as students meet it after an IIS sync drops the answer cache:
# 300 groups (Benchmarks/make-iis-corpus.py from the real fixtures), a random group, week and
# subgroup per request — more different answers than the cache keeps (it starts over at 5,000),
# so nearly every answer is read, expanded and encoded — with wrk (one thread, 64 connections),
# beside nginx serving one such answer as a static file, in one run. The last line says how many
# answers the cache could have held (Campus's hits are at most that share).
#   Benchmarks/schedule-fresh.sh [CAMPUS_BINARY] [FIXTURES_DIR] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
fixtures=${2:-../shared/fixtures/iis}
seconds=${3:-15}
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "needs wrk and nginx (apt-get install wrk nginx-light)" >&2; exit 1; }
work=$(mktemp -d)
campus_port=18123
nginx_port=18124
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

python3 Benchmarks/make-iis-corpus.py "$fixtures" "$work/corpus" 300 >/dev/null
"$binary" import iis --data-dir "$work/data" "$work"/corpus/*.json >/dev/null 2>&1
"$binary" serve --data-dir "$work/data" --port $campus_port --log-level warning >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$campus_port/health"; do sleep 0.05; done

path="/api/v1/groups/900000/schedule"
mkdir -p "$work/www$(dirname $path)"
curl -sf "http://127.0.0.1:$campus_port$path?from=2023-09-25&to=2023-10-01" -o "$work/www$path"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  keepalive_requests 1000000;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  server { listen 127.0.0.1:$nginx_port; root $work/www; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
until curl -sf -o /dev/null "http://127.0.0.1:$nginx_port$path"; do sleep 0.05; done
echo "one answer: $(wc -c < "$work/www$path") bytes"

# Weeks of the autumn and spring terms of the fixtures (Mondays from 2023-09-04, 40 weeks).
cat > "$work/fresh.lua" <<'LUA'
math.randomseed(os.time())
local monday = os.time({year = 2023, month = 9, day = 4, hour = 12})
request = function()
  local group = 900000 + math.random(0, 299)
  local first = monday + 7 * 86400 * math.random(0, 39)
  local from = os.date("!%Y-%m-%d", first)
  local to = os.date("!%Y-%m-%d", first + 6 * 86400)
  local path = "/api/v1/groups/" .. group .. "/schedule?from=" .. from .. "&to=" .. to ..
    "&subgroup=" .. math.random(0, 2)
  return wrk.format("GET", path)
end
LUA
wrk -t${WRK_THREADS:-1} -c64 -d2s -s "$work/fresh.lua" "http://127.0.0.1:$campus_port" >/dev/null  # warm-up
echo "== campus, a random group's random week (300 groups x 40 weeks x 3 subgroups = 36,000 answers)"
wrk -t${WRK_THREADS:-1} -c64 -d"${seconds}s" --latency -s "$work/fresh.lua" "http://127.0.0.1:$campus_port" | grep -E "Requests/sec|  50%|  99%|Non-2xx"
echo "== nginx, one answer as a file"
wrk -t${WRK_THREADS:-1} -c64 -d"${seconds}s" --latency "http://127.0.0.1:$nginx_port$path" | grep -E "Requests/sec|  50%|  99%"
memory() {
  echo "campus resident memory $1: $(awk '/VmRSS/ {print $2, $3}' /proc/$campus_pid/status)" \
    "(anonymous $(awk '/RssAnon/ {print $2, $3}' /proc/$campus_pid/status)," \
    "mapped files $(awk '/RssFile/ {print $2, $3}' /proc/$campus_pid/status))"
}
memory "after the load"
sleep 10
memory "10 s later"
