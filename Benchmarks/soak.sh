#!/usr/bin/env bash
# A long run at half the measured maximum load of a mixed workload, to see memory stay flat and
# no request fail. The mix, per request at random: 40 % a random group's random week (300 groups
# from the real fixtures, made afresh mostly), 20 % a page of a competition's ranking (10,000
# participants), 20 % a 64 KiB range at a random offset of a 10 MB MP3 (signed in), 20 % a player
# action of one of 32 listeners (pause at a position / resume); beside it 50 radio listeners of
# a live station fed by ffmpeg for the whole run.
# First wrk measures the mix's maximum (one thread, 64 connections, 20 s); then the soak holds
# half of it (32 connections, each waiting between requests) for SECONDS, sampling Campus's
# resident memory every 10 s. It prints the rate held, wrk's errors and non-2xx answers, the
# listeners that held on, and memory at the start, end and peak of the soak.
#   Benchmarks/soak.sh [CAMPUS_BINARY] [FIXTURES_DIR] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
fixtures=${2:-../shared/fixtures/iis}
seconds=${3:-1800}
for tool in wrk ffmpeg python3 curl; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install wrk ffmpeg)" >&2; exit 1; }
done
work=$(mktemp -d)
port=18171
password=soak-source-2026
cleanup() {
  [ -n "${sampler_pid:-}" ] && kill "$sampler_pid" 2>/dev/null || true
  [ -n "${listeners_pid:-}" ] && kill "$listeners_pid" 2>/dev/null || true
  [ -n "${source_pid:-}" ] && kill -9 "$source_pid" 2>/dev/null || true
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true

data="$work/data"
python3 Benchmarks/make-iis-corpus.py "$fixtures" "$work/corpus" 300 >/dev/null
"$binary" demo --data-dir "$data" >/dev/null 2>&1
"$binary" import iis --data-dir "$data" "$work"/corpus/*.json >/dev/null 2>&1
mkdir -p "$work/library/Music/Soak"
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=640" -c:a libmp3lame -b:a 128k \
  "$work/library/Music/Soak/Long tone.mp3"
"$binary" library scan "$work/library" --data-dir "$data" >/dev/null 2>&1
"$binary" station add Soak --mount soak.mp3 --source-password "$password" --listener-limit 1000 \
  --data-dir "$data" >/dev/null
competition=$(python3 Benchmarks/make-competition.py "$data/campus.sqlite" 10000 organizer@campus.test)
media=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT id FROM media').fetchone()[0])" "$data/campus.sqlite")
size=$(stat -c %s "$work/library/Music/Soak/Long tone.mp3")

"$binary" serve --data-dir "$data" --port $port --log-level warning --bcrypt-cost 4 \
  --max-connections-per-address 1000 >"$work/campus.log" 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$port/health"; do sleep 0.05; done

# 32 listeners with a queue of the long tone each.
tokens=$(python3 - "$port" "$media" <<'PY'
import json, sys, urllib.request
port, media = sys.argv[1], sys.argv[2]
def call(path, body, token=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    return json.load(urllib.request.urlopen(request))
tokens = []
for index in range(32):
    email = f"soak{index}@campus.test"
    call("/api/v1/auth/register", {"email": email, "password": "soak-listener", "firstName": "Soak", "lastName": str(index)})
    token = call("/api/v1/auth/login", {"email": email, "password": "soak-listener"})["token"]
    call("/api/v1/player", {"action": "play", "payload": {"ids": [f"track:{media}"]}}, token)
    tokens.append(token)
print(" ".join(tokens))
PY
)

cat > "$work/mix.lua" <<LUA
math.randomseed(os.time())
local tokens = {}
for token in string.gmatch("$tokens", "%S+") do tokens[#tokens + 1] = token end
local monday = os.time({year = 2023, month = 9, day = 4, hour = 12})
local size = $size
local pause = 0
request = function()
  local pick = math.random(1, 10)
  local token = tokens[math.random(1, #tokens)]
  if pick <= 4 then
    local first = monday + 7 * 86400 * math.random(0, 39)
    return wrk.format("GET", "/api/v1/groups/" .. (900000 + math.random(0, 299)) .. "/schedule?from=" ..
      os.date("!%Y-%m-%d", first) .. "&to=" .. os.date("!%Y-%m-%d", first + 6 * 86400) ..
      "&subgroup=" .. math.random(0, 2))
  elseif pick <= 6 then
    return wrk.format("GET", "/api/v1/competitions/$competition/ranking?limit=50&offset=" .. 50 * math.random(0, 199),
      {["Authorization"] = "Bearer " .. token})
  elseif pick <= 8 then
    local from = math.random(0, size - 65537)
    return wrk.format("GET", "/api/v1/media/$media/stream",
      {["Authorization"] = "Bearer " .. token, ["Range"] = "bytes=" .. from .. "-" .. (from + 65535)})
  else
    local body
    if math.random(0, 1) == 0 then
      body = '{"action":"playback_pause","payload":{"position":' .. math.random(0, 600) .. '}}'
    else
      body = '{"action":"playback_resume"}'
    end
    return wrk.format("POST", "/api/v1/player",
      {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
  end
end
delay = function() return tonumber(os.getenv("SOAK_DELAY_MS") or "0") end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors: connect %d, read %d, write %d, timeout %d, status %d\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout, summary.errors.status))
  io.write(string.format("latency p50 %.1f ms, p99 %.1f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
LUA

rss() { awk '/VmRSS/ {print $2}' "/proc/$campus_pid/status"; }

# The live station: a source at its real rate for the whole run, and its listeners.
ffmpeg -hide_banner -loglevel error -re -f lavfi -i "sine=frequency=330:duration=$((seconds + 600))" \
  -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 \
  "icecast://source:$password@127.0.0.1:$port/radio/soak.mp3" &
source_pid=$!
sleep 3

wrk -t1 -c64 -d3s -s "$work/mix.lua" "http://127.0.0.1:$port" >/dev/null  # warm-up
echo "== the mix's maximum (wrk, one thread, 64 connections, 20 s)"
maximum=$(wrk -t1 -c64 -d20s -s "$work/mix.lua" "http://127.0.0.1:$port" | tee /dev/stderr | awk '/Requests\/sec/ {print $2}')
target=$(python3 -c "print(round($maximum / 2))")
# 32 connections; each waits so that together they send half the maximum (the answer's own
# time, about a millisecond at this load, is small beside the wait).
delay_ms=$(python3 -c "print(max(1, round(32 * 1000 / $target)))")
echo "== soak: $seconds s at about $target requests/s (half of $maximum; 32 connections, $delay_ms ms between requests)"

python3 Benchmarks/radio-listeners.py "http://127.0.0.1:$port/radio/soak.mp3" $campus_pid 50 "$seconds" \
  >"$work/listeners.txt" 2>&1 &
listeners_pid=$!
( while true; do echo "$(date +%s) $(rss)"; sleep 10; done ) >"$work/rss.txt" &
sampler_pid=$!
SOAK_DELAY_MS=$delay_ms wrk -t1 -c32 -d"${seconds}s" --timeout 10s -s "$work/mix.lua" "http://127.0.0.1:$port" \
  | grep -E "Requests/sec|requests |latency|Non-2xx|Socket errors"
wait "$listeners_pid" || true
listeners_pid=
kill "$sampler_pid" 2>/dev/null || true
sampler_pid=
echo "== radio listeners during the soak"
cat "$work/listeners.txt"
python3 - "$work/rss.txt" <<'PY'
import sys
samples = [int(line.split()[1]) for line in open(sys.argv[1]) if len(line.split()) == 2]
first, last, peak = samples[0], samples[-1], max(samples)
print(f"== resident memory: {first / 1024:.1f} MiB at the start of the soak, {last / 1024:.1f} MiB at the end "
      f"({(last - first) / first * 100:+.1f} %), peak {peak / 1024:.1f} MiB; {len(samples)} samples")
PY
echo "server log lines at warning or above: $(grep -c . "$work/campus.log" || true)"
