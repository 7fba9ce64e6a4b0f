#!/usr/bin/env bash
# The rule tables (damero gen --rules, rulegen/rule_table.h) as a user builds and reads them:
# the files written, the same bytes whatever the thread count, kept when intact and
# rebuilt when missing, described by `damero info`, and a damaged one failing only the
# probes under the rules that need it.
set -u
export LC_ALL=C
damero=$1
. "$(dirname "$0")/cli_harness.sh"
make_tmp rule-table-cli

three=(KvK KvM MvM KKvK KKvM KMvK KMvM MMvK MMvM) # every russian material of 2-3 pieces

# --- One rule table per reading of the row, beside the others ----------------------------
one=$tmp/one/russian
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --rules --threads 1 --dir "$tmp/one"
for m in "${three[@]}"; do
  for ext in ru0 ru1; do
    check "$one/$m.$ext is missing or empty" test -s "$one/$m.$ext"
  done
done
expect 0 "english: " -- gen --variant english KKvK --rules --dir "$tmp/one"
check "english has one reading: a .ru1 file was written" test ! -e "$tmp/one/english/KKvK.ru1"
check "english KKvK.ru0 is missing" test -s "$tmp/one/english/KKvK.ru0"
expect 0 "italian: " -- gen --variant italian KKvK --rules --dir "$tmp/one"
check "italian has no rules: a rule table was written" test -z "$(ls "$tmp/one/italian" | grep '\.ru')"

# --- The same bytes on 1 and 2 threads ------------------------------------------------
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --rules --threads 2 --dir "$tmp/two"
check "1 and 2 threads wrote different files" same_files "$one" "$tmp/two/russian"

# --- Kept when intact, rebuilt (the same) when missing; refused without DTM -----------
# The temporaries a killed `gen --rules` leaves (rule and distance tables being written)
# are removed by the next build, as those of the value tables are.
cp -r "$tmp/one" "$tmp/again"
rm "$tmp/again/russian/KMvK.ru0"
echo partial > "$tmp/again/russian/KMvK.ru0.tmp.1"
echo partial > "$tmp/again/russian/KMvK.rz1.tmp.$$"
expect 0 "0 tables built, 9 found intact" -- gen --variant russian --pieces 3 --rules --dir "$tmp/again"
check "a rule table's temporary of a killed build is still there" \
  test ! -e "$tmp/again/russian/KMvK.ru0.tmp.1"
check "a distance table's temporary of a killed build is still there" \
  test ! -e "$tmp/again/russian/KMvK.rz1.tmp.$$"
check "a rule table rebuilt differs" same_files "$one" "$tmp/again/russian"
expect 2 "--rules reads DTM and MTC" -- gen --variant russian --pieces 3 --rules --metrics wdl --dir "$tmp/wdl"

# --- info ---------------------------------------------------------------------------
# KKvK under the second russian reading (5 plies): White's 32 wins in 7 plies are drawn
expect 0 "cursed wins            32" -- info "$one/KKvK.ru1"
expect 0 "values under the move-limit rules, reading 2" -- info "$one/KKvK.ru1"
expect 0 "values under the move-limit rules, reading 1" -- info "$one/KKvK.ru0"
expect 0 '"rules_reading": 1' -- info --json "$one/KKvK.ru0"
expect 0 '"rules_reading": 2' -- info --json "$one/KKvK.ru1"

# --- The probe reads it; a damaged one fails only the probes under the rules needing it -
expect 0 "under the rules: wins, in 7 plies" -- probe --variant russian --dir "$tmp/one" --rules "W:WKe1,Kg1:BKa7"
expect 0 "under the rules: draw (cursed win)" -- probe --variant russian --dir "$tmp/one" --rules --reading 2 "W:WKe1,Kg1:BKa7"
cp -r "$tmp/one" "$tmp/bad"
flip_byte "$tmp/bad/russian/KKvK.ru0" $(($(wc -c < "$tmp/bad/russian/KKvK.ru0") - 20))
expect 1 "KKvK.ru0" -- probe --variant russian --dir "$tmp/bad" --rules "W:WKe1,Kg1:BKa7"
expect 0 "White to move wins" -- probe --variant russian --dir "$tmp/bad" "W:WKe1,Kg1:BKa7"
expect 0 "under the rules: loses, in 2 plies" -- probe --variant russian --dir "$tmp/bad" --rules "W:WKa1:BKh8"
expect 0 "under the rules: draw (cursed win)" -- probe --variant russian --dir "$tmp/bad" --rules --reading 2 "W:WKe1,Kg1:BKa7"
expect 1 "KKvK.ru0" -- check --variant russian --dir "$tmp/bad"

summary
