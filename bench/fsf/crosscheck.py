#!/usr/bin/env python3
"""Cross-check banmen's legal moves against Fairy-Stockfish's, along random games.

Plays random games from the start position. At every ply it asks both sides
for the set of legal moves:

- Fairy-Stockfish (the WebAssembly build from npm, run by fsf-usi.js as one
  long-lived USI engine): `position startpos moves ...` then `go perft 1`,
  whose divide lines (`<move>: 1`) are the legal moves;
- banmen: `banmen show --variant V --moves "..."` (one process per ply;
  banmen has no stdin protocol yet), whose `legal moves (N): ...` line is the
  legal moves and whose `sfen ...` line is the position.

The next move is chosen at random from the moves both agree on; a game ends
when there are none (mate or no legal move) or after --max-plies plies.

On a disagreement it prints the position (SFEN and the moves from the start),
the moves only Fairy-Stockfish has and the moves only banmen has, and exits
with status 1 (with --keep-going it carries on and exits 1 at the end). The
last line is always `positions compared: N, games: G, disagreements: D`.

--variant shogi uses Fairy-Stockfish's built-in shogi, which (upstream)
generates pawn-drop mates (uchifuzume) as moves. A pawn drop that only
Fairy-Stockfish has is therefore not counted as a disagreement when it gives
mate: the script puts the pawn on the board itself (from banmen's SFEN) and
asks banmen about the result, which must be "in check" with 0 legal moves.

Needs Node.js (20) and `bench/fsf/setup.sh` run once. Python 3.11, stdlib only.

    python3 bench/fsf/crosscheck.py                       # cannon shogi, 20 games, seed 1
    python3 bench/fsf/crosscheck.py --games 100 --seed 7
    python3 bench/fsf/crosscheck.py --variant shogi --games 5
"""

from __future__ import annotations

import argparse
import os
import random
import re
import selectors
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

FSF_DIR = Path(__file__).resolve().parent
ROOT = FSF_DIR.parent.parent

DIVIDE_LINE = re.compile(r"^(\S+): (\d+)$")
PAWN_DROP = re.compile(r"^P\*([1-9])([a-i])$")


class FsfError(RuntimeError):
    pass


