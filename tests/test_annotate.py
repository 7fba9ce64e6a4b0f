#!/usr/bin/env python3
"""`damero annotate` and `damero line --pdn` on PDN games written for the test: values
against `damero probe --json`, a won ending thrown away, move text as players write it
(numbers, short captures, comments, variations, NAGs), several variants, bad games
reported with their number and move while the others are annotated, and round trips.

usage: test_annotate.py DAMERO"""
import json
import os
import subprocess
import sys
import tempfile

from py_harness import Checks, sets_without_dtm, temp_tables

TABLES = [("russian", 3), ("international", 3), ("english", 3)]

# Russian three kings against one, played slowly: the win holds under the move-limit
# rules until 4. b2-a1 (a win without them still) leaves too few moves of the "3 kings v
# 1" count for the mate. Then two lone kings going round: the "2 pieces v 1 king" count
# runs out after 5. c1-d2, drawing the game under the rules.
UNDER_RULES = """[Event "A win thrown away under the rules"]
[GameType "25"]
[FEN "W:WKa3,Kb2,Ka5:BKh2"]

1. a5-b4 h2-b8 2. b2-a1 b8-a7 3. a1-b2 a7-b6 4. b2-a1 b6-a5 *

[Event "A count run out"]
[GameType "25"]
[FEN "W:WKc1:BKh2"]

1. c1-d2 h2-g1 2. d2-c1 g1-h2 3. c1-d2 h2-g1 4. d2-c1 g1-h2 5. c1-d2 h2-g1 6. d2-c1 *
"""
THROWN_AT = 6  # the ply of 4. b2-a1

# Russian: White wins in 3 plies (1. c1-a3), but 1. a1-b2 gives Black a capture: a draw.
THROWN = """[Event "A win thrown away"]
[White "Kings, \\"the\\" strong"]
[GameType "25"]
[FEN "W:WKa1,Kc1:BKh8"]
[Result "1/2-1/2"]

{Black's king alone.} 1. a1-b2? {greedy} (1. c1-a3 h8-b2 2. a1:c3) 1... h8:a1
2. c1-d2 $4 a1-h8 1/2-1/2
"""

# International, the best line with captures written short (11x22), numbers glued to
# moves, a line comment and a NAG.
INTERNATIONAL = """[Event "International ending"]
[GameType "20"]
[FEN "W:W28,K46:B7"]

1.28-22 7-11 ; Black has nothing better
2. 22-17! 11x22 3. 46-32 $1 22-27 4. 32x16 2-0
"""

# English checkers, Black moves first (the pair "1. 3-8 18-14").
ENGLISH = """[Event "Checkers ending"]
[GameType "21"]
[FEN "B:W18,K30:B3"]

1. 3-8 18-14 2. 8-11 30-26 3. 11-15 26-23 4. 15-18 23-26 5. 18-22 26x17 1-0
"""

# From the starting position (no FEN tag): outside the tables, no comment.
OPENING = """[Event "Opening"]
[GameType "25"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 *
"""

BAD = [  # (game text, words the error must hold)
    ("[Event \"Illegal\"]\n[GameType \"25\"]\n[FEN \"W:WKa1,Kc1:BKh8\"]\n\n1. c1-a3 h8-a8 *\n",
     "game 1 (line 1): move 1... h8-a8: not a legal move here; the legal moves are: h8-b2"),
    ("[Event \"Canadian\"]\n[GameType \"27\"]\n\n1. 31-26 *\n",
     "game 2 (line 7): GameType \"27\" is not a variant damero plays"),
    ("[Event \"Broken tag\n[GameType \"25\"]\n\n1. c3-d4 *\n",
     "game 3 (line 12): line 12: a broken tag"),
    ("[Event \"No type\"]\n\n1. c3-d4 *\n",
     "1 game without a GameType tag (the first: game 4, line 17): give the rules with --variant"),
    ("[GameType \"25\"]\n[FEN \"W:WKa1,Kc1:BKz9\"]\n\n1. c1-a3 *\n",
     "game 5 (line 21): the FEN tag: bad FEN"),
]
# last in its file: the comment runs to the end of the file
UNCLOSED = ("[GameType \"25\"]\n\n1. c3-d4 {never closed\n",
            "game 7 (line 35): line 38: a comment '{' is never closed")


