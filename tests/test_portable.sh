#!/usr/bin/env bash
# The installed artifacts run on any processor of the architecture unless the build asked
# for this machine's (-DDAMERO_NATIVE=ON): on x86-64, libdamero and the damero command hold
# no instruction beyond the baseline that compilers use when told to target the host
# (popcnt, the BMI1/BMI2 bit instructions, AVX registers), except in the copies of the hot
# functions compiled for processors that have popcnt and BMI2 (core/cpu.h: their names
# end in _fast), which are called only on such processors.
#
# Usage: test_portable.sh CC FILE...  Exits 77 (skipped) off x86-64 or without objdump.
# CC compiles a small object with a stray popcnt, to check that the check catches it.
set -u
export LC_ALL=C
. "$(dirname "$0")/cli_harness.sh"

if [ "$(uname -m)" != x86_64 ] || ! command -v objdump >/dev/null; then
  echo "SKIP: not x86-64, or no objdump"
  exit 77
fi
cc=$1
shift
make_tmp portable

# beyond_baseline FILE: "COUNT FUNCTION INSTRUCTION" for each instruction beyond the
# baseline, in functions that are not _fast copies (nor the parts GCC splits from them).
beyond_baseline() {
  objdump -d --no-show-raw-insn "$1" |
    awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 }
         match($0, /\t(popcnt|pdep|pext|shlx|shrx|sarx|blsr|blsi|blsmsk|andn|bzhi) /) {
           if (fn !~ /_fast(\.[a-z]+\.?[0-9]*)*>:$/) print fn, substr($0, RSTART + 1, RLENGTH - 2)
         }
         /%[yz]mm[0-9]+/ { print fn, "avx" }' |
    sort | uniq -c | sort -rn | head -5
}

for file in "$@"; do
  checks=$((checks + 1))
  found=$(beyond_baseline "$file")
  [ -z "$found" ] || fail "$file uses instructions beyond the x86-64 baseline outside the _fast copies (built with -march=native?):
$found"
  checks=$((checks + 1))
  objdump -d --no-show-raw-insn "$file" | grep -q '_fast>:' ||
    fail "$file has no _fast copy of the hot functions (core/cpu.h)"
done

# The check itself: a popcnt outside a _fast function is caught, one inside is not.
cat > "$tmp/stray.c" <<'C'
int count_fast(unsigned long x) { return __builtin_popcountl(x); }
int stray(unsigned long x) { return __builtin_popcountl(x); }
C
checks=$((checks + 1))
if "$cc" -O2 -mpopcnt -c "$tmp/stray.c" -o "$tmp/stray.o"; then
  found=$(beyond_baseline "$tmp/stray.o")
  [[ "$found" == *"<stray>: popcnt"* && "$found" != *count_fast* ]] ||
    fail "the check does not tell a stray popcnt from one in a _fast copy: $found"
else
  fail "$cc could not compile the check's own example"
fi
summary
