#!/usr/bin/env bash
# Reading tables with `damero probe` and playing them out with `damero line`, as a user
# runs them: values known by hand or by `damero info`, each ply of a best line one ply
# nearer the end, won lines over after exactly DTM plies, JSON, boards drawn the right
# way round, and exit codes and messages for bad input, missing and damaged tables.
set -u
export LC_ALL=C
damero=$1
. "$(dirname "$0")/cli_harness.sh"
make_tmp probe-cli

# number JSON NAME: the first number-valued field NAME ("" when it is null or missing).
number() {
  sed -n "s/^[^[]*\"$2\": \([0-9][0-9]*\).*/\1/p" <<< "$1"
}

# text JSON NAME: the first string-valued field NAME.
text() {
  sed -n "s/^[^[]*\"$2\": \"\([^\"]*\)\".*/\1/p" <<< "$1"
}

# has_line LINE: the output of the last run holds exactly that line.
has_line() {
  grep -qxF -- "$1" <<< "$out" || { echo "    no line '$1' in:"; sed 's/^/    /' <<< "$out"; return 1; }
}

t=$tmp/tables
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --dir "$t"
expect 0 "russian: 1 table built" -- gen --variant russian KKKvK --dir "$t"
expect 0 "english: 9 tables built" -- gen --variant english --pieces 3 --dir "$t"
expect 0 "poddavki: 9 tables built" -- gen --variant poddavki --pieces 3 --dir "$t"
expect 0 "spanish: 9 tables built" -- gen --variant spanish --pieces 3 --dir "$t"
expect 0 "turkish: 9 tables built" -- gen --variant turkish --pieces 3 --dir "$t"

# --- probe: values known by hand ------------------------------------------------------
# Russian KvK (see test_gen_cli.sh): a king that can take the other wins in 1 ply, and
# must take it; from c3 the king takes e5 landing on f6, g7 or h8, and nothing else.
expect 0 "White to move wins" -- probe --variant russian --dir "$t" "W:WKc3:BKe5"
check "KvK: not a win in 1 ply" has_line "DTM       1 ply (1 move of White)"
for m in c3:f6 c3:g7 c3:h8; do
  check "KvK: the capture $m is missing from the moves" grep -qE "^$m +win +1 +1$" <<< "$out"
done
check "KvK: moves other than the three captures" test "$(grep -c '^c3' <<< "$out")" -eq 3
# A king in the corner behind two kings on the long diagonal has no move: lost, in 0.
expect 0 "Black to move loses: it has no legal move" -- probe --variant russian --dir "$t" "B:WKb2,Kc3:BKa1"
check "no move: not DTM 0" has_line "DTM       0 plies (0 moves of Black)"
check "no move: a table of moves is printed" test "$(grep -c 'DTM plies' <<< "$out")" -eq 0
expect 0 '"wdl": "loss", "dtm": 0, "mtc": 0, "category": "loss", "moves": []}' -- \
  probe --variant russian --dir "$t" --json "B:WKb2,Kc3:BKa1"
# The same in poddavki is a win: the side left without a move wins.
expect 0 '"wdl": "win", "dtm": 0, "mtc": 0, "category": "win", "moves": []}' -- \
  probe --variant poddavki --dir "$t" --json "W:WKa1:BKb2,Kc3"
# Two lone men on the same diagonal-free files: a draw, no DTM or MTC.
expect 0 '"wdl": "draw", "dtm": null, "mtc": null, "category": "draw", "moves": [{"move": "c3-b4", "wdl": "draw", "dtm": null, "mtc": null, "category": "draw", "after": "B:Wb4:Bf6"}' -- \
  probe --variant russian --dir "$t" --json "W:Wc3:Bf6"
expect 0 "DTM       none (a draw)" -- probe --variant russian --dir "$t" "W:Wc3:Bf6"

# Turkish: one piece each ends the game, drawn, though d4 could take d6 (the rule on lone
# pieces, docs/rules.md); no move is listed. Black, to move, must take c1, which leaves
# one piece each: the line ends after one ply by that rule, with squares named a1..h8
# and captures written with x.
expect 0 "White to move draws: the game is over, one piece each: a draw" -- \
  probe --variant turkish --dir "$t" "W:WKd4:BKd6"