def run(damero, *args, stdin=None):
    return subprocess.run([damero, *args], capture_output=True, text=True, timeout=120,
                          input=stdin)


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def annotate_json(c, damero, tables, path):
    r = run(damero, "annotate", "--dir", tables, "--json", path)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        c.check(False, f"annotate --json {path}: not JSON: {r.stdout[:300]!r} {r.stderr!r}")
        return r.returncode, [], r.stderr


def against_probe(c, damero, tables, game, variant):
    """Every position inside the tables has probe's value; the moves follow each other."""
    for k, p in enumerate(game["positions"]):
        r = run(damero, "probe", "--variant", variant, "--dir", tables, "--json", p["fen"])
        if r.returncode != 0:
            c.check(p["wdl"] is None, f"{p['fen']}: outside the tables, but annotated {p['wdl']}")
            continue
        probe = json.loads(r.stdout)
        c.check((p["wdl"], p["dtm"], p["mtc"]) == (probe["wdl"], probe["dtm"], probe["mtc"]),
                f"{p['fen']}: annotated {p['wdl']} {p['dtm']} {p['mtc']}, probe says "
                f"{probe['wdl']} {probe['dtm']} {probe['mtc']}")
        if p["move"] is None:
            continue
        played = [m for m in probe["moves"] if m["after"] == game["positions"][k + 1]["fen"]]
        c.check(len(played) == 1 and played[0]["wdl"] == p["move_wdl"],
                f"{p['fen']} {p['move']}: move_wdl {p['move_wdl']}, probe: {played}")
        lost = "win draw loss".split().index(p["move_wdl"]) > "win draw loss".split().index(p["wdl"])
        c.check((p["kept_by"] is not None) == lost and
                (not lost or p["kept_by"] == probe["moves"][0]["move"]),
                f"{p['fen']} {p['move']}: kept_by {p['kept_by']}")


def good_games(c, damero, tables, folder):
    text = THROWN + "\n" + INTERNATIONAL + "\n" + ENGLISH + "\n" + OPENING
    path = write(folder, "good.pdn", text)
    code, games, err = annotate_json(c, damero, tables, path)
    c.check(code == 0 and err == f"damero annotate: {path}: 4 games, 3 reached the tables\n",
            f"good games: exit {code}, {err!r}")
    c.check([g["variant"] for g in games] == ["russian", "international", "english", "russian"],
            f"variants {[g['variant'] for g in games]}")
    c.check([len(g["positions"]) for g in games] == [5, 8, 11, 5],
            f"positions per game {[len(g['positions']) for g in games]}")
    c.check([g["result"] for g in games] == ["1/2-1/2", "2-0", "1-0", "*"], "results")
    for g in games:
        against_probe(c, damero, tables, g, g["variant"])
    first = games[0]["positions"][0] if games else {}
    c.check(first.get("wdl") == "win" and first.get("move_wdl") == "draw" and
            first.get("kept_by") == "c1-a3", f"the thrown win: {first}")
    c.check(all(p["wdl"] is None for p in games[3]["positions"]), "the opening annotated")

    r = run(damero, "annotate", "--dir", tables, path)
    out = r.stdout
    c.check(r.returncode == 0, f"annotate good.pdn: exit {r.returncode} {r.stderr!r}")
    for words in ["{damero: White to move wins in 3 plies.} 1. a1-b2? {greedy} {damero: a1-b2",
                  "turns the win into a draw; c1-a3 kept the win. Black to move draws.}",
                  "{damero: summary: White (Kings, \"the\" strong): 1. a1-b2?; Black: no value "
                  "lost.} 1/2-1/2",
                  "[White \"Kings, \\\"the\\\" strong\"]", "{Black's king alone.}",
                  "{Black has nothing better}", "1. 3-8 {damero:", "2. d4xf6 g7xe5 *"]:
        c.check(words in out.replace("\n", " "), f"annotate good.pdn: no {words!r} in\n{out}")
    c.check("(1. c1-a3" not in out and "$4" not in out and
            "a1-b2? {greedy}" in out.replace("\n", " ") and
            "22-17!" not in out, "a variation, a NAG or the file's move mark is written back, "
            "or damero's mark is not")
    # --changes-only: damero's comments after the moves that change the value only
    only = run(damero, "annotate", "--dir", tables, "--changes-only", path).stdout
    first = only.split("\n\n[Event")[0].replace("\n", " ")
    c.check("kept the win. Black to move draws.} 1... h8:a1 2. c1-d2 a1-h8 {damero: summary:"
            in first, f"--changes-only:\n{first}")
    c.check(all(len(line) <= 79 for line in out.splitlines()), "lines longer than 79 columns")

    # '-' reads the games from standard input, with the same result
    with open(path) as f:
        piped = run(damero, "annotate", "--dir", tables, "-", stdin=f.read())
    c.check(piped.returncode == 0 and piped.stdout == out,
            f"annotate - (standard input): exit {piped.returncode}, {piped.stderr!r}")

    # round trips: damero's own comments are replaced, so annotating again changes nothing
    again = run(damero, "annotate", "--dir", tables, write(folder, "annotated.pdn", out))
    c.check(again.returncode == 0 and again.stdout == out,
            "annotating the annotated games gives another text")


