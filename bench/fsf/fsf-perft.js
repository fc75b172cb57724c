// Timed perft with Fairy-Stockfish (fairy-stockfish-nnue.wasm from npm), for
// comparison with `banmen perft`. Loads the engine and the variant first, then
// times only `go perft DEPTH` (from sending it to "Nodes searched"), and prints
// the engine's divide followed by one line like banmen's last line:
//   nodes <N> time <s> nps <N>
//
// Usage: node --no-experimental-fetch fsf-perft.js [--variant cannonshogi] --depth N [--sfen SFEN]
// (run bench/fsf/setup.sh first). See README.md.
const path = require("path"), fs = require("fs");
const Stockfish = require(path.join(__dirname, "node_modules/fairy-stockfish-nnue.wasm/stockfish.js"));

function parseArgs(argv) {
  const out = { variant: "cannonshogi", depth: null, sfen: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = argv[i + 1];
    if (a === "--variant") { out.variant = v; i++; }
    else if (a === "--depth") { out.depth = Number(v); i++; }
    else if (a === "--sfen") { out.sfen = v; i++; }
    else { console.error(`unknown argument: ${a}`); process.exit(2); }
  }
  if (!Number.isInteger(out.depth) || out.depth < 1) {
    console.error("usage: fsf-perft.js [--variant V] --depth N [--sfen SFEN]");
    process.exit(2);
  }
  return out;
}

(async () => {
  const args = parseArgs(process.argv.slice(2));
  const sf = await Stockfish();
  let waiting = null; // { test(line) -> bool, resolve }
  sf.addMessageListener((line) => {
    if (waiting && waiting.test(line)) { const w = waiting; waiting = null; w.resolve(line); }
    else if (args.echo) process.stdout.write(line + "\n");
  });
  const until = (test, cmd) => new Promise((resolve) => { waiting = { test, resolve }; sf.postMessage(cmd); });

  sf.FS.writeFile("/variants.ini", fs.readFileSync(path.join(__dirname, "cannonshogi.ini"), "utf8"));
  sf.postMessage("setoption name VariantPath value /variants.ini");
  await until((l) => l === "usiok", "usi");
  sf.postMessage(`setoption name USI_Variant value ${args.variant}`);
  sf.postMessage(args.sfen ? `position sfen ${args.sfen}` : "position startpos");
  await until((l) => l === "readyok", "isready");

  args.echo = true; // from here on, print the divide lines
  const t0 = process.hrtime.bigint();
  const last = await until((l) => l.startsWith("Nodes searched:"), `go perft ${args.depth}`);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const nodes = BigInt(last.split(":")[1].trim());
  const nps = secs > 0 ? Math.floor(Number(nodes) / secs) : 0;
  process.stdout.write(`nodes ${nodes} time ${secs.toFixed(3)} nps ${nps}\n`);
  sf.postMessage("quit");
  setTimeout(() => process.exit(0), 200);
})();
