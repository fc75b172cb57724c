// The board editor: any game's pieces (promoted forms too) placed and
// removed, hands where the game drops, the side to move; SFEN in and out.
// The rules core checks the position (POST /api/positions: every reason it
// is not one, nifu included); then play it (POST /api/games with its SFEN,
// against the engine or a person), analyse it, or let the tsume solver
// answer (POST /api/tsume), its line replayed on the editor's board.
// playFrom() also serves the analysis panel's "Continue from here"; tsume.js
// adds "Solve it yourself".
import { $, el, once } from "./dom.js";
import { setTokens, VARIANTS } from "./api.js";
import { ui } from "./state.js";
import { drawPiece, pieceLabel, sqName } from "./board.js";
import { PANELS, showPanel } from "./panels.js";

export const editor = {
  variant: "shogi", rules: "", files: 9, ranks: 9,
  board: [],                          // rows of tokens ("P", "+p", null), as board_json
  hands: { black: {}, white: {} },    // code -> count
  side: "black",
  tool: null,                         // the token a click puts down; "" erases
  replay: null,                       // the tsume line's timer
};
window.banmenEditor = editor;

(function buildEditor() {
  const show = document.createElement("button");
  show.id = "show-editor"; show.setAttribute("aria-pressed", "false"); show.textContent = "Editor";
  $("show-import").after(show);
  PANELS.push("editor");
  show.addEventListener("click", () => { showPanel("editor"); if (!editor.board.length) editorStart(); });
  const panel = document.createElement("section");
  panel.className = "panel"; panel.id = "panel-editor"; panel.hidden = true;
  panel.innerHTML = `
    <div class="controls">
      <label>Game <select id="editor-variant"></select></label>
      <label>Rules <select id="editor-rules"></select></label>
      <button id="editor-start">Start position</button>
      <button id="editor-clear">Empty board</button>
      <label>To move <select id="editor-side"><option value="black">Black (sente)</option><option value="white">White (gote)</option></select></label>
      <button id="editor-flip-side" title="turn the board: Black's pieces become White's">Swap colours</button>
    </div>
    <div class="controls muted">Pick a piece below, then click squares to put it down (again: remove it); right-click or Erase removes.</div>
    <div id="editor-layout">
      <div><div class="hand" id="editor-hand-white"></div><svg id="editor-board" xmlns="http://www.w3.org/2000/svg" role="application" aria-label="editor board"></svg><div class="hand" id="editor-hand-black"></div></div>
      <div id="editor-palette"></div>
    </div>
    <div class="controls"><label>SFEN <input id="editor-sfen" size="70" spellcheck="false"></label><button id="editor-load">Load SFEN</button><button id="editor-check">Check</button></div>
    <div class="controls">
      <label>I play <select id="editor-me"><option value="black">Black</option><option value="white">White</option></select></label>
      <button id="editor-play-engine">Play the engine from here</button>
      <button id="editor-play-human">Two players from here</button>
      <button id="editor-analyse">Analyse</button>
      <button id="editor-tsume">Solve tsume</button>
    </div>
    <div id="editor-result" role="status"></div>`;
  const style = document.createElement("style");
  style.textContent = `
    #editor-layout { display: flex; gap: 1em; flex-wrap: wrap; align-items: flex-start; }
    #editor-board { display: block; touch-action: none; }
    #editor-board .piece { pointer-events: none; }
    #editor-palette { display: flex; flex-direction: column; gap: 0.3em; max-width: 40em; }
    #editor-palette .row { display: flex; flex-wrap: wrap; gap: 0.2em; align-items: center; }
    #editor-palette button { font-family: var(--pieces); min-width: 2.4em; padding: 0.2em 0.3em; }
    #editor-palette button.letters { font-family: system-ui, sans-serif; }
    #editor-palette button.sel { background: #fd6; }
    #editor-palette button.white { transform: rotate(180deg); }
    #editor-hand-black input, #editor-hand-white input { width: 3.2em; }
    #editor-result ul { margin: 0.2em 0; color: #b00; }
    #editor-result .ok { color: #262; }`;
  document.head.appendChild(style);
  $("panel-import").after(panel);
})();

