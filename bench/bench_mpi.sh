#!/usr/bin/env bash
# damero-mpi on this machine: one set built by 1, 2 and 4 processes of one thread each
# (mpirun --oversubscribe), and by one `damero gen` of 1 and of 2 threads, in turn in one
# run; wall and CPU time and the largest process's peak memory (/usr/bin/time), and
# whether every build wrote the same bytes (bench/RESULTS.md, "building on MPI").
#
#   bench/bench_mpi.sh [BUILD_DIR] [PIECES] [METRICS]   (default: build 5 all)
#
# BUILD_DIR is a -DDAMERO_MPI=ON build. On 2 cores, 4 processes share 2 cores: the row
# measures the cost of sharing the work, not a speed-up.
set -euo pipefail
build=${1:-build}
pieces=${2:-5}
metrics=${3:-all}
[ -x "$build/damero-mpi" ] || { echo "no $build/damero-mpi: configure with -DDAMERO_MPI=ON" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set_args=(--variant russian --pieces "$pieces" --metrics "$metrics")

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u '+%Y-%m-%d %H:%M'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "set: russian up to $pieces pieces, --metrics $metrics"

# timed LABEL DIR COMMAND...: one build into DIR, its wall and CPU seconds and peak
# memory (for mpirun: of the largest process, as GNU time reports its children's)
timed() {
  local label=$1 dir=$2
  shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" "${set_args[@]}" --dir "$dir" \
    > /dev/null 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  read -r wall user sys peak < "$work/time"
  printf '%-36s wall %7.1f s  CPU %7.1f s  peak %6.1f MB  load %s\n' "$label" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$peak / 1024" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
}

timed "damero gen, 1 thread" "$work/gen1" "$build/damero" gen --threads 1
timed "damero gen, 2 threads" "$work/gen2" "$build/damero" gen --threads 2
for n in 1 2 4; do
  timed "damero-mpi, $n process(es), 1 thread" "$work/mpi$n" \
    mpirun --oversubscribe --allow-run-as-root -np "$n" "$build/damero-mpi" --threads 1
done
for d in gen2 mpi1 mpi2 mpi4; do
  cmp -s <(cd "$work/gen1" && cat russian/*) <(cd "$work/$d" && cat russian/*) ||
    { echo "$d: FILES DIFFER from gen1"; exit 1; }
done
echo "every build wrote the same bytes"
