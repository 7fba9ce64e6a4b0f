#!/usr/bin/env bash
# `damero verify` as a user runs it: each longest win's line played out move by move with
# `damero probe` (legal, and over after exactly the stated plies), the JSON's shape and
# its numbers (the spanish forzosa's 12 against 13 moves), rules reported rather than
# skipped, the text report's verdicts and closing summary, the Markdown document, and
# exit codes and messages for bad arguments.
set -u
export LC_ALL=C
damero=$1
. "$(dirname "$0")/cli_harness.sh"
make_tmp verify-cli

t=$tmp/tables
have_python=false
command -v python3 > /dev/null && have_python=true

# verify_json FILE ARGS...: runs damero verify --json ARGS, its stdout into FILE, and
# checks that it exits 0.
verify_json() {
  local file=$1 code
  shift
  checks=$((checks + 1))
  timeout 120 "$damero" verify --json "$@" > "$file" 2> "$tmp/stderr"
  code=$?
  if [ "$code" -ne 0 ]; then
    fail "damero verify --json $* -> exit $code (want 0), stderr:"
    sed 's/^/    /' "$tmp/stderr"
  fi
}

# --- the tables up to 4 pieces of the variants with a "must win within" rule ---------
# verify builds what is missing (a few seconds); the runs after these find them built.
for v in spanish russian pool; do
  verify_json "$tmp/$v.json" --variant "$v" --dir "$t"
done
# every variant, up to 3 pieces (the 4-piece tables of the others take longer)
verify_json "$tmp/all.json" --pieces 3 --dir "$t"
# russian up to 3 pieces: its three-kings rules need 4
verify_json "$tmp/russian3.json" --variant russian --pieces 3 --dir "$t"

# --- the JSON: its shape, and numbers that must agree with each other ----------------
# shape.py KIND FILE...: KIND "one" (one variant's object per file) or "all" (the list of
# every variant); prints what is wrong, and fails when anything is.
cat > "$tmp/shape.py" << 'EOF'
import json, sys

kind, files = sys.argv[1], sys.argv[2:]
bad = []
VARIANTS = ["international", "brazilian", "russian", "pool", "spanish", "czech", "italian",
            "english", "poddavki", "ganapierde", "turkish"]
STATUS = {"checked", "no position", "needs more pieces"}


def need(o, keys, where):
    if not isinstance(o, dict):
        bad.append(f"{where}: not an object: {o!r:.200}")
        return False
    missing = [k for k in keys if k not in o]
    if missing:
        bad.append(f"{where}: no {missing} in {sorted(o)}")
    return not missing


def limit_plies(x):  # core/move_limit.c, reading_plies
    if x["unit"] == "plies":
        return x["limit"]
    if x["side_to_move"] in ("strong side", "lone side"):  # must win within the limit
        return 2 * x["limit"] - 1 if x["side_to_move"] == "strong side" else 2 * x["limit"]
    return 2 * x["limit"]  # no progress for N moves each


def check_variant(o, where):
    if not need(o, ["variant", "rules"], where):
        return
    for rule in o["rules"]:
        if not need(rule, ["name", "limit", "unit", "convention", "status", "results"],
                    o["variant"]):
            continue
        w = f"{o['variant']} {rule['name']}"
        if rule["status"] not in STATUS:
            bad.append(f"{w}: status {rule['status']!r}")
        if (rule["status"] != "checked") != bool(rule.get("message")):
            bad.append(f"{w}: status {rule['status']!r}, message {rule.get('message')!r}")
        if (rule["status"] == "checked") != bool(rule["results"]):
            bad.append(f"{w}: status {rule['status']!r}, {len(rule['results'])} results")
        for x in rule["results"]:
            if not need(x, ["side_to_move", "positions", "wins", "longest_win",
                            "wins_beyond_limit", "example_fen"], w):
                continue
            r = f"{w} reading {x.get('reading')}, {x['side_to_move']} to move"
            if not 0 <= x["wins_beyond_limit"] <= x["wins"] <= x["positions"]:
                bad.append(f"{r}: positions {x['positions']}, wins {x['wins']}, "
                           f"beyond {x['wins_beyond_limit']}")
            if (x["wins"] == 0) != (x["example_fen"] is None) or \
               (x["wins"] == 0) != (x["longest_win"] is None):
                bad.append(f"{r}: {x['wins']} wins, example {x['example_fen']!r}, "
                           f"longest {x['longest_win']!r}")
            # some wins are beyond the limit exactly when the longest is
            if x["wins"] and (x["longest_win_plies"] > limit_plies(x)) != \
               (x["wins_beyond_limit"] > 0):
                bad.append(f"{r}: the longest win takes {x['longest_win_plies']} plies, the "
                           f"limit is {limit_plies(x)}, and {x['wins_beyond_limit']} wins "
                           f"are beyond it")
            if "wins_before" in x and not 0 <= x["convertible_before"] <= x["wins_before"]:
                bad.append(f"{r}: wins_before {x['wins_before']}, "
                           f"convertible_before {x['convertible_before']}")


