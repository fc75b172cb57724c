// Tsume "solve it yourself", on the board editor's board: the player makes
// the attacker's moves (click a piece or a piece in hand, then a square, or
// type USI); the server's solver judges each (POST /api/tsume/check): a
// check that keeps the mate is answered with the defence's reply, played on
// the board; a wrong one is said so, to be taken back; a mate is solved.
import { $, el } from "./dom.js";
import { ui } from "./state.js";
import { pieceLabel } from "./board.js";
import { editor, editorPost, editorSfen, editorTake, refusedSay, renderEditor } from "./editor.js";

const tsume = {
  on: false,
  problem: null,      // {variant, rules, sfen}: the problem as set up
  moves: [],          // USI moves played from it
  answer: null,       // the last answer of /api/tsume/check
  history: [],        // [{moves, answer}] before each attacker move, for Take back
  sel: null,          // the selected square ("7g") or drop ("G*")
  busy: false,
  timer: null,
  replyMs: 700,       // the pause before the defence's reply is shown
  movetime: 5000,
};
window.banmenTsume = tsume;

(function buildTsume() {
  const start = document.createElement("button");
  start.id = "editor-try"; start.textContent = "Solve it yourself";
  start.title = "make the attacker's moves; each is checked and the defence answers";
  $("editor-tsume").after(start);
  const bar = document.createElement("div");
  bar.id = "tsume-bar"; bar.hidden = true;
  bar.innerHTML = `
    <div class="controls"><span id="tsume-drops"></span>
      <label>Move (USI) <input id="tsume-move" size="8" spellcheck="false"></label><button id="tsume-send">Play</button>
      <button id="tsume-takeback">Take back</button><button id="tsume-quit">Stop solving</button></div>
    <div class="controls" id="tsume-promote" hidden><button id="tsume-yes">Promote</button><button id="tsume-no">Do not promote</button></div>
    <div id="tsume-status" role="status"></div>
    <ol id="tsume-moves"></ol>`;
  $("editor-result").before(bar);
  const style = document.createElement("style");
  style.textContent = `
    #tsume-promote[hidden] { display: none; }
    #tsume-status.ok { color: #262; font-weight: bold; }
    #tsume-status.wrong { color: #b00; }
    #tsume-moves { margin: 0.2em 0; padding-left: 2em; }
    #tsume-moves li { display: inline; margin-right: 0.6em; }
    #tsume-drops button { font-family: var(--pieces); }
    #tsume-drops button.sel { background: #fd6; }
    #editor-board .tsume-target { pointer-events: none; fill: rgba(40, 120, 40, 0.45); }
    #editor-board .tsume-sel { pointer-events: none; fill: rgba(255, 220, 80, 0.5); }`;
  document.head.appendChild(style);
})();

const tsumeText = (m) => (ui.notation === "usi" ? m.usi : m[ui.notation] || m.western);
function tsumeSay(text, kind) {
  const s = $("tsume-status");
  s.textContent = text; s.className = kind || "";
  s.dataset.verdict = kind === "ok" ? "solved" : kind || "";
}

// The board after an answer, with the player's choices drawn on it.
function tsumeShow(position, side) {
  editorTake(position, side);
  renderEditor();
  tsumeDecorate();
}
function tsumeLegal() { return tsume.on && !tsume.busy && tsume.answer ? tsume.answer.legal_moves || [] : []; }
function tsumeDecorate() {
  const svg = $("editor-board"), legal = tsumeLegal();
  svg.querySelectorAll(".tsume-target, .tsume-sel").forEach((n) => n.remove());
  const rect = (sq) => svg.querySelector(`rect[data-esq="${sq}"]`);
  const mark = (sq, cls) => {
    const r = rect(sq); if (!r) return;
    const x = Number(r.getAttribute("x")), y = Number(r.getAttribute("y")), w = Number(r.getAttribute("width"));
    if (cls === "tsume-sel") el("rect", { x, y, width: w, height: w, class: cls }, svg);
    else el("circle", { cx: x + w / 2, cy: y + w / 2, r: w / 6, class: cls, "data-ttarget": sq }, svg);
  };
  if (tsume.sel) {
    if (!tsume.sel.endsWith("*")) mark(tsume.sel, "tsume-sel");
    for (const sq of tsumeTargets(tsume.sel, legal)) mark(sq, "tsume-target");
  }
  // Drops: the attacker's pieces in hand that may be dropped.
  const drops = $("tsume-drops"); drops.replaceChildren();
  const codes = [...new Set(legal.filter((m) => m.includes("*")).map((m) => m.split("*")[0]))];
  const white = tsume.answer && tsume.answer.side_to_move === "white";
  for (const code of codes) {
    const b = document.createElement("button");
    b.dataset.drop = code; b.textContent = pieceLabel(white ? code.toLowerCase() : code, white, editor.variant, editor.files);
    b.title = `drop ${code}`;
    if (tsume.sel === code + "*") b.classList.add("sel");
    b.addEventListener("click", () => { tsume.sel = tsume.sel === code + "*" ? null : code + "*"; tsumeDecorate(); });
    drops.appendChild(b);
  }
  if (codes.length) drops.prepend("Drop: ");
}
// The squares a selected square or drop reaches (the moves' last square).
function tsumeTargets(sel, legal) {
  const out = new Set();
  for (const m of legal) {
    if (!m.startsWith(sel)) continue;
    const squares = m.slice(sel.length).match(/\d+[a-z]/g) || [];
    if (squares.length === 1 || sel.endsWith("*")) out.add(squares[squares.length - 1]);
  }
  return out;
}
function tsumeClick(ev) {
  if (!tsume.on) return;
  ev.stopImmediatePropagation();
  const sq = ev.target.dataset && ev.target.dataset.esq;
  const legal = tsumeLegal();
  if (!sq || !legal.length) return;
  $("tsume-promote").hidden = true;
  if (tsume.sel && tsumeTargets(tsume.sel, legal).has(sq)) {
    const base = tsume.sel + sq;
    const choices = legal.filter((m) => m === base || m === base + "+");
    tsume.sel = null;
    if (choices.length === 2) {
      tsumeDecorate();
      $("tsume-promote").hidden = false;
      $("tsume-yes").onclick = () => { $("tsume-promote").hidden = true; tsumePlay(base + "+"); };
      $("tsume-no").onclick = () => { $("tsume-promote").hidden = true; tsumePlay(base); };
      return;
    }
    if (choices.length === 1) { tsumePlay(choices[0]); return; }
  }
  tsume.sel = legal.some((m) => m.startsWith(sq) && !m.includes("*")) && tsume.sel !== sq ? sq : null;
  tsumeDecorate();
}
$("editor-board").addEventListener("click", tsumeClick, true);