class Fsf:
    """Fairy-Stockfish as a USI engine over pipes (node fsf-usi.js)."""

    def __init__(self, node: str, variant: str, timeout: float) -> None:
        script = FSF_DIR / "fsf-usi.js"
        ini = FSF_DIR / "cannonshogi.ini"
        module = FSF_DIR / "node_modules" / "fairy-stockfish-nnue.wasm" / "stockfish.js"
        for f in (script, ini, module):
            if not f.exists():
                raise FsfError(f"{f} is missing; run bench/fsf/setup.sh first")
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [node, "--no-experimental-fetch", str(script), str(ini)],
            cwd=FSF_DIR,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.buf = b""
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        self.send("usi")
        self.wait_for(lambda line: line == "usiok")
        self.send(f"setoption name USI_Variant value {variant}")
        self.send("isready")
        self.wait_for(lambda line: line == "readyok")

    def send(self, cmd: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((cmd + "\n").encode())
        self.proc.stdin.flush()

    def read_line(self) -> str:
        # Raw reads from the pipe's fd: a buffered reader could hold lines
        # that select() does not see.
        assert self.proc.stdout is not None
        while b"\n" not in self.buf:
            if not self.sel.select(self.timeout):
                raise FsfError(f"Fairy-Stockfish sent nothing for {self.timeout} s")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise FsfError(f"Fairy-Stockfish exited (status {self.proc.poll()})")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode().rstrip("\r")

    def wait_for(self, done) -> list[str]:
        lines = []
        while True:
            line = self.read_line()
            lines.append(line)
            if done(line):
                return lines

    def legal_moves(self, sfen: str | None, moves: list[str]) -> set[str]:
        """The moves of `go perft 1` after `moves` from `sfen` (None: the start position)."""
        start = f"position sfen {sfen}" if sfen else "position startpos"
        self.send(start + (" moves " + " ".join(moves) if moves else ""))
        self.send("go perft 1")
        lines = self.wait_for(lambda line: line.startswith("Nodes searched:"))
        found = set()
        for line in lines[:-1]:
            m = DIVIDE_LINE.match(line.strip())
            if m:
                found.add(m.group(1))
        total = int(lines[-1].split(":", 1)[1])
        if total != len(found):
            raise FsfError(f"Fairy-Stockfish listed {len(found)} moves but counted {total}")
        return found

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Shown:
    sfen: str
    in_check: bool
    moves: set[str]


class Banmen:
    def __init__(self, exe: Path, variant: str) -> None:
        self.exe = exe
        self.variant = variant
        self.calls = 0

    def show(self, moves: list[str] | None = None, sfen: str | None = None) -> Shown:
        args = [str(self.exe), "show", "--variant", self.variant]
        if sfen is not None:
            args += ["--sfen", sfen]
        if moves:
            args += ["--moves", " ".join(moves)]
        self.calls += 1
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{shlex.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
        pos_sfen, in_check, legal = None, False, None
        for line in r.stdout.splitlines():
            if line.startswith("sfen "):
                pos_sfen = line[5:].strip()
            elif line.endswith(" is in check"):
                in_check = True
            elif line.startswith("legal moves ("):
                head, _, rest = line.partition(":")
                n = int(head[len("legal moves (") : -1])
                legal = set(rest.split())
                if len(legal) != n:
                    raise RuntimeError(f"banmen listed {len(legal)} moves but counted {n}")
        if pos_sfen is None or legal is None:
            raise RuntimeError(f"unexpected output of {shlex.join(args)}:\n{r.stdout}")
        return Shown(pos_sfen, in_check, legal)


def drop_pawn(sfen: str, file: int, rank: str) -> str:
    """The SFEN after the side to move drops a pawn on (file, rank), 9x9 only."""
    board, side, hand, number = sfen.split()
    rows = []
    for row in board.split("/"):
        cells: list[str] = []
        tokens = re.findall(r"\+?[A-Za-z]|\d+", row)
        for t in tokens:
            cells.extend(["."] * int(t) if t.isdigit() else [t])
        rows.append(cells)
    r, c = ord(rank) - ord("a"), 9 - file
    if rows[r][c] != ".":
        raise ValueError(f"{file}{rank} is not empty")
    pawn = "P" if side == "b" else "p"
    rows[r][c] = pawn
    out_rows = []
    for cells in rows:
        s, empty = "", 0
        for x in cells:
            if x == ".":
                empty += 1
            else:
                s += (str(empty) if empty else "") + x
                empty = 0
        out_rows.append(s + (str(empty) if empty else ""))
    parts = [] if hand == "-" else re.findall(r"(\d*)([A-Za-z])", hand)
    new_hand, seen = "", False
    for count, letter in parts:
        n = int(count) if count else 1
        if letter == pawn:
            seen = True
            n -= 1
        if n > 0:
            new_hand += (str(n) if n > 1 else "") + letter
    if not seen:
        raise ValueError(f"no {pawn} in hand")
    other = "w" if side == "b" else "b"
    return f"{'/'.join(out_rows)} {other} {new_hand or '-'} {int(number) + 1}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", choices=["cannonshogi", "shogi"], default="cannonshogi")
    p.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    p.add_argument("--max-plies", type=int, default=300, help="plies per game at most (default 300)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--sfen", help="start the games from this SFEN instead of the start position")
    p.add_argument("--banmen", type=Path, help="banmen executable (default: target/release/banmen, built first)")
    p.add_argument("--no-build", action="store_true", help="do not run cargo build --release -p banmen first")
    p.add_argument("--node", default=os.environ.get("NODE", "node"), help="Node.js executable (default node)")
    p.add_argument("--timeout", type=float, default=120, help="seconds to wait for Fairy-Stockfish (default 120)")
    p.add_argument("--keep-going", action="store_true", help="report every disagreement instead of stopping at the first")
    p.add_argument("-v", "--verbose", action="store_true", help="print one line per game")
    args = p.parse_args()
    sys.stdout.reconfigure(line_buffering=True)

    exe = args.banmen
    if exe is None:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        exe = target / "release" / "banmen"
        if not args.no_build:
            print("== building banmen (release)", file=sys.stderr)
            subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "banmen"], cwd=ROOT, check=True)
    if not exe.exists():
        print(f"error: {exe} not found", file=sys.stderr)
        return 2

    banmen = Banmen(exe, args.variant)
    try:
        fsf = Fsf(args.node, args.variant, args.timeout)
    except FsfError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    compared = games = disagreements = drop_mates = 0
    ends = {"no legal move": 0, "max plies": 0}
    start = time.monotonic()
    print(f"== {args.variant}: {args.games} game(s), seed {args.seed}, up to {args.max_plies} plies", file=sys.stderr)
    try:
        for g in range(1, args.games + 1):
            moves: list[str] = []
            end = "max plies"
            for _ply in range(args.max_plies + 1):
                f = fsf.legal_moves(args.sfen, moves)
                b = banmen.show(moves, sfen=args.sfen)
                compared += 1
                only_fsf, only_banmen = f - b.moves, b.moves - f
                expected = set()
                if args.variant == "shogi":
                    for m in sorted(only_fsf):
                        pd = PAWN_DROP.match(m)
                        if not pd:
                            continue
                        after = banmen.show(sfen=drop_pawn(b.sfen, int(pd.group(1)), pd.group(2)))
                        if after.in_check and not after.moves:
                            expected.add(m)
                    drop_mates += len(expected)
                    only_fsf -= expected
                if only_fsf or only_banmen:
                    disagreements += 1
                    print(f"DISAGREEMENT in game {g} at ply {len(moves)} ({args.variant}, seed {args.seed})")
                    print(f"  sfen {b.sfen}")
                    print(f"  from {args.sfen or 'the start position'}, moves {' '.join(moves) or '(none)'}")
                    print(f"  only in Fairy-Stockfish ({len(only_fsf)}): {' '.join(sorted(only_fsf))}")
                    print(f"  only in banmen ({len(only_banmen)}): {' '.join(sorted(only_banmen))}")
                    print(f"  repro: banmen show --variant {args.variant} --sfen {shlex.quote(b.sfen)}")
                    if not args.keep_going:
                        games += 1
                        return 1
                if len(moves) == args.max_plies:
                    break
                agreed = sorted(f & b.moves)
                if not agreed:
                    end = "no legal move"
                    break
                moves.append(rng.choice(agreed))
            games += 1
            ends[end] += 1
            if args.verbose:
                print(f"game {g}: {len(moves)} plies, {end}", file=sys.stderr)
    except (FsfError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        fsf.close()
        secs = time.monotonic() - start
        print(
            f"== {secs:.1f} s; games ended by no legal move: {ends['no legal move']}, "
            f"by the ply limit: {ends['max plies']}"
            + (f"; pawn-drop mates only in Fairy-Stockfish (expected): {drop_mates}" if args.variant == "shogi" else ""),
            file=sys.stderr,
        )
        print(f"positions compared: {compared}, games: {games}, disagreements: {disagreements}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
