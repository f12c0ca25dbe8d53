#!/usr/bin/env bash
# Ranged streaming of a 10 MB audio file: wrk against Campus (GET /api/v1/media/{id}/stream with
# a bearer token, so every request also checks the session and finds the item) and against nginx
# serving the same file from disk, side by side: 64 KiB ranges at random places with 64
# connections (players seeking and probing), 1 MiB ranges at random places (a Lua script), the
# whole file, and a suffix range, each with Campus's CPU time per request. ONLY=small runs the first alone.
#   [ONLY=small] [CONNECTIONS=8] Benchmarks/streaming.sh [CAMPUS_BINARY] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
seconds=${2:-10}
for tool in wrk nginx ffmpeg; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install wrk nginx-light ffmpeg)" >&2; exit 1; }
done
work=$(mktemp -d)
campus_port=18141
nginx_port=18142
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/library/Music/Bench" "$work/www"
# 262 seconds at 320 kbit/s: 10.5 MB.
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=262" -c:a libmp3lame -b:a 320k \
  -metadata title="Ten megabytes" -metadata album="Bench" "$work/library/Music/Bench/ten.mp3"
cp "$work/library/Music/Bench/ten.mp3" "$work/www/ten.mp3"
# nginx's worker runs as nobody: let it read the file (mktemp makes the folder private).
chmod 755 "$work" "$work/www"
chmod 644 "$work/www/ten.mp3"
size=$(stat -c %s "$work/www/ten.mp3")
echo "file: $size bytes"

"$binary" serve --demo --data-dir "$work/data" --port $campus_port --log-level warning \
  --library "$work/library" >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$campus_port/health"; do sleep 0.05; done
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"student@campus.test","password":"campus-student"}' \
  "http://127.0.0.1:$campus_port/api/v1/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
id=$(curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$campus_port/api/v1/search?q=ten%20megabytes" |
  python3 -c 'import json,sys; print([h for h in json.load(sys.stdin)["items"] if h["kind"] == "track"][0]["id"])')

cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  types { audio/mpeg mp3; }
  server {
    listen 127.0.0.1:$nginx_port;
    root $work/www;
  }
}
CONF
nginx -c "$work/nginx.conf"
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$nginx_port/ten.mp3" && break; sleep 0.05; done
curl -sf -o /dev/null "http://127.0.0.1:$nginx_port/ten.mp3" || { echo "nginx does not serve the file" >&2; exit 1; }

for length in 1048576 65536; do
  cat > "$work/ranges-$length.lua" <<LUA
math.randomseed(42)
request = function()
  local first = math.random(0, $size - $length)
  wrk.headers["Range"] = "bytes=" .. first .. "-" .. (first + $length - 1)
  return wrk.format("GET")
end
LUA
done

ticks() { awk '{print $14 + $15}' "/proc/$campus_pid/stat"; } # the server's CPU time, in 1/100 s
run() { # name url extra-wrk-args…
  local name=$1 url=$2
  shift 2
  wrk -t1 -c${connections:-8} -d2s "$@" "$url" >/dev/null
  echo "== $name"
  local before=$(ticks)
  wrk -t1 -c${connections:-8} -d"${seconds}s" --latency "$@" "$url" >"$work/wrk.txt"
  local after=$(ticks)
  grep -E "Requests/sec|Transfer/sec|  50%|  99%|Non-2xx" "$work/wrk.txt"
  if [[ $name == Campus* ]]; then # Campus's CPU per request
    awk -v ticks=$((after - before)) -v seconds="$seconds" '/Requests\/sec/ {
      printf "Campus CPU: %.1f µs a request\n", ticks * 10000 / ($2 * seconds) }' "$work/wrk.txt"
  fi
}
campus="http://127.0.0.1:$campus_port/api/v1/media/$id/stream"
nginx="http://127.0.0.1:$nginx_port/ten.mp3"
auth="Authorization: Bearer $token"
only=${ONLY:-all}
if [ "$only" = all ] || [ "$only" = small ]; then
  # What players do when they seek or probe: small ranges, many connections (issue 15's row).
  connections=64
  run "Campus, random 64 KiB ranges, 64 connections" "$campus" -H "$auth" -s "$work/ranges-65536.lua"
  run "nginx, random 64 KiB ranges, 64 connections" "$nginx" -s "$work/ranges-65536.lua"
  connections=${CONNECTIONS:-8}
fi
[ "$only" = small ] && exit 0
run "Campus, random 1 MiB ranges" "$campus" -H "$auth" -s "$work/ranges-1048576.lua"
run "nginx, random 1 MiB ranges" "$nginx" -s "$work/ranges-1048576.lua"
run "Campus, whole file" "$campus" -H "$auth"
run "nginx, whole file" "$nginx"
run "Campus, last 64 KiB" "$campus" -H "$auth" -H "Range: bytes=-65536"
run "nginx, last 64 KiB" "$nginx" -H "Range: bytes=-65536"
