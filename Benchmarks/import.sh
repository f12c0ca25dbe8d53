#!/usr/bin/env bash
# Import speed: a corpus of 1,000 group schedules made from the real IIS fixtures (about 40,500
# lessons), imported into a new SQLite database each run, timed by hyperfine.
#   Benchmarks/import.sh [CAMPUS_BINARY] [FIXTURES_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
fixtures=${2:-../shared/fixtures/iis}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/make-iis-corpus.py "$fixtures" "$work/corpus" 1000
hyperfine --warmup 1 --runs 5 --prepare "rm -rf $work/data" \
  "$binary import iis --data-dir $work/data $work/corpus/*.json 2>/dev/null" --export-markdown "$work/import.md"
cat "$work/import.md"
"$binary" import iis --data-dir "$work/once" "$work"/corpus/*.json 2>/dev/null
