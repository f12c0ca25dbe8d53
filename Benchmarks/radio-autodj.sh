#!/usr/bin/env bash
# A station that plays by itself (issue 42): Campus's AutoDJ on the air with no source, beside
# Debian's icecast2 relaying an ffmpeg source of the same format (MP3, 128 kbit/s), one after the
# other in one run: how many listeners hold on without a drop and the server's CPU per listener
# (Benchmarks/radio-listeners.py), and AutoDJ's own cost: its ffmpeg encode, measured apart.
#   Benchmarks/radio-autodj.sh [CAMPUS_BINARY] [LISTENERS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
listeners=${2:-1000}
seconds=${3:-20}
for tool in icecast2 ffmpeg python3 curl; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install icecast2 ffmpeg curl)" >&2; exit 1; }
done
work=$(mktemp -d)
chmod 755 "$work"
campus_port=18161
icecast_port=18162
password=bench-source-2026
cleanup() {
  [ -n "${source_pid:-}" ] && kill "$source_pid" 2>/dev/null || true
  [ -n "${campus_pid:-}" ] && kill "$campus_pid" 2>/dev/null || true
  [ -n "${icecast_pid:-}" ] && kill "$icecast_pid" 2>/dev/null || true
  sleep 0.5
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 65536 2>/dev/null || true

# A library of two five-minute tracks (one encode each for the whole measurement).
mkdir -p "$work/library/Music/Bench - Rotation"
for n in 1 2; do
  ffmpeg -hide_banner -loglevel error -f lavfi -i "sine=frequency=$((400 + n * 40)):duration=300" \
    -c:a libmp3lame -b:a 192k -metadata title="Track $n" -metadata artist=Bench -metadata album=Rotation \
    "$work/library/Music/Bench - Rotation/0$n Track $n.mp3"
done
"$binary" user create --email bench@example.org --password bench-password --admin --data-dir "$work/data" >/dev/null
"$binary" station add Bench --mount bench.mp3 --source-password "$password" --listener-limit 100000 \
  --data-dir "$work/data" >/dev/null
"$binary" serve --data-dir "$work/data" --port $campus_port --log-level warning \
  --max-connections-per-address $((listeners + 100)) >/dev/null 2>&1 &
campus_pid=$!
until curl -sf -o /dev/null "http://127.0.0.1:$campus_port/health"; do sleep 0.05; done
api="http://127.0.0.1:$campus_port/api/v1"
token=$(curl -sf "$api/auth/login" -H 'Content-Type: application/json' \
  -d '{"email":"bench@example.org","password":"bench-password"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
curl -sf "$api/library/scan" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"folder\":\"$work/library\"}" >/dev/null
album=$(curl -sf "$api/collections/album" -H "Authorization: Bearer $token" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
curl -sf "$api/stations/bench.mp3/playlists" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "{\"name\":\"Rotation\",\"kind\":\"rotation\",\"sources\":[{\"kind\":\"parent\",\"id\":$album}]}" >/dev/null

# icecast2, as in Benchmarks/radio.sh, fed by one ffmpeg source at its real rate.
source Benchmarks/icecast2.sh
start_icecast "$work" $icecast_port $listeners "$password"
ffmpeg -hide_banner -loglevel error -re -f lavfi -i "sine=frequency=440:duration=3600" \
  -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 \
  "icecast://source:$password@127.0.0.1:$icecast_port/bench.mp3" &
source_pid=$!
sleep 3

ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
echo "== icecast2 $(dpkg-query -W -f '${Version}' icecast2 2>/dev/null || echo) (an ffmpeg source)"
python3 Benchmarks/radio-listeners.py "http://127.0.0.1:$icecast_port/bench.mp3" $icecast_pid $listeners $seconds
echo "== Campus AutoDJ ($binary)"
python3 Benchmarks/radio-listeners.py "http://127.0.0.1:$campus_port/radio/bench.mp3" $campus_pid $listeners $seconds &
bench=$!
sleep 3.5  # the listeners are connected and the measurement runs: AutoDJ's ffmpeg plays
encoder=$(pgrep -P $campus_pid ffmpeg | head -1 || true)
if [ -n "$encoder" ]; then
  before=$(ticks "$encoder"); start=$(date +%s.%N)
  sleep $((seconds - 2))
  after=$(ticks "$encoder"); end=$(date +%s.%N)
  python3 -c "import os; hz=os.sysconf('SC_CLK_TCK'); print(f'AutoDJ encode (ffmpeg $encoder, MP3 128 kbit/s from a 192 kbit/s file, real time): {100*($after-$before)/hz/($end-$start):.2f}% of a core')"
else
  echo "AutoDJ encode: no ffmpeg found under Campus" >&2
fi
wait $bench
