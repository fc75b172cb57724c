// Writes the expectations of the real-file corpus from tsshogi's reading of
// each file: crates/formats/tests/data/corpus/expected.tsv, one row per file
// of SOURCES.tsv. crates/formats/tests/corpus.rs reads every file with
// Banmen and compares it to this table (and to disagreements.tsv, where the
// two are known to differ and Banmen is right).
//
//   cd tests/peers && npm ci && node corpus-expectations.mjs
//
// Columns: file (under corpus/), status (`read` or `refused`), moves (plies
// on the main line), start (tsshogi's SFEN of the start: board, side to move,
// hands), result (tsshogi's SpecialMoveType that ends the main line, empty
// when none; `any:WORD` for a word tsshogi does not know), first and last
// (the main line's first and last USI moves), and note (tsshogi's error for
// a refused file). The reader is chosen by extension as ShogiHome does:
// .kif/.kifu KIF, .ki2/.ki2u KI2, .csa CSA, .jkf JKF; the text is UTF-8 when
// it decodes as UTF-8, else Shift-JIS.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { importCSA, importJKFString, importKI2, importKIF, Move } from "tsshogi";

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, "../../crates/formats/tests/data/corpus");

const readers = {
  kif: importKIF,
  kifu: importKIF,
  ki2: importKI2,
  ki2u: importKI2,
  csa: importCSA,
  jkf: importJKFString,
};

function decode(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}

/** One cell: no tabs or line breaks. */
const cell = (s) => String(s).replace(/[\t\r\n]+/g, " ").trim();

const sources = readFileSync(join(corpus, "SOURCES.tsv"), "utf-8")
  .split("\n")
  .slice(1)
  .filter((l) => l.trim() !== "")
  .map((l) => l.split("\t")[0]);

const rows = [["file", "status", "moves", "start", "result", "first", "last", "note"].join("\t")];
let refused = 0;
for (const file of sources) {
  const ext = file.split(".").pop().toLowerCase();
  const text = decode(readFileSync(join(corpus, file)));
  let record;
  try {
    record = readers[ext](text);
  } catch (e) {
    record = e instanceof Error ? e : new Error(String(e));
  }
  if (record instanceof Error) {
    refused++;
    rows.push([file, "refused", "", "", "", "", "", cell(record.message)].join("\t"));
    continue;
  }
  const moves = [];
  let result = "";
  for (let node = record.first.next; node; node = node.next) {
    if (node.move instanceof Move) {
      moves.push(node.move.usi);
    } else {
      result = node.move.type === "any" ? `any:${cell(node.move.name)}` : node.move.type;
      break;
    }
  }
  const start = record.initialPosition.sfen.split(" ").slice(0, 3).join(" ");
  rows.push(
    [file, "read", moves.length, start, result, moves[0] ?? "", moves.at(-1) ?? "", ""].join("\t"),
  );
}
writeFileSync(join(corpus, "expected.tsv"), rows.join("\n") + "\n");
console.log(`tsshogi read ${sources.length - refused} of ${sources.length} files, refused ${refused}`);