def line_pdn(c, damero, tables, folder):
    for variant, fen in [("russian", "W:WKa1,Kc1:BKh8"), ("international", "W:W28,K46:B7"),
                         ("english", "B:W18,K30:B3"), ("english", "W:W18,K30:B3"),
                         ("russian", "W:WKa1:BKh8")]:
        line = json.loads(run(damero, "line", "--variant", variant, "--dir", tables, "--json",
                              fen).stdout)
        pdn = run(damero, "line", "--variant", variant, "--dir", tables, "--pdn",
                  "--max-plies", "20", fen)
        c.check(pdn.returncode == 0 and f'[FEN "{fen}"]' in pdn.stdout,
                f"line --pdn {fen}: {pdn.returncode} {pdn.stdout!r}")
        code, games, err = annotate_json(c, damero, tables,
                                         write(folder, "line.pdn", pdn.stdout))
        moves = [p["move"] for p in games[0]["positions"][:-1]] if games else []
        c.check(code == 0 and games and games[0]["variant"] == variant and
                moves == line["moves"][:20],
                f"line --pdn {fen} read back: {moves} != {line['moves']} ({err!r})")
    r = run(damero, "line", "--variant", "russian", "--dir", tables, "--pdn", "--json",
            "W:WKa1:BKh8")
    c.check(r.returncode == 2 and "do not go together" in r.stderr, "--pdn --json accepted")


def probe_rules(damero, tables, fen, counts, strong):
    """`damero probe --json --rules` of fen with counts ({rule name: plies or None}, in
    the order of the rules) and the sides the running "win within" counts are for
    ({rule name: "white" or "black"})."""
    given = [f"--count={k + 1}={'not-started' if n is None else n}"
             f"{':' + strong[name] if name in strong else ''}"
             for k, (name, n) in enumerate(counts.items())]
    r = run(damero, "probe", "--variant", "russian", "--dir", tables, "--json", *given, fen)
    return json.loads(r.stdout)


