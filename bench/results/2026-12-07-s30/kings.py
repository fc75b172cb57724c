#!/usr/bin/env python3
"""Session 30: each king's square and each side's piece count every STEP
plies of one dai dai `banmen match` record.

Usage: BANMEN=<banmen binary> kings.py RECORD STEP
Prints `ply:B<king>(<Black's pieces>)/W<king>(<White's pieces>)`.
"""
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "ddm", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../dd-material.py"))
ddm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ddm)

start, moves, _, _, _ = ddm.read_record(sys.argv[1])
step = int(sys.argv[2])
out = []
for p in range(0, len(moves) + 1, step):
    kings, count = {}, [0, 0]
    for file, rank, code, colour in ddm.pieces(ddm.sfen_after(start, moves[:p])):
        count[colour] += 1
        if code == "KG":
            kings[colour] = f"{file}{chr(97 + rank)}"
    out.append(f"{p}:B{kings.get(0)}({count[0]})/W{kings.get(1)}({count[1]})")
print(" ".join(out))
