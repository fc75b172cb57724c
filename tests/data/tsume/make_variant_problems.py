#!/usr/bin/env python3
"""Tsume problems for cannon shogi and dai dai shogi, generated from
`banmen selfplay` data and checked by two searches.

Candidates are the positions the self-play search scored as a mate for the
side to move (`#n`, n <= --max-plies) and, with --tail N, the last N positions
of each game with the winner to move (where mates are; a game search's mate
may start with a quiet move, which tsume does not allow, so many candidates
are no tsume at all). Each is solved by `banmen mate` (df-pn)
and by its brute-force search (`--brute-force`: iterative deepening over
checks, no proof numbers, no hand comparisons); a problem is kept only when
both find a mate of the same length. Usage:

  tests/data/tsume/make_variant_problems.py --variant cannonshogi \\
      --data cannonshogi-n8000.txt --out tests/data/tsume/cannonshogi.tsv
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile


# Dai dai shogi's piece codes (crates/rules/src/variant/dai_dai.rs), kings
# and pawns left out.
DAIDAI = ("FK RB FR FT WB DK DH SQ RA RO BI GB GD SB FE WE LN LD DV SD BD WT RC LC PH KR "
          "PO OK VO FD EF OR EB FH PS ST HM LO NO SO EA WR NK BM FL EW VB RG LG GG SG CG "
          "IG WG SN AB CS RV LA SM VM HD").split()


def random_daidai(rng, count):
    """Sparse 17x17 diagrams: White's king near the top edge with up to three
    guards, two to four black pieces within four squares of it, Black's king
    far away. Many are illegal (check already) or have no mate; those drop out."""
    out = []
    for _ in range(count):
        board = {}
        kr, kf = rng.randint(0, 2), rng.randint(2, 14)
        board[(kr, kf)] = "kg"
        for _ in range(rng.randint(0, 3)):
            r, f = kr + rng.randint(0, 1), kf + rng.randint(-1, 1)
            if 0 <= r < 17 and 0 <= f < 17 and (r, f) not in board:
                board[(r, f)] = rng.choice(DAIDAI).lower()
        for _ in range(rng.randint(2, 4)):
            r, f = kr + rng.randint(1, 4), kf + rng.randint(-4, 4)
            if 0 <= r < 17 and 0 <= f < 17 and (r, f) not in board:
                board[(r, f)] = rng.choice(DAIDAI)
        board[(16, 0 if kf > 8 else 16)] = "KG"
        out.append(diagram(board))
    return out


def lion_daidai(rng, count):
    """Like random_daidai, with a black lion two or three ranks below the king,
    so that some mates need its double move (and often its promotion)."""
    out = []
    for _ in range(count):
        board = {}
        kr, kf = rng.randint(0, 1), rng.randint(3, 13)
        board[(kr, kf)] = "kg"
        for _ in range(rng.randint(1, 4)):
            r, f = kr + rng.randint(0, 1), kf + rng.randint(-1, 1)
            if 0 <= r < 17 and 0 <= f < 17 and (r, f) not in board:
                board[(r, f)] = rng.choice(DAIDAI).lower()
        r, f = kr + rng.randint(2, 3), kf + rng.randint(-2, 2)
        if (r, f) not in board:
            board[(r, f)] = "LN"
        for _ in range(rng.randint(0, 2)):
            r, f = kr + rng.randint(1, 4), kf + rng.randint(-3, 3)
            if 0 <= r < 17 and 0 <= f < 17 and (r, f) not in board:
                board[(r, f)] = rng.choice(DAIDAI)
        board[(16, 0 if kf > 8 else 16)] = "KG"
        out.append(diagram(board))
    return out


def diagram(board):
    ranks = []
    for r in range(17):
        row, empty = "", 0
        for f in range(17):
            if (r, f) in board:
                row += (str(empty) if empty else "") + board[(r, f)]
                empty = 0
            else:
                empty += 1
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + " b - 1"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True)
    ap.add_argument("--data", action="append", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--banmen", default="target/release/banmen")
    ap.add_argument("--max-plies", type=int, default=7)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=int, default=5000)
    ap.add_argument("--tail", type=int, default=0)
    ap.add_argument("--lion", type=int, default=0,
                    help="also this many dai dai diagrams with a black lion near the king, of "
                         "which only mates using a double move are kept")
    ap.add_argument("--random", type=int, default=0,
                    help="also this many random dai dai shogi diagrams (a king, a few guards, "
                         "a few attackers near it)")
    args = ap.parse_args()

    by_len = {}
    seen = set()
    tail = []
    for path in args.data:
        game = []
        for line in open(path):
            if line.startswith("# game"):
                for f in game[-args.tail:] if args.tail else []:
                    board = " ".join(f[0].split()[:3])
                    if f[4] == "1" and board not in seen:
                        seen.add(board)
                        tail.append((f[0], os.path.basename(path)))
                game = []
                continue
            if line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")
            if len(f) >= 5:
                game.append(f)
            if len(f) < 5 or not f[1].startswith("#") or f[1].startswith("#-"):
                continue
            n = int(f[1][1:])
            board = " ".join(f[0].split()[:3])
            if n > args.max_plies or board in seen:
                continue
            seen.add(board)
            by_len.setdefault(n, []).append((f[0], os.path.basename(path)))
    rng = random.Random(args.seed)
    picked = []
    lens = sorted(by_len)
    # As many of each length as there are, up to an even share of --count.
    share = max(1, args.count // max(1, len(lens)))
    for n in lens:
        rng.shuffle(by_len[n])
        picked += [(n, s, src) for s, src in by_len[n][:share]]
    picked += [(0, s, src) for s, src in tail]
    picked += [(0, s, "random diagram") for s in random_daidai(rng, args.random)]
    picked += [(0, s, "lion diagram") for s in lion_daidai(random.Random(args.seed + 6), args.lion)]
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as tmp:
        tmp.write("id\tsfen\n")
        for i, (_, s, _) in enumerate(picked):
            tmp.write(f"{i}\t{s}\n")
    out = subprocess.run(
        [args.banmen, "mate", "--variant", args.variant, tmp.name,
         "--time", str(args.time), "--brute-force", str(args.max_plies)],
        capture_output=True, text=True, check=True).stdout
    os.unlink(tmp.name)
    kept = []
    for line in out.splitlines()[1:]:
        if line.startswith("#"):
            continue
        f = line.split("\t")
        if f[2] == "error":
            continue
        i, result, length, brute = int(f[0]), f[2], f[3], f[-1]
        n, sfen, src = picked[i]
        double = any(sum(c.isalpha() for c in mv) == 3 for mv in f[7].split())
        if src == "lion diagram" and not double:
            continue
        if result == "mate" and length == brute:
            kept.append((int(length), sfen, f[7], src, n))
        else:
            print(f"dropped {picked[i][1]}: df-pn {result} {length}, brute force {brute}",
                  file=sys.stderr)
    kept.sort(key=lambda k: k[0])
    prefix = {"cannonshogi": "cannon", "daidaishogi": "daidai"}.get(args.variant, args.variant)
    with open(args.out, "w") as w:
        w.write("id\tclass\tlength\tsfen\tanswer\tsource\n")
        for j, (length, sfen, line, src, n) in enumerate(kept):
            if src == "random diagram":
                origin = f"random diagram (make_variant_problems.py --random, seed {args.seed})"
            elif src == "lion diagram":
                origin = f"lion diagram (make_variant_problems.py --lion, seed {args.seed}), a double move"
            else:
                origin = f"banmen selfplay {src} " + (f"(scored #{n})" if n else "(near the end of a game)")
            w.write(f"{prefix}-{j + 1:03d}\tshort\t{length}\t{sfen}\t{line}\t"
                    f"{origin}; df-pn and brute force agree\n")
    print(f"{len(kept)} of {len(picked)} kept", file=sys.stderr)


if __name__ == "__main__":
    main()
