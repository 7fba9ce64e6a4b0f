#!/usr/bin/env python3
"""How many of the main endpoint's won and lost moves get a category under the rules
where the rule tables are not built (issue 39: "about half are unknown"), and at what
cost: `damero serve` over DIR, each random russian position (bench/random_fens.py, up to
4 pieces, a fixed seed) asked once, warm. With more builds, the same positions through
each in the same run, the last named first (the baseline).

usage: bench_categories.py DIR DAMERO [DAMERO...]   (DIR: russian up to 4 pieces, with
       the rule tables or without: damero gen --variant russian --pieces 4 [--rules])"""
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

POSITIONS = 300


def get(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


def serve(damero, tables):
    server = subprocess.Popen([damero, "serve", "--dir", tables, "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    return server, line[line.index("http://"):].split()[0].rstrip("/") + "/"


def run(damero, tables, fens):
    server, base = serve(damero, tables)
    moves = unknown = 0
    times = []
    try:
        for fen in fens:
            url = f"{base}api/russian?fen={urllib.parse.quote(fen)}"
            try:
                get(url)  # warm: the blocks in the cache
            except urllib.error.HTTPError:
                continue  # over, or not a position of the tables
            start = time.perf_counter()
            answer = get(url)
            times.append((time.perf_counter() - start) * 1000)
            for m in answer["moves"]:
                if m["wdl"] != "draw":
                    moves += 1
                    unknown += m["category"] == "unknown"
    finally:
        server.terminate()
        server.wait()
    times.sort()
    print(f"{damero}: {len(times)} positions, {moves} won or lost moves, {unknown} unknown "
          f"({100 * unknown / max(moves, 1):.1f}%); per position median "
          f"{statistics.median(times):.2f} ms, 95th percentile "
          f"{times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms")


def main():
    tables, binaries = sys.argv[1], sys.argv[2:][::-1]
    here = os.path.dirname(os.path.abspath(__file__))
    fens = subprocess.run([sys.executable, os.path.join(here, "random_fens.py"),
                           str(POSITIONS), "4", "39"], capture_output=True, text=True,
                          check=True).stdout.split()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"load {open('/proc/loadavg').read().split()[0]}")
    for damero in binaries:
        run(damero, tables, fens)


main()
