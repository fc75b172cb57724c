// Reads back, with tsshogi, the records Banmen wrote, and checks each against
// what Banmen says it wrote: the start position and every line of the tree
// (main line and variations) as USI moves with the special move that ends it.
//
//   node tests/peers/tsshogi-check.mjs EXPECTATIONS.json
//
// EXPECTATIONS.json (written by crates/banmen/tests/tsshogi_peer.rs):
//   {"files": [{"path": "...", "format": "kif|ki2|csa|jkf", "encoding":
//   "shift_jis|utf-8", "start": "<SFEN board, side, hands>", "lines":
//   ["7g7f 3c3d|resign", ...]}]}
// With "exportDir", tsshogi also writes each record it read there as
// N.kif, N.ki2, N.csa and N.jkf (N: the file's index), for Banmen to read.
// A line is its moves from the start, `|`, and tsshogi's SpecialMoveType of
// its end (empty when none). With "movesOnly": true (a file Banmen read, not
// wrote) the ends are not compared. Exit code 0 when every file agrees.

import { readFileSync, writeFileSync } from "node:fs";
import {
  exportCSA,
  exportJKFString,
  exportKI2,
  exportKIF,
  importCSA,
  importJKFString,
  importKI2,
  importKIF,
  Move,
} from "tsshogi";

const readers = {
  kif: importKIF,
  ki2: importKI2,
  csa: importCSA,
  jkf: importJKFString,
};

/** Every root-to-leaf line of the record: "usi usi ...|special". */
function lines(record) {
  const out = [];
  const walk = (first, path) => {
    for (let node = first; node; node = node.branch) {
      if (node.move instanceof Move) {
        const here = [...path, node.move.usi];
        if (node.next) {
          walk(node.next, here);
        } else {
          out.push(here.join(" ") + "|");
        }
      } else {
        const type = node.move.type === "any" ? `any:${node.move.name}` : node.move.type;
        out.push(path.join(" ") + "|" + type);
      }
    }
  };
  if (record.first.next) {
    walk(record.first.next, []);
  } else {
    out.push("|");
  }
  return out.sort();
}

const expectations = JSON.parse(readFileSync(process.argv[2], "utf-8"));
let failures = 0;
let checked = 0;
for (const [index, file] of expectations.files.entries()) {
  const bytes = readFileSync(file.path);
  const text = new TextDecoder(file.encoding).decode(bytes);
  const record = readers[file.format](text);
  const fail = (why) => {
    failures++;
    console.log(`MISMATCH ${file.path} (${file.format}): ${why}`);
  };
  if (record instanceof Error) {
    fail(`refused: ${record.message}`);
    continue;
  }
  const start = record.initialPosition.sfen.split(" ").slice(0, 3).join(" ");
  if (start !== file.start) {
    fail(`start ${start}, expected ${file.start}`);
  }
  const strip = (l) => (file.movesOnly ? l.split("|")[0] : l);
  const got = lines(record).map(strip).sort();
  const want = file.lines.map(strip).sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    fail(`lines\n  got:      ${got.join("\n            ")}\n  expected: ${want.join("\n            ")}`);
  }
  checked += got.length;
  if (expectations.exportDir) {
    const base = `${expectations.exportDir}/${index}`;
    writeFileSync(`${base}.kif`, exportKIF(record));
    writeFileSync(`${base}.ki2`, exportKI2(record));
    writeFileSync(`${base}.csa`, exportCSA(record));
    writeFileSync(`${base}.jkf`, exportJKFString(record));
  }
}
console.log(
  `tsshogi read ${expectations.files.length} files, ${checked} lines: ${failures} mismatches`,
);
process.exit(failures === 0 ? 0 : 1);
