#!/usr/bin/env python3
"""Material course of dai dai shogi match records.

For each `game-*.txt` of a `banmen match` records folder (as
`bench/vs-anchor.sh` writes them), replays the moves with `banmen show`
and prints, every EVERY plies, engine 1's material lead in hundreds of
centipawns (the piece values of crates/engine/params/daidaishogi.txt, which
the evaluator uses), marked `*` where the evaluation's mop-up is on (a lead
of 3000 or more and the weaker side at most two thirds of the stronger
side's material). Then a summary: the games decided, the ply each mop-up
started, and the games that reached the ply limit with the mop-up on.

Usage: bench/dd-material.py RECORDS_DIR [EVERY]
Settings: BANMEN (the banmen binary; default target/release/banmen).
"""
import glob
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BANMEN = os.environ.get("BANMEN", os.path.join(ROOT, "target/release/banmen"))
PARAMS = os.path.join(ROOT, "crates/engine/params/daidaishogi.txt")
# The mop-up's thresholds (crates/engine/src/eval.rs: MOPUP_LEAD, MOPUP_SHARE).
MOPUP_LEAD = 3000
SHARE = (2, 3)


def piece_values():
    values = {}
    for line in open(PARAMS):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "mat":
            values[parts[1]] = max(int(parts[2]), 10) if parts[1] != "KG" else 0
    return values


def material(sfen, values):
    """Each colour's material (Black, White) of an SFEN's board."""
    board = sfen.split()[0]
    m = [0, 0]
    i = 0
    while i < len(board):
        c = board[i]
        if c.isdigit() or c == "/":
            i += 1
            continue
        promoted = ""
        if c == "+":
            promoted = "+"
            i += 1
        code = board[i : i + 2]
        i += 2
        m[0 if code.isupper() else 1] += values.get(promoted + code.upper(), 0)
    return m


def sfen_after(start, moves):
    out = subprocess.run(
        [BANMEN, "show", "--variant", "daidaishogi", "--sfen", start, "--moves", " ".join(moves)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return next(l[5:] for l in out.splitlines() if l.startswith("sfen "))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    values = piece_values()
    starts, limit_on, decided, games = [], 0, 0, 0
    for f in sorted(glob.glob(os.path.join(sys.argv[1], "game-*.txt"))):
        text = open(f).read()
        line = next(l for l in text.splitlines() if l.startswith("position sfen "))
        head, _, moves = line.partition(" moves ")
        start = head[len("position sfen ") :]
        moves = moves.split()
        result = re.search(r"# result: (\S+)", text).group(1)
        reason = re.search(r"# reason: (\S+)", text).group(1)
        ours = 0 if "engine 1" in re.search(r"# black: (.*)", text).group(1) else 1
        row, started = [], None
        for ply in range(0, len(moves) + 1, every):
            m = material(sfen_after(start, moves[:ply]), values)
            lead = m[ours] - m[1 - ours]
            on = abs(lead) >= MOPUP_LEAD and min(m) * SHARE[1] <= max(m) * SHARE[0]
            if on and started is None:
                started = ply
            row.append(f"{lead // 100}{'*' if on else ''}")
        games += 1
        decided += result != "draw"
        if started is not None:
            starts.append(started)
            limit_on += reason == "max-moves"
        name = os.path.basename(f)
        side = "BW"[ours]
        print(f"{name} {result} {reason} {len(moves)} engine1={side} {' '.join(row)}", flush=True)
    print(f"games {games}, decided {decided}")
    if starts:
        print(
            f"mop-up on in {len(starts)} games, from ply {min(starts)} to {max(starts)} "
            f"(median {statistics.median(starts)}); on at the limit: {limit_on}"
        )


if __name__ == "__main__":
    main()
