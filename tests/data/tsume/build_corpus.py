#!/usr/bin/env python3
"""Rebuild standard.tsv from snapshots of the public repositories it cites.

Needs the snapshots as git directories (the paths below are where this
project's tooling puts them; pass MIRROR=dir to use another place) and
cshogi.  Every problem is validated (see README.md); the answer, where one is
given, is replayed: legal, every attacker move a check, the last position
checkmate.  Problems that fail are left out and listed on stderr.
"""
import json, os, re, subprocess, sys, urllib.parse
import cshogi

MIRROR = os.environ.get("MIRROR", "/work/.mirror")
HAND_ORDER = "RBGSNLP"
FULL = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
BASE = {"+R": "R", "+B": "B", "+S": "S", "+N": "N", "+L": "L", "+P": "P"}


def git_show(repo, path, rev="HEAD"):
    d = os.path.join(MIRROR, repo.replace("/", "+"), "repo")
    return subprocess.run(["git", "-C", d, "show", f"{rev}:{path}"], check=True,
                          capture_output=True).stdout.decode("utf-8")


def git_head(repo):
    d = os.path.join(MIRROR, repo.replace("/", "+"), "repo")
    return subprocess.run(["git", "-C", d, "rev-parse", "--short=10", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def parse_hand(h):
    out = {}
    if h == "-":
        return out
    for n, p in re.findall(r"(\d*)([RBGSNLPrbgsnlp])", h):
        out[p] = out.get(p, 0) + (int(n) if n else 1)
    return out


def fmt_hand(hand):
    s = ""
    for up in (True, False):
        for p in HAND_ORDER:
            c = p if up else p.lower()
            n = hand.get(c, 0)
            if n:
                s += (str(n) if n > 1 else "") + c
    return s or "-"


def board_pieces(board):
    """list of (piece letter upper/lower incl. '+') on the board"""
    out = []
    for row in board.split("/"):
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                i += 1
                continue
            if ch == "+":
                out.append(row[i:i + 2]); i += 2
            else:
                out.append(ch); i += 1
    return out


def normalize(sfen, complete=True):
    """Canonical SFEN with side b and move number 1; the defender (white) gets
    every piece that is neither on the board nor in black's hand."""
    parts = sfen.split()
    board, side, hand = parts[0], parts[1], parts[2] if len(parts) > 2 else "-"
    h = parse_hand(hand)
    if complete:
        used = {p: 0 for p in FULL}
        for pc in board_pieces(board):
            b = BASE.get(pc.upper(), pc.upper())
            if b != "K":
                used[b] += 1
        for c, n in h.items():
            used[c.upper()] += n
        for p, full in FULL.items():
            if used[p] > full:
                raise ValueError(f"too many {p}")
            if used[p] < full:
                h[p.lower()] = h.get(p.lower(), 0) + full - used[p]
    return f"{board} {side} {fmt_hand(h)} 1"


def validate(sfen, answer):
    """None if fine, else the reason"""
    b = cshogi.Board()
    try:
        b.set_sfen(sfen)
    except Exception as e:  # noqa
        return f"sfen: {e}"
    if b.sfen().split()[:3] != sfen.split()[:3]:
        return f"sfen round trip {b.sfen()}"
    if b.turn != cshogi.BLACK:
        return "side to move is not black"
    if b.king_square(cshogi.WHITE) >= 81:
        return "no defending king"
    # defender's king must not already be capturable
    parts = sfen.split()
    w = cshogi.Board(); w.set_sfen(f"{parts[0]} w {parts[2]} 1")
    if w.is_check():
        return "defender already in check"
    for p in board_pieces(parts[0]):
        pass
    if not b.is_ok() if hasattr(b, "is_ok") else False:
        return "cshogi is_ok false"
    if answer != "-":
        mv = answer.split()
        if len(mv) % 2 == 0:
            return "answer has an even number of moves"
        for i, u in enumerate(mv):
            m = b.move_from_usi(u)
            if m == 0 or not b.is_legal(m):
                return f"answer move {i+1} {u} illegal"
            b.push(m)
            if i % 2 == 0 and not b.is_check():
                return f"answer move {i+1} {u} is not a check"
        if not (b.is_check() and b.is_game_over()):
            return "answer does not end in checkmate"
    return None


def cls(n):
    return "short" if n <= 11 else ("medium" if n <= 29 else "long")


ROWS, SEEN, DROPPED, ANSWERLESS = [], set(), [], []

# Dropped after the KomoringHeights check (standard-komoring.tsv, README.md):
# the published answer failed validation and KH's shortest mate has another
# length, or KH found a mate shorter than the published length.
KH_DROP = {
    **{i: "published answer invalid; KH MinLength disagrees with the length" for i in (
        "trush-1-001", "trush-1-004", "trush-1-007", "trush-1-010", "trush-9-009", "trush-9-010",
        "trush-13-045", "trush-15-017", "tpara-0061")},
    "trush-15-031": "KH finds a valid 13-ply mate (published 15)",
}


def add(pid, length, sfen, answer, source, complete=True):
    if pid in KH_DROP:
        DROPPED.append((pid, KH_DROP[pid])); return
    try:
        s = normalize(sfen, complete)
    except ValueError as e:
        DROPPED.append((pid, f"pieces: {e}")); return
    answers = answer if isinstance(answer, list) else [answer]
    answers = [a.strip() or "-" for a in answers]
    why = validate(s, "-")
    if why:
        DROPPED.append((pid, why)); return
    answer, whys = "-", []
    for a in answers:
        if a == "-":
            continue
        if len(a.split()) != length:
            whys.append(f"answer has {len(a.split())} plies, published length {length}"); continue
        w = validate(s, a)
        if w:
            whys.append(w); continue
        answer = a; break
    if answer == "-" and whys:
        ANSWERLESS.append((pid, whys[0]))
        source += f"; published answer left out: {whys[0]}"
    key = " ".join(s.split()[:3])
    if key in SEEN:
        DROPPED.append((pid, "duplicate")); return
    SEEN.add(key)
    ROWS.append((pid, cls(length), length, s, answer, source))


def yaneuraou_shogimate(per_len=30):
    repo = "usumerican/shogimate"; rev = git_head(repo)
    for n in (3, 5, 7, 9, 11):
        k = 0
        for line in git_show(repo, f"public/data/mate{n}/000.txt").splitlines():
            if k >= per_len:
                break
            sfen, _, moves = line.partition(" moves ")
            if sfen.split()[1] != "b":
                continue
            k += 1
            add(f"ydb-m{n}-{k:03d}", n, sfen, moves,
                f"github:{repo}@{rev}:public/data/mate{n}/000.txt (YaneuraOu mate{n}.sfen, 2020-12-25; answer by KomoringHeights 1.0.0)",
                complete=False)


def fix_promoted(sfen, moves):
    """tsumerush writes '+' on moves of pieces that are already promoted"""
    b = cshogi.Board(); b.set_sfen(normalize(sfen + " 1" if len(sfen.split()) == 3 else sfen))
    out = []
    for u in moves:
        if u.endswith("+") and u[1] != "*":
            sq = (int(u[0]) - 1) * 9 + (ord(u[1]) - ord("a"))
            if b.piece(sq) in (cshogi.BPROM_PAWN, cshogi.BPROM_LANCE, cshogi.BPROM_KNIGHT, cshogi.BPROM_SILVER,
                               cshogi.BPROM_BISHOP, cshogi.BPROM_ROOK, cshogi.WPROM_PAWN, cshogi.WPROM_LANCE,
                               cshogi.WPROM_KNIGHT, cshogi.WPROM_SILVER, cshogi.WPROM_BISHOP, cshogi.WPROM_ROOK):
                u = u[:-1]
        m = b.move_from_usi(u)
        if not m or not b.is_legal(m):
            return " ".join(moves)
        b.push(m); out.append(u)
    return " ".join(out)


def tsumerush(quota):
    repo = "Kuukyo3/tsumerush"; rev = git_head(repo)
    for n, q in quota.items():
        data = json.loads(git_show(repo, f"res/sfen_jsons/{n}te_sfens.json"))
        k = 0
        for sfen, moves in data:
            if k >= q:
                break
            k += 1
            add(f"trush-{n}-{k:03d}", n, sfen, fix_promoted(sfen, moves),
                f"github:{repo}@{rev}:res/sfen_jsons/{n}te_sfens.json")


def antma():
    """the positive tests only: calls of tsume_batch_test(vec![...], N); the
    hands are used as given (the tests give both hands on purpose)"""
    repo = "antma/tsumeshogi-check"; rev = git_head(repo)
    for n in (1, 3, 5, 7, 9):
        src = git_show(repo, f"tests/tsume{n}.rs")
        k = 0
        for body, depth in re.findall(r"common::tsume_batch_test\(\s*vec!\[(.*?)\],\s*(\d+),?\s*\)", src, re.S):
            for sfen in re.findall(r'"([^"]+ [bw] [^"]+ \d+)"', body):
                if sfen.split()[1] != "b":
                    continue
                k += 1
                add(f"antma-{n}-{k:02d}", int(depth), sfen, "-", f"github:{repo}@{rev}:tests/tsume{n}.rs",
                    complete=False)


def kanna():
    """詰将棋パラダイス web problems in the format that tsshogi/kanna reads
    (src/tests/csv/*.txt): csv = 40 pieces in the order 18P 4L 4N 4S 4G 2R 2B 2K,
    each 'x y colour promoted(2)' (x=y=0: in hand); answercsv = 'fx fy tx ty promote'
    with fx=0 a drop of piece fy-1 in PLNSGRB order."""
    repo = "tsshogi/kanna"; rev = git_head(repo)
    d = os.path.join(MIRROR, repo.replace("/", "+"), "repo")
    names = subprocess.run(["git", "-C", d, "ls-tree", "--name-only", "HEAD:src/tests/csv"],
                           capture_output=True, text=True, check=True).stdout.split()
    order = "P" * 18 + "L" * 4 + "N" * 4 + "S" * 4 + "G" * 4 + "R" * 2 + "B" * 2 + "K" * 2
    drop = "PLNSGRB"
    for name in sorted(names, key=lambda x: int(x.split(".")[0])):
        q = dict(kv.split("=", 1) for kv in urllib.parse.unquote(git_show(repo, f"src/tests/csv/{name}").strip()).split("&"))
        if not q.get("progresscnt"):
            DROPPED.append((f"tpara-{q.get('workid')}", "no length given")); continue
        grid = [["" for _ in range(10)] for _ in range(10)]
        hand = {}
        for i, v in enumerate(x for x in q["csv"].split("_") if x):
            x, y, c, pr = (int(ch) for ch in v)
            p = order[i]
            if c == 1:
                p = p.lower()
            if x == 0 and y == 0:
                hand[p] = hand.get(p, 0) + 1
            else:
                grid[y][x] = ("+" if pr == 2 else "") + p
        rows = []
        for y in range(1, 10):
            r, e = "", 0
            for x in range(9, 0, -1):
                if grid[y][x]:
                    if e:
                        r += str(e); e = 0
                    r += grid[y][x]
                else:
                    e += 1
            if e:
                r += str(e)
            rows.append(r)
        sfen = "/".join(rows) + " b " + fmt_hand(hand) + " 1"
        files = "0abcdefghi"
        n = int(q["progresscnt"])
        cands = []
        for var in q["answercsv"].split("@"):  # "@" separates the lines given
            mv = []
            for a in (x for x in var.split("_") if x):
                fx, fy, tx, ty, pr = (int(ch) for ch in a)
                to = f"{tx}{files[ty]}"
                mv.append(f"{drop[fy-1]}*{to}" if fx == 0 else f"{fx}{files[fy]}{to}" + ("+" if pr == 1 else ""))
            # some lines run on past the mate (a further useless interposition, or a
            # second line glued on): the first n plies are the candidate
            cands.append(" ".join(mv[:n]))
        add(f"tpara-{int(q['workid']):04d}", n, sfen, cands,
            f"github:{repo}@{rev}:src/tests/csv/{name} (詰将棋パラダイス web problem {q['workid']}, {q.get('authorname','')})")


def mogproject():
    src = "github:mogproject/mog-core-scala (MateSolver benchmark; found via the code index)"
    for k, (n, sfen) in enumerate([
        (9, "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p"),
        (7, "8k/7p1/1r7/5bS2/7N1/9/9/9/9 b RSNLb4g2s2n3l17p"),
        (13, "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p"),
        (13, "5n1k1/5p3/5s1p1/8N/7P1/9/9/9/9 b R2Br4g3s2n4l15p"),
        (5, "5B1n1/8k/6Rpp/9/9/9/9/9/9 b rb4g4s3n4l16p"),
        (11, "5n1k1/5ps2/7p1/8N/7P1/9/9/9/9 b RBrb4g3s2n4l15p"),
    ], 1):
        add(f"mog-{k}", n, sfen + " 1", "-", src)


def classics():
    nsolver = "Hkijin nsolver, ntest.c (tsume_test); found via the code index"
    add("microcosmos", 1525, "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1", "-",
        "ミクロコスモス, 橋本孝治, 詰将棋パラダイス 1986, 1995 improved diagram: 1525 plies (the length in a JS TsumeData table found via the code index; mogproject/mog-core-scala says 1535, a slip); SFEN also in " + nsolver)
    add("astral-traveler", 579, "lp2p3g/+R4p1Sn/1P1kgsp1p/3+p+p1s2/B1p+r1P3/L8/+n3NgB+pP/+p4G1+p1/P+pPsP4 b Lnl 1", "-",
        "Astral Traveler (579手詰), " + nsolver)
    add("hashimoto-587", 587, "7g1/4Pgl+b1/2nn1s2+P/1+p+pS1+p1PP/+p+p+p2lk1+P/1+ppPpp3/ssPp4N/2NR1L3/2G3rLG b b 1", "-",
        "橋本587手詰, " + nsolver)
    add("act-no-yume", 467, "1l+PG1+P3/b1P1n4/9/1l1B1P2S/L2P2P2/3+pN2l1/3+ppp1kN/pP+psS4/3+rPg+p1+R b 2P2gsnp 1", "-",
        "ACTの夢 (467手詰), " + nsolver)


if __name__ == "__main__":
    yaneuraou_shogimate(30)
    tsumerush({1: 10, 3: 10, 5: 10, 7: 10, 9: 10, 11: 10, 13: 70, 15: 1000})
    antma()
    kanna()
    mogproject()
    classics()
    ROWS.sort(key=lambda r: (["short", "medium", "long"].index(r[1]), r[2], r[0]))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standard.tsv")
    with open(out, "w") as f:
        f.write("id\tclass\tlength\tsfen\tanswer\tsource\n")
        for r in ROWS:
            f.write("\t".join(str(x) for x in r) + "\n")
    for pid, why in ANSWERLESS:
        print(f"answer left out {pid}: {why}", file=sys.stderr)
    for pid, why in DROPPED:
        print(f"dropped {pid}: {why}", file=sys.stderr)
    from collections import Counter
    print(Counter(r[1] for r in ROWS), Counter(r[0].split("-")[0] for r in ROWS), file=sys.stderr)
