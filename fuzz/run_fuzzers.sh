#!/usr/bin/env bash
# Runs each libFuzzer target of fuzz/ for a fixed time, from the seed corpora in
# fuzz/corpus/, and fails when any of them finds a crash, a hang or a leak.
#
#   fuzz/run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]   (default: every target)
#
# BUILD_DIR is a build configured with CC=clang -DDAMERO_FUZZ=ON (./run.sh fuzz makes
# build-fuzz and runs this for 60 s a target). What a run finds new is kept in
# BUILD_DIR/fuzz-corpus/TARGET (not in the repository's seeds); a crashing input is saved
# as BUILD_DIR/fuzz-artifacts/TARGET/crash-..., and its report is in fuzz-logs/TARGET.log.
# Each target's executions, coverage (cov: edges, ft: features) and corpus size are
# printed at the end.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_fen fuzz_table fuzz_cli fuzz_pdn)

# one OpenMP thread each: the harnesses probe from one thread, and the machine is shared
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
failed=0
for target in "${targets[@]}"; do
  seeds=$root/fuzz/corpus/${target#fuzz_}
  corpus=$build/fuzz-corpus/$target
  artifacts=$build/fuzz-artifacts/$target
  log=$build/fuzz-logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  echo "== $target: $seconds s"
  # absolute paths: a harness may change directory when it starts
  "$build/fuzz/$target" -max_total_time="$seconds" -timeout=120 -close_fd_mask=3 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds" >"$log" 2>&1
  status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  echo "   ${runs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, corpus $(ls "$corpus" | wc -l) files"
  if [ "$status" -ne 0 ]; then
    echo "   FAILED (exit $status): see $log and $artifacts" >&2
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/   /' >&2
    failed=1
  fi
done
exit $failed
