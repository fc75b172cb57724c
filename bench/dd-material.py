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

With NEAR=1 each column also gives, after a slash, the closeness of engine
1's pieces (its king left out) to the other king, as the mop-up counts it:
17 less each piece's king-step distance, summed (crates/engine/src/eval.rs:
MOPUP_REACH); a sum that does not grow while the mop-up is on means the
army is not coming.

Usage: bench/dd-material.py RECORDS_DIR [EVERY]
Settings: BANMEN (the banmen binary; default target/release/banmen), NEAR.
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
# The mop-up's reach in king steps (MOPUP_REACH).
REACH = 17


def piece_values():
    values = {}
    for line in open(PARAMS):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "mat":
            values[parts[1]] = max(int(parts[2]), 10) if parts[1] != "KG" else 0
    return values


def pieces(sfen):
    """Each piece of an SFEN's board: (file, rank, code with "+" if promoted,
    colour: 0 Black, 1 White); files count down from 17, ranks from 0 (a)."""
    for rank, row in enumerate(sfen.split()[0].split("/")):
        file, i = 17, 0
        while i < len(row):
            if row[i].isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                file -= int(row[i:j])
                i = j
                continue
            promoted = row[i] == "+"
            i += promoted
            code = row[i : i + 2]
            i += 2
            yield file, rank, "+" * promoted + code.upper(), 0 if code.isupper() else 1
            file -= 1


def material(sfen, values):
    """Each colour's material (Black, White) of an SFEN's board."""
    m = [0, 0]
    for _, _, code, colour in pieces(sfen):
        m[colour] += values.get(code, 0)
    return m


def closeness(sfen, ours):
    """The closeness sum of colour `ours`'s pieces (0: Black) to the other king."""
    own, kings = [], {}
    for file, rank, code, colour in pieces(sfen):
        if code == "KG":
            kings[colour] = (file, rank)
        elif colour == ours:
            own.append((file, rank))
    if 1 - ours not in kings:
        return 0
    kf, kr = kings[1 - ours]
    return sum(max(REACH - max(abs(f - kf), abs(r - kr)), 0) for f, r in own)


def sfen_after(start, moves):
    """The SFEN after `moves` from `start` (an SFEN, or None: the start position)."""
    command = [BANMEN, "show", "--variant", "daidaishogi", "--moves", " ".join(moves)]
    if start is not None:
        command += ["--sfen", start]
    run = subprocess.run(command, capture_output=True, text=True)
    line = next((l for l in run.stdout.splitlines() if l.startswith("sfen ")), None)
    if run.returncode != 0 or line is None:
        raise ValueError(f"banmen show refused the game: {run.stderr.strip() or run.stdout.strip()}")
    return line[5:]


def read_record(path):
    """(start SFEN or None, moves, result, reason, engine 1's colour index)."""
    text = open(path, encoding="utf-8").read()
    line = next((l for l in text.splitlines() if l.startswith("position ")), None)
    fields = {k: v.strip() for k, v in re.findall(r"^# (\w[\w-]*): (.*)$", text, re.M)}
    if line is None or not {"result", "reason", "black"} <= fields.keys():
        raise ValueError("not a banmen match record (no position line, or no result, reason or black)")
    head, _, moves = line.partition(" moves ")
    words = head.split(maxsplit=2)
    if words[1:2] == ["startpos"]:
        start = None
    elif words[1:2] == ["sfen"] and len(words) == 3:
        start = words[2]
    else:
        raise ValueError(f"unreadable position line: {head}")
    ours = 0 if "engine 1" in fields["black"] else 1
    return start, moves.split(), fields["result"], fields["reason"], ours


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    try:
        every = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    except ValueError:
        every = 0
    if every < 1:
        sys.exit("EVERY must be a whole number of plies, at least 1")
    if not os.access(BANMEN, os.X_OK):
        sys.exit(f"no banmen binary at {BANMEN} (cargo build --release, or set BANMEN)")
    values = piece_values()
    near = os.environ.get("NEAR", "") not in ("", "0")
    starts, limit_on, decided, games = [], 0, 0, 0
    files = sorted(glob.glob(os.path.join(sys.argv[1], "game-*.txt")))
    if not files:
        sys.exit(f"no game-*.txt records in {sys.argv[1]}")
    for f in files:
        name = os.path.basename(f)
        try:
            start, moves, result, reason, ours = read_record(f)
            sfens = [sfen_after(start, moves[:ply]) for ply in range(0, len(moves) + 1, every)]
        except (OSError, UnicodeDecodeError, ValueError) as e:
            print(f"{name}: skipped: {e}", file=sys.stderr)
            continue
        row, started = [], None
        for i, sfen in enumerate(sfens):
            ply = i * every
            m = material(sfen, values)
            lead = m[ours] - m[1 - ours]
            on = abs(lead) >= MOPUP_LEAD and min(m) * SHARE[1] <= max(m) * SHARE[0]
            if on and started is None:
                started = ply
            column = f"{int(lead / 100)}{'*' if on else ''}"
            if near:
                column += f"/{closeness(sfen, ours)}"
            row.append(column)
        games += 1
        decided += result != "draw"
        if started is not None:
            starts.append(started)
            limit_on += reason == "max-moves"
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