const editorGame = () => VARIANTS.get(editor.variant);
function fillEditorVariants() {
  $("editor-variant").replaceChildren(...[...VARIANTS.values()].map((v) => new Option(`${v.title} (${v.files}x${v.ranks})`, v.name)));
  $("editor-variant").value = editor.variant;
  fillEditorRules();
}
function fillEditorRules() {
  const v = editorGame(); if (!v) return;
  $("editor-rules").replaceChildren(...v.presets.map((p) => new Option(p.label, p.rules)));
  editor.rules = $("editor-rules").value;
}
// The board and hands of a position answer (board_json) into the editor.
export function editorTake(p, side) {
  editor.files = p.files; editor.ranks = p.ranks;
  editor.board = p.board.map((row) => row.slice());
  editor.hands = { black: {}, white: {} };
  for (const c of ["black", "white"]) for (const [code, n] of p.hands[c] || []) editor.hands[c][code] = n;
  if (side) editor.side = side;
}
function editorEmpty() {
  const v = editorGame();
  editor.files = v.files; editor.ranks = v.ranks;
  editor.board = Array.from({ length: v.ranks }, () => Array(v.files).fill(null));
  editor.hands = { black: {}, white: {} };
}
// The editor's position as SFEN (the hands in the game's piece order).
export function editorSfen() {
  const rows = editor.board.map((row) => {
    let s = "", empty = 0;
    for (const t of row) {
      if (!t) { empty++; continue; }
      if (empty) { s += empty; empty = 0; }
      s += t;
    }
    return empty ? s + empty : s;
  });
  let hand = "";
  for (const c of ["black", "white"]) {
    for (const code of handKinds()) {
      const n = editor.hands[c][code] || 0;
      if (n > 0) hand += (n > 1 ? n : "") + (c === "black" ? code : code.toLowerCase());
    }
  }
  return `${rows.join("/")} ${editor.side === "black" ? "b" : "w"} ${hand || "-"} 1`;
}
// The kinds a hand may hold: the game's unpromoted, non-royal pieces.
const handKinds = () => (editorGame().drops ? editorGame().pieces.filter((p) => !p.promoted && !p.royal).map((p) => p.code) : []);

