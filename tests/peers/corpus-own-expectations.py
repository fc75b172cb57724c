#!/usr/bin/env python3
"""Writes crates/formats/tests/data/corpus/own-expectations.tsv: the number of
main-line moves that a corpus file's own project expects in its tests, where
its tests say so.

    python3 tests/peers/corpus-own-expectations.py JSON_KIFU_FORMAT_CHECKOUT

- json-kifu-format: src/__tests__/__snapshots__/fileTest.ts.snap holds the
  JKF that json-kifu-format reads from each of its test files; the main line
  is the top-level `moves` entries that hold a `move`.
- mog-core-scala: the move counts that jvm/.../JVMGameSpec.scala asserts
  (`trunk.moves.length mustBe N`), copied here by hand (commit a7898292).
"""
import json, os, re, subprocess, sys

CORPUS = os.path.join(os.path.dirname(__file__), "../../crates/formats/tests/data/corpus")
MOG = "mog-core-scala/jvm/src/test/resources/"
MOG_COUNTS = {
    "csa/game/001.csa": 111, "csa/game/002.csa": 258,
    "kif/game/001.kif": 111, "kif/game/002.kif": 193, "kif/game/003.kif": 117,
    "kif/game/004.kif": 223, "kif/game/008.kif": 168, "kif/game/009.kif": 85,
    "kif/game/010.kif": 258, "kif/mate/001.kif": 59, "kif/game/011.kif": 114,
    "kif/game/012.kif": 121, "kif/game/013.kif": 0, "kif/game/014.kif": 156,
    "kif/game/015.kif": 82, "kif/game/016.kif": 37, "kif/game/017.kif": 26,
    "ki2/game/001.ki2": 111, "ki2/game/002.ki2": 111, "ki2/game/003.ki2": 34,
    "ki2/game/004.ki2": 27, "ki2/game/005.ki2": 258,
}

rows = []
checkout = sys.argv[1]
snap_path = "src/__tests__/__snapshots__/fileTest.ts.snap"
commit = subprocess.run(["git", "-C", checkout, "log", "-1", "--format=%H", "--", snap_path],
                        capture_output=True, text=True).stdout.strip()
snap = subprocess.run(["git", "-C", checkout, "show", f"HEAD:{snap_path}"],
                      capture_output=True, text=True).stdout
for kind, name, body in re.findall(r"exports\[`(\w+) file (\S+) 1`\] = `(.*?)`;\n", snap, re.S):
    file = f"json-kifu-format/test/files/{kind}/{name}"
    if not os.path.exists(os.path.join(CORPUS, file)):
        continue
    # Jest escapes \\, ` and $ in a snapshot's template literal.
    body = re.sub(r"\\([\\`$])", r"\1", body)
    moves = sum(1 for m in json.loads(body)["moves"] if "move" in m)
    rows.append((file, moves, f"json-kifu-format {commit[:8]} {snap_path}"))
for path, moves in MOG_COUNTS.items():
    rows.append((MOG + path, moves, "mog-core-scala a7898292 jvm/src/test/scala/com/mogproject/mogami/core/JVMGameSpec.scala"))
with open(os.path.join(CORPUS, "own-expectations.tsv"), "w") as out:
    out.write("file\tmoves\tsource\n")
    for r in rows:
        out.write("\t".join(map(str, r)) + "\n")
print(f"{len(rows)} files")
