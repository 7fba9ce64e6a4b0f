# The harness the shell tests share, sourced (not run) by each after its `set -u`:
#   . "$(dirname "$0")/cli_harness.sh"
# run and expect run "$damero", which the test sets (the command under test, its $1).
# fail, expect and check count in $checks and $failures; summary, the test's last
# command, prints the count and fails when any check did.

failures=0 checks=0

# make_tmp NAME: a fresh directory in $tmp, removed when the test exits.
make_tmp() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/damero-$1.XXXXXX") || exit 1
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 143' TERM INT # so that the EXIT trap cleans up
}

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run ARGS...: runs damero ARGS, leaving its output (stdout and stderr) in $out and its
# exit code in $status (124 when it hangs: every run here takes seconds at most).
run() {
  out=$(timeout 120 "$damero" "$@" 2>&1)
  status=$?
}

# expect CODE WORDS -- ARGS...: runs damero ARGS, checks its exit code and that its output
# (stdout and stderr) contains WORDS.
expect() {
  local code=$1 words=$2
  shift 3
  checks=$((checks + 1))
  run "$@"
  if [ "$status" -ne "$code" ] || [[ "$out" != *"$words"* ]]; then
    fail "damero $* -> exit $status (want $code), output:"
    echo "$out" | sed 's/^/    /'
    echo "    (wanted it to contain: $words)"
  fi
}

# check DESCRIPTION COMMAND...: counts a failure when COMMAND fails.
check() {
  local what=$1
  shift
  checks=$((checks + 1))
  "$@" || fail "$what"
}

# check_quiet DESCRIPTION COMMAND...: runs COMMAND, quietly; a failure prints its output.
check_quiet() {
  local what=$1 out
  shift
  checks=$((checks + 1))
  if ! out=$("$@" 2>&1); then
    fail "$what:"
    echo "$out" | sed 's/^/    /'
    return 1
  fi
}

# same_files DIR1 DIR2: both hold the same file names with the same bytes.
same_files() {
  local a=$1 b=$2 f ok=0
  if [ "$(cd "$a" && ls)" != "$(cd "$b" && ls)" ]; then
    echo "    $a and $b hold different files:"
    diff <(cd "$a" && ls) <(cd "$b" && ls) | sed 's/^/    /'
    return 1
  fi
  for f in "$a"/*; do
    cmp -s "$f" "$b/${f##*/}" || { echo "    ${f##*/} differs"; ok=1; }
  done
  return $ok
}

# flip_byte FILE OFFSET: inverts one byte in place.
flip_byte() {
  local byte
  byte=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((byte ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# summary: how many checks passed and failed; fails when any check did.
summary() {
  echo "$((checks - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ]
}
