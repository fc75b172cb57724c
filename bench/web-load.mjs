// The web server's load benchmark (bench/web-load.sh runs it against a fresh
// `banmen serve`): a burst of engine-game creations, then the latency of
// GET /api/games/{id} while the engines think, then the server's memory.
//   node web-load.mjs URL SERVER_PID
// Environment: REQUESTS (1000) creations in the burst, ADDRESSES (1) loopback
// addresses they come from (127.0.0.2, 127.0.0.3, …: the server's limits are
// per address), GETS (400) timed reads, MOVETIME (2000) the engine's ms a move,
// PEOPLE (0; 1: games between two people, which only the rate limit bounds).
import http from "node:http";
import { readFileSync } from "node:fs";

const [url, pid] = process.argv.slice(2);
const { hostname, port } = new URL(url);
const REQUESTS = Number(process.env.REQUESTS || 1000);
const ADDRESSES = Number(process.env.ADDRESSES || 1);
const GETS = Number(process.env.GETS || 400);
const MOVETIME = Number(process.env.MOVETIME || 2000);
const PEOPLE = process.env.PEOPLE === "1";

function request(method, path, body, localAddress) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({
      host: hostname, port, method, path, localAddress, agent: false,
      headers: data ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } : {},
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, type: res.headers["content-type"], body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

const memory = () => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]);
  return { rss_mb: +(kb("VmRSS") / 1024).toFixed(1), peak_rss_mb: +(kb("VmHWM") / 1024).toFixed(1), threads: kb("Threads") };
};
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

console.log(`server before: ${JSON.stringify(memory())}`);
// The burst: every request at once, the engine as Black so that it starts
// thinking as soon as its game exists (or two people).
const game = { variant: "shogi", black: PEOPLE ? "human" : { engine: { movetime_ms: MOVETIME } }, white: "human" };
const t0 = performance.now();
const answers = await Promise.all(Array.from({ length: REQUESTS }, (_, i) =>
  request("POST", "/api/games", game, `127.0.0.${2 + (i % ADDRESSES)}`)
    .catch((e) => ({ status: `error ${e.code || e.message}`, body: "" }))));
const burst = performance.now() - t0;
const statuses = {};
for (const a of answers) statuses[a.status] = (statuses[a.status] || 0) + 1;
const ids = answers.filter((a) => a.status === 201).map((a) => JSON.parse(a.body).id);
const errors = new Set(answers.filter((a) => a.status !== 201 && a.body).map((a) => {
  try { return `${a.status} ${a.type}: ${JSON.parse(a.body).error.replace(/\d+ s$/, "N s")}`; } catch { return `${a.status} ${a.type}: ${a.body}`; }
}));
console.log(`burst: ${REQUESTS} POST /api/games (${PEOPLE ? "two people" : "engine games"}) from ${ADDRESSES} address(es) in ${(burst / 1000).toFixed(2)} s: ${JSON.stringify(statuses)}`);
for (const e of errors) console.log(`  refusal: ${e}`);
console.log(`engines: ${(await request("GET", "/api/engines")).body}`);
console.log(`server after the burst: ${JSON.stringify(memory())}`);

// Reads, one after another, while the engines think.
if (ids.length) {
  const times = [];
  for (let i = 0; i < GETS; i++) {
    const t = performance.now();
    const r = await request("GET", `/api/games/${ids[i % ids.length]}`);
    times.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`GET answered ${r.status}`);
  }
  times.sort((a, b) => a - b);
  const ms = (x) => x.toFixed(1);
  console.log(`GET /api/games/{id} x${GETS}: p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms, max ${ms(times[times.length - 1])} ms`);
}
console.log(`engines: ${(await request("GET", "/api/engines")).body}`);
console.log(`server at the end: ${JSON.stringify(memory())}`);
