#!/usr/bin/env python3
"""`damero serve`'s HTTP API against a server on a free loopback port: every answer
the same as the command line's (`damero probe --json`, `damero line --json`), errors as
JSON with their status, no file outside the page, concurrent requests answered alike.

usage: test_serve_api.py DAMERO"""
import concurrent.futures
import http.client
import json
import os
import socket
import subprocess
import sys
import urllib.parse

from py_harness import Checks, get, get_json, server, sets_without_dtm, temp_tables

POSITIONS = [  # (variant, FEN): wins, draws, losses, captures, a game over
    ("russian", "W:WKa1,Kc1:BKh8"),
    ("russian", "B:WKb2,Kc3:BKa1"),
    ("russian", "W:Wc3:Bf6"),
    ("russian", "W:WKa1:BKb2"),
    ("russian", "B:WKc3:B"),
    ("international", "W:W28,K46:B7"),
    ("international", "B:W31:B20"),
]


def cli_json(damero, tables, command, variant, fen):
    out = subprocess.run([damero, command, "--variant", variant, "--dir", tables, "--json",
                          fen], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def api_url(base, variant, fen, line=False):
    return f"{base}api/{variant}{'/line' if line else ''}?fen={urllib.parse.quote(fen)}"


def same_as_cli(c, damero, tables, base):
    for variant, fen in POSITIONS:
        for line in (False, True):
            status, got = get_json(api_url(base, variant, fen, line))
            want = cli_json(damero, tables, "line" if line else "probe", variant, fen)
            c.check(status == 200 and got == want,
                    f"{variant} {fen} {'line' if line else 'probe'}: {status} {got} != {want}")


def rules_same_as_cli(c, damero, tables, base):
    """/api/VARIANT/rules answers what `damero probe --json --rules` prints (the counts
    starting at the position), under either reading; a bad reading is a 400."""
    # each endpoint against the command it answers as, and a key only the rules give
    for endpoint, command, key, cases in (
            ("rules", "probe", "rules", (("russian", "W:WKa1,Kc3:BKh8", "1"),
                                         ("russian", "B:WKa1,Kc3:BKh8", "2"),
                                         ("international", "W:W28,K46:B7", "1"))),
            ("rules/line", "line", "rules_result", (("russian", "W:WKa1,Kc3:BKh8", "1"),
                                                    ("russian", "B:WKb2,Kc3:BKa1", "2")))):
        for variant, fen, reading in cases:
            url = (f"{base}api/{variant}/{endpoint}?fen={urllib.parse.quote(fen)}"
                   f"&reading={reading}")
            status, got = get_json(url)
            out = subprocess.run([damero, command, "--variant", variant, "--dir", tables,
                                  "--json", "--reading", reading, fen], capture_output=True,
                                 text=True, check=True).stdout
            want = json.loads(out)
            c.check(status == 200 and got == want and key in got,
                    f"{variant} {fen} {endpoint} (reading {reading}): {status} {got} != {want}")
    for bad in ("0", "3"):
        status, got = get_json(f"{base}api/russian/rules?fen=W:WKa1,Kc3:BKh8&reading={bad}")
        c.check(status == 400 and "reading is 1 or 2" in got.get("error", "") and
                "numbered 1 and 2 since damero 0.3.0" in got.get("error", ""),
                f"reading={bad}: {status} {got}")


def variants(c, base):
    status, got = get_json(base + "api/variants")
    names = [v["variant"] for v in got] if status == 200 else []
    c.check(names == ["international", "russian"], f"/api/variants lists {names}")
    for v in got:
        numbers = sorted(n for row in v["grid"] for n in row if n)
        c.check(len(v["grid"]) == v["rows"] and numbers == list(range(1, len(v["names"]) + 1)),
                f"{v['variant']}: the grid does not number the squares 1..{len(v['names'])}")
        c.check(v["max_pieces"] == 3, f"{v['variant']}: max_pieces {v['max_pieces']}")
        c.check(v["rules"] > 0, f"{v['variant']}: {v['rules']} move-limit rules")
        c.check(v["first"] == "W", f"{v['variant']}: {v['first']} moves first")
    russian = next(v for v in got if v["variant"] == "russian")
    # White at the bottom: a1 (square 1) at the bottom left, h8 (32) at the top right
    c.check(russian["grid"][-1][0] == 1 and russian["grid"][0][-1] == 32 and
            russian["names"][0] == "a1" and russian["algebraic"],
            f"russian board: {russian['grid']}")
    intl = next(v for v in got if v["variant"] == "international")
    c.check(intl["grid"][0][1] == 1 and intl["grid"][-1][-2] == 50 and intl["names"][0] == "1",
            "international board: 1 at the top left, 50 at the bottom right")


def start_and_moves(c, damero, tables, base):
    """/start and /moves, which read no table: the starting position and its moves."""
    starts = {"russian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                         "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
              "international": "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                               "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"}
    first = {"russian": "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4",
             "international": "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"}
    for variant, fen in starts.items():
        status, got = get_json(f"{base}api/{variant}/start")
        c.check(status == 200 and got == {"variant": variant, "fen": fen},
                f"{variant}/start: {status} {got}")
        status, got = get_json(api_url(base, variant, fen) .replace(f"/{variant}?", f"/{variant}/moves?"))
        moves = " ".join(m["move"] for m in got.get("moves", []))
        c.check(status == 200 and got["fen"] == fen and moves == first[variant],
                f"{variant}/moves from the start: {status} {moves}")
        # each quiet move's after: the same men, one moved from its first square to its last
        whites = set(fen.split(":")[1][1:].split(","))
        for m in got.get("moves", []):
            side, white, black = m["after"].split(":")
            frm, to = m["move"].split("-")
            c.check(side == "B" and set(white[1:].split(",")) == whites - {frm} | {to} and
                    black == fen.split(":")[2], f"{variant} {m['move']}: after {m['after']}")
        c.check(all(m["category"] == "unknown" for m in got.get("moves", [])),
                f"{variant}/moves from the start: a category known beyond the tables")
    # inside the tables, /moves lists what the main endpoint lists, with the categories
    # and without the values
    status, got = get_json(api_url(base, "russian", "W:WKa1,Kc1:BKh8").replace("?", "/moves?", 1))
    _, want = get_json(api_url(base, "russian", "W:WKa1,Kc1:BKh8"))
    c.check(status == 200 and got["moves"] == sorted(({"move": m["move"], "after": m["after"],
                                                       "category": m["category"]}
                                                      for m in want["moves"]),
                                                     key=lambda m: m["move"]),
            f"russian/moves W:WKa1,Kc1:BKh8: {got}")
    # beyond the tables (4 pieces, built to 3), a capture into them has the category of
    # the position it leads to, turned over to the mover's
    fen = "W:WKa1,Kc3:BKd4,Kh8"
    status, got = get_json(api_url(base, "russian", fen).replace("?", "/moves?", 1))
    c.check(status == 200 and got["moves"] and
            all(m["category"] != "unknown" for m in got["moves"]),
            f"russian/moves {fen}: captures into the tables without a category: {got}")
    turned = {"win": "loss", "loss": "win", "cursed-win": "blessed-loss",
              "blessed-loss": "cursed-win", "draw": "draw", "unknown": "unknown"}
    for m in got.get("moves", []):
        _, after = get_json(api_url(base, "russian", m["after"]))
        want = turned[after["category"]] if "category" in after else "unknown"
        c.check(m["category"] == want, f"russian/moves {fen}: {m['move']} is "
                f"{m['category']}, the position after it {after.get('category', after)}")


BAD = [  # (path, status, words in the error)
    ("api/russian?fen=W:WKa1,Kc1:BKz8", 400, "not a square"),
    ("api/russian?fen=" + urllib.parse.quote("W:WKa1,Kc1,Ke1,Kg1:BKh8"), 404, "no .dtm table"),
    ("api/russian", 400, "give the position"),
    ("api/russian?fen=", 400, "give the position"),
    ("api/russian?fen=" + "W" * 300, 400, "longer than"),
    ("api/pool?fen=W:WKa1:BKh8", 404, "no tables for the variant 'pool'"),
    ("api/nosuch?fen=W:WKa1:BKh8", 404, "no tables for the variant 'nosuch'"),
    ("api/russian/best?fen=W:WKa1:BKh8", 404, "no such API path"),
    ("api/russian/moves", 400, "give the position"),
    ("api/russian/moves?fen=W:Wz9:B", 400, "not a square"),
    ("api/pool/start", 404, "no tables for the variant 'pool'"),
    ("api/russian/start/x", 404, "no such API path"),
    ("api/%ff%fe?fen=1", 404, "no tables for the variant"),
    ("api/russian?fen=%ff%fe", 400, "FEN"),
    ("nosuch.html", 404, "no such page"),
    ("../../../etc/passwd", 404, "no such page"),
    ("%2e%2e/%2e%2e/etc/passwd", 404, "no such page"),
    ("..%2fCMakeLists.txt", 404, "no such page"),
]


def errors(c, base):
    for path, want_status, words in BAD:
        status, kind, body = get(base + path)
        try:
            got = json.loads(body)
        except ValueError:
            got = {}
        c.check(status == want_status and kind == "application/json" and
                got.get("status") == want_status and words in got.get("error", ""),
                f"GET /{path}: {status} {kind} {body[:200]!r}, want {want_status} '{words}'")


def raw(base, request):
    """Sends request bytes as they are (what urllib would not); the status line back."""
    host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(request)
        answer = b""
        while b"\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def limits(c, base):
    c.check(" 405 " in raw(base, b"POST /api/russian HTTP/1.1\r\nHost: x\r\n"
                                 b"Content-Length: 3\r\n\r\nabc"), "POST is not refused with 405")
    huge = b"GET /api/russian?fen=" + b"W" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    line = raw(base, huge)
    c.check(line.startswith("HTTP/1.1 4"), f"a 100 kB request line: {line!r}, want 4xx")
    line = raw(base, b"BROKEN\r\n\r\n")
    c.check(line.startswith("HTTP/1.1 4") or line == "", f"a broken request: {line!r}")
    # the server still answers after all that
    status, _ = get_json(base + "api/variants")
    c.check(status == 200, "the server stopped answering after bad requests")


def page(c, base):
    for path, kind in [("", "text/html"), ("index.html", "text/html"),
                       ("app.js", "text/javascript"), ("style.css", "text/css")]:
        status, got_kind, body = get(base + path)
        c.check(status == 200 and got_kind.startswith(kind) and len(body) > 100,
                f"GET /{path}: {status} {got_kind}")


def concurrent_requests(c, base):
    urls = [api_url(base, v, f, line) for v, f in POSITIONS for line in (False, True)]
    alone = {u: get(u)[2] for u in urls}
    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        together = list(pool.map(lambda u: (u, get(u)[2]), urls * 20))
    differ = [u for u, body in together if body != alone[u]]
    c.check(not differ, f"{len(differ)} of {len(together)} concurrent answers differ: {differ[:3]}")


def ipv6_loopback():
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def command_line(c, damero, tables):
    for args, words in [(["--bind", "example.org"], "--bind takes an IP address"),
                        (["--port", "70000"], "--port takes a whole number"),
                        (["--budget", "5"], "--budget takes a whole number from 10"),
                        (["--dir", tables + "/nosuch"], "nosuch"),
                        (["stray"], "unexpected argument")]:
        r = subprocess.run([damero, "serve", "--dir", tables, *args], capture_output=True,
                           text=True, timeout=30)
        c.check(r.returncode != 0 and words in r.stderr,
                f"serve {args}: exit {r.returncode}, {r.stderr!r}, want '{words}'")
    with server(damero, tables) as base:
        busy = urllib.parse.urlsplit(base).port
        r = subprocess.run([damero, "serve", "--dir", tables, "--port", str(busy)],
                           capture_output=True, text=True, timeout=30)
        c.check(r.returncode == 1 and "cannot listen" in r.stderr and
                "the port is in use (--port 0 takes a free one)" in r.stderr,
                f"a port in use: exit {r.returncode}, {r.stderr!r}")
    # an address that is not this machine's (TEST-NET-1, never assigned): said so
    r = subprocess.run([damero, "serve", "--dir", tables, "--bind", "192.0.2.1", "--port", "0"],
                       capture_output=True, text=True, timeout=30)
    c.check(r.returncode == 1 and "the address is not one of this machine's" in r.stderr,
            f"an address not this machine's: exit {r.returncode}, {r.stderr!r}")
    if not ipv6_loopback():
        print("IPv6 loopback not available here: --bind ::1 not tried")
        return
    with server(damero, tables, "--bind", "::1") as base:
        c.check(base.startswith("http://[::1]:"), f"--bind ::1 serves at {base}")
        if base.startswith("http://[::1]:"):
            status, _ = get_json(base + "api/variants")
            c.check(status == 200, "no answer over IPv6")


def without_dtm(c, damero, tables, root):
    """Sets without DTM: the probe answers the whole set's WDL (and MTC), naming what is
    not built, as the command line does; the line plays by MTC, or says it needs it; the
    rules say they need DTM. Never a 500."""
    wdl, wdl_mtc = sets_without_dtm(damero, tables, root)
    russian = [fen for variant, fen in POSITIONS if variant == "russian"]
    for root, not_built in ((wdl, ["dtm", "mtc"]), (wdl_mtc, ["dtm"])):
        lines = {"refused": 0, "by MTC": 0}
        with server(damero, root) as base:
            for fen in russian:
                whole = cli_json(damero, tables, "probe", "russian", fen)
                status, got = get_json(api_url(base, "russian", fen))
                want = cli_json(damero, root, "probe", "russian", fen)
                over = not whole["moves"]
                c.check(status == 200 and got == want and got["wdl"] == whole["wdl"] and
                        got.get("not_built") == (None if over else not_built) and
                        got["mtc"] == (whole["mtc"] if over or "mtc" not in not_built
                                       else None),
                        f"{root} {fen}: {status} {got}, the whole set {whole}")
                status, got = get_json(api_url(base, "russian", fen, line=True))
                if status == 404:
                    lines["refused"] += 1
                    c.check("needs DTM or MTC" in got["error"], f"{root} {fen} line: {got}")
                else:
                    lines["by MTC"] += got.get("played_by") == "mtc"
                    c.check(status == 200 and got["result"] == whole["wdl"],
                            f"{root} {fen} line: {status} {got}")
                status, got = get_json(f"{base}api/russian/rules?fen={urllib.parse.quote(fen)}")
                c.check(status == 404 and ".dtm" in got["error"] or
                        status == 200 and not got["moves"],  # over: no table read
                        f"{root} {fen} rules: {status} {got}")
        want = {"refused": 2, "by MTC": 0} if "mtc" in not_built else {"refused": 0, "by MTC": 2}
        c.check(lines == want, f"{root}: lines {lines}, want {want}")


def rules_category(plain_wdl, rules):
    """The category that a value under the rules (/rules) makes, as Lichess names it."""
    if rules["wdl"] != "draw":
        return rules["wdl"]
    return {"win": "cursed-win", "loss": "blessed-loss"}.get(plain_wdl, "draw")


def categories(c, base, positions):
    """The main endpoint's category, of the position and of each move, is what the full
    search under the rules (/rules) says, or "unknown" where its bounded search cannot
    settle a win or loss; a plain draw is always "draw"."""
    settled = set()
    for variant, fen in positions:
        _, plain = get_json(api_url(base, variant, fen))
        _, rules = get_json(f"{base}api/{variant}/rules?fen={urllib.parse.quote(fen)}")
        wanted = {m["after"]: rules_category(m["wdl"], m["rules"]) for m in rules["moves"]}
        wanted[fen] = rules_category(plain["wdl"], rules["rules"])
        c.check(rules["category"] == wanted[fen], f"{variant} {fen}: /rules category "
                f"{rules['category']}, its rules value {rules['rules']}")
        for after, wdl, got in [(fen, plain["wdl"], plain["category"])] + \
                [(m["after"], m["wdl"], m["category"]) for m in plain["moves"]]:
            ok = got == wanted[after] or (got == "unknown" and wdl != "draw")
            c.check(ok, f"{variant} {fen}: {after} is {got}, under the rules {wanted[after]}")
            if got != "unknown":
                settled.add(got)
        unknown = [m for m in [plain] + plain["moves"] if m["category"] == "unknown"]
        c.check(bool(unknown) == ("unknown_because" in plain) and
                (not unknown or "damero gen --rules" in plain["unknown_because"]),
                f"{variant} {fen}: {len(unknown)} unknown, unknown_because "
                f"{plain.get('unknown_because')!r}")
        if unknown:
            settled.add("unknown")
    return settled


def categories_cursed(c, damero, root):
    """Spanish three kings against one: a win the 12-move forzosa makes a draw is a
    cursed-win, on the position and on its winning move, the other moves draws."""
    subprocess.run([damero, "gen", "--variant", "spanish", "--dir", root, "KKKvK"],
                   capture_output=True, check=True)
    with server(damero, root) as base:
        fen = "W:WK1,K5,K10:BK2"
        settled = categories(c, base, [("spanish", fen), ("spanish", "B:WK1,K5,K10:BK2"),
                                       ("spanish", "W:WK4,K8,K12:BK29")])
        c.check("cursed-win" in settled, f"spanish {fen}: no cursed-win among {settled}")
        # W:WK4,K8,K12:BK29: moves the bounded search leaves unknown, and the answer says why
        c.check("unknown" in settled, f"spanish: no unknown category among {settled}")


def headers(c, base):
    """Keep-alive (two requests on one connection), CORS (any origin; OPTIONS answers the
    preflight), Cache-Control (answers kept a day, errors never), Allow on a 405, and a
    missing table told apart from a wrong URL."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.request("GET", "/api/russian?fen=W:WKa1:BKh8", headers={"Origin": "http://x.test"})
        first = conn.getresponse()
        first.read()
        sock = conn.sock
        c.check(first.status == 200 and first.getheader("Connection") != "close" and sock,
                f"keep-alive: {first.status} Connection: {first.getheader('Connection')}")
        c.check(first.getheader("Access-Control-Allow-Origin") == "*" and
                "max-age=" in (first.getheader("Cache-Control") or ""),
                f"200 headers: {first.getheaders()}")
        conn.request("GET", "/api/variants")
        listed = conn.getresponse()
        listed.read()
        c.check(listed.getheader("Cache-Control") == "no-cache",
                f"/api/variants (served until a restart): {listed.getheaders()}")
        conn.request("OPTIONS", "/api/russian?fen=W:WKa1:BKh8",
                     headers={"Origin": "http://x.test", "Access-Control-Request-Method": "GET"})
        options = conn.getresponse()
        options.read()
        c.check(options.status == 204 and conn.sock is sock and
                "GET" in (options.getheader("Access-Control-Allow-Methods") or "") and
                "OPTIONS" in (options.getheader("Allow") or "") and
                options.getheader("Access-Control-Allow-Origin") == "*",
                f"OPTIONS (on the same connection: {conn.sock is sock}): {options.status} "
                f"{options.getheaders()}")
        conn.request("POST", "/api/russian", body=b"x=1")
        post = conn.getresponse()
        body = json.loads(post.read())
        c.check(post.status == 405 and "GET" in (post.getheader("Allow") or "") and
                body.get("reason") == "method_not_allowed", f"POST: {post.status} "
                f"{post.getheaders()} {body}")
        for path, reason in (("/api/russian?fen=" + urllib.parse.quote("W:WKa1,Kc1,Ke1,Kg1:BKh8"),
                              "table_missing"),
                             ("/api/russian/best?fen=W:WKa1:BKh8", "not_found"),
                             ("/api/russian?fen=W:Wz9:B", "bad_request")):
            conn.request("GET", path)
            answer = conn.getresponse()
            body = json.loads(answer.read())
            c.check(body.get("reason") == reason and
                    answer.getheader("Cache-Control") == "no-store" and
                    answer.getheader("Access-Control-Allow-Origin") == "*",
                    f"GET {path}: {answer.status} {answer.getheaders()} {body}, want {reason}")
    finally:
        conn.close()


def main():
    damero = sys.argv[1]
    c = Checks()
    tmp, tables = temp_tables(damero)
    try:
        with server(damero, tables) as base:
            c.check(base.startswith("http://127.0.0.1:"), f"not on loopback by default: {base}")
            same_as_cli(c, damero, tables, base)
            variants(c, base)
            rules_same_as_cli(c, damero, tables, base)
            start_and_moves(c, damero, tables, base)
            errors(c, base)
            headers(c, base)
            c.check(categories(c, base, POSITIONS) >= {"win", "draw", "loss"},
                    "the positions' categories miss win, draw or loss")
            limits(c, base)
            page(c, base)
            concurrent_requests(c, base)
        command_line(c, damero, tables)
        without_dtm(c, damero, tables, tmp.name)
        categories_cursed(c, damero, os.path.join(tmp.name, "spanish"))
    finally:
        tmp.cleanup()
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
