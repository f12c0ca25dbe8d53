#!/usr/bin/env bash
# Two builds of Campus side by side, in one run: cached and fresh schedules, rankings, ranged
# streaming (64 KiB ranges among them, with their nginx references), the Subsonic stream beside
# the native one, and idle memory, for the BEFORE binary, then for the AFTER binary, then BEFORE
# again, so a drift of the machine during the run shows (issue 37: after = before within noise). Build BEFORE from an older commit in a
# worktree of its own, e.g.
#   git worktree add ../campus-before bac7bde && (cd ../campus-before && swift build -c release --product campus)
#   Benchmarks/before-after.sh ../campus-before/.build/release/campus .build/release/campus
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: Benchmarks/before-after.sh BEFORE_BINARY AFTER_BINARY}
after=${2:?usage: Benchmarks/before-after.sh BEFORE_BINARY AFTER_BINARY}
seconds=${SECONDS_EACH:-10}
for binary in "$before" "$after" "$before"; do
  echo "=============== $binary"
  echo "--- schedule"
  Benchmarks/schedule-http.sh "$binary" ../shared/fixtures/iis "$seconds"
  echo "--- schedule, made afresh"
  Benchmarks/schedule-fresh.sh "$binary" ../shared/fixtures/iis "$seconds"
  echo "--- ranking"
  Benchmarks/ranking-http.sh "$binary" 100000 "$seconds"
  echo "--- streaming"
  Benchmarks/streaming.sh "$binary" "$seconds"
  echo "--- Subsonic stream beside the native one"
  ROUNDS=${ROUNDS:-3} Benchmarks/subsonic.sh "$binary" "$seconds"
  echo "--- start-up and idle memory"
  Benchmarks/startup.sh "$binary"
done