export function renderEditor() {
  const svg = $("editor-board"), { files, ranks } = editor;
  const cell = files > 9 ? 30 : 44, pad = Math.round(cell * 0.45);
  const W = files * cell + 2 * pad, H = ranks * cell + 2 * pad;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("width", W); svg.setAttribute("height", H);
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#e6c488", rx: 6 }, svg);
  for (let r = 0; r < ranks; r++) for (let i = 0; i < files; i++) {
    const x = pad + i * cell, y = pad + r * cell, tok = editor.board[r][i];
    el("rect", { x, y, width: cell, height: cell, fill: "var(--board)", stroke: "var(--line)", "stroke-width": 0.8, "data-esq": sqName(files, i, r) }, svg);
    if (tok) drawPiece(svg, tok, x + cell / 2, y + cell / 2, cell, files, false, { class: "piece", "data-token": tok }, editor.variant);
  }
  for (const c of ["black", "white"]) {
    const box = $("editor-hand-" + c); box.replaceChildren();
    const label = document.createElement("span"); label.textContent = (c === "black" ? "☗ Black" : "☖ White") + " in hand:";
    box.appendChild(label);
    for (const code of handKinds()) {
      const l = document.createElement("label");
      const input = document.createElement("input");
      input.type = "number"; input.min = 0; input.max = 99; input.value = editor.hands[c][code] || 0;
      input.dataset.hand = `${c}:${code}`;
      // (The hands are not redrawn: that would take the input away while it has the focus.)
      input.addEventListener("change", () => { editor.hands[c][code] = Math.max(0, Number(input.value) || 0); editorChanged(false); });
      l.append(pieceLabel(code, c === "white", editor.variant, files) + " ", input);
      box.appendChild(l);
    }
  }
  $("editor-side").value = editor.side;
  $("editor-sfen").value = editorSfen();
  renderPalette();
}
function renderPalette() {
  const box = $("editor-palette"); box.replaceChildren();
  const button = (tok, text, white) => {
    const b = document.createElement("button");
    b.textContent = text; b.dataset.tool = tok; b.title = tok || "erase";
    if (!/[^\x00-\x7f]/.test(text)) b.classList.add("letters");
    if (white) b.classList.add("white");
    if (editor.tool === tok) b.classList.add("sel");
    b.addEventListener("click", () => { editor.tool = editor.tool === tok ? null : tok; renderPalette(); });
    return b;
  };
  for (const c of ["black", "white"]) {
    const row = document.createElement("div"); row.className = "row";
    row.append(c === "black" ? "☗" : "☖");
    for (const p of editorGame().pieces) {
      const tok = c === "black" ? p.code : p.code.toLowerCase();
      row.appendChild(button(tok, pieceLabel(tok, c === "white", editor.variant, editor.files), c === "white"));
    }
    box.appendChild(row);
  }
  const row = document.createElement("div"); row.className = "row";
  row.appendChild(button("", "Erase"));
  box.appendChild(row);
}
// Any change: the last check's answer no longer holds.
function editorChanged(redraw = true) {
  clearInterval(editor.replay); editor.replay = null;
  if (window.banmenTsume) banmenTsume.stop();   // solving it yourself ends with an edit
  $("editor-result").replaceChildren();
  if (redraw) renderEditor(); else $("editor-sfen").value = editorSfen();
}
function editorSquare(ev, erase) {
  const sq = ev.target.dataset && ev.target.dataset.esq;
  if (!sq) return;
  const m = sq.match(/^(\d+)([a-z])$/), r = m[2].charCodeAt(0) - 97, i = editor.files - Number(m[1]);
  const now = editor.board[r][i];
  if (erase || editor.tool === "") editor.board[r][i] = null;
  else if (editor.tool) editor.board[r][i] = now === editor.tool ? null : editor.tool;
  else return;
  editorChanged();
}
$("editor-board").addEventListener("click", (ev) => editorSquare(ev, false));
$("editor-board").addEventListener("contextmenu", (ev) => { ev.preventDefault(); editorSquare(ev, true); });

// The editor's answer area: a line of text, or the rules core's reasons.
function editorSay(text, problems, ok) {
  const box = $("editor-result"); box.replaceChildren();
  const p = document.createElement("div"); p.textContent = text;
  if (ok) p.className = "ok";
  box.appendChild(p);
  if (problems && problems.length) {
    const ul = document.createElement("ul"); ul.id = "editor-problems";
    for (const t of problems) { const li = document.createElement("li"); li.textContent = t; ul.appendChild(li); }
    box.appendChild(ul);
  }
}
// POST with the reasons of a refusal kept (api() keeps only the message).
export async function editorPost(path, body) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  return { ok: res.ok, data };
}
const editorBody = (extra) => ({ variant: editor.variant, rules: editor.rules, sfen: editorSfen(), ...extra });
export function refusedSay(data) { editorSay("Not a position:", data.problems || [data.error]); }

