#!/usr/bin/env bash
# The Subsonic layer's cost (issue 17: at most 10 % over the native API), side by side in one
# run: 64 KiB ranges at random places of a 10 MB MP3 through /api/v1/media/{id}/stream (bearer
# token) and through /rest/stream (API key), and the music albums through
# /api/v1/collections/album and through /rest/getAlbumList2 (JSON), wrk with 64 connections,
# the two paths in turn ROUNDS times, medians compared.
#   [ROUNDS=5] Benchmarks/subsonic.sh [CAMPUS_BINARY] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
seconds=${2:-10}
for tool in wrk ffmpeg; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install wrk ffmpeg)" >&2; exit 1; }
done
work=$(mktemp -d)
port=18151
cleanup() {
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT

scripts/make-demo-media "$work/library" >/dev/null
mkdir -p "$work/library/Music/Bench"
ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=440:duration=262" -c:a libmp3lame -b:a 320k \
  -metadata title="Ten megabytes" -metadata album="Bench" "$work/library/Music/Bench/ten.mp3"
size=$(stat -c %s "$work/library/Music/Bench/ten.mp3")

"$binary" serve --demo --data-dir "$work/data" --port $port --log-level warning --library "$work/library" \
  >/dev/null 2>&1 &
campus_pid=$!
base="http://127.0.0.1:$port"
until curl -sf -o /dev/null "$base/health"; do sleep 0.05; done
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"student@campus.test","password":"campus-student"}' \
  "$base/api/v1/auth/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
key=$(curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"name":"bench"}' \
  "$base/api/v1/me/api-keys" | python3 -c 'import json,sys; print(json.load(sys.stdin)["key"])')
id=$(curl -sf -H "Authorization: Bearer $token" "$base/api/v1/search?q=ten%20megabytes" |
  python3 -c 'import json,sys; print([h for h in json.load(sys.stdin)["items"] if h["kind"] == "track"][0]["id"])')

cat > "$work/ranges.lua" <<LUA
math.randomseed(42)
request = function()
  local first = math.random(0, $size - 65536)
  wrk.headers["Range"] = "bytes=" .. first .. "-" .. (first + 65535)
  return wrk.format("GET")
end
LUA

# Requests per second of one wrk run.
rate() { # url extra-wrk-args…
  local url=$1
  shift
  wrk -t1 -c64 -d"${seconds}s" "$@" "$url" | awk '/Requests\/sec/ { print $2 }'
}
# The two paths in turn, ROUNDS times (the machine's own drift falls on both), then the median
# of each and the Subsonic path's cost over the native one, round by round.
compare() { # name native-url native-auth subsonic-url [extra-wrk-args…]
  local name=$1 native=$2 auth=$3 subsonic=$4
  shift 4
  wrk -t1 -c64 -d2s -H "$auth" "$@" "$native" >/dev/null
  wrk -t1 -c64 -d2s "$@" "$subsonic" >/dev/null
  local natives=() subsonics=()
  for _ in $(seq "${ROUNDS:-5}"); do
    natives+=("$(rate "$native" -H "$auth" "$@")")
    subsonics+=("$(rate "$subsonic" "$@")")
  done
  python3 - "$name" "${natives[*]}" "${subsonics[*]}" <<'PY'
import statistics, sys
name, native, subsonic = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
n, s = statistics.median(native), statistics.median(subsonic)
# Each round's two runs come one after the other, so the machine's drift cancels in their ratio.
cost = statistics.median(a / b - 1 for a, b in zip(native, subsonic))
print(f"== {name}\n   native   {n:9.0f} req/s (runs: {', '.join(f'{x:.0f}' for x in native)})")
print(f"   Subsonic {s:9.0f} req/s (runs: {', '.join(f'{x:.0f}' for x in subsonic)})")
print(f"   the Subsonic layer costs {100 * cost:+.1f} % per request (median of the rounds)")
PY
}
compare "random 64 KiB ranges of a 10 MB MP3" "$base/api/v1/media/$id/stream" "Authorization: Bearer $token" \
  "$base/rest/stream?id=tr-$id&apiKey=$key&c=bench" -s "$work/ranges.lua"
# The same albums both ways: the music folder's, by name.
compare "a list of albums (JSON)" "$base/api/v1/collections/album?limit=50" "Authorization: Bearer $token" \
  "$base/rest/getAlbumList2?type=alphabeticalByName&size=50&musicFolderId=1&f=json&apiKey=$key&c=bench"