for f in files:
    o = json.load(open(f))
    if kind == "one":
        check_variant(o, f)
    elif not isinstance(o, list) or [v.get("variant") for v in o] != VARIANTS:
        bad.append(f"{f}: not a list of the {len(VARIANTS)} variants in order: {o!r:.300}")
    else:
        for v in o:
            check_variant(v, f)
        rules = {v["variant"]: [r["name"] for r in v["rules"]] for v in o}
        for v in ("italian", "poddavki", "ganapierde", "turkish"):  # no move-limit rule
            if rules[v]:
                bad.append(f"{v} has rules: {rules[v]}")
for b in bad:
    print("    " + b)
sys.exit(1 if bad else 0)
EOF

# forzosa.py FILE: the finding docs/findings.md reports, from the spanish JSON.
cat > "$tmp/forzosa.py" << 'EOF'
import json, sys

o = json.load(open(sys.argv[1]))
f = [r for r in o["rules"] if r["name"] == "forzosa"]
assert f and f[0]["status"] == "checked", f"no checked forzosa: {o['rules']!r:.300}"
res = f[0]["results"]
readings = sorted({(x["reading"], x["limit"], x["unit"]) for x in res})
assert readings == [(1, 12, "moves of the strong side"), (2, 13, "moves of the strong side")], \
    f"the readings are {readings}, not 12 and 13 moves of the strong side"
assert sorted(x["side_to_move"] for x in res) == ["lone side"] * 2 + ["strong side"] * 2, res
beyond = {k: sum(x["wins_beyond_limit"] for x in res if x["limit"] == k) for k in (12, 13)}
assert beyond[13] == 0, f"the finding changed: at 13 moves {beyond[13]} wins are beyond " \
    "the limit (docs/findings.md: none)"
assert beyond[12] > 0, "the finding changed: at 12 moves no win is beyond the limit " \
    "(docs/findings.md: 218)"
longest = max(x["longest_win"] for x in res)
assert longest == 13, f"the finding changed: the longest forzosa win takes {longest} " \
    "moves (docs/findings.md: 13)"
for x in res:
    assert 0 < x["convertible_before"] <= x["wins_before"], x
EOF

# running.py FILE...: a "must win within" rule's starts by the moves a running count has
# already used (by_played) agree with its wins, its limit and each other, and with those
# under all the rules at once (at_once), and the first
# of them that costs wins (first_cursed) is the first where the wins in time drop, with
# an example won in time fresh and not with that many moves used.
cat > "$tmp/running.py" << 'EOF'
import json, sys

