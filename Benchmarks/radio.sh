#!/usr/bin/env bash
# Live radio: Campus and Debian's icecast2 relaying the same ffmpeg source (MP3, 128 kbit/s) on
# this machine, one after the other in one run: how many listeners hold on without a drop, and
# the server's CPU per listener (Benchmarks/radio-listeners.py).
#   Benchmarks/radio.sh [CAMPUS_BINARY] [LISTENERS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
listeners=${2:-1000}
seconds=${3:-20}
for tool in icecast2 ffmpeg python3; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install icecast2 ffmpeg)" >&2; exit 1; }
done
work=$(mktemp -d)
chmod 755 "$work"
campus_port=18151
icecast_port=18152
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

# Campus, with one station.
"$binary" station add Bench --mount bench.mp3 --source-password "$password" --listener-limit 100000 \
  --data-dir "$work/data" >/dev/null
# Every listener comes from 127.0.0.1 here: the per-address limit must let them all in.
"$binary" serve --data-dir "$work/data" --port $campus_port --log-level warning \
  --max-connections-per-address $((listeners + 100)) >/dev/null 2>&1 &
campus_pid=$!

# icecast2, as Debian installs it, with room for the listeners (it drops to nobody when run as root).
source Benchmarks/icecast2.sh
start_icecast "$work" $icecast_port $listeners "$password"
until curl -sf -o /dev/null "http://127.0.0.1:$campus_port/health"; do sleep 0.05; done

# One ffmpeg source, the same tone encoded once per server, broadcast to both at its real rate.
ffmpeg -hide_banner -loglevel error -re -f lavfi -i "sine=frequency=440:duration=3600" \
  -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 \
  "icecast://source:$password@127.0.0.1:$campus_port/radio/bench.mp3" \
  -c:a libmp3lame -b:a 128k -content_type audio/mpeg -f mp3 \
  "icecast://source:$password@127.0.0.1:$icecast_port/bench.mp3" &
source_pid=$!
sleep 3

echo "== icecast2 $(dpkg-query -W -f '${Version}' icecast2 2>/dev/null || echo)"
python3 Benchmarks/radio-listeners.py "http://127.0.0.1:$icecast_port/bench.mp3" $icecast_pid $listeners $seconds
echo "== Campus ($binary)"
python3 Benchmarks/radio-listeners.py "http://127.0.0.1:$campus_port/radio/bench.mp3" $campus_pid $listeners $seconds