def under_rules(c, damero, tables, folder):
    """annotate --rules carries the counts along the game: at every position the value
    under the rules is what probe --rules says for the counts the moves have run, the
    counts after each move are those probe gives with that move, the move that threw the
    win away under the rules is marked with the one that kept it, and the position where
    a count runs out is named."""
    path = write(folder, "rules.pdn", UNDER_RULES)
    code, games, err = annotate_json(c, damero, tables, path)
    c.check(games and "rules" not in games[0]["positions"][0], "rules in the JSON without --rules")
    r = run(damero, "annotate", "--dir", tables, "--rules", "--json", path)
    c.check(r.returncode == 0 and r.stderr.endswith(": 2 games, 2 reached the tables\n"),
            f"annotate --rules: {r.returncode} {r.stderr!r}")
    games = json.loads(r.stdout) if r.returncode == 0 else []
    c.check([len(g["positions"]) for g in games] == [9, 12], "annotate --rules: positions")
    if len(games) != 2:
        return
    thrown, run_out = games[0]["positions"], games[1]["positions"]
    c.check(thrown[0]["rules"]["counts"]["3 kings v 1"] == 0 and thrown[0]["rules"]["wdl"] == "win",
            f"the start under the rules: {thrown[0]['rules']}")
    # the "3 kings v 1" count runs on by one a ply (the value's search is dear: probe
    # checks the plies around the thrown win)
    c.check([p["rules"]["counts"]["3 kings v 1"] for p in thrown] == list(range(9)),
            f"the 3 kings v 1 count: {[p['rules']['counts'] for p in thrown]}")
    for game, marked, first in [(thrown, THROWN_AT, THROWN_AT - 1), (run_out[:10], None, 0)]:
        for k, p in enumerate(game[:-1]):
            if k < first:
                c.check(p["rules_kept_by"] is None, f"ply {k}: {p['move']} marked")
                continue
            probe = probe_rules(damero, tables, p["fen"], p["rules"]["counts"],
                                p["rules"]["strong"])
            c.check(p["rules"] == probe["rules"],
                    f"{p['fen']}: annotated {p['rules']}, probe --rules says {probe['rules']}")
            played = [m for m in probe["moves"] if m["move"] == p["move"]]
            c.check(len(played) == 1 and played[0]["rules"]["wdl"] == p["move_rules_wdl"],
                    f"{p['fen']}: move_rules_wdl {p['move_rules_wdl']}, probe: {played}")
            after = game[k + 1]["rules"]
            c.check(after is None or (played and after["counts"] == played[0]["rules"]["counts"]),
                    f"{game[k + 1]['fen']}: counts {after} are not those after {p['move']}")
            c.check((p["rules_kept_by"] is not None) == (k == marked) and
                    (k != marked or p["rules_kept_by"] == probe["moves"][0]["move"]),
                    f"ply {k} {p['move']}: rules_kept_by {p['rules_kept_by']}")
            c.check(p["kept_by"] is None, f"ply {k}: the tables alone mark {p['move']}")
    c.check(thrown[THROWN_AT + 1]["rules"]["cursed"] is False and
            thrown[THROWN_AT + 1]["rules"]["blessed"] is True, "no blessed loss after 4. b2-a1")
    c.check([p["count_run_out"] for p in run_out] == [None] * 9 + ["2 pieces v 1 king"] + [None] * 2
            and all(p["rules"] is None for p in run_out[9:]),
            f"the count runs out after 5. c1-d2: {[p['count_run_out'] for p in run_out]}")

    r = run(damero, "annotate", "--dir", tables, "--rules", path)
    text = r.stdout.replace("\n", " ")
    for words in ["4. b2-a1? {damero: b2-a1 turns the win under the rules into a draw; "
                  "b2-e5 kept the win. Black to move loses in 24 plies. Under the rules: a "
                  "draw (blessed loss).}",
                  "{damero: White to move wins in 21 plies.} 1. a5-b4",
                  "5. c1-d2 {damero: Black to move draws. The 2 pieces v 1 king count has run "
                  "out: a draw under the rules.} 5... h2-g1 {damero: White to move draws.}"]:
        c.check(words in text, f"annotate --rules: no {words!r} in\n{r.stdout}")
    plain = run(damero, "annotate", "--dir", tables, path).stdout
    c.check("Under the rules" not in plain and "kept the" not in plain,
            f"annotate without --rules judges under them:\n{plain}")
    r = run(damero, "annotate", "--dir", tables, "--reading", "2", "--json",
            write(folder, "short.pdn", UNDER_RULES.split("\n\n[Event")[0]))
    c.check(r.returncode == 0 and '"reading": 2' in r.stdout, "--reading 2 is not --rules")
    for bad in ("0", "3"):
        r = run(damero, "annotate", "--dir", tables, "--reading", bad, path)
        c.check(r.returncode == 2 and
                f"--reading takes a whole number from 1 to 2, not '{bad}'" in r.stderr,
                f"annotate --reading {bad}: {r.returncode} {r.stderr!r}")
    r = run(damero, "annotate", "--dir", tables, "--count", "1=3", path)
    c.check(r.returncode == 2 and "unknown option '--count'" in r.stderr,
            f"annotate --count: {r.returncode} {r.stderr!r}")


