// Screenshots of games in progress for the README (a tool, not a test):
// for shogi, cannon shogi and dai dai shogi, a person (Black, moves drawn by
// a seeded PRNG among the board moves) plays a level-2 engine for a few moves
// through the API; then the page opens the game from Black's seat link at
// 1366x768 and at a 390x844 phone viewport and saves docs/web-<variant>-<width>.png;
// and the README's top picture, docs/screenshot.png: the dai dai game at
// 1366x768 with Black's lion selected (its squares and its legend shown).
// Run: tests/browser/screenshots.sh (BANMEN_URL names the server).

import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const URL_ = process.env.BANMEN_URL;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const DOCS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs");
const GAMES = [["shogi", 16], ["cannonshogi", 16], ["daidaishogi", 20]];
const VIEWPORTS = [{ width: 1366, height: 768 }, { width: 390, height: 844 }];
if (!URL_) throw new Error("BANMEN_URL is not set: run tests/browser/screenshots.sh");

let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(URL_ + path, { method, headers, body: body && JSON.stringify(body) });
  const v = await r.json();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(v)}`);
  return v;
}

async function playGame(variant, plies) {
  const created = await api("POST", "/api/games", {
    variant, black: "human", white: { engine: { movetime_ms: 2000, level: 2 } },
  });
  const id = created.id, token = created.tokens.black;
  let g = created;
  while (g.moves.length < plies && !g.result) {
    const board = g.legal_moves.filter((m) => !m.includes("*"));
    const pool = board.length ? board : g.legal_moves;
    const mv = pool[Math.floor(random() * pool.length)];
    g = await api("POST", `/api/games/${id}/moves`, { move: mv }, token);
    const n = g.moves.length;
    for (let i = 0; i < 600 && g.moves.length === n && !g.result; i++) {
      await new Promise((r) => setTimeout(r, 50));
      g = await api("GET", `/api/games/${id}`);
    }
  }
  return g.result ? null : { id, token };
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  for (const [variant, plies] of GAMES) {
    let game = null;
    // Random moves can lose quickly: play again until a game is still on.
    for (let tries = 0; !game; tries++) {
      if (tries === 20) throw new Error(`${variant}: every game ended early`);
      game = await playGame(variant, plies);
    }
    const { id, token } = game;
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${URL_}/#${id}?seat=black&token=${token}`);
      await page.waitForFunction((id) => typeof ui !== "undefined" && ui.game && ui.game.id === id, id);
      await page.waitForSelector("#board rect[data-sq]");
      await page.waitForTimeout(500);
      const path = join(DOCS, `web-${variant}-${viewport.width}.png`);
      await page.screenshot({ path });
      console.log(path);
      if (variant === "daidaishogi" && viewport.width === 1366) {
        const lion = await page.evaluate(() => {
          const code = VARIANTS.get("daidaishogi").pieces.find((p) => p.name === "lion").code;
          const { board, files } = ui.game.position;
          for (let r = 0; r < board.length; r++) {
            const i = board[r].indexOf(code);
            if (i >= 0) return `${files - i}${String.fromCharCode(97 + r)}`;
          }
          return null;
        });
        if (!lion) throw new Error("no Black lion on the board");
        await page.click(`#board rect[data-sq="${lion}"]`);
        await page.waitForFunction(() => document.querySelector("#legend").dataset.piece);
        const top = join(DOCS, "screenshot.png");
        await page.screenshot({ path: top });
        console.log(top);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
