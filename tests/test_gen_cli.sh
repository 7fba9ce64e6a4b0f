#!/usr/bin/env bash
# Building tables with `damero gen` and reading them with `damero info`, as a user runs
# them: the files written, the same bytes whatever the thread count, rebuilding what is
# damaged, exit codes and messages for bad input, a full disk, and figures known by hand.
set -u
export LC_ALL=C # English error texts (strerror), byte order for ls
damero=$1
craft_table=$2 # tests/craft_table.c: a table with one value changed, checksums valid
. "$(dirname "$0")/cli_harness.sh"
make_tmp gen-cli

# no_temporary DIR: no file of an unfinished write is left under DIR.
no_temporary() {
  local left
  left=$(find "$1" -name '*.tmp*')
  [ -z "$left" ] || { echo "    left behind: $left"; return 1; }
}

# middle FILE: an offset in the middle of FILE, inside its compressed blocks.
middle() {
  echo $(($(wc -c < "$1") / 2))
}

three=(KvK KvM MvM KKvK KKvM KMvK KMvM MMvK MMvM) # every russian material of 2-3 pieces

# --- A build writes three files per material and nothing else --------------------------
a=$tmp/a/russian
expect 0 "russian: 9 tables built, 0 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
for m in "${three[@]}"; do
  for ext in wdl dtm mtc; do
    check "$a/$m.$ext is missing or empty" test -s "$a/$m.$ext"
  done
done
check "files other than the 27 tables in $a: $(ls "$a" | tr '\n' ' ')" \
  test "$(ls "$a" | wc -l)" -eq 27
check "a temporary file is left in $a" no_temporary "$tmp/a"
cp -r "$a" "$tmp/reference"

# --- Threads sleep at barriers unless the user chose how they wait ---------------------
# spin_count [VAR=VALUE]: how long gen's threads spin before they sleep, as the OpenMP
# runtime reports it for the process that does the work (the last report: gen starts
# itself again to choose the policy), with only the given variable set: GNU's libgomp
# (gcc) says GOMP_SPINCOUNT, LLVM's libomp (clang) KMP_BLOCKTIME. libomp ignores
# GOMP_SPINCOUNT, but gen must still leave the user's choice alone: libomp's own default
# then spins.
spin_count() {
  env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT OMP_DISPLAY_ENV=verbose "$@" \
    "$damero" gen --variant russian KvK --dir "$tmp/policy" 2>&1 |
    sed -n "s/.*\(GOMP_SPINCOUNT\|KMP_BLOCKTIME\) *= *'\([0-9]*\)'.*/\2/p" | tail -1
}
check "gen's threads spin at barriers when no policy is set" test "$(spin_count)" = 0
check "gen overrode OMP_WAIT_POLICY=active" test "$(spin_count OMP_WAIT_POLICY=active)" -gt 0
check "gen overrode GOMP_SPINCOUNT" test "$(spin_count GOMP_SPINCOUNT=1000)" -gt 0

# --- Tables found intact are kept; damaged or missing ones are rebuilt, the same --------
expect 0 "0 tables built, 9 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "a second run changed the tables" same_files "$a" "$tmp/reference"

# --- A run killed while writing leaves a temporary file; the next run removes it --------
# A build holds the folder's lock, so every temporary file it finds there is stale, even
# one whose number is a running process's (a recycled PID, or PID 1).
dead=$(sh -c 'echo $$')   # a process that has ended
echo partial > "$a/KMvK.dtm.tmp.$dead"
echo stale > "$a/KKvK.dtm.tmp.$$" # this script is alive
echo stale > "$a/KvK.wdl.tmp.1"
echo mine > "$a/notes.txt.tmp.5" # not a table's: left alone
expect 0 "0 tables built, 9 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "the temporary file of an ended run is still there" test ! -e "$a/KMvK.dtm.tmp.$dead"
check "a stale temporary file with a live PID is still there" test ! -e "$a/KKvK.dtm.tmp.$$"
check "a stale temporary file of PID 1 is still there" test ! -e "$a/KvK.wdl.tmp.1"
check "a file that is no table's temporary was removed" test -e "$a/notes.txt.tmp.5"
rm -f "$a/notes.txt.tmp.5"

# --- A read-only folder of intact tables needs no lock (root writes anywhere: skipped) ---
if [ "$(id -u)" -ne 0 ]; then
  cp -r "$tmp/a" "$tmp/ro"
  rm -f "$tmp/ro/russian/.damero-gen.lock"
  chmod a-w "$tmp/ro/russian"
  expect 0 "0 tables built, 9 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/ro"
  chmod u+w "$tmp/ro/russian"
