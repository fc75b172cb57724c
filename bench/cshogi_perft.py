#!/usr/bin/env python3
"""Bulk perft with cshogi, for comparison with `banmen perft`.

cshogi has no perft of its own, so this is the usual recursive one: every
legal move is pushed and popped down to the last ply, where the moves are
counted without being made (bulk counting, `len(board.legal_moves)`), as
`banmen perft` does.

Prints one line like banmen's last line: `nodes <N> time <s> nps <N>`.

    python3 bench/cshogi_perft.py --depth 4
    python3 bench/cshogi_perft.py --depth 3 --sfen "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
"""

import argparse
import sys
import time

import cshogi


def perft(board: cshogi.Board, depth: int) -> int:
    """Leaves of the legal move tree `depth` plies deep."""
    if depth == 0:
        return 1
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    nodes = 0
    push, pop = board.push, board.pop
    for m in list(moves):
        push(m)
        nodes += perft(board, depth - 1)
        pop()
    return nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, required=True, help="depth in plies")
    parser.add_argument("--sfen", default=None, help="start SFEN (default: the initial position)")
    args = parser.parse_args()
    if args.depth < 0:
        parser.error("--depth must be 0 or more")

    board = cshogi.Board() if args.sfen is None else cshogi.Board(sfen=args.sfen)
    start = time.perf_counter()
    nodes = perft(board, args.depth)
    secs = time.perf_counter() - start
    nps = int(nodes / secs) if secs > 0 else 0
    print(f"nodes {nodes} time {secs:.3f} nps {nps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
