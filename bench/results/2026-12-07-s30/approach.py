#!/usr/bin/env python3
"""Session 30: engine 1's moves from ply LO to HI of one dai dai `banmen
match` record, counted by whether the piece moved ends nearer the other
king (king steps, from the square it left to the last it names), as far,
or farther.

Usage: BANMEN=<banmen binary> approach.py RECORD LO HI
"""
import importlib.util
import os
import re
import sys

spec = importlib.util.spec_from_file_location(
    "ddm", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../dd-material.py"))
ddm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ddm)

SQUARE = re.compile(r"(\d+)([a-q])")

start, moves, _, _, ours = ddm.read_record(sys.argv[1])
lo, hi = int(sys.argv[2]), int(sys.argv[3])
tally = {"closer": 0, "same": 0, "farther": 0}
for p in range(lo, min(hi, len(moves))):
    if p % 2 != ours:
        continue
    king = [(f, r) for f, r, code, colour in ddm.pieces(ddm.sfen_after(start, moves[:p]))
            if code == "KG" and colour != ours]
    if not king:
        continue
    kf, kr = king[0]
    squares = [(int(f), ord(r) - 97) for f, r in SQUARE.findall(moves[p])]
    (f0, r0), (f1, r1) = squares[0], squares[-1]
    d0 = max(abs(f0 - kf), abs(r0 - kr))
    d1 = max(abs(f1 - kf), abs(r1 - kr))
    tally["closer" if d1 < d0 else "same" if d1 == d0 else "farther"] += 1
print(sys.argv[1], "engine 1", "black" if ours == 0 else "white", f"plies {lo}-{hi}",
      " ".join(f"{k} {v}" for k, v in tally.items()))
