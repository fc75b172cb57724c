#!/usr/bin/env python3
"""Tsume (mate problem) benchmark: Banmen's `go mate` side by side with KomoringHeights.

Drives each engine over USI, one problem at a time, one process per engine
kept alive: `usinewgame`, `position sfen S`, `go mate T`, then waits for the
`checkmate ...` line.  No answer within T + 5 s counts as `hang`: the engine
is killed and started again.  Each returned line is checked with cshogi where
it is installed (standard shogi only): every move legal, every attacker move a
check, the last position checkmate.  Other variants get the length only.

    bench/tsume-vs-komoring.py [--corpus tests/data/tsume/standard.tsv] [--time 10000]
        [--hash 64] [--banmen target/release/banmen]
        [--komoring ../shared/anchors/bin/komoringheights] [--only banmen|komoring]
        [--class short,medium,long] [--limit N] [--variant shogi] [--out DIR]

Writes DIR/banmen.tsv and DIR/komoring.tsv (default DIR:
bench/results/<date>/tsume) and prints a summary per class.  Python 3.11,
standard library only (cshogi optional).
"""
import argparse
import datetime
import os
import queue
import statistics
import subprocess
import sys
import threading
import time

try:
    import cshogi  # optional: validation of the returned lines
except ImportError:  # pragma: no cover
    cshogi = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASSES = ("short", "medium", "long")


