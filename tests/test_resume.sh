#!/usr/bin/env bash
# A build killed outright (kill -9) at several points and run again ends with the same
# bytes as a build never interrupted; WDL-only builds (--metrics wdl) too, and those are
# the same whatever the thread count.
set -u
export LC_ALL=C
damero=$1
kill_at_level=$2 # a library that kills the build right after its Nth level file
. "$(dirname "$0")/cli_harness.sh"
make_tmp resume

# killed_when N DIR ARGS...: starts damero gen ARGS, kills it with SIGKILL as soon as
# DIR holds N files or more (finished tables or a table being written), and waits for it.
killed_when() {
  local n=$1 dir=$2 pid waited=0
  shift 2
  "$damero" gen "$@" > /dev/null 2>&1 &
  pid=$!
  while kill -0 "$pid" 2> /dev/null && [ "$(ls "$dir" 2> /dev/null | wc -l)" -lt "$n" ] &&
    [ "$waited" -lt 12000 ]; do
    sleep 0.01
    waited=$((waited + 1))
  done
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  return 0
}

# resumed NAME "N1 N2 N3" ARGS...: builds into $tmp/NAME, killed when it holds N1, N2 and
# N3 files, then to the end; the result must be the bytes of $tmp/reference-NAME.
resumed() {
  local name=$1 points=$2 n
  shift 2
  for n in $points; do
    killed_when "$n" "$tmp/$name/russian" "$@" --threads 2 --dir "$tmp/$name"
  done
  expect 0 "found intact" -- gen "$@" --threads 2 --dir "$tmp/$name"
  check "$name: the killed builds finished everything, nothing was left to resume: $out" \
    grep -Eq "[1-9][0-9]* tables? built" <<< "$out"
  check "$name: a build killed three times differs from one never killed" \
    same_files "$tmp/reference-$name/russian" "$tmp/$name/russian"
}

# Two 4-piece materials and the ten they depend on: enough files to stop at several
# points, small enough to build in seconds.
materials=(KKMvK KMvKM)

# --- all three metrics -----------------------------------------------------------------
expect 0 "russian: 12 tables built" -- gen --variant russian "${materials[@]}" --threads 1 \
  --dir "$tmp/reference-all"
resumed all "2 9 25" --variant russian "${materials[@]}" # 36 files

# --- WDL only: one file per material, flagged, the same with 1 and 2 threads ------------
expect 0 "russian: 12 tables built" -- gen --variant russian "${materials[@]}" --threads 1 \
  --metrics wdl --dir "$tmp/reference-wdl"
check "a WDL-only build wrote other files than .wdl: $(ls "$tmp/reference-wdl/russian" | grep -v '\.wdl$')" \
  test -z "$(ls "$tmp/reference-wdl/russian" | grep -v '\.wdl$')"
expect 0 "russian: 12 tables built" -- gen --variant russian "${materials[@]}" --threads 2 \
  --metrics wdl --dir "$tmp/wdl2"
check "a WDL-only build with 2 threads differs from one with 1" \
  same_files "$tmp/reference-wdl/russian" "$tmp/wdl2/russian"
resumed wdl "1 3 8" --variant russian "${materials[@]}" --metrics wdl # 12 files
# levels in files (--hold-levels 0) or held in memory (the default here): the same bytes
expect 0 "russian: 12 tables built" -- gen --variant russian "${materials[@]}" --threads 2 \
  --metrics wdl --hold-levels 0 --dir "$tmp/wdl-files"
check "a WDL-only build with its levels in files differs from one holding them" \
  same_files "$tmp/reference-wdl/russian" "$tmp/wdl-files/russian"

# --- WDL + MTC without DTM: .wdl and .mtc, the same with 1 and 2 threads, resumed -------
expect 0 "russian: 12 tables built" -- gen --variant russian "${materials[@]}" --threads 1 \
  --metrics wdl+mtc --dir "$tmp/reference-wm"
check "a WDL + MTC build wrote other files than .wdl and .mtc" \
  test -z "$(ls "$tmp/reference-wm/russian" | grep -v '\.wdl$' | grep -v '\.mtc$')"
resumed wm "2 7 17" --variant russian "${materials[@]}" --metrics wdl+mtc # 24 files

# --- killed inside a material: it resumes from the last level it finished ---------------
# Each level of men advancement goes to its own file (MATERIAL.levelNNN) as soon as it is
# solved (--hold-levels 0: by default a material as small as this one holds its levels in
# memory). A build killed while N level files are there continues from them when run
# again, says so, removes them once the table files are written, and ends with the bytes
# of a build never interrupted, which held its levels in memory.
level_files() { ls "$1" 2> /dev/null | grep -c '\.level[0-9]*$'; }
# the materials with level files but no table yet: killed while solving them (the files
# of one killed after its tables were written are only removed)
unfinished() {
  local m
  for m in $(ls "$1" | sed -n 's/\.level[0-9]*$//p' | sort -u); do
    [ -e "$1/$m.wdl" ] || echo "$m"
  done
}
# The kill comes from inside the build (kill_at_level.c), right after its Nth level file:
# polled from here, a small material's levels can all be written between two looks.
# killed_in_levels N NAME ARGS...: builds MMvMM with ARGS into $tmp/NAME, killed at its
# Nth level file, then to the end; the bytes must be those of $tmp/reference-NAME.
# Counts in resumed_levels the kills that landed inside a material.
resumed_levels=0
killed_in_levels() {
  local n=$1 name=$2 d=$tmp/$2
  shift 2
  # ASan wants its runtime first among the libraries; this one only wraps rename
  DAMERO_KILL_AT_LEVEL_FILE=$n LD_PRELOAD=$kill_at_level \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
    "$damero" gen --variant russian MMvMM "$@" --threads 2 --hold-levels 0 --dir "$d" \
    > /dev/null 2>&1
  check "the build was not killed at its level file $n (exit $?)" test "$?" -eq 137
  left=$(unfinished "$d/russian")
  expect 0 "russian: " -- gen --variant russian MMvMM "$@" --threads 2 --hold-levels 0 \
    --dir "$d"
  if [ -n "$left" ]; then
    check "killed while solving $left, the build did not resume from its levels: $out" \
      grep -q "levels of men advancement found finished" <<< "$out"
    resumed_levels=$((resumed_levels + 1))
  fi
  check "level files left after a finished build: $(ls "$d/russian" | grep level)" \
    test "$(level_files "$d/russian")" -eq 0
  check "a build killed with $n level files differs from one never killed" \
    same_files "$tmp/reference-${name%-*}/russian" "$d/russian"
}
expect 0 "russian: " -- gen --variant russian MMvMM --threads 1 --dir "$tmp/reference-levels"
for n in 2 5 9; do
  killed_in_levels $n levels-$n
