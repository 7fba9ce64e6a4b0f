#!/usr/bin/env bash
# Probing under the move-limit rules with and without the rule tables (damero gen
# --rules), on the same positions, and the rule tables' size: the figures of the rules table
# of bench/RESULTS.md (their history: the issue-12 section of bench/JOURNAL.md).
#
#   bench/bench_rules.sh [BUILD_DIR] [PIECES] [PROBES]
#
# Builds russian up to PIECES (default 4) with its rule tables into
# /tmp/damero-bench-rules (only what is missing), links the same tables without the rule
# tables into /tmp/damero-bench-norules, and runs bench_probe --rules 1 on both, one after
# the other, on positions of PIECES and PIECES - 1 pieces (bench_probe draws the same
# positions every run); then bench_rules_probe, which times a plain probe and one under
# the rules on the same positions in alternating rounds (the cost ratio of the issue).
# Then prints the size of each variant's files there by kind.
set -euo pipefail
build=${1:-build}
pieces=${2:-4}
probes=${3:-20000}
with=/tmp/damero-bench-rules
without=/tmp/damero-bench-norules
for tool in damero bench_probe bench_rules_probe; do
  [ -x "$build/$tool" ] || { echo "no $build/$tool: build first" >&2; exit 2; }
done

nice "$build/damero" gen --variant russian --pieces "$pieces" --rules --dir "$with" >&2
mkdir -p "$without/russian"
for f in "$with"/russian/*.wdl "$with"/russian/*.dtm "$with"/russian/*.mtc; do
  ln -f "$f" "$without/russian/"
done
for n in $((pieces - 1)) "$pieces"; do
  for dir in "$with" "$without"; do
    echo "### $n pieces, $( [ "$dir" = "$with" ] && echo with || echo without) rule tables"
    "$build/bench_probe" --dir "$dir" --variant russian --pieces "$n" --probes "$probes" \
      --rules 1 | grep -E '^\| (WDL|DTM|under|probe|---)'
  done
done
echo "### plain and under the rules side by side (fastest of 7 rounds, CPU time)"
for n in $((pieces - 1)) "$pieces"; do
  nice "$build/bench_rules_probe" --dir "$with" --variant russian --pieces "$n" \
    --positions "$probes" --rounds 7
done
echo "### bytes on disk by kind"
for variant in "$with"/*/; do
  for kind in dtm mtc wdl ru0 ru1 rz0 rz1; do
    printf '%s %s %s\n' "$(basename "$variant")" "$kind" \
      "$(cat "$variant"/*."$kind" 2>/dev/null | wc -c)"
  done
done