def bad_games(c, damero, tables, folder):
    text = "".join(game + "\n" for game, _ in BAD) + THROWN + "\n" + UNCLOSED[0]
    path = write(folder, "bad.pdn", text)
    r = run(damero, "annotate", "--dir", tables, path)
    c.check(r.returncode == 1, f"bad.pdn: exit {r.returncode}, want 1")
    for _, words in BAD + [UNCLOSED]:
        c.check(f"damero annotate: {path}: {words}" in r.stderr,
                f"bad.pdn: no {words!r} in stderr:\n{r.stderr}")
    # every game is written back, those not read as they stand (the broken tag's too)
    c.check("c1-a3 kept the win" in r.stdout.replace("\n", " ") and r.stdout.count("[Event") == 5
            and "[Event \"Broken tag\n" in r.stdout,
            "the good game after the bad ones is not annotated, or a bad one is lost")
    c.check("{damero: Black to move loses in 2 plies.} 1... h8-a8" in r.stdout.replace("\n", " "),
            "the illegal game is not annotated up to its illegal move")
    code, games, _ = annotate_json(c, damero, tables, path)
    c.check(code == 1 and [g["error"] is None for g in games] == [False] * 5 + [True, False],
            f"bad.pdn --json: {[g['error'] for g in games]}")
    for args, words in [(["--dir", tables, os.path.join(folder, "nosuch.pdn")], "cannot open"),
                        (["--dir", tables], "name one PDN file"),
                        (["--variant", "nosuch", path], "unknown variant")]:
        r = run(damero, "annotate", *args)
        c.check(r.returncode != 0 and words in r.stderr, f"annotate {args}: {r.stderr!r}")
    # --variant for a game without GameType; an empty file has no game
    r = run(damero, "annotate", "--dir", tables, "--variant", "russian",
            write(folder, "notype.pdn", "[FEN \"W:WKa1,Kc1:BKh8\"]\n1. c1-a3 *\n"))
    c.check(r.returncode == 0 and "Black to move loses in 2 plies" in r.stdout.replace("\n", " "),
            f"--variant: {r.stdout!r}")
    r = run(damero, "annotate", "--dir", tables, "-", stdin=text)
    c.check(r.returncode == 1 and "damero annotate: standard input: game 1 (line 1)" in r.stderr,
            f"annotate - names standard input in its errors: {r.stderr!r}")
    r = run(damero, "annotate", "--dir", tables, write(folder, "empty.pdn", "\n\n"))
    c.check(r.returncode == 0 and r.stdout == "", f"an empty file: {r.returncode} {r.stdout!r}")
    # a game not followed a single move comes back as written, its numbering kept
    unread = "[GameType \"25\"]\n\n1... e5-d6 2. c3-d4 {as written} *"
    r = run(damero, "annotate", "--dir", tables, write(folder, "unread.pdn", unread + "\n"))
    c.check(r.returncode == 1 and r.stdout == unread + "\n\n" and "not a legal move" in r.stderr,
            f"an unreadable game is rewritten: {r.stdout!r} {r.stderr!r}")
    # a NUL byte: the game is refused, saying where and why, and written back whole
    nul = "[GameType \"25\"]\n[Event \"a\0b\"]\n\n1. c3-d4 *"
    path = os.path.join(folder, "nul.pdn")
    with open(path, "wb") as f:
        f.write((nul + "\n").encode())
    r = subprocess.run([damero, "annotate", "--dir", tables, path], capture_output=True,
                       timeout=120)
    c.check(r.returncode == 1 and r.stdout == (nul + "\n\n").encode() and
            b"game 1 (line 1): line 2: a NUL byte; PDN is text" in r.stderr,
            f"a NUL byte: {r.returncode} {r.stdout!r} {r.stderr!r}")


