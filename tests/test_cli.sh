#!/usr/bin/env bash
# The damero command as a user meets it: output shape, exit codes, error messages.
set -u
damero=$1
. "$(dirname "$0")/cli_harness.sh"

expect 0 "perft" -- --help
expect 0 "--keep-duplicates" -- perft --help
expect 0 " 3            658" -- perft --variant international --depth 3
expect 0 " 8         929905" -- perft --variant russian --depth 8 --keep-duplicates
expect 0 " 7       10782382" -- perft --variant turkish --depth 7 --keep-paths
expect 0 " 7       10782308" -- perft --variant turkish --depth 7 --keep-duplicates
expect 0 " 4             73" -- perft --variant international --depth 4 \
  --fen "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
expect 0 "c3-d4" -- perft --variant russian --depth 2 --divide
# the position as an operand, as probe and line take it; --fen is the same
expect 0 " 2              4" -- perft --variant russian --depth 2 "W:Wc3:Bf6"
expect 0 " 2              4" -- perft --variant russian --depth 2 --fen "W:Wc3:Bf6"
expect 2 "unexpected argument 'W:Wa1:Bb2'" -- perft --variant russian --depth 2 --fen "W:Wa1:Bb2,c3" "W:Wa1:Bb2"
expect 2 "usage" --
expect 2 "unknown command 'frobnicate'" -- frobnicate
expect 0 "damero $(sed -n 's/^#define DAMERO_VERSION_MAJOR //p' "$(dirname "$0")/../probe/damero.h")." -- --version
expect 0 "usage: damero check" -- help check
expect 0 "'damero help COMMAND'" -- help
expect 2 "unknown command 'frobnicate'" -- help frobnicate
expect 0 "DAMERO_TABLES" -- gen --help
# DAMERO_TABLES is the table root when --dir is not given; --dir wins over it
checks=$((checks + 1))
out=$(cd "${TMPDIR:-/tmp}" && DAMERO_TABLES=/nonexistent/damero-tables "$damero" probe --variant russian "W:WKa1:BKh8" 2>&1)
[[ "$out" == *"/nonexistent/damero-tables is not a directory"* ]] || fail "DAMERO_TABLES not used: $out"
checks=$((checks + 1))
out=$(DAMERO_TABLES=/nonexistent/damero-tables "$damero" probe --variant russian --dir /nonexistent/given "W:WKa1:BKh8" 2>&1)
[[ "$out" == *"/nonexistent/given is not a directory"* ]] || fail "--dir does not win over DAMERO_TABLES: $out"
# --cache MB reads the same in every command that takes it (one helper)
for cmd in "probe --variant russian" "serve" "annotate"; do
  expect 2 "--cache takes a whole number from 0 to 1048576, not 'lots'" -- $cmd --cache lots x
  expect 2 "--cache takes a whole number from 0 to 1048576, not '-1'" -- $cmd --cache -1 x
done
expect 2 "unknown variant 'chess'" -- perft --variant chess --depth 3
expect 2 "international" -- perft --variant chess --depth 3
expect 2 "--depth takes a whole number" -- perft --variant russian --depth x
expect 2 "--depth takes a whole number" -- perft --variant russian --depth 0
expect 2 "--depth is required" -- perft --variant russian
expect 2 "--variant is required" -- perft --depth 3
expect 2 "unknown option '--speed'" -- perft --variant russian --depth 3 --speed
expect 2 "--variant needs a value" -- perft --variant
expect 2 "is not a square" -- perft --variant russian --depth 3 --fen "W:W99:Bh8"
expect 2 "used twice" -- perft --variant international --depth 3 --fen "W:W31,31:B1"
expect 2 "bad FEN at column 1" -- perft --variant russian --depth 3 extra
expect 2 "unexpected argument 'extra'" -- perft --variant russian --depth 3 "W:Wc3:Bf6" extra
# one parser reads every command's options (cli/options.c): its messages, whatever the command
expect 2 "--divide takes no value: write '--divide', not '--divide=3'" -- perft --variant russian --depth 1 --divide=3
expect 2 "option '--d' may be any of --depth, --divide: write more of its name" -- perft --d 1 --variant russian
expect 0 " 1              7" -- perft --var russian --dep 1
expect 0 " 1              7" -- perft --variant=russian --depth=1
expect 2 "unknown option '-x'" -- perft -xy --variant russian --depth 1
expect 0 "usage: damero perft" -- perft -h
expect 2 "--count can be given at most 8 times" -- probe --variant russian $(printf -- '--count 1=1 %.0s' 1 2 3 4 5 6 7 8 9) "W:Wc3:Bf6"
expect 2 "--memory takes a number of gigabytes such as 16 or 0.5, not 'nan'" -- gen --variant russian --memory nan --pieces 2
expect 2 "the variants are: international" -- verify --variant chess
expect 2 "turkish, or all (every one)" -- verify --variant chess
expect 2 "--port needs a value" -- serve --port

