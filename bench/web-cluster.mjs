// Several `banmen serve` on one PostgreSQL database, and engine workers
// (bench/web-cluster.sh starts them and runs this): people's moves spread
// over the instances, then games against the engine.
//   node web-cluster.mjs URL1,URL2,…
// Environment: CLIENTS (40) people's games at once, SECONDS (10) per phase,
// ENGINE_GAMES (8) games against the engine, MOVETIME (50) its ms a move.
import http from "node:http";

const urls = process.argv[2].split(",");
const CLIENTS = Number(process.env.CLIENTS || 40);
const SECONDS = Number(process.env.SECONDS || 10);
const ENGINE_GAMES = Number(process.env.ENGINE_GAMES || 8);
const MOVETIME = Number(process.env.MOVETIME || 50);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(base, method, path, body, token) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = data ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } : {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const t0 = performance.now();
    const req = http.request({ host: hostname, port, method, path, agent, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, json, text, ms: performance.now() - t0 });
      });
    });
    req.on("error", reject);
    if (data) req.write(data);
    req.end();
  });
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Phase 1: people's games, each move sent to the next instance in turn.
async function people() {
  const latencies = [];
  const statuses = {};
  const games = await Promise.all(Array.from({ length: CLIENTS }, (_, i) =>
    request(urls[i % urls.length], "POST", "/api/games", { variant: "shogi", black: "human", white: "human" })));
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  let moves = 0;
  await Promise.all(games.map(async (g, i) => {
    if (g.status !== 201) throw new Error(`create: ${g.status} ${g.text}`);
    const id = g.json.id;
    const tokens = [g.json.tokens.black, g.json.tokens.white];
    let state = g.json;
    let n = i;
    while (performance.now() < end) {
      if (state.result || !state.legal_moves?.length) break;
      const mv = state.legal_moves[(n * 7) % state.legal_moves.length];
      const side = state.side_to_move === "black" ? 0 : 1;
      const r = await request(urls[n % urls.length], "POST", `/api/games/${id}/moves`, { move: mv }, tokens[side]);
      n += 1;
      statuses[r.status] = (statuses[r.status] || 0) + 1;
      latencies.push(r.ms);
      if (r.status !== 200) throw new Error(`move ${mv}: ${r.status} ${r.text}`);
      moves += 1;
      state = r.json;
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  return { moves_per_s: +(moves / secs).toFixed(0), p50_ms: +percentile(latencies, 50).toFixed(1), p99_ms: +percentile(latencies, 99).toFixed(1), statuses };
}

// Phase 2: people playing the engine; a reply is seen by polling the game
// on the next instance.
async function engines() {
  const replies = [];
  const end = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  const engine = { engine: { movetime_ms: MOVETIME } };
  let played = 0;
  await Promise.all(Array.from({ length: ENGINE_GAMES }, async (_, i) => {
    const g = await request(urls[i % urls.length], "POST", "/api/games", { variant: "shogi", black: "human", white: engine });
    if (g.status !== 201) throw new Error(`create: ${g.status} ${g.text}`);
    const id = g.json.id;
    let state = g.json;
    let n = i;
    while (performance.now() < end && !state.result) {
      const mv = state.legal_moves[(n * 5) % state.legal_moves.length];
      const r = await request(urls[n % urls.length], "POST", `/api/games/${id}/moves`, { move: mv }, g.json.tokens.black);
      if (r.status !== 200) throw new Error(`move ${mv}: ${r.status} ${r.text}`);
      const asked = performance.now();
      const ply = r.json.moves.length;
      n += 1;
      for (;;) {
        await sleep(10);
        const s = await request(urls[n % urls.length], "GET", `/api/games/${id}`);
        if (s.json.moves.length > ply || s.json.result) { state = s.json; break; }
        if (performance.now() > end + 30000) throw new Error(`game ${id}: no reply`);
      }
      if (state.moves.length > ply) { replies.push(performance.now() - asked); played += 1; }
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  return { engine_moves_per_s: +(played / secs).toFixed(1), reply_p50_ms: +percentile(replies, 50).toFixed(0), reply_p99_ms: +percentile(replies, 99).toFixed(0) };
}

const p = await people();
const e = await engines();
console.log(JSON.stringify({ instances: urls.length, ...p, ...e }));
agent.destroy();