def as_found(c, damero, tables, folder):
    """PDN as Russian programs write it: numbered squares in the FEN, Cyrillic tags, in
    UTF-8 or Windows-1251; games without GameType told once; ?? on a win thrown to a
    loss."""
    game = ("[Event \"Чемпионат\"]\n[Белые \"Иванов\"]\n[Черные \"Петров\"]\n"
            "[GameType \"25\"]\n[FEN \"W:WK29,K30:BK4.\"]\n\n1. c1-a3 h8-b2 2. a1xc3 *\n")
    outs = []
    for encoding in ["utf-8", "cp1251"]:
        path = os.path.join(folder, f"ru-{encoding}.pdn")
        with open(path, "wb") as f:
            f.write(game.encode(encoding))
        r = run(damero, "annotate", "--dir", tables, path)
        outs.append(r.stdout)
        said = "is not UTF-8: read as Windows-1251" in r.stderr
        c.check(r.returncode == 0 and said == (encoding == "cp1251") and
                "1 game, 1 reached the tables" in r.stderr, f"{encoding}: {r.stderr!r}")
    c.check(outs[0] == outs[1] and "[Белые \"Иванов\"]" in outs[0] and
            "White (Иванов): no value lost; Black (Петров): no value lost" in
            outs[0].replace("\n", " "), f"the Russian file, annotated:\n{outs[0]}")
    # three games without GameType: one line for them all
    untyped = "".join(f"[Event \"{k}\"]\n1. c3-d4 *\n\n" for k in range(3))
    r = run(damero, "annotate", "--dir", tables, write(folder, "untyped.pdn", untyped))
    c.check(r.returncode == 1 and r.stderr.count("GameType") == 1 and
            "3 games without a GameType tag (the first: game 1, line 1)" in r.stderr and
            "3 games, 0 reached the tables, 3 could not be followed" in r.stderr and
            r.stdout == untyped, f"games without GameType: {r.stderr!r}")
    # ?? for a win thrown into a loss: the king on d4 is taken, the man on g7 then lost
    lost = write(folder, "lost.pdn", "[GameType \"25\"]\n[FEN \"W:WKa7,g7:BKa1\"]\n\n"
                                     "1. a7-d4 *\n")
    code, games, _ = annotate_json(c, damero, tables, lost)
    p = games[0]["positions"][0] if games else {}
    c.check((p.get("wdl"), p.get("move_wdl")) == ("win", "loss"), f"a7-d4 loses: {p}")
    text = run(damero, "annotate", "--dir", tables, lost).stdout.replace("\n", " ")
    c.check("1. a7-d4?? {damero: a7-d4 turns the win into a loss" in text and
            "White: 1. a7-d4??" in text, f"the ?? of a win thrown into a loss: {text}")


def without_dtm(c, damero, tables, folder):
    """Sets without DTM: each position and move valued as with the whole set, WDL (and MTC)
    only, the metrics not built named, the thrown win still found; under the rules, what
    they need said."""
    path = write(folder, "thrown.pdn", THROWN)
    _, whole, _ = annotate_json(c, damero, tables, path)
    wdl, wdl_mtc = sets_without_dtm(damero, tables, os.path.join(folder, "sets"))
    for root, not_built, words in ((wdl, ["dtm", "mtc"], "(no DTM or MTC table)"),
                                   (wdl_mtc, ["dtm"], "(no DTM table; MTC ")):
        code, games, err = annotate_json(c, damero, root, path)
        c.check(code == 0 and len(games) == 1, f"{root}: exit {code} {err!r}")
        for got, want in zip(games[0]["positions"] if games else [], whole[0]["positions"]):
            mtc = want["mtc"] if "mtc" not in not_built else None
            c.check((got["wdl"], got["dtm"], got["mtc"], got.get("not_built")) ==
                    (want["wdl"], None, mtc, not_built if want["wdl"] else None),
                    f"{root} {got['fen']}: {got}, the whole set {want}")
            c.check((got["move_wdl"], got["kept_by"] is None) ==
                    (want["move_wdl"], want["kept_by"] is None),
                    f"{root} {got['fen']}: move {got}, the whole set {want}")
        r = run(damero, "annotate", "--dir", root, path)
        c.check(r.returncode == 0 and words in r.stdout and
                "kept the win" in r.stdout.replace("\n", " "),
                f"{root}: {r.stdout!r} {r.stderr!r}")
        r = run(damero, "annotate", "--dir", root, "--rules", path)
        c.check(r.returncode == 0 and "Under the rules: not known (they need DTM and MTC "
                "tables)" in r.stdout.replace("\n", " "), f"{root} --rules: {r.stdout!r}")


def main():
    damero = sys.argv[1]
    c = Checks()
    tmp, tables = temp_tables(damero, TABLES)
    subprocess.run([damero, "gen", "--variant", "russian", "KKKvK", "--dir", tables], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    try:
        with tempfile.TemporaryDirectory(prefix="damero-pdn-") as folder:
            good_games(c, damero, tables, folder)
            line_pdn(c, damero, tables, folder)
            bad_games(c, damero, tables, folder)
            under_rules(c, damero, tables, folder)
            as_found(c, damero, tables, folder)
            without_dtm(c, damero, tables, folder)
    finally:
        tmp.cleanup()
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
