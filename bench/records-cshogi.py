#!/usr/bin/env python3
"""Peer test of Banmen's KIF and CSA output against cshogi's parsers.

Three ways to run it:

  bench/records-cshogi.py --dir DIR
      DIR holds, for each game NAME, NAME.usi (the `position ... moves ...`
      line Banmen started from), NAME.kif (Shift-JIS) and NAME.csa, written by
      `banmen convert`. `cargo test -p banmen --test convert cshogi` writes such
      a folder: the three reference games (crates/rules/tests/data/games) and
      100 random games generated with the rules crate (seeded), then runs this.

  bench/records-cshogi.py [path/to/banmen]
      Stand-alone: the reference games and 100 random games whose moves cshogi
      picks (seeded), converted with the given binary (default:
      target/release/banmen, then target/debug/banmen).

  bench/records-cshogi.py --manifest FILE
      FILE is JSON, {"files": [...]}, each with `path` (a .kif in Shift-JIS,
      a .kifu in UTF-8 or a .csa in UTF-8), `start` (SFEN), `moves` (USI),
      `diagram` (true: a KIF whose start is a board diagram, which cshogi's
      KIF reader skips: it starts from 平手, so only the number of moves is
      compared), `win` and `endgame` (what cshogi must give: its
      BLACK_WIN/WHITE_WIN/DRAW or null, its `%` word or null/"") and,
      optionally, `source` (what the file was written from). `cargo test
      -p banmen --test cshogi_peer` writes one for the real-file corpus and
      random games with endings.

Each KIF and CSA record is read back with cshogi.KIF.Parser and
cshogi.CSA.Parser (a .kif decoded as cp932 and a .kifu as UTF-8, as
cshogi's KIF.Parser.parse_file does); the start position and the moves must
be the ones written, and in the manifest mode the result. Exit code 0 when
all agree.

cshogi's KIF move pattern has no 不成, and Banmen's KIF writer does not write
it (as Kifu for Windows does not): a KIF move line with 不成 is a mismatch.
"""

import argparse
import importlib.metadata
import json
import os
import random
import re
import subprocess
import sys
import time

import cshogi
import cshogi.CSA
import cshogi.KIF

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = os.path.join(ROOT, "crates", "rules", "tests", "data", "games")


def parse_usi_line(line):
    """(start sfen, moves) of a `position` line."""
    words = line.split()
    if words[:1] == ["position"]:
        words = words[1:]
    moves = []
    if "moves" in words:
        i = words.index("moves")
        words, moves = words[:i], words[i + 1:]
    if words == ["startpos"]:
        return cshogi.STARTING_SFEN, moves
    if words[:1] == ["sfen"]:
        return " ".join(words[1:]), moves
    raise ValueError(f"not a position line: {line!r}")


def read_kif(kif_text):
    """(start sfen, USI moves, win, endgame) as cshogi's KIF parser reads them."""
    k = cshogi.KIF.Parser.parse_str(kif_text)
    return k.sfen, [cshogi.move_to_usi(m) for m in k.moves], k.win, k.endgame


def read_csa(csa_text):
    """(start sfen, USI moves, win, endgame) of the first game, as cshogi's
    CSA parser reads them."""
    parsed = cshogi.CSA.Parser.parse_str(csa_text)
    c = parsed[0] if isinstance(parsed, list) else parsed
    return c.sfen, [cshogi.move_to_usi(m) for m in c.moves], c.win, c.endgame


def writes_funari(kif_text):
    """Whether a KIF move line (not a comment) carries 不成."""
    return any(re.match(r"\s*[0-9]+\s+\S*不成", line) for line in kif_text.splitlines())


def read_or_error(reader, text):
    try:
        return reader(text)
    except Exception as e:  # cshogi raises its own exceptions and others
        return f"error: {e}", None, None, None


def same_start(a, b):
    """Whether two SFENs have the same board, side and hands (cshogi writes
    the hands in its own order)."""
    def canonical(sfen):
        board = cshogi.Board()
        board.set_sfen(" ".join(sfen.split()[:3]) + " 1")
        return board.sfen().split()[:3]
    try:
        return canonical(a) == canonical(b)
    except Exception:
        return False


def check(name, start, moves, kif_text, csa_text):
    """The mismatches of one game (a list of strings; empty when all agree)."""
    problems = []
    if writes_funari(kif_text):
        problems.append(f"MISMATCH {name} kif: 不成 written in a KIF move line")
    for fmt, reader, text in (("kif", read_kif, kif_text), ("csa", read_csa, csa_text)):
        sfen, got, _, _ = read_or_error(reader, text)
        if got != moves:
            shown = "unreadable" if got is None else f"{len(got)} moves"
            problems.append(f"MISMATCH {name} {fmt}: {shown} read, {len(moves)} written ({sfen})")
        elif sfen.split()[:3] != start.split()[:3]:
            problems.append(f"MISMATCH {name} {fmt}: start {sfen!r}, written {start!r}")
    return problems