fi

# --- Two builds of one folder at once take turns: the tables are built once ------------
c=$tmp/c/russian
"$damero" gen --variant russian --pieces 3 --dir "$tmp/c" > "$tmp/c1.out" 2>&1 &
first=$!
"$damero" gen --variant russian --pieces 3 --dir "$tmp/c" > "$tmp/c2.out" 2>&1
second_status=$?
wait $first
first_status=$?
check "two builds at once: exit $first_status and $second_status" \
  test "$first_status" -eq 0 -a "$second_status" -eq 0
built_by() { sed -n 's/^russian: \([0-9]*\) tables\{0,1\} built.*/\1/p' "$1"; }
built=$(($(built_by "$tmp/c1.out") + $(built_by "$tmp/c2.out")))
check "two builds at once built $built tables between them, not 9: $(cat "$tmp/c1.out" "$tmp/c2.out")" \
  test "$built" = 9
check "two builds at once made other tables" same_files "$c" "$tmp/reference"

# --- Hostile names in the folder: a FIFO, a directory, a symlink to a device -------------
h=$tmp/h/russian
mkdir -p "$h"
cp "$tmp/reference"/* "$h"
rm "$h/KvK.wdl" "$h/KvM.dtm" "$h/MvM.mtc"
mkfifo "$h/KvK.wdl"
mkdir "$h/KvM.dtm"
ln -s /dev/zero "$h/MvM.mtc"
expect 1 "$h/KvK.wdl is a FIFO, not a table file" -- info "$h/KvK.wdl"
expect 2 "and this is a directory: name a file in it" -- info "$h/KvM.dtm"
expect 1 "$h/MvM.mtc is a device, not a table file" -- info "$h/MvM.dtm"
# gen does not wait on the FIFO: it rebuilds KvK and replaces it; it cannot replace the
# directory, and says so
expect 1 "$h/KvM.dtm" -- gen --variant russian KvK MvM --dir "$tmp/h"
check "gen left the FIFO in place of KvK.wdl" test -f "$h/KvK.wdl"
rmdir "$h/KvM.dtm"
expect 0 "2 tables built" -- gen --variant russian --pieces 3 --dir "$tmp/h"
check "the rebuilt tables differ" same_files "$h" "$tmp/reference"

# --- An empty --dir is refused, rather than building at the filesystem's root ------------
expect 2 "--dir needs a name, not an empty one" -- gen --variant russian --pieces 2 --dir ''

flip_byte "$a/KMvK.dtm" "$(middle "$a/KMvK.dtm")"
expect 0 "1 table built, 8 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "KMvK rebuilt after a damaged .dtm is not the same" same_files "$a" "$tmp/reference"

flip_byte "$a/KKvM.mtc" 40 # in the header: the material's name
expect 0 "1 table built, 8 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "KKvM rebuilt after a damaged .mtc header is not the same" same_files "$a" "$tmp/reference"

truncate -s 200 "$a/MMvK.dtm"
rm "$a/KvM.mtc"
expect 0 "2 tables built, 7 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "tables rebuilt after a truncated and a missing file are not the same" \
  same_files "$a" "$tmp/reference"

# The WDL file is part of the table too: damaged or gone, it must be rebuilt.
flip_byte "$a/KMvM.wdl" "$(middle "$a/KMvM.wdl")"
expect 0 "1 table built, 8 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
rm -f "$a/MvM.wdl"
expect 0 "1 table built, 8 found intact" -- gen --variant russian --pieces 3 --dir "$tmp/a"
check "tables rebuilt after a damaged or missing .wdl are not the same" \
  same_files "$a" "$tmp/reference"
check "a temporary file is left in $a after rebuilds" no_temporary "$tmp/a"

# --- The same bytes whatever the number of threads --------------------------------------
for t in 1 2; do
  expect 0 "$t threads)" -- gen --variant international --pieces 3 --threads "$t" --dir "$tmp/t$t"
  expect 0 "3 tables built, 0 found intact" -- gen --variant russian KKKvK --threads "$t" --dir "$tmp/t$t"
done
check "international tables differ between 1 and 2 threads" \
  same_files "$tmp/t1/international" "$tmp/t2/international"
check "russian tables differ between 1 and 2 threads" \
  same_files "$tmp/t1/russian" "$tmp/t2/russian"

# --- A named material brings what it depends on ------------------------------------------
# KKMvK: White crowns (KKKvK); Black takes a king (KMvK), the man (KKvK), a king and the
# man (KvK) or both kings (MvK = KvM); and those lead to nothing new.
n=$tmp/n/russian
expect 0 "6 tables built, 0 found intact" -- gen --variant russian KKMvK --dir "$tmp/n"
check "KKMvK and its dependencies: got $(ls "$n" | tr '\n' ' ')" \
  test "$(ls "$n" | tr '\n' ' ')" = "KKKvK.dtm KKKvK.mtc KKKvK.wdl KKMvK.dtm KKMvK.mtc KKMvK.wdl KKvK.dtm KKvK.mtc KKvK.wdl KMvK.dtm KMvK.mtc KMvK.wdl KvK.dtm KvK.mtc KvK.wdl KvM.dtm KvM.mtc KvM.wdl "
for f in KvK.dtm KvM.mtc KKvK.wdl KMvK.dtm; do
  check "$f built for KKMvK differs from the one built with --pieces 3" cmp -s "$n/$f" "$tmp/reference/$f"
done
check "KKKvK differs from the one built alone" cmp -s "$n/KKKvK.dtm" "$tmp/t1/russian/KKKvK.dtm"
# the other colour orientation names the same table
expect 0 "0 tables built, 2 found intact" -- gen --variant russian KvKK --dir "$tmp/n"
expect 0 "0 tables built, 3 found intact" -- gen --variant russian KvK MvK KKvK --dir "$tmp/n"

# --- --self-check (and its old name, --verify) -----------------------------------------
expect 0 "9 tables self-checked: every position agrees with its moves" -- \
  gen --variant russian --pieces 3 --dir "$tmp/a" --self-check
expect 0 "6 tables self-checked: every position agrees with its moves" -- \
  gen --variant russian KKMvK --dir "$tmp/v" --verify

# --- Bad arguments: exit 2, a message naming the problem, nothing written ---------------
x=$tmp/x
expect 2 "unknown variant 'chess'" -- gen --variant chess --pieces 3 --dir "$x"
expect 2 "'KxvK' is not a material" -- gen --variant russian KxvK --dir "$x"
expect 2 "'KvKv' is not a material" -- gen --variant russian KvK KvKv --dir "$x"
expect 2 "'MKvK' is not a material" -- gen --variant russian MKvK --dir "$x"
expect 2 "'vK': White needs at least one piece" -- gen --variant russian vK --dir "$x"
expect 2 "more than 8 pieces" -- gen --variant russian KKKKKvKKKK --dir "$x"
expect 2 "--pieces takes a whole number from 2 to 8, not '1'" -- gen --variant russian --pieces 1 --dir "$x"
expect 2 "--pieces takes a whole number from 2 to 8, not '99'" -- gen --variant russian --pieces 99 --dir "$x"
expect 2 "--pieces takes a whole number from 2 to 8, not 'three'" -- gen --variant russian --pieces three --dir "$x"
expect 2 "--threads takes a whole number from 1 to 1024, not '0'" -- gen --variant russian --pieces 2 --threads 0 --dir "$x"
expect 2 "name the materials, or give --pieces" -- gen --variant russian --dir "$x"
expect 2 "--variant is required" -- gen --pieces 2 --dir "$x"
expect 2 "unknown option '--speed'" -- gen --variant russian --pieces 2 --speed --dir "$x"
expect 2 "--dir needs a value" -- gen --variant russian --pieces 2 --dir
check "a refused command created $x" test ! -e "$x"
expect 0 "--pieces N" -- gen --help

# --- Where tables cannot be written: exit 1 and a message --------------------------------
expect 1 "cannot create the table directory (No such file or directory): /proc/damero/russian" -- \
  gen --variant russian --pieces 2 --dir /proc/damero
touch "$tmp/plain"
expect 1 "cannot create the table directory (Not a directory): $tmp/plain/sub/russian" -- \
  gen --variant russian --pieces 2 --dir "$tmp/plain/sub"
# a path of thousands of characters keeps the reason in the message
long="$tmp/$(printf 'a%.0s' $(seq 1 3000))"
expect 1 "cannot create the table directory (File name too long)" -- \
  gen --variant russian --pieces 2 --dir "$long"
# a lock that is a symbolic link is refused, saying what to do
mkdir -p "$tmp/linked/russian"
ln -s elsewhere "$tmp/linked/russian/.damero-gen.lock"
expect 1 "is a symbolic link; a build's lock is a plain file of its own: remove the link" -- \
  gen --variant russian --pieces 2 --dir "$tmp/linked"

# An address-space limit too small for the stacks of the threads asked for: fewer threads
# start, saying so, instead of OpenMP ending the process ("Thread creation failed"), and
# the tables are the same. Skipped where the binary cannot start under the limit at all
# (the sanitizers reserve terabytes of address space).
if (ulimit -v 100000; exec "$damero" --help) >/dev/null 2>&1; then
  checks=$((checks + 1))
  out=$( (ulimit -v 100000; exec "$damero" gen --variant russian --pieces 2 --threads 64 \
          --dir "$tmp/vlimit") 2>&1)
  status=$?
  if [ "$status" -ne 0 ] || [[ "$out" != *"threads could start"*"the tables are the same"* ]] ||
     [[ "$out" == *libgomp* ]]; then
    fail "gen --threads 64 under ulimit -v 100000 -> exit $status, output:"
    echo "$out" | sed 's/^/    /'
  fi
  for file in "$tmp/vlimit/russian"/*; do
    check "${file##*/} built with fewer threads differs" cmp -s "$file" "$tmp/reference/${file##*/}"
  done
fi

# A full disk, simulated by the file size limit (in 512-byte blocks; the signal ignored
# so that the write fails with EFBIG instead of killing damero): the build stops with a
# message, every table file left is whole, and a later run completes the set.
f=$tmp/full/russian
checks=$((checks + 1))
out=$( (trap '' XFSZ; ulimit -f 4; exec "$damero" gen --variant russian --pieces 3 --dir "$tmp/full") 2>&1)
status=$?
if [ "$status" -ne 1 ] || [[ "$out" != *"cannot write $f/"*"File too large"* ]]; then
  fail "gen with a 2 KB file size limit -> exit $status (want 1 and 'File too large'), output:"
  echo "$out" | sed 's/^/    /'
fi
check "a temporary file is left after a failed write" no_temporary "$tmp/full"
for file in "$f"/*; do
  check "${file##*/} left by the failed build is not whole" cmp -s "$file" "$tmp/reference/${file##*/}"
done
check "the failed build wrote every file (the limit did not bite)" test "$(ls "$f" | wc -l)" -lt 27
expect 0 "found intact" -- gen --variant russian --pieces 3 --dir "$tmp/full"
check "the build completed after a failed one differs" same_files "$f" "$tmp/reference"

# --- info: text and JSON; figures known by reasoning ----------------------------------
expect 0 "Russian draughts (shashki) KKvK: 29760 positions (14880 per side to move, 3786 stored)" -- \
  info "$a/KKvK.dtm"
for ext in wdl mtc; do
  expect 0 "KKvK: 29760 positions" -- info "$a/KKvK.$ext"
done
expect 0 "longest win: 7 plies (DTM)" -- info "$a/KKvK.dtm"
# --variant NAME MATERIAL: the same as naming its file, found in the table root (--dir or
# DAMERO_TABLES), the material with either side first
by_file=$("$damero" info --json "$a/KKvK.dtm")
for material in KKvK KvKK; do
  checks=$((checks + 1))
  by_name=$("$damero" info --json --variant russian --dir "$tmp/a" "$material")
  [ -n "$by_name" ] && [ "$by_name" = "$by_file" ] || fail "info --variant russian $material printed '$by_name', not '$by_file'"
done
checks=$((checks + 1))
by_name=$(DAMERO_TABLES=$tmp/a "$damero" info --variant russian KMvK)
[ "$by_name" = "$("$damero" info "$a/KMvK.wdl")" ] || fail "info --variant, the root from DAMERO_TABLES: '$by_name'"
expect 1 "no .wdl table for KKKvK in $a: build it with 'damero gen --variant russian --dir $tmp/a KKKvK'" -- \
  info --variant russian --dir "$tmp/a" KKKvK
expect 1 '{"material": "KvKKK", "error": "no .wdl table for KvKKK in '"$a"': build it with' -- \
  info --json --variant russian --dir "$tmp/a" KvKKK
expect 2 "'KXvK' is not a material" -- info --variant russian --dir "$tmp/a" KXvK
expect 2 "--dir goes with --variant" -- info --dir "$tmp/a" "$a/KvK.wdl"
expect 2 "name one material" -- info --variant russian --dir "$tmp/a"

# side_json JSON SIDE: the object of SIDE ("white" or "black") in info's JSON, which
# gives White's first.
side_json() {
  local rest=${1#*\"$2\": }
  if [ "$2" = white ]; then
    echo "${rest%%, \"black\": *}"
  else
    echo "${rest%\}}"
  fi
}

# field SIDE_JSON NAME: a number-valued field.
field() {
  sed -n "s/.*\"$2\": \([0-9-]*\).*/\1/p" <<< "$1"
}

# consistent JSON MATERIAL: per side, wins + draws + losses = positions and the histogram
# counts every win and loss once; both sides' positions add up to the total.
consistent() {
  local json=$1 side obj total=0 ok=0 w d l p hist sum
  for side in white black; do
    obj=$(side_json "$json" "$side")
    p=$(field "$obj" positions) w=$(field "$obj" wins) d=$(field "$obj" draws) l=$(field "$obj" losses)
    if [ -z "$p" ] || [ -z "$w" ] || [ -z "$d" ] || [ -z "$l" ]; then
      echo "    $2 $side: a count is missing in $obj"
      return 1
    fi
    [ $((w + d + l)) -eq "$p" ] || { echo "    $2 $side: $w + $d + $l != $p"; ok=1; }
    hist=${obj#*\"dtm_histogram\": \{}
    hist=${hist%%\}*}
    sum=$(($(grep -o ': [0-9]*' <<< "$hist" | tr -d ': ' | paste -sd+)))
    [ "$sum" -eq $((w + l)) ] || { echo "    $2 $side: the histogram sums to $sum, not $((w + l))"; ok=1; }
    total=$((total + p))
  done
  [ "$(field "${json%%\"white\"*}" positions)" -eq "$total" ] || { echo "    $2: positions != white + black"; ok=1; }
  return $ok
}

jsons=()
for m in "${three[@]}" KKKvK KKMvK; do
  dir=$a
  [ -e "$dir/$m.dtm" ] || dir=$n
  expect 0 "{\"variant\": \"russian\", \"material\": \"$m\", \"positions\": " -- info --json "$dir/$m.dtm"
  json=$out
  check "info --json $m prints more than one line" test "$(wc -l <<< "$json")" -eq 1
  for key in positions wins draws losses max_dtm max_dtm_fen dtm_histogram max_mtc; do
    check "info --json $m: no \"$key\" for each side" test "$(grep -o "\"$key\": " <<< "$json" | wc -l)" -ge 2
  done
  check "info --json $m: the counts do not add up" consistent "$json" "$m"
  jsons+=("$json")
done
# The structure, by a JSON parser where there is one (one run for every material).
if command -v python3 > /dev/null; then
  check "info --json does not print one JSON object with the documented keys" python3 -c '
import json, sys
for text in sys.argv[1:]:
    o = json.loads(text)
    assert set(o) == {"variant", "material", "positions", "white", "black"}, text
    for side in ("white", "black"):
        s = o[side]
        assert set(s) == {"positions", "wins", "draws", "losses", "max_dtm", "max_dtm_fen",
                          "dtm_histogram", "max_mtc"}, text
        assert s["wins"] + s["draws"] + s["losses"] == s["positions"], text
        assert sum(s["dtm_histogram"].values()) == s["wins"] + s["losses"], text
        assert (s["max_dtm"] is None) == (s["max_dtm_fen"] is None) == (s["wins"] == 0), text
        if s["wins"]:
            assert s["max_dtm"] == max(int(k) for k in s["dtm_histogram"] if int(k) > 0), text
    assert o["positions"] == o["white"]["positions"] + o["black"]["positions"], text
' "${jsons[@]}"
else
  echo "note: python3 not found, the JSON structure was checked with grep only"
fi

# Russian KvK, counted by hand. White to move wins in 1 ply exactly where its king can
# take Black's: both on a diagonal, Black's not at its end. A diagonal of L squares holds
# (L-1)(L-2) such ordered pairs; the lengths are 8,6,6,4,4,2,2 and 7,7,5,5,3,3,1,1, so
# 94 + 88 = 182. In 3 plies when Black's king is in a corner (its one diagonal) and
# White's king can go to the other corner (from the 6 squares between): every move of
# Black's is then taken, so 2 * 6 = 12; a king on an edge cannot be taken, so nothing
# else is won. Lost in 2 plies: White's king in a corner, Black's in the other (2).
# Black to move is the same by the colour flip.
run info --json "$a/KvK.dtm"
for side in white black; do
  obj=$(side_json "$out" "$side")
  check "KvK $side: the histogram is not {1: 182, 3: 12, -2: 2}: $obj" \
    grep -q '"dtm_histogram": {"1": 182, "3": 12, "-2": 2}' <<< "$obj"
  check "KvK $side: not 194 wins, 796 draws, 2 losses of 992: $obj" \
    grep -q '"positions": 992, "wins": 194, "draws": 796, "losses": 2, "max_dtm": 3,' <<< "$obj"
done
# KKvK, Black to move has no move in 2 positions: its king in a corner behind White's
# two kings on the long diagonal (a1 behind b2, c3; h8 behind g7, f6). A lost game at 0
# plies is "0" in the histogram.
run info --json "$a/KKvK.dtm"
check "KKvK black: not 2 positions without a move: $(side_json "$out" black)" \
  grep -q '"0": 2[,}]' <<< "$(side_json "$out" black)"

# International KMvKM: the issue that asked for the generator gives the histogram of a
# reference generator as an example, {"1": 262080, "-2": 12088}; ours has those counts.
expect 0 "10 tables built" -- gen --variant international KMvKM --dir "$tmp/i"
run info --json "$tmp/i/international/KMvKM.dtm"
for side in white black; do
  check "international KMvKM $side: not 262080 wins in 1 and 12088 losses in 2: $out" \
    grep -q '"dtm_histogram": {"1": 262080, .*"-2": 12088' <<< "$(side_json "$out" "$side")"
done

# --- The memory budget: a plan that cannot fit is refused before any work ---------------
expect 1 "russian KMvKM needs about" -- gen --variant russian --pieces 4 --memory 0.01 --dir "$tmp/budget"
check "a refused build wrote files: $(ls -R "$tmp/budget" 2>/dev/null)" \
  test -z "$(ls "$tmp/budget/russian" 2>/dev/null)"
check "the refusal does not say how to fix it: $out" grep -q -- "--memory GB" <<< "$out"
expect 0 "budget 16.00 GB: fits" -- gen --variant russian --pieces 6 --estimate --memory 16 \
  --dir "$tmp/budget"
check "--estimate wrote files: $(ls -R "$tmp/budget" 2>/dev/null)" \
  test -z "$(ls "$tmp/budget/russian" 2>/dev/null)"
# --json is the plan of --estimate (tests/test_cluster_model.py reads it), nothing alone
expect 2 "--json prints the plan of --estimate: add --estimate" -- gen --variant russian \
  --pieces 3 --json --dir "$tmp/budget"
# it also estimates the time, from a few small materials it solves in a temporary folder
# of its own, removed after (what it prints is checked, never how long it takes)
mkdir "$tmp/calibration"
TMPDIR=$tmp/calibration expect 0 "russian material of up to 4 pieces" -- gen --variant \
  russian --pieces 5 --threads 1 --estimate --dir "$tmp/budget"
check "no time estimate with its basis: $out" grep -qE \
  "^time about [0-9].* wall on 1 thread \(.* of processor time\) to solve 45 materials.*an estimate$" \
  <<< "$out"
check "no rates of kings-only and men materials: $out" \
  grep -qE "kings only [0-9.]+ M, with men [0-9.]+ M positions per processor-second" <<< "$out"
check "the calibration left files: $(ls -R "$tmp/calibration")" \
  test -z "$(ls "$tmp/calibration")"
check "--estimate wrote files: $(ls -R "$tmp/budget" 2>/dev/null)" \
  test -z "$(ls "$tmp/budget/russian" 2>/dev/null)"
# the materials found on disk are read, not solved: not in the time
expect 0 "to solve 0 materials" -- gen --variant russian --pieces 3 --estimate --dir "$tmp/a"
expect 0 "to solve 14 materials" -- gen --variant russian --pieces 4 --estimate --dir "$tmp/a"
TMPDIR=$tmp/nowhere expect 1 "set TMPDIR to a folder that can be written" -- gen --variant \
  russian --pieces 3 --estimate --dir "$tmp/budget"
# level by level, six pieces on 8x8 fit 1 GB but not half of it, five on 10x10 not half
# a GB either
expect 0 "budget 1.00 GB: fits" -- gen --variant russian --pieces 6 --estimate --memory 1 \
  --dir "$tmp/budget"
expect 1 "russian KKMvKMM needs about" -- gen --variant russian --pieces 6 --memory 0.5 \
  --dir "$tmp/budget"
expect 1 "does not fit" -- gen --variant international --pieces 5 --estimate --memory 0.5 \
  --dir "$tmp/budget"
# seven pieces on 8x8 fit 16 GB, not 8; six on 10x10 fit 16 GB, not 10 (the level sizes
# are counted, not unranked: a second at most)
expect 0 "budget 16.00 GB: fits" -- gen --variant russian --pieces 7 --estimate --memory 16 \
  --dir "$tmp/budget"
expect 1 "russian KKMMvKMM needs about" -- gen --variant russian --pieces 7 --memory 8 \
  --dir "$tmp/budget"
expect 0 "budget 16.00 GB: fits" -- gen --variant international --pieces 6 --estimate \
  --memory 16 --dir "$tmp/budget"
expect 1 "international KKMvKMM needs about" -- gen --variant international --pieces 6 \
  --memory 10 --dir "$tmp/budget"
# with a budget, the estimate also gives what the build will hold keeping finished tables
# for later materials: never more than the budget, never less than the least it needs
gigabytes() {
  sed -n "s/.*$1 about \([0-9.]*\) \([GM]B\).*/\1 \2/p" <<< "$out" |
    awk '{ print $2 == "MB" ? $1 / 1024 : $1 }'
}
for budget in 1.2 16; do
  expect 0 "kept for later materials" -- gen --variant russian --pieces 6 --estimate \
    --memory $budget --dir "$tmp/budget"
  check "kept tables with $budget GB: less than the least need or over the budget: $out" \
    awk -v least="$(gigabytes "peak memory")" -v kept="$(gigabytes "fit: peak")" \
    -v budget=$budget 'BEGIN { exit !(least > 0 && kept >= least && kept <= budget) }'
done
# a material whose table is on disk is read and checked, not solved
expect 0 "reading (found on disk) KMvKM" -- gen --variant international KMvKM \
  --estimate --dir "$tmp/i"
expect 2 "--memory takes a number of gigabytes" -- gen --variant russian --pieces 3 --memory lots

# --- --metrics wdl+mtc: WDL and MTC without DTM, the bytes of the other builds ----------
# Its .wdl files are a WDL-only build's (exact values, flagged: later builds read them)
# and its .mtc files a whole build's, in every variant: MTC needs only who wins, not the
# distance to mate. Up to 3 pieces each (Turkish men step sideways), russian up to 4 (men
# and kings on both sides); the WDL + MTC builds with 2 threads and their levels in files,
# the others with 1 thread, holding them.
# same_metric DIR1 DIR2 EXT: every DIR1/*.EXT has its twin in DIR2, the same bytes.
same_metric() {
  local f ok=0
  for f in "$1"/*."$3"; do
    cmp -s "$f" "$2/${f##*/}" || { echo "    ${f##*/} differs from $1"; ok=1; }
  done
  return $ok
}
m=$tmp/metrics
for spec in international:3 brazilian:3 russian:4 pool:3 spanish:3 czech:3 italian:3 \
  english:3 poddavki:3 ganapierde:3 turkish:3; do
  v=${spec%:*} n=${spec#*:}
  for metrics in all wdl; do
    expect 0 "$v: " -- gen --variant $v --pieces $n --threads 1 --metrics $metrics \
      --dir "$m/$metrics"
  done
  expect 0 "$v: " -- gen --variant $v --pieces $n --threads 2 --metrics wdl+mtc \
    --hold-levels 0 --dir "$m/wm"
  check "$v: files of WDL + MTC other than a .wdl and a .mtc per table of the whole build" \
    test "$(ls "$m/wm/$v")" = "$(ls "$m/all/$v" | grep -v '\.dtm$')"
  check "$v: the .mtc of WDL + MTC differ from the whole build's" \
    same_metric "$m/all/$v" "$m/wm/$v" mtc
  check "$v: the .wdl of WDL + MTC differ from the WDL-only build's" \
    same_metric "$m/wdl/$v" "$m/wm/$v" wdl
done
check "a level file left after the WDL + MTC builds" test -z "$(find "$m/wm" -name '*.level*')"
# 'wdl,mtc' is the same; --self-check and --rules need the DTM it leaves out
expect 0 "russian: 0 tables built, 9 found intact" -- gen --variant russian --pieces 3 \
  --metrics wdl,mtc --dir "$m/wm"
expect 2 "--metrics wdl+mtc does not build DTM" -- gen --variant russian --pieces 3 \
  --metrics wdl+mtc --self-check --dir "$m/wm"
expect 2 "--rules reads DTM and MTC; --metrics wdl,mtc does not build DTM" -- gen \
  --variant russian --pieces 3 --metrics wdl,mtc --rules --dir "$m/wm"
# info describes such a table without DTM and with the whole build's longest MTC; check
# reads every file through
expect 0 "no DTM: the table was built without it" -- info "$m/wm/russian/KMMvK.wdl"
wm_mtc=$(grep "longest MTC" <<< "$out")
expect 0 "longest MTC" -- info "$m/all/russian/KMMvK.wdl"
check "info's longest MTC of WDL + MTC ($wm_mtc) is not the whole build's" \
  test "$wm_mtc" = "$(grep "longest MTC" <<< "$out")"
expect 0 '"max_dtm": null, "max_dtm_fen": null, "dtm_histogram": null' -- \
  info --json "$m/wm/russian/KMMvK.mtc"
expect 0 "russian: 46 table files checked, 0 bad" -- check --variant russian --dir "$m/wm"
# a folder built with fewer metrics is built again where it lacks a file, saying which
mkdir "$m/rebuilt"
cp -r "$m/wdl/russian" "$m/rebuilt"
r=$m/rebuilt/russian
expect 0 "$r/KMvK has no intact .mtc file: building it again" -- gen \
  --variant russian --pieces 4 --metrics wdl+mtc --dir "$m/rebuilt"
check "WDL + MTC built over WDL-only tables differ from a build of its own" \
  same_files "$m/wm/russian" "$r"
expect 0 "$r/KMvK has no .dtm file (built without DTM): building it again" -- gen \
  --variant russian --pieces 4 --dir "$m/rebuilt"
check "a whole build over WDL + MTC tables differs from a build of its own" \
  same_files "$m/all/russian" "$r"
# the memory the plan counts to solve a material: WDL + MTC between WDL alone and all
solving=()
for metrics in wdl wdl+mtc all; do
  expect 0 "fits" -- gen --variant russian --pieces 7 --estimate --memory 16 \
    --metrics $metrics --dir "$tmp/budget"
  solving+=("$(sed -n 's/.*, \([0-9.]*\) of them to solve it.*/\1/p' <<< "$out")")
done
check "bytes per position to solve (wdl, wdl+mtc, all): ${solving[*]}" \
  awk -v a="${solving[0]}" -v b="${solving[1]}" -v c="${solving[2]}" \
  'BEGIN { exit !(a > 0 && a < b && b < c) }'

# --- info on what is not a readable table: exit 1 and a message ---------------------------
expect 1 "cannot open $tmp/none.dtm" -- info "$tmp/none.dtm"
echo "not a table at all" > "$tmp/text.dtm"
expect 1 "$tmp/text.dtm is not a damero table" -- info "$tmp/text.dtm"
cp "$a/KMvK.dtm" "$tmp/KMvK.dtm.bak"
flip_byte "$a/KMvK.dtm" "$(middle "$a/KMvK.dtm")"
expect 1 "KMvK.dtm: " -- info "$a/KMvK.dtm"
expect 1 "KMvK.dtm: " -- info "$a/KMvK.wdl"
cp "$tmp/KMvK.dtm.bak" "$a/KMvK.dtm"
flip_byte "$a/KMvK.wdl" "$(middle "$a/KMvK.wdl")"
expect 1 "KMvK.wdl: " -- info "$a/KMvK.wdl"
rm "$a/KMvK.mtc"
expect 1 "cannot open $a/KMvK.mtc" -- info "$a/KMvK.dtm"
# a file that is not what its name says, or lies in another variant's folder, is blamed
w=$tmp/w/russian
mkdir -p "$w" "$tmp/w/english"
cp "$tmp/reference"/* "$w"
cp "$w/KKvK.dtm" "$w/KMvK.dtm"
expect 1 "$w/KMvK.dtm holds the table KKvK.dtm of russian, not what its name says" -- \
  info "$w/KMvK.dtm"
cp "$w/KKvK.dtm" "$w/KKvK.mtc" "$tmp/w/english"
expect 1 "$tmp/w/english/KKvK.dtm is a table of russian, but lies in the folder of english" -- \
  info "$tmp/w/english/KKvK.dtm"
# values beyond the metric's range, in files whose checksums are all valid
cp "$tmp/reference"/* "$w"
"$craft_table" "$w/KKvK.dtm" 0 5 65535 || fail "craft_table failed"
expect 1 "KKvK.dtm: block 0 is damaged (a value beyond the metric's range)" -- info "$w/KKvK.dtm"
cp "$tmp/reference"/* "$w"
"$craft_table" "$w/KKvK.mtc" 1 7 40000 || fail "craft_table failed"
expect 1 "KKvK.mtc: block 1 is damaged (a value beyond the metric's range)" -- info "$w/KKvK.wdl"
cp "$tmp/reference"/* "$w"
"$craft_table" "$w/KKvK.wdl" 0 3 3 || fail "craft_table failed"
expect 1 "KKvK.wdl: block 0 is damaged (a value beyond the metric's range)" -- info "$w/KKvK.wdl"
expect 2 "name one table file" -- info
expect 2 "unknown option '--yaml'" -- info --yaml "$a/KvK.dtm"
expect 0 "--json" -- info --help

summary