async function tsumeCheck(moves) {
  return editorPost("/api/tsume/check", { ...tsume.problem, moves, movetime_ms: tsume.movetime });
}
function tsumeList() {
  const ol = $("tsume-moves"); ol.replaceChildren();
  for (const t of tsume.texts) { const li = document.createElement("li"); li.textContent = t; ol.appendChild(li); }
}
async function tsumeStart() {
  tsumeStop();
  clearInterval(editor.replay); editor.replay = null;
  const problem = { variant: editor.variant, rules: editor.rules, sfen: editorSfen() };
  tsume.problem = problem;
  const { ok, data } = await editorPost("/api/tsume/check", { ...problem, moves: [] });
  if (!ok) { refusedSay(data); return; }
  $("editor-result").replaceChildren();
  Object.assign(tsume, { on: true, moves: [], answer: data, history: [], sel: null, busy: false, texts: [] });
  $("tsume-bar").hidden = false;
  tsumeList();
  tsumeShow(data.position, data.side_to_move);
  tsumeSay(`Find the mate: ${data.side_to_move} to move, every move a check.`);
}
function tsumeStop() {
  clearTimeout(tsume.timer);
  tsume.on = false; tsume.sel = null;
  $("tsume-bar").hidden = true;
  $("editor-board").querySelectorAll(".tsume-target, .tsume-sel").forEach((n) => n.remove());
}
tsume.stop = tsumeStop;
async function tsumePlay(usi) {
  if (!tsume.on || tsume.busy) return;
  if (!tsumeLegal().length) { tsumeSay("Take back the last move first.", "wrong"); return; }
  tsume.busy = true; tsume.sel = null;
  tsumeDecorate();
  tsumeSay("Checking…");
  const { ok, data } = await tsumeCheck([...tsume.moves, usi]);
  tsume.busy = false;
  if (!tsume.on) return;
  if (!ok) { tsumeSay(data.error, "wrong"); tsumeDecorate(); return; }
  tsume.history.push({ moves: tsume.moves, answer: tsume.answer, texts: tsume.texts });
  tsume.moves = [...tsume.moves, data.move.usi];
  tsume.texts = [...tsume.texts, tsumeText(data.move)];
  if (data.verdict === "correct") {
    // The player's move first, then the defence's reply.
    tsume.answer = { ...data, legal_moves: [] };
    tsumeShow(data.move.position, data.side_to_move === "black" ? "white" : "black");
    tsumeList();
    tsumeSay(`Correct: a check that keeps the mate. The defence answers ${tsumeText(data.reply)}; mate in ${data.mate_in} more.`, "correct");
    tsume.timer = setTimeout(() => {
      tsume.moves = [...tsume.moves, data.reply.usi];
      tsume.texts = [...tsume.texts, tsumeText(data.reply)];
      tsume.answer = data;
      tsumeShow(data.position, data.side_to_move);
      tsumeList();
      $("tsume-status").dataset.replied = String(tsume.moves.length);
    }, tsume.replyMs);
    return;
  }
  tsume.answer = { ...data, legal_moves: [] };
  tsumeShow(data.position, data.side_to_move);
  tsumeList();
  if (data.verdict === "solved") {
    tsumeSay(`Solved: mate in ${tsume.moves.length} plies!`, "ok");
  } else if (data.verdict === "wrong") {
    const escape = data.escape ? ` (${tsumeText(data.escape)} escapes)` : "";
    tsumeSay(`Wrong: ${data.reason}${escape}. Take it back and try again.`, "wrong");
  } else {
    tsumeSay(`${data.reason}. Take it back, or try it anyway.`, "wrong");
  }
}
function tsumeTakeBack() {
  if (!tsume.on || tsume.busy || !tsume.history.length) return;
  clearTimeout(tsume.timer);
  const last = tsume.history.pop();
  Object.assign(tsume, { moves: last.moves, answer: last.answer, texts: last.texts, sel: null });
  tsumeShow(last.answer.position, last.answer.side_to_move);
  tsumeList();
  tsumeSay("Taken back: your move.");
}
$("editor-try").addEventListener("click", tsumeStart);
$("tsume-takeback").addEventListener("click", tsumeTakeBack);
$("tsume-quit").addEventListener("click", () => { tsumeStop(); });
$("tsume-send").addEventListener("click", () => { const m = $("tsume-move").value.trim(); if (m) { $("tsume-move").value = ""; tsumePlay(m); } });
$("tsume-move").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("tsume-send").click(); });