check "one piece each: a table of moves is printed" test "$(grep -c 'DTM plies' <<< "$out")" -eq 0
expect 0 '"wdl": "draw", "dtm": null, "mtc": null, "category": "draw", "moves": []}' -- \
  probe --variant turkish --dir "$t" --json "W:WKd4:BKd6"
expect 0 "The game is over after 1 ply: one piece each: a draw." -- \
  line --variant turkish --dir "$t" "B:WKa1,Kc1:BKb1"
check "turkish: b1 does not take c1 first" has_line "  1... b1xd1"
expect 0 '"end": "lone pieces"}' -- line --variant turkish --dir "$t" --json "B:WKa1,Kc1:BKb1"
# The longest KKvK win (damero info): the lone king is taken after exactly 5 plies.
expect 0 "DTM       5 plies (3 moves of White)" -- \
  probe --variant turkish --dir "$t" "W:WKa1,Kb1:BKb8"
expect 0 "Black has no piece left: White wins after 5 plies." -- \
  line --variant turkish --dir "$t" "W:WKa1,Kb1:BKb8"

# --- probe agrees with info: the longest KKKvK win has the DTM info gives -------------
run info --json "$t/russian/KKKvK.dtm"
white=${out#*\"white\": }
white=${white%%\"black\": *}
longest_fen=$(text "$white" max_dtm_fen)
longest=$(number "$white" max_dtm)
check "info gives no longest KKKvK win: $white" test -n "$longest_fen" -a -n "$longest"
expect 0 "DTM       $longest plies ($(((longest + 1) / 2)) moves of White)" -- \
  probe --variant russian --dir "$t" "$longest_fen"

# --- probe --json: one object with the documented keys; the best move first -----------
jsons=()
for spec in "russian W:WKc1,Kd2,Ka3:BKe1" "russian W:WKc3:Bd8,f6" "russian B:WKa1,c3:BKe5" \
  "russian W:Wc3:Bf6" "english B:W18,K28:BK1" "spanish W:W1,K6:B21" "poddavki W:WKe1,Kh2:BKg1"; do
  set -- $spec
  expect 0 "{\"variant\": \"$1\", \"fen\": \"" -- probe --variant "$1" --dir "$t" --json "$2"
  check "probe --json $2 prints more than one line" test "$(wc -l <<< "$out")" -eq 1
  jsons+=("$out")
done
if command -v python3 > /dev/null; then
  check "probe --json is not one JSON object with the documented keys and order" python3 -c '
import json, sys
def key(v):  # best first: wins by fewest plies, draws, losses by most plies
    return (0, v["dtm"]) if v["wdl"] == "win" else (1, 0) if v["wdl"] == "draw" else (2, -v["dtm"])
# the category under the rules: a plain draw stays one; a win or loss may be made a draw
CATEGORIES = {"win": {"win", "cursed-win", "unknown"}, "draw": {"draw"},
              "loss": {"loss", "blessed-loss", "unknown"}}
for text in sys.argv[1:]:
    o = json.loads(text)
    # unknown_because exactly where the category is unknown (on the position, not its moves)
    unknown = {"unknown_because"} if o["category"] == "unknown" else set()
    assert set(o) == {"variant", "fen", "wdl", "dtm", "mtc", "category", "moves"} | unknown, text
    assert o["category"] in CATEGORIES[o["wdl"]], text
    assert o["wdl"] in ("win", "draw", "loss"), text
    assert (o["dtm"] is None) == (o["mtc"] is None) == (o["wdl"] == "draw"), text
    assert o["moves"], text
    for m in o["moves"]:
        assert set(m) == {"move", "wdl", "dtm", "mtc", "category", "after"}, text
        assert m["category"] in CATEGORIES[m["wdl"]], text
        assert (m["dtm"] is None) == (m["mtc"] is None) == (m["wdl"] == "draw"), text
    best = o["moves"][0]
    # a move is worth to the side to move what it keeps, counted from before the move
    assert (best["wdl"], best["dtm"]) == (o["wdl"], o["dtm"]), text
    assert [key(m) for m in o["moves"]] == sorted(key(m) for m in o["moves"]), text
    assert len({m["move"] for m in o["moves"]}) == len(o["moves"]), text
' "${jsons[@]}"
else
  echo "note: python3 not found, the JSON of probe was checked with grep only"
fi

# --- line: each ply one nearer the end; a won game over after exactly DTM plies -------
# follows VARIANT FEN: probes every position of the line from FEN (as line --boards
# prints them) and checks that each is worth one ply less than the one before, for the
# other side, and that the line ends where the DTM says.
follows() {
  local variant=$1 fen=$2 dtm wdl fens i=0 json d w want
  run probe --variant "$variant" --dir "$t" --json "$fen"
  dtm=$(number "$out" dtm) wdl=$(text "$out" wdl)
  run line --variant "$variant" --dir "$t" --boards "$fen"
  mapfile -t fens < <(sed -n 's/^\(White\|Black\) to move: //p' <<< "$out")
  [ "${#fens[@]}" -eq $((dtm + 1)) ] || { echo "    $fen: $((${#fens[@]} - 1)) plies, DTM $dtm"; return 1; }
  for ((i = 0; i < dtm; i++)); do
    run probe --variant "$variant" --dir "$t" --json "${fens[i]}"
    d=$(number "$out" dtm) w=$(text "$out" wdl)
    want=$wdl
    [ $((i % 2)) -eq 1 ] && want=$([ "$wdl" = win ] && echo loss || echo win)
    [ "$d" = $((dtm - i)) ] && [ "$w" = "$want" ] ||
      { echo "    $fen, ply $i: ${fens[i]} is a $w in $d, not a $want in $((dtm - i))"; return 1; }
  done
}

for spec in "russian W:WKc1,Kd2,Ka3:BKe1" "russian W:WKc3:Bd8,f6" "russian B:WKa1,c3:BKe5" \
  "english B:W18,K28:BK1" "spanish W:W1,K6:B21" "poddavki W:WKe1,Kh2:BKg1"; do
  set -- $spec
  run probe --variant "$1" --dir "$t" --json "$2"
  dtm=$(number "$out" dtm) result=$(text "$out" wdl)
  expect 0 "\"result\": \"$result\", \"plies\": $dtm, \"moves\": [" -- \
    line --variant "$1" --dir "$t" --json "$2"
  check "line $1 $2 does not end for want of a move: $out" grep -q '"end": "no move"}$' <<< "$out"
  check "line $1 $2 is not one ply nearer the end at each ply" follows "$1" "$2"
done
# W:WKc3:Bd8,f6 must start with a capture; B:WKa1,c3:BKe5 too, for the side that loses.
expect 0 '"moves": ["c3:g7", ' -- line --variant russian --dir "$t" --json "W:WKc3:Bd8,f6"
expect 0 '"plies": 2, "moves": ["e5:b2", "a1:c3"' -- line --variant russian --dir "$t" --json "B:WKa1,c3:BKe5"
# Text: the moves numbered in pairs as players write them, from the side the variant lets
# move first (english: Black), "1..." when the other side starts; --boards a move a row.
expect 0 "Black has no piece left: White wins after 9 plies." -- \
  line --variant russian --dir "$t" "W:WKc3:Bd8,f6"
check "line: the first pair" has_line "    1. c3:g7            d8-c7"
check "line: the last move alone" has_line "    5. a3:c5"
expect 0 "Black has no piece left: White wins after 2 plies." -- \
  line --variant russian --dir "$t" "B:WKa1,c3:BKe5"
check "line: Black starting in russian" has_line "  1... e5:b2"
check "line: the pair after 1..." has_line "    2. a1:c3"
run line --variant english --dir "$t" "B:W18,K28:BK1"
check "line: english, Black moving first" grep -qE '^    1\. [0-9x-]+ +[0-9x-]+$' <<< "$out"
check "line: english B: starts with 1..." test "$(grep -c '^  1\.\.\.' <<< "$out")" -eq 0
run line --variant russian --dir "$t" --boards "W:WKc3:Bd8,f6"
check "line --boards: one move a row" has_line "  1... d8-c7"
expect 0 "Black has no piece left: White wins after 25 plies." -- \
  line --variant russian --dir "$t" "W:WKc1,Kd2,Ka3:BKe1"
expect 0 "White has no piece left: White wins after 6 plies." -- \
  line --variant poddavki --dir "$t" "W:WKe1,Kh2:BKg1"
expect 0 "Black has no legal move: White wins after 0 plies." -- \
  line --variant russian --dir "$t" "B:WKb2,Kc3:BKa1"
# A draw goes round until a position comes back; or stops at the limit.
expect 0 '"result": "draw", ' -- line --variant russian --dir "$t" --json "W:Wc3:Bf6"
check "a drawn line does not end in a repetition: $out" grep -q '"end": "repetition"}$' <<< "$out"
expect 0 "a draw by repetition." -- line --variant russian --dir "$t" "W:Wc3:Bf6"
expect 0 '"plies": 3, ' -- line --variant russian --dir "$t" --json --max-plies 3 "W:Wc3:Bf6"
check "a line cut short does not end at the limit: $out" grep -q '"end": "limit"}$' <<< "$out"
expect 0 "Stopped after 3 plies (--max-plies)." -- line --variant russian --dir "$t" --max-plies 3 "W:Wc3:Bf6"

# --- boards: White at the bottom, the variant's own orientation and names -------------
run line --variant russian --dir "$t" --max-plies 0 "W:WKc1,Kd2,Ka3:BKe1"
check "russian: no file letters" has_line "     a  b  c  d  e  f  g  h"
check "russian: rank 8 wrong" has_line " 8     b8    d8    f8    h8  8"
check "russian: rank 3 wrong" has_line " 3   W    c3    e3    g3     3"
check "russian: rank 1 wrong" has_line " 1  a1     W     B    g1     1"
run line --variant english --dir "$t" --max-plies 0 "B:W18,K28:BK1"
check "english: 1 = b8 wrong" has_line "        B     2     3     4"
check "english: 18 wrong" has_line "       17     w    19    20"
check "english: 29 = a1 wrong" has_line "    29    30    31    32"
# spanish is played on the other colour: 1 is White's lower right, numbered leftwards.
run line --variant spanish --dir "$t" --max-plies 0 "W:W1,K6:B21"
check "spanish: 1 = h1 wrong" has_line "        4     3     2     w"
check "spanish: 6 wrong" has_line "     8     7     W     5"
check "spanish: 32 = a8 wrong" has_line "    32    31    30    29"

# --- bad input: exit 2; missing or damaged tables: exit 1; a message either way -------
expect 1 "no .dtm table for KKKKvK in $t/russian: build it with 'damero gen --variant russian --dir $t KKKKvK'" -- \
  probe --variant russian --dir "$t" "W:WKa1,Kc1,Ke1,Kg1:BKh8"
expect 1 "table for KKKKvK" -- line --variant russian --dir "$t" "W:WKa1,Kc1,Ke1,Kg1:BKh8"
expect 2 "'z9' is not a square of the russian board" -- probe --variant russian --dir "$t" "W:Wz9:BKh8"
expect 2 "bad FEN" -- line --variant russian --dir "$t" "X:Wc3:Bf6"
expect 2 "unknown variant 'chess'" -- probe --variant chess --dir "$t" "W:Wc3:Bf6"
expect 2 "unknown variant 'chess'" -- line --variant chess --dir "$t" "W:Wc3:Bf6"
expect 2 "--variant is required" -- probe --dir "$t" "W:Wc3:Bf6"
expect 2 "give the position as a FEN" -- line --variant russian --dir "$t"
# --fen FEN is the FEN operand under another name, as perft takes it
for cmd in probe line; do
  checks=$((checks + 1))
  operand=$("$damero" $cmd --variant russian --dir "$t" --json "W:WKa1,Kc3:BKh8")
  named=$("$damero" $cmd --variant russian --dir "$t" --json --fen "W:WKa1,Kc3:BKh8")
  [ -n "$operand" ] && [ "$operand" = "$named" ] ||
    fail "$cmd --fen printed '$named', the operand '$operand'"
  expect 2 "unexpected argument 'W:Wc3:Bf6' (the FEN is given with --fen already)" -- \
    $cmd --variant russian --dir "$t" --fen "W:WKa1:BKh8" "W:Wc3:Bf6"
done
expect 2 "'z9' is not a square of the russian board" -- line --variant russian --dir "$t" --fen "W:Wz9:BKh8"
expect 2 "unexpected argument 'Bf6'" -- probe --variant russian --dir "$t" W:Wc3: Bf6
expect 2 "--cache takes a whole number" -- probe --variant russian --cache lots "W:Wc3:Bf6"
expect 2 "--max-plies takes a whole number" -- line --variant russian --max-plies -1 "W:Wc3:Bf6"
expect 2 "--boards, --json and --pdn do not go together" -- line --variant russian --boards --json "W:Wc3:Bf6"
expect 2 "unknown option '--depth'" -- line --variant russian --depth 3 "W:Wc3:Bf6"
expect 1 "damero probe: " -- probe --variant russian --dir "$tmp/none" "W:Wc3:Bf6"
expect 0 "(plies + 1) / 2" -- probe --help
expect 0 "--max-plies N" -- line --help

# --- values under the move-limit rules (docs/rules.md 5.10) ------------------------------
# A loss in 26 plies that the main road (5 moves, the lone king on e5) makes a draw, under
# either reading; without --rules the output is as before.
ex="B:WKa1,Kb2,Kc3:BKe5"
expect 0 "under the rules: draw (blessed loss): the main road count runs out first" -- \
  probe --variant russian --dir "$t" --rules "$ex"
expect 0 "under the rules: draw (blessed loss)" -- probe --variant russian --dir "$t" --reading 2 "$ex"
expect 0 '"rules": {"reading": 1, "wdl": "draw", "plies": null, "dtz": null, "cursed": false, "blessed": true' -- \
  probe --variant russian --dir "$t" --json --rules "$ex"
run probe --variant russian --dir "$t" "$ex"
check "probe without --rules prints the rules" test "$(grep -c "under the rules" <<< "$out")" -eq 0
# With the 15-move count already at 28 plies (of 29), White must take at once: it cannot.
expect 0 "White to move wins" -- probe --variant russian --dir "$t" --count 1=28 --count 2=not-started "W:WKa1,Kb2,Kc3:BKh6"
expect 0 "the 3 kings v 1 count runs out first" -- \
  probe --variant russian --dir "$t" --count 1=28 --count 2=not-started "W:WKa1,Kb2,Kc3:BKh6"
# damero line under the rules: a win within the counts is played out in exactly its
# plies; a blessed loss ends when the count runs out, never beyond it.
expect 0 '"plies": 23, ' -- line --variant russian --dir "$t" --json --rules "W:WKa1,Kb2,Kc3:BKh6"
expect 0 '"end": "no move", "rules_result": "win"}' -- line --variant russian --dir "$t" --json --rules "W:WKa1,Kb2,Kc3:BKh6"
expect 0 '"plies": 10, ' -- line --variant russian --dir "$t" --json --rules "$ex"
expect 0 '"end": "count", "rules_result": "draw"}' -- line --variant russian --dir "$t" --json --rules "$ex"
expect 0 "The main road count has run out after 10 plies: a draw." -- line --variant russian --dir "$t" --rules "$ex"
expect 0 '"plies": 1, ' -- line --variant russian --dir "$t" --json --count 1=28 --count 2=not-started "W:WKa1,Kb2,Kc3:BKh6"
expect 0 '"end": "count", "rules_result": "draw"}' -- line --variant russian --dir "$t" --json --count 1=28 --count 2=not-started "W:WKa1,Kb2,Kc3:BKh6"
expect 0 '[Result "1/2-1/2"]' -- line --variant russian --dir "$t" --pdn --rules "$ex"
expect 2 "--count takes RULE=N" -- probe --variant russian --dir "$t" --count "main-road=3" "$ex"
expect 2 '2 "main road"' -- probe --variant russian --dir "$t" --count "2=121" "$ex"
# readings are numbered 1 and 2, as damero.h, Python and the HTTP API number them
expect 0 "rules     russian, reading 1:" -- probe --variant russian --dir "$t" --reading 1 "$ex"
expect 0 "rules     russian, reading 2:" -- probe --variant russian --dir "$t" --reading 2 "$ex"
expect 0 '"rules": {"reading": 2, ' -- probe --variant russian --dir "$t" --json --reading 2 "$ex"
expect 0 "under the rules (reading 2): draw" -- line --variant russian --dir "$t" --reading 2 "$ex"
for bad in 0 3; do
  expect 2 "--reading takes a whole number from 1 to 2, not '$bad'" -- probe --variant russian --dir "$t" --reading $bad "$ex"
  expect 2 "--reading takes a whole number from 1 to 2, not '$bad'" -- line --variant russian --dir "$t" --reading $bad "$ex"
done
# One king each: the forzosa count's side cannot be read from the position, so it must
# be given; once the count has run out (24 plies, White's 12 moves), no move wins any more.
expect 1 "--count RULE=N:white or RULE=N:black" -- probe --variant spanish --dir "$t" --count 1=23 "W:WK31:BK18"
expect 0 "31x13                    win            1          1  win 1" -- \
  probe --variant spanish --dir "$t" --count 1=23:white "W:WK31:BK18"
expect 0 "31x13                    win            1          1  draw (cursed win)" -- \
  probe --variant spanish --dir "$t" --count 1=24:white "W:WK31:BK18"
expect 2 "take one FEN operand, not a batch" -- probe --variant russian --dir "$t" --rules --input /dev/null

d=$tmp/damaged
cp -r "$t" "$d"
truncate -s 100 "$d/russian/KKvK.dtm"
expect 1 "KKvK.dtm: the file is truncated" -- probe --variant russian --dir "$d" "W:WKa1,Kc3:BKh8"
cp "$t/russian/KKvK.dtm" "$d/russian/KKvK.dtm"
# A damaged file fails only what needs it: the tables are opened file by file.
truncate -s -10 "$d/russian/KvK.dtm"
expect 1 "KvK.dtm: the file is truncated" -- line --variant russian --dir "$d" "W:WKa1:BKh8"
expect 0 "White to move wins" -- probe --variant russian --dir "$d" "W:WKa1,Kc3:BKh8"
expect 1 "KvK.dtm: the file is truncated" -- check "$d"
expect 1 "1 bad" -- check --variant russian --dir "$d"
# --json: the same findings, as one object on one line, exit code as without it
expect 1 '{"dir": "'"$d"'", "bad": 1, "variants": [{"variant": "russian", "files": 30, "bad": 1, "problems": [{"file": "KvK.dtm", "error": "'"$d"'/russian/KvK.dtm: the file is truncated' -- \
  check --json --variant russian --dir "$d"
check "check --json prints more than one line" test "$(wc -l <<< "$out")" -eq 1
expect 1 '{"dir": "'"$tmp"'/none", "error": "'"$tmp"'/none is not a directory of tables' -- \
  check --json "$tmp/none"
cp "$t/russian/KvK.dtm" "$d/russian/KvK.dtm"
expect 0 "0 bad" -- check "$d"
expect 0 '"bad": 0, "variants": [{"variant": "russian", "files": 30, "bad": 0, "problems": []}, {"variant": "spanish"' -- \
  check --json "$d"
mkdir "$tmp/empty"
expect 0 '{"dir": "'"$tmp"'/empty", "bad": 0, "variants": []}' -- check --json "$tmp/empty"
expect 1 "not a directory of tables" -- check "$tmp/none"
expect 0 "White to move wins" -- probe --variant russian --dir "$d" "W:WKa1,Kc3:BKh8"

# --- many positions: one FEN a line, one result a line, bad lines reported in place -----
batch=$tmp/batch.txt
printf 'W:WKa1,Kc3:BKh8\n\n  garbage \nW:WKa1:BKh8\r\nW:WKa1,Kc1,Ke1:BKh8,Kg7\nW:Wc3:Bf6\n' >"$batch"
fix="build it with 'damero gen --variant russian --dir $t KKKvKK'"
want="W:WKa1,Kc3:BKh8 win 3 2
garbage error: bad FEN at column 1: expected W or B
W:WKa1:BKh8 loss 2 2
W:WKa1,Kc1,Ke1:BKh8,Kg7 error: no .dtm table for KKKvKK in $t/russian: $fix"
expect 1 "2 lines could not be probed" -- probe --variant russian --dir "$t" --input "$batch"
checks=$((checks + 1))
got=$("$damero" probe --variant russian --dir "$t" --input "$batch" 2>/dev/null | head -4)
[ "$got" = "$want" ] || fail "batch probe printed:
$got
wanted:
$want"
# from standard input, the same lines; each line's result the one probe of it gives
checks=$((checks + 1))
got=$("$damero" probe --variant russian --dir "$t" <"$batch" 2>/dev/null | head -4)
[ "$got" = "$want" ] || fail "batch probe from standard input printed: $got"
checks=$((checks + 1))
last=$("$damero" probe --variant russian --dir "$t" --input - <"$batch" 2>/dev/null | tail -1)
single=$("$damero" probe --variant russian --dir "$t" --json "W:Wc3:Bf6" | sed 's/^{"variant": "russian", "fen": "W:Wc3:Bf6", "wdl": "\([a-z]*\)", "dtm": \([0-9a-z]*\), "mtc": \([0-9a-z]*\),.*/\1 \2 \3/')
[ "$last" = "W:Wc3:Bf6 ${single//null/-}" ] || fail "batch says '$last', one probe '$single'"
checks=$((checks + 1))
got=$("$damero" probe --variant russian --dir "$t" --json --input "$batch" 2>/dev/null | sed -n '2p;3p')
[ "$got" = '{"fen": "garbage", "error": "bad FEN at column 1: expected W or B"}
{"fen": "W:WKa1:BKh8", "wdl": "loss", "dtm": 2, "mtc": 2}' ] || fail "batch --json printed: $got"
# NUL bytes: a line of them, and one inside a FEN, each refused with a line of its own
printf 'W:WKa1,Kc3:BKh8\n\0\0\0\nW:WKa1\0,Kc3:BKh8\nW:WKa1,Kc3:BKh8\n' >"$batch"
got=$("$damero" probe --variant russian --dir "$t" --input "$batch" 2>/dev/null | cut -d" " -f1-8)
want=$(printf '%s\n' "W:WKa1,Kc3:BKh8 win 3 2" '\0\0\0 error: a NUL byte at column 1:' \
       'W:WKa1\0,Kc3:BKh8 error: a NUL byte at column 7:' "W:WKa1,Kc3:BKh8 win 3 2")
checks=$((checks + 1))
[ "$got" = "$want" ] || fail "batch probe with NUL bytes printed: $got"
expect 1 "2 lines could not be probed" -- probe --variant russian --dir "$t" --input "$batch"
printf 'W:WKa1,Kc3:BKh8\n' >"$batch"
expect 0 "W:WKa1,Kc3:BKh8 win 3 2" -- probe --variant russian --dir "$t" --input "$batch"
expect 1 "cannot open $tmp/nothing" -- probe --variant russian --dir "$t" --input "$tmp/nothing"
expect 2 "not both" -- probe --variant russian --dir "$t" --input "$batch" "W:WKa1:BKh8"
expect 2 "not both" -- probe --variant russian --dir "$t" --input "$batch" --fen "W:WKa1:BKh8"
expect 2 "--variant is required" -- probe --dir "$t" --input "$batch"


# --- sets without DTM: a WDL-only build, and the engine set (WDL + MTC) -----------------
# Each answers the whole set's WDL (and MTC), names the metric not built with the command
# that builds it, ranks moves by WDL then MTC; a line plays by MTC, or says it needs it.
w=$tmp/wdl wm=$tmp/wdl_mtc
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --metrics wdl --dir "$w"
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --metrics wdl+mtc --dir "$wm"
win=W:WKa1,Kc1:BKh8
run probe --variant russian --dir "$t" "$win"
whole=$out
for set in "$w" "$wm"; do
  expect 0 "$(grep '^value' <<< "$whole")" -- probe --variant russian --dir "$set" "$win"
  check "$set: DTM not named" has_line "DTM       not built: 'damero gen --variant russian --dir $set KKvK' builds it"
done
run probe --variant russian --dir "$w" "$win"
check "WDL only: MTC not named" has_line "MTC       not built: 'damero gen --variant russian --dir $w KKvK' builds it"
check "WDL only: moves ranked by value alone unsaid" has_line "(no DTM or MTC table: the moves are ranked by value alone)"
expect 0 "$(grep '^MTC' <<< "$whole")" -- probe --variant russian --dir "$wm" "$win"
check "WDL+MTC: moves ranked by MTC unsaid" has_line "(no DTM table: the moves are ranked by value, then MTC)"
# the same moves, each with the whole set's value and MTC; wins by the quickest MTC first
moves() { awk '/^move /{m=1; next} m && NF >= 4 && $1 !~ /^\(/ {print $1, $2, $NF}' <<< "$1"; }
check "WDL+MTC: moves valued otherwise" test "$(moves "$out" | sort)" = "$(moves "$whole" | sort)"
check "WDL+MTC: wins not by MTC" awk '$2 == "win" { if ($3 < last) exit 1; last = $3 }' <<< "$(moves "$out")"
# JSON and batches: null and not_built where the whole set has a DTM
mtc=$(number "$("$damero" probe --variant russian --dir "$t" --json "$win")" mtc)
expect 0 "\"wdl\": \"win\", \"dtm\": null, \"mtc\": $mtc, \"not_built\": [\"dtm\"], \"category\": \"unknown\", \"unknown_because\"" -- \
  probe --variant russian --dir "$wm" --json "$win"
expect 0 "\"wdl\": \"win\", \"dtm\": null, \"mtc\": null, \"not_built\": [\"dtm\", \"mtc\"], \"category\": \"unknown\", \"unknown_because\"" -- \
  probe --variant russian --dir "$w" --json "$win"
printf '%s\n' "$win" W:WKa1:BKh8 W:Wc3:Bf6 B:WKb2,Kc3:BKa1 >"$tmp/fens"
want=$("$damero" probe --variant russian --dir "$t" --input "$tmp/fens")
# a position without a move is over: DTM and MTC 0 without a table
check "WDL+MTC batch" test "$("$damero" probe --variant russian --dir "$wm" --input "$tmp/fens")" = \
  "$(awk '$3 != "0" { $3 = "not-built" } 1' <<< "$want")"
check "WDL-only batch" test "$("$damero" probe --variant russian --dir "$w" --input "$tmp/fens")" = \
  "$(awk '$3 != "0" { $3 = $4 = "not-built" } 1' <<< "$want")"
expect 0 '"not_built": ["dtm"]}' -- probe --variant russian --dir "$wm" --json --input "$tmp/fens"
# line: by MTC, to the whole set's result; WDL alone cannot play one
run line --variant russian --dir "$t" "$win"
end=$(tail -1 <<< "$out" | sed 's/ after .*//')
expect 0 "No DTM table: both sides played by MTC" -- line --variant russian --dir "$wm" "$win"
check "WDL+MTC: the line ends otherwise" grep -qF "$end" <<< "$out"
check "WDL+MTC: the start's value" has_line "russian, White to move: win (no DTM table; MTC $mtc plies)"
expect 0 '"end": "no move", "played_by": "mtc"}' -- line --variant russian --dir "$wm" --json "$win"
expect 0 "{damero: the line ends: no move; played by MTC (no DTM table)}" -- \
  line --variant russian --dir "$wm" --pdn "$win"
expect 1 "a line needs DTM or MTC tables, and these hold only WDL (as 'damero gen --metrics wdl' builds them): build them whole with 'damero gen --variant russian --dir $w KKvK'" -- \
  line --variant russian --dir "$w" "$win"
expect 1 '{"fen": "W:WKa1,Kc1:BKh8", "error": "a line needs DTM or MTC' -- \
  line --variant russian --dir "$w" --json "$win"
# the rules weigh counts against DTM: their absence named
expect 1 "no .dtm table for KKvK in $wm/russian (its tables were built with 'damero gen --metrics wdl+mtc', without DTM)" -- \
  probe --variant russian --dir "$wm" --rules "$win"
expect 1 "no .dtm table for KKvK in $w/russian (its tables were built WDL-only" -- \
  probe --variant russian --dir "$w" --rules "$win"

summary
