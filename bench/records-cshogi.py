#!/usr/bin/env python3
"""Peer test of `banmen convert` against cshogi's KIF and CSA parsers.

For the three reference games (crates/rules/tests/data/games) and 100 random
games (random legal moves chosen by cshogi, seeded), writes KIF (Shift-JIS)
and CSA with `banmen convert` from a USI `position` line, reads them back with
cshogi.KIF.Parser and cshogi.CSA.Parser, and checks the start position and
the moves are the same. Exit code 0 when all agree.

Usage: bench/records-cshogi.py [path/to/banmen] (default: target/release/banmen,
then target/debug/banmen).
"""

import os
import random
import subprocess
import sys

import cshogi
import cshogi.CSA
import cshogi.KIF

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(ROOT, "crates", "rules", "tests", "data", "games")


def banmen_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    for p in ("target/release/banmen", "target/debug/banmen"):
        full = os.path.join(ROOT, p)
        if os.path.exists(full):
            return full
    sys.exit("no banmen binary: build it or pass its path")


def convert(banmen, usi_line, to):
    out = subprocess.run(
        [banmen, "convert", "-", "--from", "usi", "--to", to],
        input=usi_line.encode(),
        capture_output=True,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"banmen convert --to {to}: {out.stderr.decode(errors='replace')}")
    return out.stdout


def reference_games():
    games = []
    for name in sorted(os.listdir(GAMES)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(GAMES, name), encoding="utf-8") as f:
            moves = " ".join(
                line.strip() for line in f if line.strip() and not line.startswith("#")
            ).split()
        games.append((name, moves))
    return games


def random_game(seed):
    rng = random.Random(seed)
    board = cshogi.Board()
    moves = []
    for _ in range(rng.randint(10, 160)):
        legal = list(board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(cshogi.move_to_usi(m))
        board.push(m)
    return (f"random-{seed}", moves)


def main():
    banmen = banmen_path()
    games = reference_games() + [random_game(seed) for seed in range(100)]
    failures = 0
    rewritten = set()
    for name, moves in games:
        line = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        kif = convert(banmen, line, "kif").decode("cp932")
        csa = convert(banmen, line, "csa").decode("utf-8")
        # cshogi's KIF move pattern knows only one-character piece names and no
        # 不成; KIF (Kifu for Windows) writes 成銀/成桂/成香 and 不成. Rewrite
        # those for cshogi and count the games that needed it.
        for long, short in (("成銀(", "全("), ("成桂(", "圭("), ("成香(", "杏("), ("不成(", "(")):
            if long in kif:
                rewritten.add(name)
                kif = kif.replace(long, short)
        k = cshogi.KIF.Parser.parse_str(kif)
        k_moves = [cshogi.move_to_usi(m) for m in k.moves]
        parsed = cshogi.CSA.Parser.parse_str(csa)
        c = parsed[0] if isinstance(parsed, list) else parsed
        c_moves = [cshogi.move_to_usi(m) for m in c.moves]
        for fmt, got, sfen in (("kif", k_moves, k.sfen), ("csa", c_moves, c.sfen)):
            if got != moves or sfen.split()[:3] != cshogi.STARTING_SFEN.split()[:3]:
                failures += 1
                print(f"MISMATCH {name} {fmt}: {len(got)} moves read, {len(moves)} written")
    total = len(games)
    print(
        f"cshogi peer: {total} games, {2 * total - failures}/{2 * total} KIF+CSA reads agree "
        f"({len(rewritten)} KIF files had 成銀/成桂/成香/不成 rewritten for cshogi)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
