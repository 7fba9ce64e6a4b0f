#!/usr/bin/env python3
"""Random russian positions of 2 to MAX pieces, one FEN a line, for bench_batch.sh.

Usage: random_fens.py COUNT [MAX_PIECES] [SEED]. Squares by name (a1 c1 ... h8, the dark
ones); men never on their own crowning rank; both sides have a piece. The same arguments
always give the same lines."""
import random
import sys

count = int(sys.argv[1])
max_pieces = int(sys.argv[2]) if len(sys.argv) > 2 else 5
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
squares = [f + str(r + 1) for r in range(8) for i, f in enumerate("abcdefgh") if (i + r) % 2 == 0]

for _ in range(count):
    n = rng.randint(2, max_pieces)
    white = rng.randint(1, n - 1)
    placed = rng.sample(squares, n)
    sides = {"W": [], "B": []}
    for k, square in enumerate(placed):
        side = "W" if k < white else "B"
        crowning = "8" if side == "W" else "1"
        king = square[1] == crowning or rng.random() < 0.5
        sides[side].append(("K" if king else "") + square)
    print("%s:W%s:B%s" % (rng.choice("WB"), ",".join(sides["W"]), ",".join(sides["B"])))
