#!/usr/bin/env bash
# The hot functions' two copies (core/cpu.h) give the same results: perft counts and
# table bytes with the copies for popcnt and BMI2 (the default where the processor has
# them) and with the baseline ones forced by DAMERO_CPU=baseline. The tables cover men
# (index with men), kings only on the diagonal boards (four symmetries) and the
# orthogonal one (eight), and the precedence rules of several variants.
#
# Usage: test_cpu_dispatch.sh DAMERO
set -u
export LC_ALL=C
. "$(dirname "$0")/cli_harness.sh"
damero=$1
make_tmp cpu-dispatch

for variant in international russian italian turkish; do
  checks=$((checks + 1))
  fast=$("$damero" perft --variant "$variant" --depth 6 --keep-duplicates | awk '{print $1, $2}')
  base=$(DAMERO_CPU=baseline "$damero" perft --variant "$variant" --depth 6 --keep-duplicates |
         awk '{print $1, $2}')
  [ -n "$fast" ] && [ "$fast" = "$base" ] ||
    fail "$variant perft differs under DAMERO_CPU=baseline: $fast / $base"
done

for build in "russian --pieces 3" "turkish --pieces 3" "international KKvK KMvK KKvKK"; do
  set -- $build
  check "damero gen --variant $build" "$damero" gen --variant $build --threads 2 --dir "$tmp/fast" >/dev/null
  check "DAMERO_CPU=baseline damero gen --variant $build" \
    env DAMERO_CPU=baseline "$damero" gen --variant $build --threads 1 --dir "$tmp/base" >/dev/null
  check "$1 tables the same under DAMERO_CPU=baseline" same_files "$tmp/fast/$1" "$tmp/base/$1"
done
summary
