#!/usr/bin/env bash
# The text report of `damero verify` against a copy checked in (a golden file): a small
# fixed run, russian endings of up to 3 pieces (every kind of section: a rule that needs
# more pieces, a "must win within" rule with its lines, no-progress counts), which builds
# its tables in a second or two. Any change of the report's text fails it; when the change
# is meant, write the file again with:
#
#   tests/test_verify_golden.sh build/damero --update
#
# and read the diff before committing it.
#
# usage: tests/test_verify_golden.sh DAMERO [--update]
set -u
export LC_ALL=C
damero=$1
golden=$(dirname "$0")/data/verify_russian3.txt
. "$(dirname "$0")/cli_harness.sh"
make_tmp verify-golden

if ! timeout 120 "$damero" verify --variant russian --pieces 3 --dir "$tmp/tables" \
     > "$tmp/report.txt" 2> "$tmp/stderr"; then
  echo "FAIL: damero verify --variant russian --pieces 3 failed:"
  sed 's/^/    /' "$tmp/stderr"
  exit 1
fi
if [ "${2:-}" = --update ]; then
  cp "$tmp/report.txt" "$golden" && echo "wrote $golden"
  exit
fi
checks=1
if ! cmp -s "$golden" "$tmp/report.txt"; then
  fail "the report differs from $golden (- the file, + this run):"
  diff -u "$golden" "$tmp/report.txt" | sed 's/^/    /' | head -60
  echo "    if the change is meant: tests/test_verify_golden.sh build/damero --update"
fi
summary