# --- --json: a failure on the input is a JSON object on stdout, {what: input, error} --
make_tmp cli
mkdir "$tmp/empty"
# json_error CODE KEY INPUT WORDS -- ARGS...: damero ARGS exits CODE and prints on stdout
# only one JSON object {KEY: INPUT, "error": sentence holding WORDS}, nothing on stderr.
json_error() {
  local code=$1 key=$2 input=$3 words=$4 got err
  shift 5
  checks=$((checks + 1))
  got=$(timeout 120 "$damero" "$@" 2>"$tmp/stderr")
  status=$?
  err=$(cat "$tmp/stderr")
  python3 -c '
import json, sys
o = json.loads(sys.argv[1])
assert list(o) == [sys.argv[2], "error"], o
assert o[sys.argv[2]] == sys.argv[3], o
assert sys.argv[4] in o["error"], o
' "$got" "$key" "$input" "$words" && [ "$status" -eq "$code" ] && [ -z "$err" ] ||
    fail "damero $* -> exit $status (want $code), stdout: $got, stderr: $err"
}
json_error 2 fen "W:Wz9" "'z9' is not a square" -- \
  probe --variant russian --dir "$tmp/empty" --json "W:Wz9"
json_error 1 fen "W:WKa1:BKh8" "build it with 'damero gen" -- \
  probe --variant russian --dir "$tmp/empty" --json "W:WKa1:BKh8"
json_error 1 fen "W:WKa1:BKh8" "is not a directory" -- \
  probe --variant russian --dir "$tmp/none" --json "W:WKa1:BKh8"
json_error 2 fen "W:WKa1,Kb2,Kc3:BKh8" "--count takes RULE=N" -- \
  probe --variant russian --dir "$tmp/empty" --json --count zz=1 "W:WKa1,Kb2,Kc3:BKh8"
json_error 1 fen "W:WKa1,Kb2,Kc3:BKh8" "build it with 'damero gen" -- \
  probe --variant russian --dir "$tmp/empty" --json --rules "W:WKa1,Kb2,Kc3:BKh8"
json_error 1 input "$tmp/none" "cannot open $tmp/none" -- \
  probe --variant russian --dir "$tmp/empty" --json --input "$tmp/none"
json_error 2 fen "W:Wz9" "'z9' is not a square" -- \
  line --variant russian --dir "$tmp/empty" --json "W:Wz9"
json_error 1 fen "W:WKa1:BKh8" "build it with 'damero gen" -- \
  line --variant russian --dir "$tmp/empty" --json "W:WKa1:BKh8"
json_error 2 fen "W:WKa1,Kb2,Kc3:BKh8" "--count takes RULE=N" -- \
  line --variant russian --dir "$tmp/empty" --json --count 1=500 "W:WKa1,Kb2,Kc3:BKh8"
json_error 1 file "$tmp/none.pdn" "cannot open $tmp/none.pdn" -- \
  annotate --dir "$tmp/empty" --json "$tmp/none.pdn"
printf 'not a table' > "$tmp/junk.wdl"
json_error 1 file "$tmp/junk.wdl" "junk.wdl" -- info --json "$tmp/junk.wdl"
expect 2 "--dir needs a name, not an empty one" -- check --dir ''
printf 'a file' > "$tmp/plain"
json_error 1 variant russian "cannot create the table directory" -- \
  verify --variant russian --pieces 2 --dir "$tmp/plain/tables" --json
json_error 1 markdown "$tmp/plain/report.md" "cannot write" -- \
  verify --variant russian --pieces 2 --dir "$tmp/empty" --json --markdown "$tmp/plain/report.md"
# all variants: the failures stand in the list, which stays one JSON document
checks=$((checks + 1))
"$damero" verify --pieces 2 --dir "$tmp/plain/tables" --json 2>/dev/null | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert len(o) == 1 and list(o[0]) == ["variant", "error"], o
' || fail "verify --json over every variant: the failure is not a JSON list"
# without --json the same failures are told on stderr
expect 2 "damero probe: bad FEN" -- probe --variant russian --dir "$tmp/empty" "W:Wz9"
checks=$((checks + 1))
[ -z "$("$damero" probe --variant russian --dir "$tmp/empty" "W:Wz9" 2>/dev/null)" ] ||
  fail "probe without --json printed its error on stdout"

# --- '-' as the output file: verify --markdown - writes the document on stdout ---------
expect 0 "" -- verify --variant russian --pieces 3 --dir "$tmp/verify" --markdown "$tmp/report.md"
checks=$((checks + 1))
"$damero" verify --variant russian --pieces 3 --dir "$tmp/verify" --markdown - >"$tmp/stdout.md" 2>/dev/null &&
  cmp -s "$tmp/report.md" "$tmp/stdout.md" ||
  fail "verify --markdown - did not print the document --markdown FILE writes"
check "verify --markdown - left a file named -" test ! -e ./- -a ! -e "$tmp/verify/-"
expect 2 "--json and --markdown - would both write to standard output" -- \
  verify --variant russian --pieces 3 --dir "$tmp/verify" --json --markdown -

summary
