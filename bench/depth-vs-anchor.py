#!/usr/bin/env python3
"""Search efficiency side by side: banmen and a native anchor engine search the
same positions for the same time (one thread, 64 MB hash each, one engine at a
time) and the script prints, per position, the depth of the last completed
iteration, the nodes and nodes/s each reported, then the medians.

    bench/depth-vs-anchor.py [--variant shogi|cannonshogi] [--anchor fsf|yo]
        [--movetime 1000] [--positions 10] [--banmen target/release/banmen]

Positions: the first N lines of bench/fsf/openings-VARIANT.txt, 2 plies from
the start (so both engines have a table to fill, not a book move).
"""

import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANCHORS = os.path.join(ROOT, "..", "shared", "anchors", "bin")
YO_OPTIONS = {
    "BookFile": "no_book",
    "USI_OwnBook": "false",
    "NetworkDelay": "0",
    "NetworkDelay2": "0",
    "MinimumThinkingTime": "1",
    "RoundUpToFullSecond": "false",
}


def search(command, variant, position, movetime, options):
    """Runs one search; returns (depth, nodes, nps) of the last full info line."""
    p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"{command[0]} exited before '{prefix}'")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("usi")
    names = [l.split(" type ")[0][len("option name "):].lower()
             for l in until("usiok") if l.startswith("option name ")]
    if "usi_variant" in names:
        send(f"setoption name USI_Variant value {variant}")
    for name, value in {"USI_Hash": "64", "Threads": "1", **options}.items():
        if name.lower() in names:
            send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    send("usinewgame")
    send(f"position {position}")
    send(f"go movetime {movetime}")
    depth = nodes = nps = 0
    for line in until("bestmove"):
        words = line.split()
        if not words or words[0] != "info" or "depth" not in words or "pv" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:
            continue
        value = lambda key: int(words[words.index(key) + 1]) if key in words else 0
        depth, nodes = value("depth"), value("nodes")
        nps = value("nps") or (nodes * 1000 // max(1, value("time")))
    send("quit")
    p.wait(timeout=10)
    return depth, nodes, nps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="shogi")
    ap.add_argument("--anchor", default="fsf", choices=["fsf", "yo"])
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--banmen", default=os.path.join(ROOT, "target", "release", "banmen"))
    args = ap.parse_args()
    if args.anchor == "yo":
        anchor, options = [os.path.join(ANCHORS, "yaneuraou-material")], YO_OPTIONS
    elif args.variant == "shogi":
        anchor, options = [os.path.join(ANCHORS, "fairy-stockfish")], {}
    else:
        anchor, options = [os.path.join(ANCHORS, "fairy-stockfish-variants")], {}
    with open(os.path.join(ROOT, "bench", "fsf", f"openings-{args.variant}.txt")) as f:
        positions = [l.strip() for l in f if l.strip()][: args.positions]
    rows = {"banmen": [], args.anchor: []}
    print(f"load {os.getloadavg()[0]:.2f}; {args.variant}, movetime {args.movetime}")
    for pos in positions:
        b = search([args.banmen, "usi"], args.variant, pos, args.movetime, {})
        a = search(anchor, args.variant, pos, args.movetime, options)
        rows["banmen"].append(b)
        rows[args.anchor].append(a)
        print(f"{pos}: banmen depth {b[0]} nodes {b[1]} nps {b[2]} | "
              f"{args.anchor} depth {a[0]} nodes {a[1]} nps {a[2]}")
    for name, r in rows.items():
        print(f"{name}: median depth {statistics.median(x[0] for x in r)}, "
              f"median nps {int(statistics.median(x[2] for x in r))}")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
