// Browser tests of the `banmen serve` page: Playwright (playwright-core)
// driving Debian's chromium against a server that run.sh started.
// Run: tests/browser/run.sh (BANMEN_URL names the server).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const URL_ = process.env.BANMEN_URL;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), "artifacts");
const MOVETIME = "150";
mkdirSync(ARTIFACTS, { recursive: true });
assert.ok(URL_, "BANMEN_URL is not set: run tests/browser/run.sh");

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
});
after(async () => { await browser?.close(); });

/** A fresh page (own local storage) that fails the test on a script error. */
async function newPage(viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(30000); // generous for a loaded 2-core machine
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(URL_);
  return page;
}

async function newGame(page, { variant = "shogi", opponent = "engine", side = "black", rules = "", movetime = MOVETIME, click = "click" } = {}) {
  // Once the variants are in, the page has opened its New game panel or not.
  await page.waitForFunction(() => document.querySelector("#variant").options.length > 0);
  if (await page.isHidden("#panel-new")) await page.click("#show-new");
  await page.selectOption("#variant", variant);
  await page.waitForFunction((v) => document.querySelector("#handicap").options.length >= 1 && document.querySelector("#variant").value === v, variant);
  if (rules) await page.selectOption("#rules", rules);
  await page.selectOption("select[name=side]", side);
  await page.selectOption("#opponent", opponent);
  await page.fill("input[name=movetime]", movetime);
  const old = await page.evaluate(() => (ui.game ? ui.game.id : null));
  await page[click]("#create");
  await page.waitForFunction(([v, old]) => ui.game && ui.game.variant === v && ui.game.id !== old, [variant, old]);
  return page.evaluate(() => ui.game.id);
}

const state = (page) => page.evaluate(() => ui.game);
const moveCount = (page) => page.locator("#moves li").count();
async function waitMoves(page, n) {
  // Generous: the engine answers in its movetime, but a loaded 2-core CI
  // machine can make the page (289 squares for dai dai) slow to redraw.
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, n, { timeout: 30000 });
}
async function clickSq(page, sq) { await page.click(`#board rect[data-sq="${sq}"]`); }

/** Drags a piece with the mouse, from one square to another. */
async function dragSq(page, from, to) {
  const a = await page.locator(`#board rect[data-sq="${from}"]`).boundingBox();
  const b = await page.locator(`#board rect[data-sq="${to}"]`).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
}

/** Plays one of the legal board moves (not a drop, not a choice) by clicking, then waits for the engine. */
async function playAnyAndWait(page, pick = 0) {
  const g = await state(page);
  const n = g.moves.length;
  const plain = g.legal_moves.filter((m) => !m.includes("*"))
    .map((m) => ({ m, sq: m.match(/\d+[a-z]/g) }))
    .filter(({ sq }) => sq.length === 2 && g.legal_moves.filter((x) => {
      const s = x.match(/\d+[a-z]/g) || [];
      return s[0] === sq[0] && s[s.length - 1] === sq[1];
    }).length === 1);
  const { m, sq } = plain[pick % plain.length];
  await clickSq(page, sq[0]);
  await page.waitForSelector(`#board [data-target="${sq[1]}"]`);
  await clickSq(page, sq[1]);
  await waitMoves(page, n + 2);
  const after = await state(page);
  assert.equal(after.moves[n], m);
  return m;
}

