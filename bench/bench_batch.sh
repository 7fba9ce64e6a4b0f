#!/usr/bin/env bash
# Batch probing through the command, the figures bench/RESULTS.md records: positions per
# second of one `damero probe --input` run against one process per position, in CPU
# seconds (user + system), which a loaded machine disturbs less than wall time.
#
#   bench/bench_batch.sh [BUILD_DIR [TABLE_DIR]]
#
# TABLE_DIR/russian must hold russian up to 5 pieces (bench_probe.sh builds them into
# /tmp/damero-bench-tables, the default). The FENs are bench/random_fens.py's: random
# positions of 2 to 5 pieces, the same every run.
set -euo pipefail
build=${1:-build}
dir=${2:-/tmp/damero-bench-tables}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/damero-bench-batch.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

# cpu_seconds COMMAND...: the user + system CPU seconds of COMMAND (its output dropped).
cpu_seconds() {
  /usr/bin/time -f '%U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true
  awk '{ printf "%.2f", $1 + $2 }' "$work/time"
}

python3 "$here/random_fens.py" 200000 5 >"$work/fens"
for k in 1 2 3 4 5; do cat "$work/fens"; done >"$work/fens5"
head -200 "$work/fens" >"$work/fens200"
probe=("$build/damero" probe --variant russian --dir "$dir")

echo "| how | positions | CPU s | positions per CPU second |"
echo "|---|---:|---:|---:|"
for cache in 64 2048; do
  one=$(cpu_seconds "${probe[@]}" --cache "$cache" --input "$work/fens")
  five=$(cpu_seconds "${probe[@]}" --cache "$cache" --input "$work/fens5")
  awk -v c="$cache" -v a="$one" -v b="$five" 'BEGIN {
    printf "| batch, --cache %d, cold (one run of 200000) | 200000 | %s | %.0f |\n", c, a, 200000 / a
    printf "| batch, --cache %d, warm (runs of 1000000 and 200000: the difference) | 800000 | %.2f | %.0f |\n", c, b - a, 800000 / (b - a) }'
done
/usr/bin/time -f '%U %S' -o "$work/time" bash -c '
  while IFS= read -r fen; do "$@" "$fen" >/dev/null 2>&1 || true; done <"'"$work/fens200"'"' _ "${probe[@]}"
awk '{ s = $1 + $2; printf "| one process per position (200 positions) | 200 | %.2f | %.0f |\n", s, 200 / s }' "$work/time"
