#!/usr/bin/env bash
# Makes the demo media library with real encoders: two albums (MP3 with an embedded cover, and
# Ogg Vorbis with a folder cover), a podcast and a lecture series spoken by espeak-ng, and an
# audiobook with chapters (M4A). Every file carries proper tags. Usage: make-demo-media.sh DIR
# Needs ffmpeg; espeak-ng speaks the spoken items (scripts/install-media-tools installs both),
# and without it they are soft tones of the same length (the library says so with a file
# .without-speech). `campus serve --demo` runs this script from its resources into
# DATA-DIR/demo-media; scripts/make-demo-media runs it too. Safe to run again: a finished library
# is left as it is, unless it was made without speech and espeak-ng is there now.
set -euo pipefail
dir="${1:?usage: make-demo-media.sh DIR}"
if [ -f "$dir/.complete" ] && ! { [ -f "$dir/.without-speech" ] && command -v espeak-ng >/dev/null; }; then
  exit 0
fi
command -v ffmpeg >/dev/null || {
  echo "make-demo-media needs ffmpeg: run scripts/install-media-tools (or apt-get install ffmpeg)" >&2
  exit 1
}
speech=yes
command -v espeak-ng >/dev/null || {
  speech=no
  echo "espeak-ng is not installed: the spoken demo items are tones (apt-get install espeak-ng)" >&2
}
rm -rf "$dir"
mkdir -p "$dir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# A square cover picture with a colour and a test pattern.
cover() { ff -f lavfi -i "testsrc2=size=600x600:rate=1" -f lavfi -i "color=c=$2:size=600x600" \
  -filter_complex "[0][1]blend=all_mode=multiply" -frames:v 1 "$1"; }

# Music: a chord of sine tones per track.
album="$dir/Music/Campus Ensemble - First Light"
mkdir -p "$album"
cover "$work/first-light.jpg" "0x3b82f6"
titles=("Morning Bell" "Library Steps" "Quad at Noon" "Evening Lamps")
freqs=(220 262 294 330)
for i in 0 1 2 3; do
  n=$((i + 1))
  f=${freqs[$i]}
  ff -f lavfi -i "sine=frequency=$f:duration=24" -f lavfi -i "sine=frequency=$((f * 3 / 2)):duration=24" \
    -i "$work/first-light.jpg" -filter_complex "[0][1]amix=inputs=2,afade=t=in:d=1,afade=t=out:st=22:d=2[a]" \
    -map "[a]" -map 2 -c:a libmp3lame -b:a 96k -c:v mjpeg -id3v2_version 3 \
    -metadata:s:v title="Album cover" -metadata:s:v comment="Cover (front)" \
    -metadata title="${titles[$i]}" -metadata artist="Campus Ensemble" -metadata album_artist="Campus Ensemble" \
    -metadata album="First Light" -metadata track="$n/4" -metadata date="2026" -metadata genre="Ambient" \
    "$album/0$n ${titles[$i]}.mp3"
done

album="$dir/Music/Night Shift"
mkdir -p "$album"
cover "$album/cover.jpg" "0xf59e0b"
titles=("Lab Lights" "Last Tram" "Dawn Exam")
freqs=(392 349 440)
for i in 0 1 2; do
  n=$((i + 1))
  f=${freqs[$i]}
  ff -f lavfi -i "sine=frequency=$f:duration=20:sample_rate=44100" \
    -af "tremolo=f=4:d=0.6,afade=t=in:d=1,afade=t=out:st=18:d=2" -c:a libvorbis -q:a 2 \
    -metadata title="${titles[$i]}" -metadata artist="The Night Shift" -metadata album="Night Shift" \
    -metadata tracknumber="$n" -metadata date="2025" -metadata genre="Electronic" "$album/0$n ${titles[$i]}.ogg"
done

# Spoken content: espeak-ng reads the text, ffmpeg encodes it; without espeak-ng, a soft tone as
# long as the text would take to say (about 15 characters a second).
speak() { # out.wav text
  if [ "$speech" = yes ]; then
    espeak-ng -s 150 -w "$1" "$2"
  else
    ff -f lavfi -i "sine=frequency=196:duration=$(( ${#2} / 15 + 2 ))" -af "volume=0.3" "$1"
  fi
}

podcast="$dir/Podcasts/Campus Weekly"
mkdir -p "$podcast"
cover "$podcast/cover.jpg" "0x10b981"
episodes=("Welcome to Campus Weekly. This week: the new timetable, the library's longer hours, and the autumn ten kilometre race."
  "Campus Weekly, episode two. We talk to the radio society about live broadcasts from the student union."
  "Campus Weekly, episode three. Exam season tips from last year's students, and where to find quiet rooms.")
for i in 0 1 2; do
  n=$((i + 1))
  speak "$work/ep$n.wav" "${episodes[$i]}"
  ff -i "$work/ep$n.wav" -af "apad=pad_dur=2" -c:a libmp3lame -b:a 64k -ac 1 \
    -metadata title="Episode $n" -metadata artist="Student Radio" -metadata album="Campus Weekly" \
    -metadata track="$n" -metadata date="$(printf "2026-%02d-%02d" $((8 + i)) "$n")" -metadata genre="Podcast" \
    -metadata comment="Campus Weekly, episode $n." "$podcast/Episode $n.mp3"
done

book="$dir/Audiobooks/A Short Guide to the Campus"
mkdir -p "$book"
cover "$book/cover.jpg" "0x8b5cf6"
chapters=("Chapter one. The main building. Lectures happen on the first three floors; the dean's office is on the fourth."
  "Chapter two. The library. Books can be borrowed for two weeks; the reading room is open until ten."
  "Chapter three. The sports ground. The running track is four hundred metres, and races start at the north gate.")
for i in 0 1 2; do
  n=$((i + 1))
  speak "$work/ch$n.wav" "${chapters[$i]}"
  ff -i "$work/ch$n.wav" -c:a aac -b:a 48k -ac 1 \
    -metadata title="Chapter $n" -metadata artist="Campus Press" -metadata album_artist="Campus Press" \
    -metadata album="A Short Guide to the Campus" -metadata track="$n" -metadata date="2026" \
    -metadata genre="Audiobook" "$book/Chapter $n.m4a"
done

lectures="$dir/Lectures/Physics 101"
mkdir -p "$lectures"
speak "$work/lecture.wav" "Physics one oh one, lecture one. Today we measure the speed of sound with two microphones and a clap."
ff -i "$work/lecture.wav" -c:a libmp3lame -b:a 48k -ac 1 -metadata title="Lecture 1: Sound" \
  -metadata artist="Dr. Ivanova" -metadata album="Physics 101" -metadata track="1" -metadata date="2026-09-07" \
  -metadata genre="Physics" "$lectures/Lecture 1.mp3"

[ "$speech" = yes ] || touch "$dir/.without-speech"
touch "$dir/.complete"
echo "Demo media in $dir"