test("shogi against the engine: click and drag, last move, take back, reload", async () => {
  const page = await newPage();
  const id = await newGame(page);
  const boardY = async () => (await page.locator("#board").boundingBox()).y;
  const y0 = await boardY();
  await clickSq(page, "7g");
  assert.ok(await page.locator('#board [data-target="7f"]').count(), "7f highlighted");
  await clickSq(page, "7f");
  const thinking = [await page.textContent("#status"), await boardY()];
  await waitMoves(page, 2);
  assert.equal(thinking[1], y0, `the board stays put as the status line changes (${thinking[0]})`);
  assert.equal(await boardY(), y0, "and after the reply");
  await dragSq(page, "2g", "2f");
  await waitMoves(page, 4);
  let g = await state(page);
  assert.deepEqual(g.moves.filter((_, i) => i % 2 === 0), ["7g7f", "2g2f"]);
  assert.equal(await page.locator("#board rect.last").count(), 2, "last move marked");
  assert.match(await page.textContent('#moves li[data-ply="1"]'), /P-7f/);
  await page.screenshot({ path: join(ARTIFACTS, "shogi.png") });
  // Take back: the engine's reply and my move — once, even on a double click.
  await page.dblclick("#undo");
  await waitMoves(page, 2);
  await page.waitForTimeout(500);
  assert.equal(await moveCount(page), 2, "a double click takes back once");
  g = await state(page);
  assert.deepEqual(g.moves.slice(0, 1), ["7g7f"]);
  // Reload: the same game from the server.
  const sfen = g.sfen;
  await page.reload();
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.game);
  g = await state(page);
  assert.equal(g.id, id);
  assert.equal(g.sfen, sfen);
  assert.equal(await moveCount(page), 2);
  await page.waitForSelector('#board [data-piece-sq="7f"]');
  // A game that does not exist: said so, and the previous one leaves the screen.
  await page.evaluate(() => { location.hash = "#999999"; });
  await page.waitForFunction(() => document.querySelector("#error").textContent !== "");
  assert.equal(await page.locator("#board .piece").count(), 0, "no board of the previous game");
  assert.equal(await moveCount(page), 0);
  assert.match(await page.textContent("#status"), /No game open/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the Level selector: a level-1 engine answers long before its movetime; a clock preset", async () => {
  const page = await newPage();
  await page.waitForFunction(() => document.querySelector("#variant").options.length > 0);
  if (await page.isHidden("#panel-new")) await page.click("#show-new");
  await page.selectOption("#level", "1");
  await page.selectOption("#clock", { label: "3 min + 2 s Fischer" });   // a preset
  await newGame(page, { movetime: "60000" });
  let g = await state(page);
  assert.deepEqual(g.white, { engine: { movetime_ms: 60000, level: 1 } });
  assert.deepEqual(g.time_control, { main_ms: 180000, byoyomi_ms: 0, increment_ms: 2000 });
  assert.match(await page.textContent("#status"), /3 min \+ 2 s Fischer — .*engine level 1, 60000 ms/);
  const start = Date.now();
  await playAnyAndWait(page);
  assert.ok(Date.now() - start < 20000, `level 1 took ${Date.now() - start} ms`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an engine that answers at once: 50 moves in a row, no freeze", async () => {
  // At 1 ms per move the engine's reply (a live event) often comes before the
  // answer to the move that asked for it; the page must keep the newer state.
  const page = await newPage();
  let played = 0;
  while (played < 50) {
    let g = await state(page);
    if (!g || g.result) { await newGame(page, { movetime: "1" }); g = await state(page); }
    const n = g.moves.length;
    const plain = g.legal_moves.filter((m) => /^\d[a-z]\d[a-z]$/.test(m));
    // A position may leave only drops or forced promotions: start a new game then.
    if (plain.length === 0) { await newGame(page, { movetime: "1" }); continue; }
    const m = plain[(played * 7) % plain.length];
    await clickSq(page, m.slice(0, 2));
    await page.waitForSelector(`#board [data-target="${m.slice(2, 4)}"]`);
    await clickSq(page, m.slice(2, 4));
    if (await page.isVisible("#chooser")) await page.click("#promote-no");
    // The engine's reply or the end of the game, well before a person would notice.
    await page.waitForFunction((n) => ui.game.moves.length >= n + 2 || ui.game.result, n, { timeout: 10000 });
    played++;
    g = await state(page);
    const server = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), g.id);
    assert.equal(g.version, server.version, `move ${played}: the page shows the newest state`);
    assert.equal(g.moves.length, server.moves.length);
    if (!g.result) assert.ok(await page.locator("#board .piece").count() > 0);
  }
  // The move list scrolls vertically and shows the last move.
  const list = await page.locator("#moves").boundingBox();
  const last = await page.locator("#moves li.current").boundingBox();
  assert.ok(last.y >= list.y - 1 && last.y + last.height <= list.y + list.height + 1, "the current move is in view");
  assert.equal(await page.evaluate(() => { const m = document.querySelector("#moves"); return m.scrollWidth <= m.clientWidth; }), true, "no hidden columns");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a short byoyomi game is lost on time", async () => {
  const page = await newPage();
  // The page opens the new-game panel once it has the games: wait for that.
  await page.waitForFunction(() => document.querySelector("#variant").options.length > 0);
  if (await page.isHidden("#panel-new")) await page.click("#show-new");
  await page.selectOption("#clock", "custom");
  await page.fill("input[name=main_s]", "1");
  await page.fill("input[name=byoyomi_s]", "2");
  await page.fill("input[name=increment_s]", "0");
  await newGame(page);
  const g = await state(page);
  assert.deepEqual(g.time_control, { main_ms: 1000, byoyomi_ms: 2000, increment_ms: 0 });
  assert.match(await page.textContent("#status"), /1 s \+ 2 s byoyomi/);
  // The clocks start with the first move: Black plays, the engine answers.
  await clickSq(page, "7g");
  await clickSq(page, "7f");
  for (let i = 0; i < 100 && (await state(page)).moves.length < 2; i++) await page.waitForTimeout(100);
  assert.equal((await state(page)).moves.length, 2);
  // Black's clock counts down through the main time into the byoyomi…
  await page.waitForFunction(() => document.querySelector("#clock-black").textContent.startsWith("秒"));
  assert.ok(await page.locator("#clock-black.byoyomi.running").count(), "byoyomi shown");
  // …and the server ends the game with no further move made.
  await page.waitForSelector("#banner:not([hidden])", { timeout: 10000 });
  assert.match(await page.textContent("#banner"), /White ☖ wins by time/);
  assert.ok(await page.locator("#clock-black.flag").count(), "Black's flag shown");
  assert.equal((await state(page)).moves.length, 2);
  await clickSq(page, "2g");
  assert.equal(await page.locator("#board .target").count(), 0, "no move after the flag");
  await page.screenshot({ path: join(ARTIFACTS, "time-loss.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("cannon shogi against the engine: a few moves", async () => {
  const page = await newPage();
  await newGame(page, { variant: "cannonshogi" });
  // Kanji by default on 9x9 where a font has them (letters, not empty boxes,
  // where none has); chosen, always kanji: the names of banmen-rules, the king by side.
  const font = await page.evaluate(() => ui.kanjiFont);
  assert.equal(await page.textContent('#board [data-token="U"]'), font ? "金砲" : "GC", `kanji font: ${font}`);
  await page.selectOption("#piece-style", "kanji");
  assert.equal(await page.textContent('#board [data-token="U"]'), "金砲");
  assert.equal(await page.textContent('#board [data-token="K"]'), "王");
  assert.equal(await page.textContent('#board [data-token="k"]'), "玉");
  assert.ok(await page.evaluate(() => document.querySelector('#board [data-token="k"] text').getCTM().a < 0), "White's kanji face Black, as on a real board");
  await page.selectOption("#piece-style", "letters");
  assert.equal(await page.textContent('#board [data-token="U"]'), "GC", "cannons in Western letters");
  // The legend names a piece as the board does (GET /api/variants): SC, not A.
  await page.hover('#board rect[data-sq="7h"]');
  await page.waitForFunction(() => document.querySelector("#legend").dataset.piece === "A");
  assert.match(await page.textContent("#legend strong"), /^SC 銀砲 — silver cannon$/);
  for (let i = 0; i < 3; i++) await playAnyAndWait(page, i * 3);
  assert.equal(await moveCount(page), 6);
  await page.screenshot({ path: join(ARTIFACTS, "cannonshogi.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("dai dai shogi against the engine: moves, legend, zoom", async () => {
  const page = await newPage();
  await newGame(page, { variant: "daidaishogi" });
  assert.equal(await page.locator("#board rect[data-sq]").count(), 289);
  assert.match(await page.textContent('#board [data-piece-sq="9p"]'), /^[A-Z]{1,3}$/, "letters by default on 17x17");
  // Both sides' letters upright (read without turning the head), White's by colour.
  const [white, black] = await page.evaluate(() => ["9a", "9q"].map((sq) => {
    const t = document.querySelector(`#board [data-piece-sq="${sq}"] text`);
    return { upright: t.getCTM().a > 0, fill: t.getAttribute("fill") };
  }));
  assert.ok(white.upright && black.upright, "upright letters");
  assert.notEqual(white.fill, black.fill, "White's letters in their own colour");
  for (let i = 0; i < 2; i++) await playAnyAndWait(page, i * 5);
  // The legend of a lion (on 9p at the start) on hover.
  await page.hover('#board rect[data-sq="9p"]');
  await page.waitForFunction(() => document.querySelector("#legend").dataset.piece === "NK");
  const legend = await page.textContent("#legend");
  assert.match(legend, /Betza/);
  const w0 = Number(await page.getAttribute("#board", "width"));
  await page.click("#zoom-in");
  assert.ok(Number(await page.getAttribute("#board", "width")) > w0, "zoomed in");
  await page.click("#zoom-out");
  // Select the piece with the most destinations: they are highlighted (a
  // pass, which ends where it starts, is a button, not a square).
  const [from, n] = await page.evaluate(() => {
    const dest = new Map();
    for (const m of ui.game.legal_moves) {
      const [f, next] = m.match(/\d+[a-z]/g), last = m.match(/\d+[a-z]/g).pop();
      if (last === f) continue;
      if (!dest.has(f)) dest.set(f, new Set());
      dest.get(f).add(next);
    }
    return [...dest].map(([f, d]) => [f, d.size]).sort((a, b) => b[1] - a[1])[0];
  });
  await clickSq(page, from);
  assert.ok(n > 3);
  assert.equal(await page.locator("#board .target").count(), n, "destinations highlighted");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, "daidaishogi.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A dai dai position: Black's lion on 9i beside two White pawns (9h, 8h).
const LION_SFEN = "8kg8/17/17/17/17/17/17/8papa7/8LN8/17/17/17/17/17/17/17/8KG8 b - 1";
async function importText(page, text) {
  const old = await page.evaluate(() => (ui.game ? ui.game.id : null));
  await page.click("#show-import");
  await page.fill("#import-text", text);
  await page.click("#import-go");
  await page.waitForFunction((old) => ui.game && ui.game.id !== old, old);
}
const lionGame = (page) => importText(page, `setoption name USI_Variant value daidaishogi\nposition sfen ${LION_SFEN}`);

test("dai dai lion by clicking: deselect, double move through the middle square, igui, pass", async () => {
  const page = await newPage();
  await lionGame(page);
  // A second click on the selected lion deselects it: no move, no pass.
  await clickSq(page, "9i");
  await page.waitForSelector("#pass");
  assert.match(await page.textContent("#pass"), /Pass/);
  await clickSq(page, "9i");
  assert.equal(await page.evaluate(() => ui.selected), null);
  assert.equal(await page.locator("#board .target").count(), 0);
  assert.ok(await page.isHidden("#movebar"), "no lion buttons without a selection");
  assert.equal((await state(page)).moves.length, 0);
  // The lion, the pawn it captures on 9h, then the pawn on 8h: 9i9h8h+.
  await clickSq(page, "9i");
  await clickSq(page, "9h");
  await page.waitForSelector("#leg-igui");
  assert.match(await page.textContent("#leg-igui"), /Igui/);
  assert.match(await page.textContent("#leg-stop"), /Stop on 9h/);
  assert.ok(await page.locator('#board [data-target="8h"]').count(), "8h is a second square");
  assert.ok(await page.locator('#board [data-target="9i"]').count(), "back to 9i (igui) is a second square");
  assert.equal(await page.locator("#chooser:not([hidden])").count(), 0, "no list of USI strings");
  await clickSq(page, "8h");
  await waitMoves(page, 1);
  let g = await state(page);
  assert.equal(g.moves[0], "9i9h8h+");
  assert.equal(g.position.board[7][8], null, "9h is empty");
  assert.equal(g.position.board[7][9], "+LN", "the lion took both pawns and stands on 8h");
  await page.screenshot({ path: join(ARTIFACTS, "daidai-lion.png") });
  // Igui: capture on 9h and stay on 9i.
  await lionGame(page);
  await clickSq(page, "9i");
  await clickSq(page, "9h");
  await page.click("#leg-igui");
  await waitMoves(page, 1);
  g = await state(page);
  assert.equal(g.moves[0], "9i9h9i+");
  assert.equal(g.position.board[7][8], null);
  // A pass is the Pass button.
  await lionGame(page);
  await clickSq(page, "9i");
  await page.click("#pass");
  await waitMoves(page, 1);
  g = await state(page);
  assert.equal(g.moves.length, 1);
  assert.equal(g.sfen.split(" ")[0], LION_SFEN.split(" ")[0], "the board is unchanged after a pass");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("two players on one board: promotion choice, drop, keyboard, notation, resign, replay", async () => {
  const page = await newPage();
  await newGame(page, { opponent: "human" });
  // Keyboard: the board's cursor starts on 5g; Enter picks the pawn, up, Enter plays 5g5f.
  await page.focus("#board");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Enter");
  await waitMoves(page, 1);
  assert.equal((await state(page)).moves[0], "5g5f");
  // The typed move box.
  await page.fill("#typed-move", "3c3d");
  await page.press("#typed-move", "Enter");
  await waitMoves(page, 2);
  await page.fill("#typed-move", "7g7f"); await page.press("#typed-move", "Enter"); await waitMoves(page, 3);
  await page.fill("#typed-move", "8c8d"); await page.press("#typed-move", "Enter"); await waitMoves(page, 4);
  // Bishop takes on 2b: promote or not.
  await clickSq(page, "8h");
  await clickSq(page, "2b");
  await page.waitForSelector("#promote-yes");
  await page.click("#promote-yes");
  await waitMoves(page, 5);
  assert.equal((await state(page)).moves[4], "8h2b+");
  await clickSq(page, "3a"); await clickSq(page, "2b");
  await waitMoves(page, 6);
  // Black drops the bishop it won.
  await page.click('#hand-bottom button[data-drop="B"]');
  await page.waitForSelector('#board [data-target="5e"]');
  await clickSq(page, "5e");
  await waitMoves(page, 7);
  assert.equal((await state(page)).moves[6], "B*5e");
  // White drags the bishop it won from its hand to 5d.
  {
    const a = await page.locator('#hand-top button[data-drop="B"]').boundingBox();
    const t = await page.locator('#board rect[data-sq="5d"]').boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(t.x + t.width / 2, t.y - 20, { steps: 5 });
    await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2, { steps: 3 });
    await page.mouse.up();
    await waitMoves(page, 8);
    assert.equal((await state(page)).moves[7], "B*5d");
  }
  // The move list: numbered pairs in one column.
  {
    // (read in one step: a late live event may redraw the list between two)
    const box = (p) => page.locator(`#moves li[data-ply="${p}"]`).evaluate((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y }; });
    const [a, b, c] = [await box(1), await box(2), await box(3)];
    assert.equal(Math.round(a.y), Math.round(b.y), "Black's and White's moves side by side");
    assert.ok(b.x > a.x && c.y > a.y && Math.abs(c.x - a.x) < 2, "the next pair below");
    assert.equal(await page.textContent("#moves .n"), "1.");
  }
  // Japanese notation.
  await page.selectOption("#notation", "japanese");
  assert.match(await page.textContent('#moves li[data-ply="5"]'), /２二角成/);
  await page.selectOption("#notation", "western");
  assert.match(await page.textContent('#moves li[data-ply="7"]'), /B\*5e/);
  // Flip.
  const y = (await page.locator('#board rect[data-sq="1a"]').boundingBox()).y;
  await page.click("#flip");
  assert.ok((await page.locator('#board rect[data-sq="1a"]').boundingBox()).y > y, "flipped");
  await page.click("#flip");
  // Resign: the banner names the reason.
  page.once("dialog", (d) => d.accept());
  await page.click("#resign");
  await page.waitForSelector("#banner:not([hidden])");
  assert.match(await page.textContent("#banner"), /White ☖ wins by resignation/);
  // Replay the finished game: first, forward by arrow keys, a click in the list, last.
  await page.click("#first");
  await page.waitForFunction(() => ui.view && ui.view.ply === 0);
  await page.waitForSelector('#board [data-piece-sq="7g"]');
  assert.match(await page.textContent("#replayinfo"), /move 0 of 8/);
  await page.click("#replayinfo");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => ui.view && ui.view.ply === 1);
  await page.waitForSelector('#board [data-piece-sq="5f"]');
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => ui.view && ui.view.ply === 3);
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => ui.view && ui.view.ply === 2);
  await page.click('#moves li[data-ply="5"]');
  await page.waitForFunction(() => ui.view && ui.view.ply === 5);
  assert.equal(await page.getAttribute('#board [data-piece-sq="2b"]', "data-token"), "+B");
  await page.keyboard.press("End");
  await page.waitForFunction(() => ui.view === null);
  await page.waitForSelector('#board [data-piece-sq="5e"]');
  await page.screenshot({ path: join(ARTIFACTS, "finished.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("import a record, export it, find it in the list", async () => {
  const page = await newPage();
  await page.click("#show-import");
  const kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\n";
  await page.fill("#import-text", kif);
  const count = () => page.evaluate(() => fetch("/api/games").then((r) => r.json()).then((l) => l.length));
  const before = await count();
  await page.dblclick("#import-go");
  await waitMoves(page, 4);
  await page.waitForTimeout(500);
  assert.equal(await count(), before + 1, "a double click imports once");
  const g = await state(page);
  assert.deepEqual(g.moves, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
  assert.match(await page.textContent("#banner"), /wins by resignation/);
  for (const [format, needle] of [["csa", "+7776FU"], ["kifu", "２二角成(88)"], ["usi", "position startpos moves 7g7f 3c3d 8h2b+ 3a2b"], ["sfen", "moves 7g7f"], ["kif", "７六歩"]]) {
    await page.selectOption("#export-format", format);
    await page.click("#export-show");
    await page.waitForFunction((n) => document.querySelector("#export-text").value.includes(n), needle);
  }
  // A USI line of dai dai shogi through the import panel.
  await page.click("#show-import");
  await page.fill("#import-text", "setoption name USI_Variant value daidaishogi\nposition startpos moves");
  await page.click("#import-go");
  await page.waitForFunction(() => ui.game && ui.game.variant === "daidaishogi");
  // An SFEN with White in check: the king's square is marked.
  await page.click("#show-import");
  await page.fill("#import-text", "4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
  await page.click("#import-go");
  await page.waitForSelector('#board [data-check="5a"]');
  assert.match(await page.textContent("#status"), /in check/);
  // A broken record: a clear error, no game.
  await page.click("#show-import");
  await page.fill("#import-text", "position startpos moves 7g7f 7g7f");
  await page.click("#import-go");
  // (next to the Import button)
  await page.waitForFunction(() => document.querySelector("#import-go + .near-error")?.textContent.includes("7g7f"));
  // The saved games list.
  await page.click("#show-games");
  await page.waitForSelector(`#games tr[data-id="${g.id}"]`);
  assert.match(await page.textContent(`#games tr[data-id="${g.id}"]`), /shogi.*4.*resignation/s);
  await page.click(`#games tr[data-id="${g.id}"] a`);
  await page.waitForFunction((id) => ui.game && ui.game.id === id, g.id);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("an imported record's variations: in the move list, their positions on the board, exported", async () => {
  const page = await newPage();
  // Once the variants are in (the page may open its New game panel then).
  await page.waitForFunction(() => document.querySelector("#variant").options.length > 0);
  await page.click("#show-import");
  // Move 2 has a variation, which has one of its own at move 3.
  const kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n\n"
    + "変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n   4 ８五歩(84)\n\n変化：3手\n   3 ６八銀(79)\n";
  await page.fill("#import-text", kif);
  await page.click("#import-go");
  await waitMoves(page, 3);
  await page.selectOption("#notation", "japanese");
  // Under move 2's row, indented; the nested one inside it.
  const outer = page.locator("#moves > details.variation");
  await outer.waitFor();
  assert.equal(await outer.count(), 1);
  assert.match(await outer.textContent(), /variation at move 2.*△８四歩.*▲２六歩.*△８五歩.*variation at move 3.*▲６八銀/s);
  const rowOf2 = await page.locator('#moves li[data-ply="2"]').boundingBox();
  const block = await outer.boundingBox();
  assert.ok(block.y >= rowOf2.y + rowOf2.height - 1 && block.x > rowOf2.x - 200, "the block comes under move 2's row");
  // Its move shows its position in replay mode: the silver on 6h, no moving.
  await page.click('#moves .vmove[data-line="7g7f,8c8d,7i6h"]');
  await page.waitForFunction(() => ui.view && ui.view.line === "7g7f,8c8d,7i6h");
  await page.waitForSelector('#board [data-piece-sq="6h"][data-token="S"]');
  assert.equal(await page.locator('#board [data-piece-sq="7i"]').count(), 0);
  assert.match(await page.textContent("#replayinfo"), /variation: move 3/);
  assert.equal(await page.getAttribute('#moves .vmove[data-line="7g7f,8c8d,7i6h"]', "class"), "vmove current");
  // ← goes back inside the variation, then to the main line at its branch.
  await page.click("#prev");
  await page.waitForFunction(() => ui.view && ui.view.line === "7g7f,8c8d");
  await page.waitForSelector('#board [data-piece-sq="8d"][data-token="p"]');
  await page.click("#next");
  await page.waitForFunction(() => ui.view && ui.view.line === "7g7f,8c8d,2g2f");
  await page.click("#prev"); await page.click("#prev");
  await page.waitForFunction(() => ui.view && !ui.view.line && ui.view.ply === 1);
  // Collapsed, it stays so across a redraw.
  await page.click("#moves > details.variation > summary");
  await page.selectOption("#notation", "western");
  assert.equal(await page.locator("#moves > details.variation").evaluate((d) => d.open), false);
  // The KIF export writes them.
  await page.selectOption("#export-format", "kifu");
  await page.click("#export-show");
  await page.waitForFunction(() => /変化：2手[\s\S]*変化：3手/.test(document.querySelector("#export-text").value));
  await page.selectOption("#export-format", "jkf");
  await page.click("#export-show");
  await page.waitForFunction(() => document.querySelector("#export-text").value.includes('"forks"'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a second person in another browser joins by the seat link", async () => {
  const a = await newPage();
  await newGame(a, { opponent: "remote" });
  const link = await a.inputValue("#invite-link");
  assert.match(link, /seat=white&token=/);
  const b = await newPage();
  await b.goto(link);
  await b.waitForFunction(() => ui.game && ui.game.moves);
  assert.ok(!b.url().includes("token="), "the token leaves the address bar");
  await clickSq(a, "7g"); await clickSq(a, "7f");
  await waitMoves(b, 1);                    // live update in the other browser
  await clickSq(a, "2g");                   // not Black's turn any more: nothing selected
  assert.equal(await a.locator("#board .target").count(), 0);
  await clickSq(b, "3c"); await clickSq(b, "3d");
  await waitMoves(a, 2);
  assert.deepEqual((await state(a)).moves, ["7g7f", "3c3d"]);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});

test("against a person: draw offers declined and accepted, a take-back offer, rematch, abort", async () => {
  const a = await newPage();
  await newGame(a, { opponent: "remote" });
  const link = await a.inputValue("#invite-link");
  const b = await newPage();
  await b.goto(link);
  await b.waitForFunction(() => ui.game && ui.game.moves);
  await clickSq(a, "7g"); await clickSq(a, "7f"); await waitMoves(b, 1);
  await clickSq(b, "3c"); await clickSq(b, "3d"); await waitMoves(a, 2);
  assert.ok(await a.isHidden("#abort"), "no abort after the second move");
  // A draw offer, declined.
  await a.click("#draw");
  await a.waitForSelector("#offer-withdraw");
  await b.waitForSelector("#offer-decline");
  assert.match(await b.textContent("#offerbar"), /Black ☗ offers a draw/);
  await b.click("#offer-decline");
  await a.waitForFunction(() => /declined a draw/.test(document.querySelector("#offerbar").textContent));
  assert.equal((await state(a)).result, null);
  // A take-back offer, accepted: Black's 7g7f and White's reply go.
  await a.click("#undo");
  await b.waitForSelector("#offer-accept");
  assert.match(await b.textContent("#offerbar"), /take back/);
  assert.equal(await moveCount(a), 2, "nothing taken back before the answer");
  await b.click("#offer-accept");
  await waitMoves(a, 0); await waitMoves(b, 0);
  // A draw offer, accepted.
  await clickSq(a, "2g"); await clickSq(a, "2f"); await waitMoves(b, 1);
  await b.click("#draw");
  await a.waitForSelector("#offer-accept");
  await a.click("#offer-accept");
  for (const p of [a, b]) await p.waitForFunction(() => /draw by agreement/.test(document.querySelector("#banner").textContent));
  assert.ok(await a.isHidden("#resign"), "no Resign after the end");
  // Rematch: colours change over; the second player joins the same game.
  const old = (await state(a)).id;
  await a.click("#rematch");
  await a.waitForFunction((old) => ui.game && ui.game.id !== old, old);
  const fresh = (await state(a)).id;
  await b.waitForFunction(() => /rematch is waiting/.test(document.querySelector("#offerbar").textContent));
  await b.click("#rematch");
  await b.waitForFunction((id) => ui.game && ui.game.id === id, fresh);
  assert.deepEqual(await a.evaluate(() => mine()), ["white"]);
  assert.deepEqual(await b.evaluate(() => mine()), ["black"]);
  // Abort before the second move.
  await clickSq(b, "7g"); await clickSq(b, "7f"); await waitMoves(a, 1);
  await a.click("#abort");
  for (const p of [a, b]) await p.waitForFunction(() => /aborted/.test(document.querySelector("#banner").textContent));
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});

test("a spectator watches without action buttons; a seat link's token is checked", async () => {
  const a = await newPage();
  const id = await newGame(a, { opponent: "remote" });
  const link = await a.inputValue("#invite-link");
  const watcher = await newPage();
  await watcher.goto(`${URL_}/#${id}`);
  await watcher.waitForFunction(() => ui.game && ui.game.moves);
  for (const sel of ["#undo", "#resign", "#draw", "#abort", "#rematch", "#typed"]) {
    assert.ok(await watcher.isHidden(sel), `${sel} hidden for a spectator`);
  }
  assert.ok(await a.isVisible("#resign"), "a player has Resign");
  await clickSq(a, "7g"); await clickSq(a, "7f");
  await waitMoves(watcher, 1);                 // the live game
  // A seat link with a wrong token: said so, and the page watches.
  const bad = await newPage();
  await bad.goto(link.replace(/token=[0-9a-f]+/, "token=0123456789abcdef0123456789abcdef"));
  await bad.waitForFunction(() => /seat link is not valid/.test(document.querySelector("#error").textContent));
  assert.deepEqual(await bad.evaluate(() => mine()), []);
  assert.equal(await bad.evaluate((id) => localStorage.getItem("banmen-tokens-" + id), id), null, "the token is not kept");
  assert.ok(await bad.isHidden("#resign"));
  // The right link seats White.
  const b = await newPage();
  await b.goto(link);
  await b.waitForFunction(() => ui.game && mine().length === 1);
  assert.deepEqual(await b.evaluate(() => mine()), ["white"]);
  assert.deepEqual([...a.errors, ...watcher.errors, ...bad.errors, ...b.errors], []);
  for (const p of [a, watcher, bad, b]) await p.context().close();
});

/** The board and the buttons a game needs are in view without scrolling. */
async function assertPlayable(page, variant) {
  const { width, height } = page.viewportSize();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const sel of ["#board", "#undo", "#resign", "#flip", "#first", "#prev", "#next", "#last"]) {
    const box = await page.locator(sel).boundingBox();
    assert.ok(box, `${variant}: ${sel} is shown`);
    assert.ok(box.y >= 0 && box.y + box.height <= height && box.x + box.width <= width,
      `${variant} at ${width}x${height}: ${sel} in view without scrolling (${JSON.stringify(box)})`);
  }
}

test("a 1366x768 laptop: Take back, Resign, Flip and the replay buttons in view, 9x9 and 17x17", async () => {
  const page = await newPage({ width: 1366, height: 768 });
  for (const variant of ["shogi", "daidaishogi"]) {
    await newGame(page, { variant });
    await assertPlayable(page, variant);
    if (variant === "daidaishogi") {
      // The lion dog on 15p may pass: its Pass button is in view too.
      await clickSq(page, "15p");
      const pass = await page.locator("#pass").boundingBox();
      assert.ok(pass && pass.y + pass.height <= 768, `Pass in view (${JSON.stringify(pass)})`);
    }
    await page.screenshot({ path: join(ARTIFACTS, `laptop-${variant}.png`) });
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("phone layout: the board fits the screen, the buttons in view, 9x9 and 17x17", async () => {
  const page = await newPage({ width: 390, height: 844 });
  const count = () => page.evaluate(() => fetch("/api/games").then((r) => r.json()).then((l) => l.length));
  const before = await count();
  await newGame(page, { opponent: "human", click: "dblclick" });
  await page.waitForTimeout(500);
  assert.equal(await count(), before + 1, "a double click on Start starts one game");
  const box = await page.locator("#board").boundingBox();
  assert.ok(box.width <= 390, `board ${box.width}px wide`);
  await clickSq(page, "7g"); await clickSq(page, "7f");
  await waitMoves(page, 1);
  await assertPlayable(page, "shogi");
  await page.screenshot({ path: join(ARTIFACTS, "phone.png"), fullPage: true });
  // Dai dai shogi fits the phone's width; zoomed in, the board scrolls.
  await newGame(page, { variant: "daidaishogi", opponent: "human" });
  assert.ok((await page.locator("#board").boundingBox()).width <= 390);
  await assertPlayable(page, "daidaishogi");
  await page.click("#zoom-in");
  await page.click("#zoom-in");
  assert.ok((await page.locator("#board").boundingBox()).width > 390, "zoomed in beyond the screen");
  const wrap = await page.locator("#boardwrap").boundingBox();
  assert.ok(wrap.width <= 390, "the wrapper scrolls, the page does not widen");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** The fonts Chromium drew an element's text with (DevTools protocol). */
async function fontsOf(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector });
  assert.ok(nodeId, `no ${selector}`);
  const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
  await cdp.detach();
  return fonts;
}
const drawnWithShippedFont = (fonts) => fonts.length > 0 && fonts.every((f) => f.isCustomFont);

test("the shipped font: loaded, kept a year, and the board and hand drawn with it (𠵇 too)", async () => {
  const page = await newPage();
  await newGame(page, { opponent: "human" });
  await page.waitForFunction(() => [...document.fonts].some((f) => f.family.replace(/"/g, "") === "Banmen Pieces" && f.status === "loaded"));
  assert.ok(await page.evaluate(() => document.fonts.check('600 24px "Banmen Pieces"', "歩王玉")));
  const cache = await page.evaluate(() => fetch(document.querySelector('link[rel="preload"]').href).then((r) => [r.headers.get("content-type"), r.headers.get("cache-control")]));
  assert.equal(cache[0], "font/woff2");
  assert.match(cache[1], /max-age=31536000/);
  // Kanji on 9x9 by default, drawn with the shipped font, not a system one.
  assert.equal(await page.textContent('#board [data-piece-sq="7g"] text'), "歩");
  assert.ok(drawnWithShippedFont(await fontsOf(page, '#board [data-piece-sq="5i"] text')), "the king");
  // A hand: 7g7f 3c3d 8h2b+ puts a bishop in Black's hand.
  for (const [a, b] of [["7g", "7f"], ["3c", "3d"], ["8h", "2b"]]) { await clickSq(page, a); await clickSq(page, b); }
  await page.click("#promote-yes");
  await waitMoves(page, 3);
  assert.equal(await page.textContent('#hand-bottom button[data-drop="B"]'), "角");
  assert.ok(drawnWithShippedFont(await fontsOf(page, '#hand-bottom button[data-drop="B"]')), "the hand");
  // Dai dai shogi in kanji: the howling dog's 𠵇, which Noto lacks, is drawn into the font.
  await page.selectOption("#piece-style", "kanji");
  await newGame(page, { variant: "daidaishogi", opponent: "human" });
  const dog = await page.evaluate(() => VARIANTS.get("daidaishogi").pieces.find((p) => p.japanese === "𠵇犬").code);
  const sel = `#board [data-token="${dog}"] text`;
  assert.match(await page.textContent(sel), /𠵇/);
  assert.ok(drawnWithShippedFont(await fontsOf(page, sel)), "𠵇 from the shipped font");
  await page.locator(`#board [data-token="${dog}"]`).first().screenshot({ path: join(ARTIFACTS, "howling-dog.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("sounds: move, capture and check, muted by a switch the browser remembers", async () => {
  const page = await newPage();
  await newGame(page, { opponent: "human" });
  assert.equal(await page.textContent("#sound"), "Sound on");
  const played = () => page.evaluate(() => ({ ...window.banmenSound.played, silenced: window.banmenSound.silenced }));
  // 7g7f 3c3d 8h2b+ (captures) 3a2b (captures) B*3c (check).
  for (const [a, b] of [["7g", "7f"], ["3c", "3d"], ["8h", "2b"]]) { await clickSq(page, a); await clickSq(page, b); }
  await page.click("#promote-yes");
  await waitMoves(page, 3);
  await clickSq(page, "3a"); await clickSq(page, "2b");
  await waitMoves(page, 4);
  await page.click('#hand-bottom button[data-drop="B"]'); await clickSq(page, "3c");
  await waitMoves(page, 5);
  assert.ok((await state(page)).position.in_check);
  assert.deepEqual(await played(), { move: 2, capture: 2, check: 1, silenced: 0 });
  // Muted, and still muted after a reload: moves make no sound.
  await page.click("#sound");
  assert.equal(await page.textContent("#sound"), "Sound off");
  await page.reload();
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.game);
  assert.equal(await page.textContent("#sound"), "Sound off");
  assert.equal(await page.getAttribute("#sound", "aria-pressed"), "false");
  await clickSq(page, "4a"); await clickSq(page, "4b");   // the gold blocks the check
  await waitMoves(page, 6);
  assert.deepEqual(await played(), { move: 0, capture: 0, check: 0, silenced: 1 });
  await page.click("#sound");
  assert.equal(await page.evaluate(() => localStorage.getItem("banmen-muted")), "0");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("premoves: queued while the engine thinks, sent on the player's turn, dropped when illegal, cancelled by Escape and by a take-back", async () => {
  const page = await newPage();
  await newGame(page, { movetime: "2500" });
  await clickSq(page, "7g"); await clickSq(page, "7f");
  await page.waitForFunction(() => ui.game.moves.length === 1);
  // While the engine thinks: 2g2f waits, highlighted, and goes at once on my turn.
  await clickSq(page, "2g"); await clickSq(page, "2f");
  assert.deepEqual(await page.evaluate(() => ui.premove), { from: "2g", to: "2f" });
  assert.equal(await page.locator("#board rect.premove").count(), 2);
  assert.match(await page.textContent("#premove-info"), /Premove 2g2f/);
  await page.waitForFunction(() => ui.game.moves.length >= 3);
  assert.equal((await state(page)).moves[2], "2g2f");
  assert.equal(await page.locator("#board rect.premove").count(), 0);
  // A move that will not be legal (a pawn two squares): dropped with a notice.
  await clickSq(page, "9g"); await clickSq(page, "9e");
  assert.deepEqual(await page.evaluate(() => ui.premove), { from: "9g", to: "9e" });
  await waitMoves(page, 4);
  await page.waitForFunction(() => /Premove 9g9e dropped/.test(document.querySelector("#error").textContent));
  await page.waitForTimeout(300);
  assert.equal((await state(page)).moves.length, 4, "nothing sent");
  // Queued, then cancelled with Escape: not sent.
  await clickSq(page, "6g"); await clickSq(page, "6f");
  await page.waitForFunction(() => ui.game.moves.length === 5);
  await clickSq(page, "5g"); await clickSq(page, "5f");
  assert.ok(await page.evaluate(() => ui.premove));
  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => ui.premove), null);
  assert.equal(await page.locator("#board rect.premove").count(), 0);
  await waitMoves(page, 6);
  await page.waitForTimeout(500);
  assert.equal((await state(page)).moves.length, 6, "a cancelled premove is not sent");
  // A take-back while a premove waits drops it (it would replay at once).
  await clickSq(page, "2f"); await clickSq(page, "2e");
  await page.waitForFunction(() => ui.game.moves.length === 7);
  await clickSq(page, "3g"); await clickSq(page, "3f");
  assert.ok(await page.evaluate(() => ui.premove));
  await page.click("#undo");
  await page.waitForFunction(() => ui.game.moves.length === 6);
  assert.equal(await page.evaluate(() => ui.premove), null);
  await page.waitForTimeout(500);
  assert.equal((await state(page)).moves.length, 6, "no premove after a take-back");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a premove that may promote asks when it is made, and the answer is played", async () => {
  const a = await newPage();
  await newGame(a, { opponent: "remote" });
  const b = await newPage();
  await b.goto(await a.inputValue("#invite-link"));
  await b.waitForFunction(() => ui.game && ui.game.moves);
  await clickSq(a, "7g"); await clickSq(a, "7f"); await waitMoves(b, 1);
  // White thinks: Black's bishop to 3c (in the zone) asks; Cancel queues nothing…
  await clickSq(a, "8h"); await clickSq(a, "3c");
  await a.waitForSelector("#promote-no");
  await a.click("#choice-cancel");
  assert.equal(await a.evaluate(() => ui.premove), null);
  // …and "Do not promote" is kept with the premove.
  await clickSq(a, "8h"); await clickSq(a, "3c");
  await a.click("#promote-no");
  assert.deepEqual(await a.evaluate(() => ui.premove), { from: "8h", to: "3c", promote: false });
  assert.match(await a.textContent("#premove-info"), /Premove 8h3c \(not promoting\)/);
  await clickSq(b, "1c"); await clickSq(b, "1d");
  await waitMoves(b, 3);
  assert.equal((await state(a)).moves[2], "8h3c", "sent unpromoted");
  // Check: White blocks with the gold; the premove 3c2b, promoting, goes then.
  await clickSq(a, "3c"); await clickSq(a, "2b");
  await a.click("#promote-yes");
  assert.match(await a.textContent("#premove-info"), /Premove 3c2b\+/);
  await clickSq(b, "4a"); await clickSq(b, "4b");
  await waitMoves(b, 5);
  assert.deepEqual((await state(a)).moves.slice(2), ["8h3c", "4a4b", "3c2b+"]);
  assert.ok(await a.isHidden("#chooser"), "no question when the turn comes");
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});

/** A finished game of `variant` made through the API (both seats human, up to `n` moves drawn by a fixed rule, then Black resigns if it is not over); the page opens it. */
async function finishedGame(page, variant, n) {
  await page.waitForFunction(() => VARIANTS.size > 0);
  const id = await page.evaluate(async ([variant, n]) => {
    let g = await api("POST", "/api/games", { variant, black: "human", white: "human" });
    const tokens = g.tokens;
    for (let i = 0; i < n && !g.result; i++) {
      const m = g.legal_moves[(i * 7 + 3) % g.legal_moves.length];
      g = await api("POST", `/api/games/${g.id}/moves`, { move: m }, tokens[g.side_to_move]);
    }
    if (!g.result) g = await api("POST", `/api/games/${g.id}/resign`, {}, tokens.black);
    return g.id;
  }, [variant, n]);
  await page.evaluate((id) => { location.hash = "#" + id; }, id);
  await page.waitForFunction((id) => ui.game && ui.game.id === id && ui.game.result, id);
  return id;
}
/** The analysis lines shown now, once `multipv` of them are in for the position `key`. */
async function analysisLines(page, multipv) {
  await page.waitForFunction((k) => document.querySelectorAll("#analysis-lines li").length >= k && !document.querySelector("#evalbar").hidden, multipv);
  return page.$$eval("#analysis-lines li", (lis) => lis.map((li) => li.textContent));
}

test("analysis of a finished game: a bar and best lines that follow the replayed position, all four games", async () => {
  const page = await newPage();
  for (const [variant, n] of [["shogi", 6], ["minishogi", 4], ["cannonshogi", 4], ["daidaishogi", 4]]) {
    const id = await finishedGame(page, variant, n);
    const version = await page.evaluate(() => ui.game.version);
    await page.evaluate(() => { banmenAnalysis.movetime = 300; });
    await page.selectOption("#analysis-multipv", "2");
    if (!(await page.evaluate(() => banmenAnalysis.on))) await page.click("#analysis-toggle");
    await page.waitForFunction((id) => banmenAnalysis.key === `${id}|ply ${ui.game.moves.length}`, id);
    const end = await analysisLines(page, 2);
    assert.match(await page.getAttribute("#evalbar", "data-score"), /^([+−]?\d+\.\d\d|#-?\d+)$/);
    // One move back: another position, other lines (the side to move changes).
    await page.click("#prev");
    await page.waitForFunction((id) => banmenAnalysis.key === `${id}|ply ${ui.game.moves.length - 1}` && banmenAnalysis.lines.length >= 2, id);
    const back = await analysisLines(page, 2);
    assert.notDeepEqual(back, end, variant);
    const firstMoves = await page.$$eval("#analysis-lines li", (lis) => lis.map((li) => li.dataset.first));
    const legal = await page.evaluate(async () => {
      const g = await api("POST", "/api/positions", { variant: ui.game.variant, rules: ui.game.rules, sfen: ui.view.pos.sfen });
      return g.side_to_move;
    });
    assert.equal(legal, (await page.evaluate(() => ui.view.pos.side_to_move)));
    assert.ok(firstMoves.every(Boolean), `${variant}: lines start with a move`);
    // The notation follows the page's.
    if (variant === "shogi") {
      await page.selectOption("#notation", "japanese");
      assert.match(await page.textContent("#analysis-lines li"), /[▲△]/);
      await page.selectOption("#notation", "western");
      // A move of one's own on the replayed position: a side line, analysed, the game untouched.
      const tried = await page.evaluate(() => {
        const legal = ui.view.pos.legal_moves;
        return legal.find((m) => !m.includes("*") && !m.endsWith("+") && !legal.includes(m + "+"));
      });
      const [from, to] = tried.match(/\d+[a-z]/g);
      await clickSq(page, from);
      await page.waitForSelector(`#board [data-target="${to}"]`);
      await clickSq(page, to);
      await page.waitForFunction((m) => ui.view && ui.view.line && ui.view.line.endsWith("," + m) && banmenAnalysis.key.includes("|line "), tried);
      assert.match(await page.textContent("#replayinfo"), /variation: move/);
      await analysisLines(page, 2);
      // A click on a line tries its first move (once the search is done: the lines stay put).
      await page.waitForFunction(() => banmenAnalysis.done && !banmenAnalysis.source);
      const line = await page.evaluate(() => ui.view.line);
      const best = await page.getAttribute("#analysis-lines li", "data-first");
      await page.click("#analysis-lines li");
      await page.waitForFunction(([l, m]) => ui.view && ui.view.line === `${l},${m}`, [line, best]);
    }
    // Stop and resume.
    await page.waitForFunction(() => banmenAnalysis.done && !banmenAnalysis.source);   // done (300 ms)
    await page.click("#analysis-stop");   // Resume
    await page.waitForFunction(() => banmenAnalysis.source || banmenAnalysis.done);
    await page.waitForFunction(() => banmenAnalysis.done && banmenAnalysis.lines.length >= 2);
    await page.screenshot({ path: join(ARTIFACTS, `analysis-${variant}.png`) });
    // The game itself is as it was.
    assert.equal(await page.evaluate(() => ui.game.version), version);
  }
  // Continue from here against the engine: a new game from the replayed position, the player to move.
  await page.evaluate((ms) => { document.querySelector("input[name=movetime]").value = ms; }, MOVETIME);
  const from = await page.evaluate(() => ({ sfen: ui.view.pos.sfen, side: ui.view.pos.side_to_move, old: ui.game.id }));
  await page.click("#continue-engine");
  await page.waitForFunction((old) => ui.game && ui.game.id !== old, from.old);
  const g = await state(page);
  assert.equal(g.start_sfen, from.sfen);
  assert.equal(g[from.side], "human");
  assert.ok(g[from.side === "black" ? "white" : "black"].engine);
  // The analysis follows into the new game.
  await page.waitForFunction((id) => banmenAnalysis.key === `${id}|ply 0`, g.id);
  await page.click("#analysis-toggle");
  assert.ok(await page.isHidden("#evalbar"));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the board editor: nifu refused with the reason, play from here, analyse, tsume solved and replayed, all four games", async () => {
  const page = await newPage();
  await page.waitForFunction(() => VARIANTS.size > 0);
  await page.click("#show-editor");
  await page.waitForSelector('#editor-board rect[data-esq="5i"]');
  await page.waitForSelector('#editor-board g[data-token="K"]');
  const put = async (tool, squares) => {
    await page.click(`#editor-palette button[data-tool="${tool}"]`);
    for (const sq of squares) await page.click(`#editor-board rect[data-esq="${sq}"]`);
  };
  await page.click("#editor-clear");
  await put("K", ["5i"]);
  await put("k", ["5a"]);
  await put("P", ["5g", "5h"]);
  assert.equal(await page.inputValue("#editor-sfen"), "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1");
  await page.click("#editor-check");
  await page.waitForSelector("#editor-problems");
  assert.match(await page.textContent("#editor-problems"), /two unpromoted pawns on file 5 \(nifu\)/);
  await page.click("#editor-play-engine");
  await page.waitForFunction(() => /nifu/.test(document.querySelector("#editor-result").textContent));
  // One pawn fewer (a click with the same piece takes it off), a gold in hand: play it against the engine.
  await page.click('#editor-board rect[data-esq="5h"]');
  await page.fill('input[data-hand="black:G"]', "1");
  await page.dispatchEvent('input[data-hand="black:G"]', "change");
  const sfen = "4k4/9/9/9/9/9/4P4/9/4K4 b G 1";
  assert.equal(await page.inputValue("#editor-sfen"), sfen);
  await page.click("#editor-check");
  await page.waitForFunction(() => /legal position/.test(document.querySelector("#editor-result").textContent));
  // The engine's time and level are the New game form's.
  await page.evaluate((ms) => { document.querySelector("input[name=movetime]").value = ms; }, MOVETIME);
  await page.click("#editor-play-engine");
  await page.waitForFunction((s) => ui.game && ui.game.start_sfen === s, sfen);
  assert.equal(await page.evaluate(() => ui.game.black), "human");
  assert.ok(await page.evaluate(() => ui.game.white.engine));
  assert.ok(await page.isHidden("#panel-editor"));
  await clickSq(page, "5g");
  await clickSq(page, "5f");
  await waitMoves(page, 2);
  // Tsume: no attacking king; the solver's line replayed on the editor's board.
  await page.click("#show-editor");
  await page.evaluate(() => { banmenEditor.replayMs = 100; });
  await page.click("#editor-clear");
  await put("k", ["5a"]);
  await put("P", ["5c"]);
  await page.fill('input[data-hand="black:G"]', "1");
  await page.dispatchEvent('input[data-hand="black:G"]', "change");
  await page.click("#editor-tsume");
  await page.waitForFunction(() => /Mate in 1 plies/.test(document.querySelector("#editor-result").textContent));
  assert.equal(await page.getAttribute("#editor-result", "data-line"), "G*5b");
  await page.waitForSelector('#editor-result[data-replayed="yes"]');
  assert.ok(await page.locator('#editor-board g[data-token="G"]').count(), "the gold dropped on the board");
  await page.screenshot({ path: join(ARTIFACTS, "editor-tsume.png") });
  // Analyse from the editor: a game for two on this board, analysis on.
  await page.evaluate(() => { banmenAnalysis.movetime = 300; });
  await page.click("#editor-start");
  await page.waitForFunction(() => document.querySelector("#editor-sfen").value.startsWith("lnsgkgsnl/"));
  await page.click("#editor-analyse");
  await page.waitForFunction(() => ui.game && ui.game.black === "human" && ui.game.white === "human" && ui.game.moves.length === 0);
  await analysisLines(page, 1);
  // Every game's start position loads in the editor and is a legal position;
  // a tsume pasted as SFEN is solved in mini and cannon shogi too.
  await page.click("#show-editor");
  const tsume = { minishogi: ["2k2/5/2P2/5/5 b G 1", "G*3b"], cannonshogi: ["4k4/9/4P4/9/9/9/9/9/9 b G 1", "G*5b"] };
  for (const variant of ["minishogi", "cannonshogi", "daidaishogi"]) {
    await page.selectOption("#editor-variant", variant);
    const v = await page.evaluate((v) => VARIANTS.get(v), variant);
    await page.waitForFunction((n) => document.querySelectorAll("#editor-board rect[data-esq]").length === n, v.files * v.ranks);
    await page.waitForFunction((s) => document.querySelector("#editor-sfen").value === s, v.start_sfen);
    await page.click("#editor-check");
    await page.waitForFunction(() => /legal position/.test(document.querySelector("#editor-result").textContent));
    if (!tsume[variant]) continue;
    const [problem, answer] = tsume[variant];
    await page.fill("#editor-sfen", problem);
    await page.click("#editor-load");
    await page.waitForFunction(() => document.querySelectorAll("#editor-board g[data-token]").length === 2);
    await page.click("#editor-check");   // no attacking king: not a game's position
    await page.waitForFunction(() => /black has no king/.test(document.querySelector("#editor-result").textContent));
    await page.click("#editor-tsume");
    await page.waitForFunction((a) => document.querySelector("#editor-result").dataset.line === a, answer);
    assert.match(await page.textContent("#editor-result"), /Mate in 1 plies/);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("game review: computed in the background with a progress bar, a graph of the evaluation of a 60-move game, mistakes marked, a click goes there", async () => {
  const page = await newPage();
  await finishedGame(page, "shogi", 60);
  const n = await page.evaluate(() => ui.game.moves.length);
  assert.ok(n >= 40, `a long game (${n} moves)`);
  await page.evaluate(() => { banmenReview.movetime = 60; });
  await page.click("#review-start");
  await page.waitForSelector("#review-graph");
  await page.waitForFunction(() => /reviewing: \d+ of \d+ positions/.test(document.querySelector("#review-info").textContent));
  assert.ok(await page.isVisible("#review-progress"), "a progress bar while it runs");
  // The review goes on on the server without the page: after a reload it
  // has not started over, and the page picks it up.
  await page.waitForFunction(() => banmenReview.count >= 3);
  await page.screenshot({ path: join(ARTIFACTS, "review-progress.png") });
  const before = await page.evaluate(() => banmenReview.count);
  const id = await page.evaluate(() => ui.game.id);
  await page.reload();
  await page.waitForFunction((id) => ui.game && ui.game.id === id, id);
  const asked = await page.evaluate((id) => fetch(`/api/games/${id}/review`).then((r) => r.json()), id);
  assert.ok(asked.done >= before, `${asked.done} of ${asked.total} done after the reload, ${before} before`);
  await page.evaluate(() => { banmenReview.movetime = 60; });
  await page.click("#review-start");
  await page.waitForSelector('#review[data-done="yes"]', { timeout: 60000 });
  assert.ok(await page.isHidden("#review-progress"));
  const points = await page.$eval("#review-line", (l) => l.getAttribute("points").trim().split(" ").length);
  assert.equal(points, n + 1);
  assert.match(await page.textContent("#review-info"), /^Black: \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?\. White: /);
  // Moves drawn by a fixed rule, not by strength: some are judged.
  assert.ok(await page.locator("#review-graph circle.judged").count() > 0, "mistakes marked");
  // A click on the graph's middle goes to the middle of the game.
  const box = await page.locator("#review-graph").boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction((n) => ui.view && Math.abs(ui.view.ply - n / 2) <= 1, n);
  const judged = await page.getAttribute("#review-graph circle.judged", "data-ply");
  await page.click("#review-graph circle.judged");
  await page.waitForFunction((p) => ui.view && Math.abs(ui.view.ply - p) <= 1, Number(judged));
  await page.screenshot({ path: join(ARTIFACTS, "review.png") });
  // Continue from here: a new game for two from the position on the board.
  const { sfen, old } = await page.evaluate(() => ({ sfen: ui.view.pos.sfen, old: ui.game.id }));
  await page.click("#continue-human");
  await page.waitForFunction((old) => ui.game && ui.game.id !== old, old);
  assert.equal(await page.evaluate(() => ui.game.start_sfen), sfen);
  assert.equal(await page.evaluate(() => ui.game.black === "human" && ui.game.white === "human"), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("tsume solved by the player: each move checked, the defence played, a wrong move taken back; mini and cannon shogi", async () => {
  const page = await newPage();
  await page.waitForFunction(() => VARIANTS.size > 0);
  await page.click("#show-editor");
  await page.waitForSelector('#editor-board g[data-token="K"]');
  await page.evaluate(() => { banmenTsume.replyMs = 100; });
  const load = async (sfen) => {
    await page.fill("#editor-sfen", sfen);
    await page.click("#editor-load");
    // (The defender of a kingless problem holds the pieces not shown: the hands differ.)
    await page.waitForFunction((s) => document.querySelector("#editor-sfen").value.startsWith(s.split(" ")[0] + " "), sfen);
  };
  const esq = (sq) => page.click(`#editor-board rect[data-esq="${sq}"]`);
  const verdict = (v) => page.waitForFunction((v) => document.querySelector("#tsume-status").dataset.verdict === v, v);
  // B*3c, 1a2a, G*2b: mate in three.
  await load("8k/8s/7p1/9/7N1/9/9/9/4K4 b BG 1");
  await page.click("#editor-try");
  await page.waitForSelector('#tsume-drops button[data-drop="B"]');
  assert.match(await page.textContent("#tsume-status"), /Find the mate: black to move/);
  // A wrong move first: no check.
  await page.click('#tsume-drops button[data-drop="B"]');
  await page.waitForSelector('#editor-board [data-ttarget="9a"]');
  await esq("9a");
  await verdict("wrong");
  assert.match(await page.textContent("#tsume-status"), /Wrong: not a check/);
  assert.equal(await page.evaluate(() => banmenEditor.board[0][0]), "B");
  await page.click("#tsume-takeback");
  await page.waitForFunction(() => /Taken back/.test(document.querySelector("#tsume-status").textContent));
  assert.equal(await page.evaluate(() => banmenEditor.board[0][0]), null);
  // The key move: the defence answers on the board.
  await page.click('#tsume-drops button[data-drop="B"]');
  await esq("3c");
  await verdict("correct");
  assert.match(await page.textContent("#tsume-status"), /Correct: .*mate in 1 more/);
  await page.waitForFunction(() => document.querySelector("#tsume-status").dataset.replied === "2");
  assert.equal(await page.evaluate(() => banmenEditor.board[0][7]), "k", "the king went to 2a");
  await page.click('#tsume-drops button[data-drop="G"]');
  await esq("2b");
  await verdict("solved");
  assert.match(await page.textContent("#tsume-status"), /Solved: mate in 3 plies/);
  assert.equal(await page.locator("#tsume-moves li").count(), 3);
  await page.screenshot({ path: join(ARTIFACTS, "tsume-solved.png") });
  // An edit ends the solving.
  await page.click("#editor-clear");
  assert.ok(await page.isHidden("#tsume-bar"));
  // Mini and cannon shogi, the moves typed: a drop that is no check, a check the king escapes.
  for (const [variant, sfen, quiet, mate] of [["minishogi", "2k2/5/2P2/5/5 b G 1", "G*1e", "G*3b"],
    ["cannonshogi", "4k4/9/4P4/9/9/9/9/9/9 b G 1", "G*4a", "G*5b"]]) {
    await page.selectOption("#editor-variant", variant);
    await page.waitForFunction((v) => document.querySelector("#editor-sfen").value === VARIANTS.get(v).start_sfen, variant);
    await load(sfen);
    await page.click("#editor-try");
    await page.waitForSelector('#tsume-drops button[data-drop="G"]');
    await page.fill("#tsume-move", quiet);
    await page.press("#tsume-move", "Enter");
    await verdict("wrong");
    assert.match(await page.textContent("#tsume-status"), variant === "minishogi" ? /not a check/ : /no mate after this.*escapes/, variant);
    await page.click("#tsume-takeback");
    await page.waitForFunction(() => /Taken back/.test(document.querySelector("#tsume-status").textContent));
    await page.fill("#tsume-move", mate);
    await page.press("#tsume-move", "Enter");
    await verdict("solved");
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("side lines tried while analysing are kept in the game's record: the move list and the KIF's variations", async () => {
  const page = await newPage();
  await page.waitForFunction(() => VARIANTS.size > 0);
  // A game for two, its seats in this browser.
  const id = await page.evaluate(async () => {
    let g = await api("POST", "/api/games", { variant: "shogi", black: "human", white: "human" });
    const tokens = g.tokens;
    setTokens(g.id, tokens);
    for (const m of ["7g7f", "3c3d", "2g2f", "8c8d"]) g = await api("POST", `/api/games/${g.id}/moves`, { move: m }, tokens[g.side_to_move]);
    return g.id;
  });
  await page.evaluate((id) => { location.hash = "#" + id; }, id);
  await page.waitForFunction((id) => ui.game && ui.game.id === id && ui.game.moves.length === 4, id);
  await page.evaluate(() => { banmenAnalysis.movetime = 300; });
  if (!(await page.evaluate(() => banmenAnalysis.on))) await page.click("#analysis-toggle");
  // Back to move 1, then White's 8c8d instead of 3c3d, and Black's 2g2f after it.
  for (let i = 0; i < 3; i++) await page.click("#prev");
  await page.waitForFunction(() => ui.view && ui.view.ply === 1 && ui.view.pos.legal_moves);
  for (const [from, to] of [["8c", "8d"], ["2g", "2f"]]) {
    await clickSq(page, from);
    await page.waitForSelector(`#board [data-target="${to}"]`);
    await clickSq(page, to);
    await page.waitForFunction((m) => ui.view && ui.view.line && ui.view.line.endsWith(`${m}`), from + to);
  }
  await page.waitForFunction(() => ui.game.variations.length === 1 && ui.game.variations[0].moves.length === 2);
  const v = await page.evaluate(() => ui.game.variations[0]);
  assert.equal(v.ply, 2);
  assert.deepEqual(v.moves.map((m) => m.usi), ["8c8d", "2g2f"]);
  assert.deepEqual(await page.evaluate(() => ui.game.moves), ["7g7f", "3c3d", "2g2f", "8c8d"], "the game itself unchanged");
  // In the move list, under move 2, the current move marked.
  await page.waitForSelector("#moves details.variation .current");
  assert.match(await page.textContent("#moves details.variation"), /variation at move 2/);
  await page.screenshot({ path: join(ARTIFACTS, "side-line.png") });
  // The KIF export holds it as a branch (変化), as does a reload.
  const kif = await page.evaluate((id) => fetch(`/api/games/${id}/export?format=kifu`).then((r) => r.text()), id);
  assert.match(kif, /変化：2手/);
  assert.match(kif, /変化：2手\n\s+2 ８四歩\(83\)/);
  await page.reload();
  await page.waitForFunction((id) => ui.game && ui.game.id === id && ui.game.variations.length === 1, id);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Last: it uses up this address's allowance of new games (other tests need some).
test("too many new games from one address: a 429 with its reason, shown next to Start", async () => {
  // The test server has no limit of open engine games (serve.sh), so the
  // refusal is the limit of new games a minute. That window slides (the
  // earlier tests' games leave it second by second): a slot may free between
  // the API's refusal and the click, and the click then opens a game. So:
  // fill the window through the API, click, and if a game opened, try again
  // on a new page. Every game made is resigned at the end.
  const made = [];
  let refused = false;
  for (let attempt = 0; attempt < 5 && !refused; attempt++) {
    const page = await newPage();
    await page.waitForFunction(() => document.querySelector("#variant").options.length > 0);
    const r = await page.evaluate(async () => {
      const games = [];
      for (let i = 0; i < 40; i++) {
        const res = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ variant: "shogi", black: "human", white: { engine: { movetime_ms: 100 } } }) });
        const v = await res.json();
        if (res.status === 429) return { games, status: 429, error: v.error, type: res.headers.get("content-type") };
        games.push({ id: v.id, token: v.tokens.black });
      }
      return { games, status: null };
    });
    made.push(...r.games);
    assert.equal(r.status, 429, `no 429 after ${r.games.length} games`);
    assert.match(r.type, /application\/json/);
    assert.match(r.error, /too many .* from this address/);
    if (await page.isHidden("#panel-new")) await page.click("#show-new");
    await page.selectOption("#opponent", "engine");
    await page.click("#create");
    const seen = await page.waitForFunction(() => {
      if (/too many .* from this address/.test(document.querySelector("#create + .near-error")?.textContent || "")) return "refused";
      return ui.game ? "opened" : false;
    });
    refused = (await seen.jsonValue()) === "refused";
    if (refused) {
      assert.equal(await page.evaluate(() => ui.game), null, "no game opened");
    } else {
      const id = await page.evaluate(() => ui.id);
      const token = await page.evaluate((id) => JSON.parse(localStorage.getItem("banmen-tokens-" + id) || "{}").black, id);
      made.push({ id, token });
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  assert.ok(refused, "the refusal was never shown next to Start");
  // Resign them: the address's engine games as they were.
  const page = await newPage();
  const statuses = await page.evaluate((made) => Promise.all(made.map((g) => fetch(`/api/games/${g.id}/resign`,
    { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${g.token}` }, body: "{}" })
    .then((res) => res.status))), made);
  assert.deepEqual(statuses.filter((s) => s !== 200), [], "every game made is resigned");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
