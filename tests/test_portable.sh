#!/usr/bin/env bash
# The installed artifacts run on any processor of the architecture unless the build asked
# for this machine's (-DDAMERO_NATIVE=ON): on x86-64, libdamero and the damero command hold
# no instruction beyond the baseline that compilers use when told to target the host
# (popcnt, the BMI1/BMI2 bit instructions, AVX registers).
#
# Usage: test_portable.sh FILE...  Exits 77 (skipped) off x86-64 or without objdump.
set -u
export LC_ALL=C
. "$(dirname "$0")/cli_harness.sh"

if [ "$(uname -m)" != x86_64 ] || ! command -v objdump >/dev/null; then
  echo "SKIP: not x86-64, or no objdump"
  exit 77
fi
for file in "$@"; do
  checks=$((checks + 1))
  found=$(objdump -d --no-show-raw-insn "$file" |
          grep -oE '\b(popcnt|pdep|pext|shlx|shrx|sarx|blsr|blsi|blsmsk|andn|bzhi)\b|%[yz]mm[0-9]+' |
          sort | uniq -c | sort -rn | head -5)
  [ -z "$found" ] || fail "$file uses instructions beyond the x86-64 baseline (built with -march=native?):
$found"
done
summary