// (Read as a tsume problem may be: an attacker without a king, the defender
// then holding every piece not shown.)
async function editorLoad(sfen) {
  clearInterval(editor.replay); editor.replay = null;   // a solver's line still being replayed
  if (window.banmenTsume) banmenTsume.stop();
  const { ok, data } = await editorPost("/api/positions", { variant: editor.variant, rules: editor.rules, sfen, tsume: true });
  if (!ok) { refusedSay(data); return false; }
  editorTake(data.position, data.side_to_move);
  renderEditor();
  return true;
}
async function editorStart() {
  if (!VARIANTS.size) return;
  if (!$("editor-variant").options.length) fillEditorVariants();
  await editorLoad(editorGame().start_sfen);
}
$("editor-variant").addEventListener("change", (ev) => { editor.variant = ev.target.value; editor.tool = null; fillEditorRules(); editorStart(); });
$("editor-rules").addEventListener("change", (ev) => { editor.rules = ev.target.value; });
$("editor-start").addEventListener("click", editorStart);
$("editor-clear").addEventListener("click", () => { editorEmpty(); editorChanged(); });
$("editor-side").addEventListener("change", (ev) => { editor.side = ev.target.value; editorChanged(); });
$("editor-flip-side").addEventListener("click", () => {
  const swap = (t) => (t ? (t === t.toUpperCase() ? t.toLowerCase() : t.toUpperCase()) : t);
  editor.board = editor.board.slice().reverse().map((row) => row.slice().reverse().map(swap));
  editor.hands = { black: editor.hands.white, white: editor.hands.black };
  editorChanged();
});
once($("editor-load"), async () => { $("editor-result").replaceChildren(); await editorLoad($("editor-sfen").value.trim()); });
once($("editor-check"), async () => {
  const { ok, data } = await editorPost("/api/positions", editorBody());
  if (!ok) { refusedSay(data); return; }
  editorSay(`A legal position: ${data.side_to_move} to move, ${data.legal_moves} legal moves.`, null, true);
});
// A new game from a position ({variant, rules, sfen}) with `me` a person
// here and the other side the engine (the New game form's time and level)
// or a person here; the page opens it. The answer: {ok, data}.
export async function playFrom(position, me, opponent) {
  const other = me === "black" ? "white" : "black";
  const engine = { engine: { movetime_ms: Number(document.querySelector("input[name=movetime]").value) || 1000, level: Number($("level").value) || 8 } };
  const answer = await editorPost("/api/games", { ...position, [me]: "human", [other]: opponent === "engine" ? engine : "human" });
  if (answer.ok) {
    setTokens(answer.data.id, answer.data.tokens);
    showPanel(null);
    location.hash = "#" + answer.data.id;
  }
  return answer;
}
async function editorGameFrom(opponent) {
  const { ok, data } = await playFrom(editorBody(), $("editor-me").value, opponent);
  if (!ok) editorSay(`Cannot start a game from here: ${data.error}`);
  return ok;
}
once($("editor-play-engine"), () => editorGameFrom("engine"));
once($("editor-play-human"), () => editorGameFrom("human"));
// Analysis of the position: a game for two people on this board (moves of
// one's own are side lines to try), with the analysis on.
once($("editor-analyse"), async () => {
  if (await editorGameFrom("human") && window.banmenAnalysis && !banmenAnalysis.on) $("analysis-toggle").click();
});
once($("editor-tsume"), async () => {
  if (window.banmenTsume) banmenTsume.stop();
  editorSay("The solver is thinking…");
  const { ok, data } = await editorPost("/api/tsume", editorBody({ movetime_ms: editor.tsumeMs || 5000 }));
  if (!ok) { refusedSay(data); return; }
  if (data.result !== "mate") {
    editorSay(data.result === "nomate" ? "No mate: the side to move cannot force one." : "No answer in the time given.");
    return;
  }
  const text = data.line.map((m) => (ui.notation === "usi" ? m.usi : m[ui.notation] || m.western));
  editorSay(`Mate in ${data.plies} plies: ${text.join(" ")}`, null, true);
  $("editor-result").dataset.line = data.line.map((m) => m.usi).join(" ");
  // Replayed on the board, one move a second.
  editorTake(data.position, data.side_to_move);
  renderEditor();
  let k = 0;
  clearInterval(editor.replay);
  editor.replay = setInterval(() => {
    const m = data.line[k++];
    if (!m) { clearInterval(editor.replay); editor.replay = null; $("editor-result").dataset.replayed = "yes"; return; }
    editorTake(m.position, k % 2 ? (data.side_to_move === "black" ? "white" : "black") : data.side_to_move);
    renderEditor();
  }, editor.replayMs || 1000);
});
