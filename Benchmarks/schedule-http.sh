#!/usr/bin/env bash
# A group's week schedule over HTTP: wrk with 64 connections against Campus, then against nginx
# serving the identical response bytes as a static file, in one run. wrk runs one thread by
# default (WRK_THREADS), which leaves the second of two cores to the server under test.
# Campus keeps answers in memory until the timetable changes; the last run adds a made-up query
# parameter to every request, which the cache's key leaves out (the same cached answer).
# Benchmarks/schedule-fresh.sh measures answers made afresh.
#   Benchmarks/schedule-http.sh [CAMPUS_BINARY] [FIXTURES_DIR] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
fixtures=${2:-../shared/fixtures/iis}
seconds=${3:-15}
command -v wrk >/dev/null && command -v nginx >/dev/null || { echo "needs wrk and nginx (apt-get install wrk nginx-light)" >&2; exit 1; }
work=$(mktemp -d)
campus_port=18121
nginx_port=18122
path="/api/v1/groups/151004/schedule"
query="from=2023-09-25&to=2023-10-01"
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

"$binary" import iis --data-dir "$work/data" "$fixtures"/*.json >/dev/null 2>&1
"$binary" serve --data-dir "$work/data" --port $campus_port --log-level warning >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$campus_port/health"; do sleep 0.05; done

# nginx serves the same bytes at the same path (the query is ignored).
mkdir -p "$work/www$(dirname $path)"
curl -sf "http://127.0.0.1:$campus_port$path?$query" -o "$work/www$path"
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
cmp <(curl -s "http://127.0.0.1:$campus_port$path?$query") <(curl -s "http://127.0.0.1:$nginx_port$path?$query")
echo "response: $(wc -c < "$work/www$path") bytes, identical from both"

for target in "campus $campus_port" "nginx $nginx_port"; do
  set -- $target
  wrk -t${WRK_THREADS:-1} -c64 -d2s "http://127.0.0.1:$2$path?$query" >/dev/null  # warm-up
  echo "== $1"
  wrk -t${WRK_THREADS:-1} -c64 -d"${seconds}s" --latency "http://127.0.0.1:$2$path?$query" | grep -E "Requests/sec|Transfer/sec|  50%|  99%|Latency "
done

cat > "$work/made-up.lua" <<'LUA'
math.randomseed(os.time())
request = function()
  return wrk.format("GET", wrk.path .. "&made-up=" .. math.random(1, 2000000000))
end
LUA
echo "== campus, a made-up parameter on every request (left out of the cache's key)"
wrk -t${WRK_THREADS:-1} -c64 -d"${seconds}s" --latency -s "$work/made-up.lua" "http://127.0.0.1:$campus_port$path?$query" | grep -E "Requests/sec|Transfer/sec|  50%|  99%|Latency |Non-2xx"
