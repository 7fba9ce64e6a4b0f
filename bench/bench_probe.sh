#!/usr/bin/env bash
# Probing speed and table size, the figures bench/RESULTS.md records.
#
#   bench/bench_probe.sh [BUILD_DIR]
#
# Makes sure /tmp/damero-bench-tables holds russian up to 5 pieces and every other variant
# up to 4 (damero gen builds only what is missing: about a minute on 2 cores the first
# time, seconds later), then runs bench_probe on russian 5 (about 15 seconds),
# which also prints the size on disk of every variant there. Gen's summaries go to
# stderr, so that stdout is the markdown to paste.
set -euo pipefail
build=${1:-build}
dir=/tmp/damero-bench-tables
for tool in damero bench_probe; do
  [ -x "$build/$tool" ] || { echo "no $build/$tool: build first (make -C $build damero_cli bench_probe)" >&2; exit 2; }
done

"$build/damero" gen --variant russian --pieces 5 --dir "$dir" >&2
for variant in international brazilian pool spanish czech italian english poddavki ganapierde; do
  "$build/damero" gen --variant "$variant" --pieces 4 --dir "$dir" >&2
done
"$build/bench_probe" --dir "$dir" --variant russian --pieces 5