def check_file(f):
    """The mismatches of one file of a manifest (a list of strings)."""
    path = f["path"]
    ext = os.path.splitext(path)[1]
    if ext == ".csa":
        with open(path, encoding="utf-8") as fh:
            sfen, got, win, endgame = read_or_error(read_csa, fh.read())
    else:
        with open(path, encoding="utf-8" if ext == ".kifu" else "cp932") as fh:
            text = fh.read()
        if writes_funari(text):
            return [f"MISMATCH {path}: 不成 written in a KIF move line"]
        sfen, got, win, endgame = read_or_error(read_kif, text)
    if got is None:
        return [f"MISMATCH {path}: unreadable ({sfen})"]
    problems = []
    moves = f["moves"]
    if f.get("diagram"):
        if len(got) != len(moves):
            problems.append(f"{len(got)} moves read, {len(moves)} written")
    elif got != moves:
        differ = (i for i, (a, b) in enumerate(zip(got, moves)) if a != b)
        first = next(differ, min(len(got), len(moves)))
        problems.append(f"{len(got)} moves read, {len(moves)} written; first difference at {first}")
    if not same_start(sfen, f["start"]):
        problems.append(f"start {sfen!r}, expected {f['start']!r}")
    if (win, endgame) != (f["win"], f["endgame"]):
        problems.append(f"result {win!r} {endgame!r}, expected {f['win']!r} {f['endgame']!r}")
    shown = f"{path} ({f['source']})" if "source" in f else path
    return [f"MISMATCH {shown}: {p}" for p in problems]


def from_manifest(path):
    """Checks every file of a manifest; the exit code."""
    t0 = time.time()
    with open(path, encoding="utf-8") as fh:
        files = json.load(fh)["files"]
    failures = []
    disagree = 0
    counts = {}
    plies = 0
    for f in files:
        problems = check_file(f)
        failures += problems
        disagree += bool(problems)
        ext = os.path.splitext(f["path"])[1]
        counts[ext] = counts.get(ext, 0) + 1
        plies += len(f["moves"])
    for p in failures:
        print(p)
    by_ext = ", ".join(f"{n} {ext[1:].upper()}" for ext, n in sorted(counts.items()))
    print(
        f"cshogi {importlib.metadata.version('cshogi')} read {len(files)} files ({by_ext}; "
        f"{plies} plies): {len(files) - disagree} agree "
        f"in start, moves and result, in {time.time() - t0:.1f} s"
    )
    return 1 if failures or not files else 0


def from_dir(folder):
    games = []
    for entry in sorted(os.listdir(folder)):
        if not entry.endswith(".usi"):
            continue
        name = entry[:-4]
        with open(os.path.join(folder, entry), encoding="utf-8") as f:
            line = next(l for l in f.read().splitlines() if l.startswith("position"))
        with open(os.path.join(folder, name + ".kif"), "rb") as f:
            kif = f.read().decode("cp932")
        with open(os.path.join(folder, name + ".csa"), encoding="utf-8") as f:
            csa = f.read()
        start, moves = parse_usi_line(line)
        games.append((name, start, moves, kif, csa))
    return games


def banmen_path(given):
    if given:
        return given
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
    return (f"cshogi-random-{seed}", moves)


def stand_alone(banmen):
    games = []
    for name, moves in reference_games() + [random_game(seed) for seed in range(100)]:
        line = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        kif = convert(banmen, line, "kif").decode("cp932")
        csa = convert(banmen, line, "csa").decode("utf-8")
        games.append((name, cshogi.STARTING_SFEN, moves, kif, csa))
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", help="a folder of NAME.usi, NAME.kif and NAME.csa files")
    ap.add_argument("--manifest", help="a JSON list of files and what cshogi must read in each")
    ap.add_argument("banmen", nargs="?", help="the banmen binary (stand-alone mode)")
    args = ap.parse_args()
    if args.manifest:
        return from_manifest(args.manifest)
    t0 = time.time()
    games = from_dir(args.dir) if args.dir else stand_alone(banmen_path(args.banmen))
    failures = []
    plies = 0
    for name, start, moves, kif, csa in games:
        failures += check(name, start, moves, kif, csa)
        plies += len(moves)
    for p in failures:
        print(p)
    total = len(games)
    print(
        f"cshogi {importlib.metadata.version('cshogi')} peer: "
        f"{total} games ({plies} plies), {2 * total - len(failures)}/{2 * total} KIF+CSA reads "
        f"agree in {time.time() - t0:.1f} s"
    )
    return 1 if failures or not games else 0


if __name__ == "__main__":
    sys.exit(main())
