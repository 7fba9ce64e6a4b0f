#!/usr/bin/env bash
# Generator speed and memory: the figures issue targets are stated in (bench/RESULTS.md).
#
#   bench/bench_gen.sh [BUILD_DIR] [--six | --turkish]
#
# Builds every set from scratch in a temporary directory and prints, for each, the
# positions solved, seconds, positions per second and peak memory as `damero gen`
# reports them. --six adds russian up to 6 pieces (about 2.6 billion positions: minutes);
# --turkish adds Turkish draughts up to 5 pieces (3.5 billion positions on the 64-square
# board: an hour on two quiet cores).
set -euo pipefail
build=${1:-build}
six=${2:-}
damero="$build/damero"
[ -x "$damero" ] || { echo "no $damero: build first (./run.sh builds into build/)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u +%Y-%m-%d)"

# run LABEL ARGS...: one gen run, its summary on one line
run() {
  local label=$1
  shift
  local out
  out=$("$damero" gen "$@" 2>/dev/null)
  printf '%-44s %s | %s\n' "$label" "$(echo "$out" | sed -n 2p)" "$(echo "$out" | grep 'peak memory')"
}

run "russian up to 5 pieces, 2 threads" --variant russian --pieces 5 --dir "$work/r2" --threads 2
run "russian up to 5 pieces, 1 thread" --variant russian --pieces 5 --dir "$work/r1" --threads 1
cmp -s <(cd "$work/r1" && cat russian/*) <(cd "$work/r2" && cat russian/*) &&
  echo "  (1 and 2 threads: identical files)" || echo "  (1 and 2 threads: FILES DIFFER)"
run "international up to 4 pieces, 2 threads" --variant international --pieces 4 --dir "$work/i2" --threads 2
run "international up to 4 pieces, 1 thread" --variant international --pieces 4 --dir "$work/i1" --threads 1

# single materials, their dependencies already on disk
for m in KKKvK KKKvKK KKKKvK; do
  rm -f "$work/r2/russian/$m".*
  run "russian $m alone, 2 threads" --variant russian "$m" --dir "$work/r2" --threads 2
done

if [ "$six" = --six ]; then
  run "russian 6-piece materials (5 on disk), 2 thr" --variant russian --pieces 6 --dir "$work/r2" --threads 2
fi

run "turkish up to 4 pieces, 2 threads" --variant turkish --pieces 4 --dir "$work/t2" --threads 2
for m in KKKvKK KKKKvK; do
  run "turkish $m (4 pieces on disk), 2 threads" --variant turkish "$m" --dir "$work/t2" --threads 2
done
if [ "$six" = --turkish ]; then
  run "turkish 5-piece materials (4 on disk), 2 thr" --variant turkish --pieces 5 --dir "$work/t2" --threads 2
fi
