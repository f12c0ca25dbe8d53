#!/usr/bin/env bash
# Import speed: a corpus of 1,000 group schedules made from the real IIS fixtures (about 40,500
# lessons), imported by `campus import iis` into a new SQLite database each run and, when
# POSTGRES_URL names a server where it may create databases, into a new PostgreSQL database each
# run (the same machine's cores), and on both the same files a second time (each build after its
# own first import), timed by hyperfine. BEFORE names an earlier build to time beside
# it in the same run, on both databases.
#   [POSTGRES_URL=postgres://…/postgres] [BEFORE=/path/to/campus] Benchmarks/import.sh [CAMPUS_BINARY] [FIXTURES_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/campus}
fixtures=${2:-../shared/fixtures/iis}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/make-iis-corpus.py "$fixtures" "$work/corpus" 1000
sqlite=()
for build in ${BEFORE:-} "$binary"; do
  sqlite+=("$build import iis --data-dir $work/data $work/corpus/*.json 2>/dev/null")
done
hyperfine --warmup 1 --runs 5 --prepare "rm -rf $work/data" "${sqlite[@]}" --export-markdown "$work/import.md"
cat "$work/import.md"
# The same files a second time into SQLite (each build after its own first import): where change
# detection (issue 39) compares the links before and after.
again=()
for build in ${BEFORE:-} "$binary"; do
  again+=(--prepare "rm -rf $work/again && $build import iis --data-dir $work/again $work/corpus/*.json >/dev/null 2>&1"
    "$build import iis --data-dir $work/again $work/corpus/*.json 2>/dev/null")
done
hyperfine --runs 5 "${again[@]}" --export-markdown "$work/reimport.md"
cat "$work/reimport.md"
if [ -n "${POSTGRES_URL:-}" ]; then
  database="${POSTGRES_URL%/*}/campus_import_bench"
  fresh="psql $POSTGRES_URL -qc 'DROP DATABASE IF EXISTS campus_import_bench' -c 'CREATE DATABASE campus_import_bench'"
  # Each build imports into a database its own `migrate` made (their schemas may differ).
  commands=()
  for build in ${BEFORE:-} "$binary"; do
    commands+=(--prepare "$fresh && $build migrate --database $database >/dev/null 2>&1"
      "$build import iis --data-dir $work/pg --database $database $work/corpus/*.json 2>/dev/null")
  done
  hyperfine --warmup 1 --runs 5 "${commands[@]}" --export-markdown "$work/import-pg.md"
  cat "$work/import-pg.md"
  # The same files again (what a daily IIS sync mostly is): each build's second import of them.
  again=()
  for build in ${BEFORE:-} "$binary"; do
    again+=(--prepare "$fresh && $build migrate --database $database >/dev/null 2>&1 && $build import iis --data-dir $work/pg --database $database $work/corpus/*.json >/dev/null 2>&1"
      "$build import iis --data-dir $work/pg --database $database $work/corpus/*.json 2>/dev/null")
  done
  hyperfine --runs 3 "${again[@]}" --export-markdown "$work/reimport-pg.md"
  cat "$work/reimport-pg.md"
  psql "$POSTGRES_URL" -qc 'DROP DATABASE IF EXISTS campus_import_bench'
fi
"$binary" import iis --data-dir "$work/once" "$work"/corpus/*.json 2>/dev/null
