#!/usr/bin/env bash
# damero-mpi (docs/cluster.md): the tables of 1, 2 and 3 processes byte for byte those of
# one `damero gen`; a process killed with SIGKILL ends the job, leaves no damaged table,
# and the same command resumes to the same bytes; a process that fails ends the job
# with its message; a memory budget one process cannot hold and bad arguments are
# refused before the start, said once.
#
# usage: tests/test_mpi.sh DAMERO DAMERO_MPI KILL_AT_LEVEL [--full]
#   --full: the sets of the issue instead of small ones (russian up to 5, international
#   and turkish up to 4, all metrics and WDL only: about an hour on 2 cores)
set -u
export LC_ALL=C
damero=$1
damero_mpi=$2
kill_at_level=$3 # a library that kills a process right after its Nth level file
full=${4:-}
. "$(dirname "$0")/cli_harness.sh"
make_tmp mpi

# mpi N ARGS...: damero-mpi ARGS in N processes on this machine, with mpirun's options
# mpirun_options; output in $out, exit code in $status (124 when the job hangs).
mpirun_options=()
mpi() {
  local n=$1
  shift
  out=$(timeout 3600 mpirun --oversubscribe --allow-run-as-root -np "$n" \
    ${mpirun_options[@]+"${mpirun_options[@]}"} "$damero_mpi" "$@" 2>&1)
  status=$?
}

# same_as_gen NAME ARGS...: builds ARGS with one `damero gen` into $tmp/NAME-gen and with
# 1, 2 and 3 processes of damero-mpi, each into its own folder: the same files, byte for
# byte.
same_as_gen() {
  local name=$1 n variant
  shift
  variant=$2 # ARGS start with --variant NAME
  # not `expect`: its two minutes are too few for the sets of --full on a busy machine
  check_quiet "$name: damero gen" timeout 3600 "$damero" gen "$@" --threads 1 \
    --dir "$tmp/$name-gen"
  for n in 1 2 3; do
    mpi "$n" "$@" --threads 1 --dir "$tmp/$name-$n"
    check "$name, $n processes: exit $status: $out" test "$status" -eq 0
    check "$name, $n processes: not the summary of the job: $out" \
      grep -q "$n process" <<< "$out"
    check "$name: $n processes of damero-mpi differ from one damero gen" \
      same_files "$tmp/$name-gen/$variant" "$tmp/$name-$n/$variant"
  done
}

if [ "$full" = --full ]; then
  for metrics in all wdl; do
    same_as_gen "russian5-$metrics" --variant russian --pieces 5 --metrics "$metrics"
    same_as_gen "international4-$metrics" --variant international --pieces 4 --metrics "$metrics"
    same_as_gen "turkish4-$metrics" --variant turkish --pieces 4 --metrics "$metrics"
  done
  summary
  exit
fi

# Small sets: every metrics form on russian, a 10x10 board, and Turkish draughts' men
# that step sideways.
for metrics in all wdl wdl+mtc; do
  same_as_gen "russian-$metrics" --variant russian --pieces 4 --metrics "$metrics"
done
same_as_gen international --variant international KMvKM --metrics wdl
same_as_gen turkish --variant turkish --pieces 3
# the self-check and the rule tables, which read other materials' tables, in their wave
same_as_gen rules --variant russian --pieces 3 --rules --self-check

# --- a process killed with SIGKILL (kill_at_level.c: process 1, at its 3rd level file) --
killed=$tmp/killed
mpirun_options=(-x LD_PRELOAD="$kill_at_level" -x DAMERO_KILL_AT_LEVEL_FILE=3
                -x DAMERO_KILL_RANK=1)
mpi 3 --variant russian --pieces 4 --threads 1 --hold-levels 0 --dir "$killed"
mpirun_options=()
check "a job with a killed process did not fail (exit $status): $out" test "$status" -ne 0
check "a job with a killed process hung" test "$status" -ne 124
check_quiet "a killed process left a damaged table" "$damero" check "$killed"
tables_before=$(ls "$killed/russian" | grep -c '\.wdl$')
check "the killed job finished no table, or every one ($tables_before)" \
  test "$tables_before" -gt 0 -a "$tables_before" -lt 23
mpi 3 --variant russian --pieces 4 --threads 1 --hold-levels 0 --dir "$killed"
check "the resumed job failed (exit $status): $out" test "$status" -eq 0
check "the resumed job found nothing intact: $out" grep -q "[1-9][0-9]* found intact" <<< "$out"
check "a job killed and resumed differs from one damero gen" \
  same_files "$tmp/russian-all-gen/russian" "$killed/russian"

# --- a process that fails: it says why, and the job ends --------------------------------
# a folder where the table of KvK (wave 0) is to be renamed into place
failing=$tmp/failing
mkdir -p "$failing/russian/KvK.wdl/in-the-way"
mpi 2 --variant russian --pieces 3 --threads 1 --dir "$failing"
check "a job whose process failed did not fail (exit $status): $out" \
  test "$status" -ne 0 -a "$status" -ne 124
check "the failing process did not say why: $out" grep -q "KvK.wdl" <<< "$out"
check "the failing process did not say the job ends: $out" \
  grep -q "failed: ending the job" <<< "$out"

# --- refused before the start, said once ------------------------------------------------
mpi 3 --variant russian --pieces 4 --memory 0.01 --dir "$tmp/budget"
check "a budget no process can hold was not refused: $out" test "$status" -ne 0
check "the budget refusal was not said once: $out" \
  test "$(grep -c "needs about" <<< "$out")" -eq 1
check "a refused job built tables: $(ls "$tmp/budget/russian" 2>&1)" \
  test -z "$(ls "$tmp/budget/russian" 2> /dev/null | grep -v '^\.')"
mpi 3 --variant russian --pieces 9
check "a bad argument was not refused: $out" test "$status" -eq 2
check "the bad argument was not said once: $out" test "$(grep -c "pieces" <<< "$out")" -eq 1

summary
