#!/usr/bin/env bash
# What the portable build costs against one built for this processor, by CPU time: the
# portable build as it runs here (its _fast copies chosen at start-up, core/cpu.h), the
# same build forced to its baseline copies (DAMERO_CPU=baseline: what an older processor
# runs), and a -DDAMERO_NATIVE=ON build.
#
#   bench/bench_portable.sh PORTABLE_BUILD NATIVE_BUILD [ROUNDS] [TABLES]
#
# TABLES (default /tmp/damero-bench-tables, see bench_probe.sh) must hold russian up to 5
# pieces for the probing row. The commands of a row run in turn, ROUNDS rounds (default
# 3); each run's CPU time (user + system) and wall time are printed, then the medians.
set -euo pipefail
. "$(cd "$(dirname "$0")" && pwd)/cpu_rows.sh"
portable=$(cd "$1" && pwd)
native=$(cd "$2" && pwd)
rounds=${3:-3}
tables=${4:-/tmp/damero-bench-tables}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores; $(uptime | sed 's/.*load/load/')"

# three NAME COMMAND: the row's command for each build (the command names the build's
# folder as $B and any scratch folder as $W, both filled in here).
three() {
  local title=$1 cmd=$2
  row "$title" \
    "portable=$(B=$portable W=P; eval "echo \"$cmd\"")" \
    "baseline=DAMERO_CPU=baseline $(B=$portable W=Q; eval "echo \"$cmd\"")" \
    "native=$(B=$native W=N; eval "echo \"$cmd\"")"
}

three "international perft, depths 1-10" '$B/damero perft --variant international --depth 10'
three "russian, every material of 2-4 pieces, one thread" \
  'rm -rf $W && $B/damero gen --variant russian --pieces 4 --threads 1 --dir $W'
three "bench_probe russian 5 pieces, 200000 probes of each kind" \
  "\$B/bench_probe --dir $tables --variant russian --pieces 5 --probes 200000"