class Engine:
    """A USI engine process with a reader thread, so reads can time out."""

    def __init__(self, name, argv, options, init_timeout=30.0):
        self.name, self.argv, self.options = name, argv, options
        self.init_timeout = init_timeout
        self.proc = None
        self.lines = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._reader, args=(self.proc, self.lines), daemon=True).start()
        self.send("usi")
        self.wait_for("usiok", self.init_timeout)
        for k, v in self.options:
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait_for("readyok", self.init_timeout)

    @staticmethod
    def _reader(proc, q):
        for line in proc.stdout:
            q.put(line.rstrip("\r\n"))
        q.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def wait_for(self, prefix, timeout):
        """The first line starting with prefix, or None on timeout / exit."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            if line == prefix or line.startswith(prefix + " "):
                return line

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass

    def quit(self):
        if self.proc and self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.kill()

    def solve(self, sfen, time_ms):
        """(result, moves, wall ms); result is mate/nomate/timeout/hang."""
        # isready before usinewgame, never between position and go: after
        # `position`, an isready makes KomoringHeights search a garbled position
        self.send("isready")
        if self.wait_for("readyok", self.init_timeout) is None:
            self.kill()
            self.start()
            return "hang", [], 0
        self.send("usinewgame")
        self.send(f"position sfen {sfen}")
        t0 = time.monotonic()
        self.send(f"go mate {time_ms}")
        line = self.wait_for("checkmate", time_ms / 1000.0 + 5.0)
        ms = int((time.monotonic() - t0) * 1000)
        if line is None:
            self.kill()
            self.start()
            return "hang", [], ms
        rest = line.split()[1:]
        if rest == ["nomate"]:
            return "nomate", [], ms
        if rest in (["timeout"], ["notimplemented"]) or not rest:
            return "timeout", [], ms
        return "mate", rest, ms


def validate(sfen, moves):
    """True/False for standard shogi with cshogi, None if it cannot be checked."""
    if cshogi is None:
        return None
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception:
        return None
    if len(moves) % 2 == 0:
        return False
    for i, u in enumerate(moves):
        m = b.move_from_usi(u)
        if not m or not b.is_legal(m):
            return False
        b.push(m)
        if i % 2 == 0 and not b.is_check():
            return False
    return b.is_check() and b.is_game_over()


def read_corpus(path, classes, limit):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if classes and r["class"] not in classes:
                continue
            rows.append(r)
    return rows[:limit] if limit else rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default="tests/data/tsume/standard.tsv")
    ap.add_argument("--time", type=int, default=10000, help="go mate limit per problem, ms")
    ap.add_argument("--hash", type=int, default=64, help="USI_Hash, MB")
    ap.add_argument("--banmen", default="target/release/banmen")
    ap.add_argument("--komoring", default="../shared/anchors/bin/komoringheights")
    ap.add_argument("--only", choices=("banmen", "komoring"))
    ap.add_argument("--class", dest="classes", default="", help="e.g. short,medium")
    ap.add_argument("--limit", type=int, default=0, help="first N problems (after --class)")
    ap.add_argument("--variant", default="shogi", help="USI_Variant for Banmen; KomoringHeights only for shogi")
    ap.add_argument("--out", default="")
    args = ap.parse_args()

    os.chdir(ROOT)
    classes = [c for c in args.classes.split(",") if c]
    problems = read_corpus(args.corpus, classes, args.limit)
    out = args.out or os.path.join("bench", "results", datetime.date.today().isoformat(), "tsume")
    os.makedirs(out, exist_ok=True)
    check = args.variant == "shogi"

    engines = []
    if args.only in (None, "banmen"):
        if not os.path.exists(args.banmen):
            print(f"{args.banmen} missing; building it", file=sys.stderr)
            subprocess.run(["cargo", "build", "--release", "-p", "banmen"], check=True)
        opts = [("USI_Hash", args.hash), ("Threads", 1)]
        if args.variant != "shogi":
            opts.append(("USI_Variant", args.variant))
        engines.append(("banmen", [args.banmen, "usi"], opts))
    if args.only in (None, "komoring"):
        if args.variant != "shogi":
            print("KomoringHeights plays standard shogi only: skipped", file=sys.stderr)
        else:
            engines.append(("komoring", [args.komoring],
                            [("USI_Hash", args.hash), ("Threads", 1), ("PostSearchLevel", "MinLength"),
                             ("RootIsAndNodeIfChecked", "false")]))

    results = {}
    for name, argv, opts in engines:
        eng = Engine(name, argv, opts)
        res = results[name] = {}
        path = os.path.join(out, f"{name}.tsv")
        with open(path, "w", encoding="utf-8") as f:
            f.write("id\tclass\tcorpus_length\tresult\tlength\tms\tvalid\tmoves\n")
            for i, p in enumerate(problems, 1):
                result, moves, ms = eng.solve(p["sfen"], args.time)
                valid = ""
                if result == "mate":
                    v = validate(p["sfen"], moves) if check else None
                    valid = "" if v is None else ("yes" if v else "no")
                length = len(moves) if result == "mate" else ""
                res[p["id"]] = dict(result=result, length=length, ms=ms, valid=valid, cls=p["class"],
                                    corpus=int(p["length"]) if p.get("length", "").isdigit() else None)
                f.write(f"{p['id']}\t{p['class']}\t{p.get('length','')}\t{result}\t{length}\t{ms}\t{valid}\t{' '.join(moves)}\n")
                f.flush()
                print(f"[{name} {i}/{len(problems)}] {p['id']} {result} {length} {ms} ms {valid}", file=sys.stderr)
        eng.quit()
        print(f"wrote {path}", file=sys.stderr)

    # summary
    print(f"\ncorpus {args.corpus}, go mate {args.time} ms, hash {args.hash} MB, {len(problems)} problems")
    hdr = f"{'engine':9} {'class':7} {'n':>4} {'solved':>6} {'med ms':>8} {'wrong':>5} {'hang':>4} {'=corpus':>7} {'<corpus':>7} {'>corpus':>7}"
    print(hdr)
    for name in results:
        for c in CLASSES + ("all",):
            rs = [r for r in results[name].values() if c == "all" or r["cls"] == c]
            if not rs:
                continue
            solved = [r for r in rs if r["result"] == "mate" and r["valid"] != "no"]
            wrong = sum(1 for r in rs if (r["result"] == "mate" and r["valid"] == "no")
                        or (r["result"] == "nomate" and r["corpus"]))
            hang = sum(1 for r in rs if r["result"] == "hang")
            med = int(statistics.median(r["ms"] for r in solved)) if solved else "-"
            eq = sum(1 for r in solved if r["corpus"] == r["length"])
            lt = sum(1 for r in solved if r["corpus"] and r["length"] < r["corpus"])
            gt = sum(1 for r in solved if r["corpus"] and r["length"] > r["corpus"])
            print(f"{name:9} {c:7} {len(rs):>4} {len(solved):>6} {med:>8} {wrong:>5} {hang:>4} {eq:>7} {lt:>7} {gt:>7}")
    if "banmen" in results and "komoring" in results:
        print("\nwhere both solved: Banmen's length against KomoringHeights' (MinLength)")
        print(f"{'class':7} {'both':>5} {'equal':>6} {'longer':>6} {'shorter':>7}")
        for c in CLASSES + ("all",):
            both = [(b, results["komoring"][k]) for k, b in results["banmen"].items()
                    if (c == "all" or b["cls"] == c) and k in results["komoring"]
                    and b["result"] == "mate" and b["valid"] != "no"
                    and results["komoring"][k]["result"] == "mate" and results["komoring"][k]["valid"] != "no"]
            if not both:
                continue
            eq = sum(1 for b, k in both if b["length"] == k["length"])
            lo = sum(1 for b, k in both if b["length"] > k["length"])
            sh = sum(1 for b, k in both if b["length"] < k["length"])
            print(f"{c:7} {len(both):>5} {eq:>6} {lo:>6} {sh:>7}")


if __name__ == "__main__":
    main()