bad = []
for path in sys.argv[1:]:
    for rule in json.load(open(path))["rules"]:
        if rule["status"] != "checked" or "first_cursed" not in rule:
            continue
        by = {}
        for x in rule["results"]:
            w = f"{path} {rule['name']} reading {x['reading']}, {x['side_to_move']} to move"
            rows = x["by_played"]
            strong = x["side_to_move"] == "strong side"
            step = 1 if x["unit"] == "plies" else 2
            limit = x["limit"] if x["unit"] == "plies" else 2 * x["limit"] - strong
            if [r["played"] for r in rows] != list(range(limit // step + 1)):
                bad.append(f"{w}: played {[r['played'] for r in rows]}, limit {limit} plies")
            first = rows[0]
            if (first["won"], first["lost"]) != (x["wins"] - x["wins_beyond_limit"], x["lone_wins"]):
                bad.append(f"{w}: fresh {first}, wins {x['wins']} beyond {x['wins_beyond_limit']}")
            for a, b in zip(rows, rows[1:]):
                if b["won"] > a["won"] or b["lost"] != a["lost"]:
                    bad.append(f"{w}: {b} after {a}")
            for r in rows:
                if r["won"] + r["drawn"] + r["lost"] != x["positions"]:
                    bad.append(f"{w}: {r} does not add up to {x['positions']}")
            # under all the rules at once: the rule's own rows, 0 to 3 played, where a win
            # is one the rule alone keeps (or one the other counts draw)
            at_once = x["at_once"]
            if [r["played"] for r in at_once] != [r["played"] for r in rows][:4]:
                bad.append(f"{w}: at_once played {[r['played'] for r in at_once]}")
            for r, alone in zip(at_once, rows):
                if r["won"] + r["drawn"] + r["lost"] != x["positions"] or \
                        r["won"] + r["drawn_by_others"] != alone["won"]:
                    bad.append(f"{w}: at once {r}, alone {alone}")
            example = x["drawn_by_others_example"]
            if (example is None) != all(r["drawn_by_others"] == 0 for r in at_once):
                bad.append(f"{w}: example {example}, rows {at_once}")
            by.setdefault(x["reading"], []).append((rows, strong, step, limit))
        for c in rule["first_cursed"]:
            if c is None:
                continue
            sides = by[c["reading"]]
            won = lambda p: sum(rows[p]["won"] if p < len(rows) else 0 for rows, *_ in sides)
            w = f"{path} {rule['name']} reading {c['reading']}"
            if not (won(c["played"]) < won(0) == won(c["played"] - 1)):
                bad.append(f"{w}: wins in time {won(0)} fresh, {won(c['played'] - 1)} and "
                           f"{won(c['played'])} at {c['played'] - 1} and {c['played']} played")
            if c["wins_drawn"] != won(0) - won(c["played"]) or len(c["example_line"]) != c["example_plies"]:
                bad.append(f"{w}: {c}")
            strong = c["example_fen"].startswith("W")
            _, _, step, limit = [s for s in sides if s[1] == strong][0]
            if not limit - step * c["played"] < c["example_plies"] <= limit:
                bad.append(f"{w}: the example, won in {c['example_plies']}, is not lost to "
                           f"{c['played']} played of {limit} plies")
for b in bad:
    print("    " + b)
sys.exit(1 if bad else 0)
EOF

# probe_json.py: the probe both walks below play their lines with, from their arguments
# DAMERO VARIANT DIR.
cat > "$tmp/probe_json.py" << 'EOF'
import json, subprocess, sys

damero, variant, tables = sys.argv[1:4]


def probe(fen):
    r = subprocess.run([damero, "probe", "--variant", variant, "--dir", tables, "--json", fen],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError(f"probe {fen}: exit {r.returncode}: {r.stdout}{r.stderr}")
    return json.loads(r.stdout)


def finish(bad, lines, none_found):
    """Prints what is wrong, none_found too if no line was played, and exits 1 if any."""
    if lines == 0:
        bad.append(none_found)
    for b in bad:
        print("    " + b)
    sys.exit(1 if bad else 0)
EOF

# walk.py DAMERO VARIANT DIR FILE: plays each example_line of FILE (verify --json) with
# `damero probe --json`: each move among its position's moves, its "after" the next
# position, and the last position lost for its side to move, with no move left.
cat > "$tmp/walk.py" << 'EOF'
import json, sys

from probe_json import finish, probe, variant

path = sys.argv[4]
o = json.load(open(path))
bad, played, lines = [], {}, 0


def play(fen, line):
    """The start position's probe, or what is wrong with the line."""
    start = p = probe(fen)
    for k, move in enumerate(line):
        after = {m["move"]: m["after"] for m in p["moves"]}
        if move not in after:
            return f"ply {k + 1}: {move} is not a move of {fen} (its moves: {sorted(after)})"
        fen = after[move]
        p = probe(fen)
    if p["moves"] or p["wdl"] != "loss" or p["dtm"] != 0:
        return f"the game is not over after {len(line)} plies: {fen} is {p}"
    return start


for rule in o["rules"]:
    for x in rule["results"]:
        if "example_line" not in x:
            continue
        lines += 1
        fen, line, plies = x["example_fen"], x["example_line"], x["longest_win_plies"]
        strong = x["side_to_move"] == "strong side"
        w = f"{variant} {rule['name']} reading {x['reading']}, {x['side_to_move']} to move, {fen}"
        if len(line) != plies:
            bad.append(f"{w}: {len(line)} moves in the line, longest_win_plies {plies}")
        # the strong side's moves among the plies (all of them, counted in plies)
        want = plies if x["unit"] == "plies" else (plies + 1) // 2 if strong else plies // 2
        if x["longest_win"] != want:
            bad.append(f"{w}: longest_win {x['longest_win']} {x['unit']}; {plies} plies make {want}")
        if plies % 2 != strong:  # the lone side must be the one left without a move
            bad.append(f"{w}: a win in {plies} plies")
        key = (fen, tuple(line))
        if key not in played:
            played[key] = play(fen, line)
        start = played[key]
        if isinstance(start, str):
            bad.append(f"{w}: {start}")
        elif (start["wdl"], start["dtm"]) != ("win" if strong else "loss", plies):
            bad.append(f"{w}: probe says {start['wdl']} in {start['dtm']}, not a "
                       f"{'win' if strong else 'loss'} in {plies}")
finish(bad, lines, f"{path}: no example_line")
EOF

# resetwalk.py DAMERO VARIANT DIR FILE: plays each no-progress rule's longest_wait line
# of FILE (verify --json) with `damero probe --json`: a win for the side to move at the
# start, each move among its position's moves, as many as the wait's plies, none of them
# a capture or promotion but the last, which is one (or a man's move, or the game ends).
cat > "$tmp/resetwalk.py" << 'EOF'
import json, sys

from probe_json import finish, probe, variant

path = sys.argv[4]
o = json.load(open(path))
bad, lines = [], 0


def pieces(fen):
    """The (kings, men) of a FEN like W:WKe1,Kg1:B5."""
    kings, men = set(), set()
    for part in fen.split(":")[1:]:
        for p in filter(None, part[1:].split(",")):
            (kings if p.startswith("K") else men).add(part[0] + p.lstrip("K"))
    return kings, men


def resets(before, after):
    """What the move from before to after did: "capture", "promotion", "man" or ""."""
    (k0, m0), (k1, m1) = pieces(before), pieces(after)
    if len(k1) + len(m1) < len(k0) + len(m0):
        return "capture"
    if len(k1) > len(k0):
        return "promotion"
    return "man" if m0 != m1 else ""


for rule in o["rules"]:
    w = rule.get("longest_wait")
    if not w:
        continue
    lines += 1
    fen, line = w["fen"], w["line"]
    name = f"{variant} {rule['name']}, {w['ending']}, {fen}"
    if len(line) != w["plies"]:
        bad.append(f"{name}: {len(line)} moves in the line, a wait of {w['plies']} plies")
    p = probe(fen)
    if p["wdl"] != "win":
        bad.append(f"{name}: the side to move does not win ({p['wdl']})")
    for k, move in enumerate(line):
        after = {m["move"]: m["after"] for m in p["moves"]}
        if move not in after:
            bad.append(f"{name}: ply {k + 1}: {move} is not a move (its moves: {sorted(after)})")
            break
        did = resets(fen, after[move])
        last = k == len(line) - 1
        fen = after[move]
        p = probe(fen)
        if not last and did in ("capture", "promotion"):
            bad.append(f"{name}: ply {k + 1}, {move}, is a {did} before the line's end")
        if last and not did and p["moves"]:
            bad.append(f"{name}: the last move, {move}, resets nothing and the game goes on")
finish(bad, lines, f"{path}: no longest_wait line")
EOF

if $have_python; then
  check "the JSON of one variant is not as documented" python3 "$tmp/shape.py" one \
    "$tmp/spanish.json" "$tmp/russian.json" "$tmp/pool.json" "$tmp/russian3.json"
  check "the JSON of every variant is not as documented" python3 "$tmp/shape.py" all "$tmp/all.json"
  check "the spanish forzosa: not what docs/findings.md reports" python3 "$tmp/forzosa.py" "$tmp/spanish.json"
  check "a count running when a rule's count starts: numbers that do not agree" \
    python3 "$tmp/running.py" "$tmp/spanish.json" "$tmp/russian.json" "$tmp/pool.json"
  for v in spanish russian pool; do
    check "$v: a longest win's line is not legal, or not over after its plies" \
      python3 "$tmp/walk.py" "$damero" "$v" "$t" "$tmp/$v.json"
  done
  for v in spanish russian; do
    check "$v: a no-progress count's longest wait has no line to its reset" \
      python3 "$tmp/resetwalk.py" "$damero" "$v" "$t" "$tmp/$v.json"
  done

  # --- rules reported, not skipped -------------------------------------------------
  check "russian --pieces 3: 3 kings v 1 not reported as needing 4 pieces" python3 -c '
import json, sys
rules = {r["name"]: r for r in json.load(open(sys.argv[1]))["rules"]}
for name in ("3 kings v 1", "main road"):
    assert rules[name]["status"] == "needs more pieces", rules[name]
    assert "--pieces 4" in rules[name]["message"], rules[name]
assert rules["2 pieces v 1 king"]["status"] == "checked", rules["2 pieces v 1 king"]
' "$tmp/russian3.json"
  check "russian: kings 60 not reported as needing 6 pieces" python3 -c '
import json, sys
rules = {r["name"]: r for r in json.load(open(sys.argv[1]))["rules"]}
r = rules["kings 60"]
assert r["status"] == "needs more pieces" and "--pieces 6" in r["message"], r
assert not r["results"], r
' "$tmp/russian.json"
  check "spanish: saque de peon not reported as needing 5 pieces" python3 -c '
import json, sys
rules = {r["name"]: r for r in json.load(open(sys.argv[1]))["rules"]}
r = rules["saque de peon"]
assert r["status"] == "needs more pieces" and "--pieces 5" in r["message"], r
' "$tmp/spanish.json"

  # --- russian 30 moves (reset by a capture or promotion only) --------------------
  # Without men nothing promotes: its distance is the tables' MTC, as kings only 15 has it.
  # And docs/findings.md's finding: within 30 moves each, 30 plies would turn wins into draws.
  check "russian kings 30: not the MTC without men, or not what docs/findings.md reports" python3 -c '
import json, sys
rules = {r["name"]: r for r in json.load(open(sys.argv[1]))["rules"]}
k30, k15 = rules["kings 30"], rules["kings only 15"]
assert k30["status"] == "checked", k30
def by(rule):
    return {(x["ending"], x["side_to_move"], x["reading"]):
            (x["positions"], x["wins"], x["longest_win_plies"]) for x in rule["results"]}
a, b = by(k15), by(k30)
kings_only = [k for k in b if "M" not in k[0]]
assert kings_only, sorted(b)
for k in kings_only:
    assert a.get(k) == b[k], f"{k}: kings only 15 has {a.get(k)}, kings 30 {b[k]}"
assert any("M" in k[0] for k in b), sorted(b)
beyond = {x["reading"]: 0 for x in k30["results"]}
for x in k30["results"]:
    beyond[x["reading"]] += x["wins_beyond_limit"]
assert beyond == {1: 0, 2: beyond[2]} and beyond[2] > 0, \
    f"the finding changed: wins beyond 30 moves each, 30 plies: {beyond} (docs/findings.md: 0, 1 012)"
' "$tmp/russian.json"

  # A no-progress count's longest win in moves is the winner's (the side to move's)
  # moves, (plies + 1) / 2, whichever colour it is (a win by Black in 3 plies: 2 moves).
  check "a no-progress count's longest win is not the side to move's moves" python3 -c '
import json, sys
bad = 0
for f in sys.argv[1:]:
    o = json.load(open(f))
    for rule in [r for v in (o if isinstance(o, list) else [o]) for r in v["rules"]]:
        for x in rule["results"]:
            p = x.get("longest_win_plies")
            if x["side_to_move"] not in ("White", "Black") or p is None:
                continue
            want = p if x["unit"] == "plies" else (p + 1) // 2
            if x["longest_win"] != want:
                bad += 1
                print("    %s, %s %s to move: longest_win %d %s for a win in %d plies" % (
                      rule["name"], x["ending"], x["side_to_move"], x["longest_win"], x["unit"], p))
sys.exit(bad > 0)
' "$tmp/russian.json" "$tmp/spanish.json" "$tmp/all.json"
else
  echo "note: python3 not found, the JSON of verify and its example lines were not checked"
fi

# --- the text report: reported, not skipped; verdicts; the summary last --------------
expect 0 "NOT CHECKED: its endings have 4 pieces or more; these tables go up to 3 (use --pieces 4)." -- \
  verify --variant russian --pieces 3 --dir "$t"
check "russian --pieces 3: no summary row of 3 kings v 1 needing more pieces" \
  grep -qE '^  russian +3 kings v 1 +15 moves of the strong side +- +- +needs more pieces$' <<< "$out"
expect 0 "No move-limit rule is recorded for italian." -- verify --variant italian --dir "$t"

# --- sets without DTM: what the checks need is built again whole, and said so -----------
expect 0 "russian: 9 tables built" -- gen --variant russian --pieces 3 --metrics wdl --dir "$tmp/wdl"
timeout 120 "$damero" verify --variant russian --pieces 3 --dir "$t" > "$tmp/whole.txt" 2>&1
timeout 120 "$damero" verify --variant russian --pieces 3 --dir "$tmp/wdl" > "$tmp/wdl.txt" 2> "$tmp/stderr"
check "verify of a WDL-only set: another report than the whole set's" cmp -s "$tmp/whole.txt" "$tmp/wdl.txt"
check "verify of a WDL-only set: the rebuild unsaid: $(cat "$tmp/stderr")" grep -q \
  "^damero verify: [0-9]* tables of $tmp/wdl/russian (.*KvK.*) hold WDL without DTM or MTC, which the checks need: building them again, whole$" "$tmp/stderr"
timeout 120 "$damero" verify --variant russian --pieces 3 --dir "$tmp/wdl" > /dev/null 2> "$tmp/stderr"
check "verify of a WDL-only set built again: $(cat "$tmp/stderr")" test ! -s "$tmp/stderr"

# --- progress on stderr: through the checks too, and only when it is a terminal --------
timeout 120 "$damero" verify --variant russian --pieces 3 --dir "$t" > /dev/null 2> "$tmp/stderr"
check "verify drew progress on a stderr that is not a terminal" test ! -s "$tmp/stderr"
if command -v script > /dev/null; then
  # script(1) runs it on a terminal; its stdout goes to a file, so the terminal shows stderr
  bar=$(timeout 120 script -qec "'$damero' verify --variant russian --pieces 3 --dir '$t' \
        > '$tmp/report.txt'" /dev/null 2>&1 | tr '\r' '\n')
  check "verify on a terminal: no bar of its checks ending at 5/5 rule endings, done" \
    grep -qE '^\[#{24}\] 5/5 rule endings  done .* s left' <<< "$bar"
  check "verify on a terminal: the report is not the one printed without" \
    cmp -s "$tmp/report.txt" <("$damero" verify --variant russian --pieces 3 --dir "$t")
else
  echo "note: script not found, verify's progress on a terminal was not checked"
fi

# summary_last ROWS: the last run's output ends with a line "== summary" and the table:
# its head and ROWS rows (one per reading of each rule), then any notes on conventions.
summary_last() {
  awk -v rows="$1" '
    /^== summary/ { at = NR; n = 0; bad = 0; next }
    at && !/^  / { bad = 1 }
    at && /^  note: / { notes = 1; next }
    at && notes { bad = 1 }
    at && !/^  variant / { n++ }
    END { exit !(at && !bad && n == rows) }' <<< "$out" && return
  echo "    want a summary of $1 rows at the end, not:"
  tail -15 <<< "$out" | sed 's/^/    /'
  return 1
}

# verdicts RULE N: the section of RULE in the last run's output has the verdict lines of
# readings 1 to N, in order, and no other.
verdicts() {
  local got want="" k
  for ((k = 1; k <= $2; k++)); do want+="$k "; done
  got=$(awk -v rule="$1" '
    /^[a-z]+: / { in_rule = substr($0, index($0, ": ") + 2) == rule }
    in_rule && /^  verdict \(reading [0-9]+\): / { sub(/\):$/, "", $3); printf "%s ", $3 }' <<< "$out")
  [ "$got" = "$want" ] || { echo "    $1: verdicts of readings '$got', want '$want'"; return 1; }
}

expect 0 "== summary: " -- verify --variant spanish --dir "$t"
spanish_text=$out
check "spanish: the report does not end with the summary" summary_last 4
check "spanish forzosa: not a verdict per reading" verdicts forzosa 2
check "spanish 40 plies: not a verdict per reading" verdicts "40 plies" 1
check "spanish saque de peon: a verdict though not checked" verdicts "saque de peon" 0
check "spanish forzosa at 12 moves: no win turned into a draw" \
  grep -qE '^  verdict \(reading 1\): [1-9][0-9]* of the [0-9]+ won positions need more than 12 moves of the strong side: the rule turns them into draws \(the move that occupies the diagonal not counted; counted as move 1, 7170 won starts are drawn\)\.$' <<< "$out"
check "spanish forzosa at 13 moves: not enough" \
  grep -qE '^  verdict \(reading 2\): 13 moves of the strong side is enough for every one of the [0-9]+ won positions \(the move that occupies the diagonal not counted; counted as move 1, 158 won starts are drawn\)\.$' <<< "$out"
check "spanish summary: no note of the counting convention the forzosa depends on" \
  grep -qF "  note: spanish forzosa, 13 moves of the strong side: the move that occupies the diagonal not counted; counted as move 1, 158 won starts are drawn." <<< "$out"
check "spanish summary: the forzosa at 12 moves turns no win into a draw" \
  grep -qE '^  spanish +forzosa +12 moves of the strong side +[0-9]+ +13 +[1-9][0-9]*$' <<< "$out"
check "spanish forzosa: 12 or 13 moves, the occupying move not counted" \
  grep -qF "Not counting the move that occupies the diagonal (damero's reading, the count starts after it): 12 moves of the strong side leave 218 won starts drawn; 13 moves of the strong side win every won start in time." <<< "$out"
check "spanish forzosa: 12 or 13 moves, the occupying move counted" \
  grep -qF "Counting the move that occupies the diagonal as move 1: 12 moves of the strong side leave 7170 won starts drawn; 13 moves of the strong side leave 158 won starts drawn." <<< "$out"
check "spanish forzosa: no table of starts by moves already played" \
  grep -qE '^  1 +lone side +1 +40284 +43426 +1434$' <<< "$out"
check "spanish summary: the forzosa at 13 moves turns wins into draws" \
  grep -qE '^  spanish +forzosa +13 moves of the strong side +[0-9]+ +13 +0$' <<< "$out"

expect 0 "== summary: " -- verify --variant russian --dir "$t"
check "russian: the report does not end with the summary" summary_last 12
for rule in "3 kings v 1" "main road" "2 pieces v 1 king" "kings only 15"; do
  check "russian $rule: not a verdict per reading" verdicts "$rule" 2
done
check "russian kings 30: not a verdict per reading" verdicts "kings 30" 2
check "russian kings 60: a verdict though not checked" verdicts "kings 60" 0
check "russian kings 60: no reason why it is not checked" \
  grep -qxF '  NOT CHECKED: its endings have 6 pieces or more; these tables go up to 4 (use --pieces 6).' <<< "$out"
check "russian summary: kings 60 does not need more pieces" \
  grep -qE '^  russian +kings 60 +60 plies +- +- +needs more pieces$' <<< "$out"

# the summary's numbers are the JSON's: wins, the longest, and wins beyond the limit
if $have_python; then
  check "spanish: the text summary disagrees with the JSON" python3 -c '
import json, re, sys
o, text = json.load(open(sys.argv[1])), sys.argv[2]
for rule in o["rules"]:
    for k in sorted({x["reading"] for x in rule["results"]}):
        res = [x for x in rule["results"] if x["reading"] == k]
        wins = sum(x["wins"] for x in res)
        beyond = sum(x["wins_beyond_limit"] for x in res)
        longest = max(x["longest_win"] for x in res if x["wins"])
        row = r"^  spanish +%s +%d %s +%d +%d +%d$" % (re.escape(rule["name"]), res[0]["limit"],
                                                      res[0]["unit"], wins, longest, beyond)
        assert re.search(row, text, re.M), f"no row {row!r} in:\n{text[-900:]}"
' "$tmp/spanish.json" "$spanish_text"
fi

# --- --markdown: a document, written whole or not at all ----------------------------
md=$tmp/md
mkdir "$md"
expect 0 "== summary: " -- verify --variant spanish --dir "$t" --markdown "$md/rules.md"
check "--markdown: a temporary file left behind, or no document: $(ls -A "$md")" \
  test "$(ls -A "$md")" = rules.md
check "--markdown: no title" grep -q '^# Move-limit draw rules' "$md/rules.md"
check "--markdown: no summary" grep -qx '## Summary' "$md/rules.md"
check "--markdown: no summary row of the forzosa" \
  grep -qE '^\| spanish \| forzosa \| 13 moves of the strong side \| [0-9]+ \| 13 \| 0 \|$' "$md/rules.md"
# the forzosa's longest wins drawn as boards: 8 rows of 4 squares between ``` fences
check "--markdown: the forzosa's longest win is not a PDN game a player can load" grep -qzF \
  $'```pdn\n[GameType "24"]\n[FEN "W:WK1,K5,K10:BK2"]\n\n1. 5-9 2-11 2. 10-17' "$md/rules.md"
check "--markdown: the 40 plies' longest wait has no line to its reset as a PDN game" \
  python3 -c 'import re, sys; sys.exit(not re.search(
    r"Line to the reset: 1\. .+\n\n```pdn\n\[GameType \"24\"\]\n\[FEN \"[^\"]+\"\]\n\n1\. ",
    open(sys.argv[1]).read()))' "$md/rules.md"
check "--markdown: the forzosa has no board" awk '
  /^### / { in_rule = $0 == "### spanish: forzosa" }
  in_rule && /^```/ { fenced = !fenced; if (!fenced && rows == 8) boards++; rows = 0; next }
  in_rule && fenced && NF == 4 { rows++ }
  END { exit boards != 2 }' "$md/rules.md"
if $have_python; then
  # each board shows its example: the squares of its pieces, kings as W and B
  check "--markdown: a forzosa board is not its example position" python3 -c '
import re, sys
text = open(sys.argv[1]).read()
section = text.split("### spanish: forzosa")[1].split("\n### ")[0]
boards = re.findall(r"`([WB]:[^`]*)`\n\n```\n(.*?)```", section, re.S)
assert len(boards) == 2, section
for fen, board in boards:
    tokens = board.split()
    pieces = {c: sorted(int(s.lstrip("K")) for s in part[1:].split(",") if s)
              for c, part in ((p[0], p) for p in fen.split(":")[1:])}
    empty = sorted(int(s) for s in tokens if s.isdigit())
    assert sorted(empty + pieces["W"] + pieces["B"]) == list(range(1, 33)), (fen, board)
    assert tokens.count("W") == len(pieces["W"]) and tokens.count("B") == len(pieces["B"]), \
        (fen, board)
' "$md/rules.md"
fi
expect 1 "cannot write $tmp/none/rules.md: No such file or directory (its folder does not exist" \
  -- verify --variant italian --dir "$t" --markdown "$tmp/none/rules.md"
check "--markdown into a missing folder: something was written" test ! -e "$tmp/none"
# a document that cannot be put in place (a folder has its name): exit 1, no temporary
mkdir "$md/taken"
expect 1 "cannot write $md/taken" -- verify --variant italian --dir "$t" --markdown "$md/taken"
check "--markdown onto a folder: a temporary file left behind: $(ls -A "$md")" \
  test "$(ls -A "$md" | tr '\n' ' ')" = "rules.md taken "
# a symlink planted at the temporary name (DOCUMENT.tmp.PID; exec keeps the shell's PID)
# is not followed: exit 1, naming it, and its target untouched
echo precious > "$md/victim"
checks=$((checks + 1))
out=$(sh -c 'ln -s "$1/victim" "$1/planted.md.tmp.$$" && exec "$2" verify --variant italian \
  --dir "$3" --markdown "$1/planted.md"' sh "$md" "$damero" "$t" 2>&1)
status=$?
[ "$status" -eq 1 ] && [[ "$out" == *"planted.md.tmp."*"remove it"* ]] ||
  fail "--markdown with a planted symlink -> exit $status (want 1, naming it): $out"
check "--markdown followed a planted symlink" test "$(cat "$md/victim")" = precious
rm -f "$md"/planted.md.tmp.* "$md/victim"

# --- bad arguments: exit 2 and a message ---------------------------------------------
expect 2 "--dir needs a name, not an empty one" -- verify --variant italian --dir ''
expect 2 "--markdown needs a name, not an empty one" -- verify --variant italian --dir "$t" --markdown ''
expect 2 "unknown variant 'chess'" -- verify --variant chess --dir "$t"
expect 2 "--pieces takes a whole number from 2 to 8, not '1'" -- verify --pieces 1 --dir "$t"
expect 2 "--pieces takes a whole number from 2 to 8, not '9'" -- verify --pieces 9 --dir "$t"
expect 2 "unexpected argument 'russian'" -- verify --dir "$t" russian
expect 2 "unknown option '--depth'" -- verify --depth 3 --dir "$t"
expect 0 "--markdown FILE" -- verify --help

summary