done
check "only $resumed_levels of the 3 kills landed inside a material" test "$resumed_levels" -eq 3
# the levels of a WDL + MTC build hold two bits and the MTC of each position (format 4)
expect 0 "russian: " -- gen --variant russian MMvMM --threads 1 --metrics wdl+mtc \
  --dir "$tmp/reference-wm_levels"
resumed_levels=0
for n in 5 30; do
  killed_in_levels $n wm_levels-$n --metrics wdl+mtc
done
check "only $resumed_levels of the 2 WDL + MTC kills landed inside a material" \
  test "$resumed_levels" -eq 2

# A level file damaged after the kill is read through before it is trusted: the build
# says so, solves that level again, and ends with the bytes of a build never interrupted
# (trusted on its header alone, it failed the build once every other level was solved).
# damaged_level NAME OFFSET WORDS [REFERENCE ARGS...]: kills a build (with ARGS) at its
# 40th level file (inside KMvM), flips the byte at OFFSET ("middle": in the zstd frame)
# of the last level file written, and builds again into $tmp/NAME, which says WORDS and
# ends with the bytes of $tmp/reference-REFERENCE (default: levels).
damaged_level() {
  local name=$1 d=$tmp/$1/russian at=$2 words=$3 reference=${4:-levels} victim
  shift 3
  [ $# -eq 0 ] || shift # past REFERENCE, to ARGS
  DAMERO_KILL_AT_LEVEL_FILE=40 LD_PRELOAD=$kill_at_level \
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
    "$damero" gen --variant russian MMvMM "$@" --threads 2 --hold-levels 0 --dir "$tmp/$name" \
    > /dev/null 2>&1
  victim=$(ls "$d/$(unfinished "$d")".level* | tail -1) # the others resume
  check "$name: the level file to damage is too small to have data past its header" \
    test "$(wc -c < "$victim")" -gt 1000
  [ "$at" = middle ] && at=$(($(wc -c < "$victim") / 2))
  flip_byte "$victim" "$at"
  expect 0 "$words" -- gen \
    --variant russian MMvMM "$@" --threads 2 --hold-levels 0 --dir "$tmp/$name"
  check "$name: the build did not resume from the level files before the damaged one: $out" \
    grep -q "levels of men advancement found finished" <<< "$out"
  check "$name: a build with a damaged level file differs from one never killed" \
    same_files "$tmp/reference-$reference/russian" "$d"
}
damaged="is damaged: solving its level again"
damaged_level damaged-values middle "$damaged"
# the header's largest DTM (bytes 36 to 39 of struct level_header), which chooses the
# .dtm file's width: byte 37 flipped makes it 16 bits where 8 sufficed
damaged_level damaged-largest 37 "$damaged"
# the header's format version (bytes 8 to 11): another version's level is solved again,
# without a word
damaged_level other-version 8 "levels of men advancement found finished"
check "a level file of another version was called damaged: $out" \
  test -z "$(grep 'is damaged' <<< "$out")"
# the WDL + MTC levels: damaged in their two bits and MTC, or in the header's largest MTC
# (bytes 40 to 43), which chooses the .mtc file's width
damaged_level wm-damaged-values middle "$damaged" wm_levels --metrics wdl+mtc
damaged_level wm-damaged-largest 41 "$damaged" wm_levels --metrics wdl+mtc

# Held in memory (the default for so small a material), no level file is written: the
# same kill never comes. Killed from outside, such a build solves the material again.
DAMERO_KILL_AT_LEVEL_FILE=1 LD_PRELOAD=$kill_at_level \
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
  "$damero" gen --variant russian MMvMM --threads 2 --dir "$tmp/held" > /dev/null 2>&1
check "a build holding its levels in memory wrote a level file (exit $?)" test "$?" -eq 0
check "a build holding its levels in memory differs from one writing them to files" \
  same_files "$tmp/levels-2/russian" "$tmp/held/russian"
expect 2 "--hold-levels takes a whole number" -- gen --variant russian MMvMM --hold-levels 0.5

# info describes a WDL-only table without the DTM and MTC it lacks
expect 0 "no DTM: the table was built without it" -- info "$tmp/wdl2/russian/KKvK.wdl"
check "info gave a longest MTC for a WDL-only table: $out" \
  test -z "$(grep "longest MTC" <<< "$out")"
expect 2 "--metrics takes 'all' (WDL, DTM and MTC), 'wdl' (WDL tables only), 'wdl+mtc' (WDL and MTC, no DTM) or 'wdl,mtc' (the same), not 'dtm'" -- gen --variant russian --pieces 3 --metrics dtm
expect 2 "--self-check checks DTM and MTC" -- gen --variant russian --pieces 3 --metrics wdl \
  --self-check

summary
