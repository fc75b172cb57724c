// Analysis of the position on the board (live or replayed, main line or a
// variation): an evaluation bar and the engine's best lines, streamed by
// GET /api/games/{id}/analysis as the search deepens. Stepping through the
// moves starts a new search for the new position (the old stream is closed,
// which stops its search); Stop closes it, Resume starts it again.
import { $, el, once, showError } from "./dom.js";
import { api, tokensOf } from "./api.js";
import { trying, ui } from "./state.js";
import { renderHooks } from "./board.js";
import { REASONS } from "./status.js";
import { goto, gotoLine } from "./replay.js";
import { accept } from "./game.js";
import { playFrom } from "./editor.js";

const analysis = {
  on: false,          // the user asked for analysis
  key: null,          // the position being analysed ("id|ply" or "id|line")
  source: null,       // its EventSource
  lines: [],          // the newest report of each line (multipv - 1)
  done: null,         // the last "done" event
  multipv: Number(localStorage.getItem("banmen-multipv") || 3),
  movetime: 5000,
  timer: null,
};
window.banmenAnalysis = analysis;

(function buildPanel() {
  const panel = document.createElement("div");
  panel.className = "panel"; panel.id = "analysis";
  panel.innerHTML = `
    <div class="controls"><strong>Analysis</strong>
      <button id="analysis-toggle" aria-pressed="false">Analyse</button>
      <button id="analysis-stop" hidden>Stop</button>
      <label>lines <select id="analysis-multipv">${[1, 2, 3, 4, 5].map((n) => `<option>${n}</option>`).join("")}</select></label>
      <label>time <select id="analysis-time"><option value="1000">1 s</option><option value="5000" selected>5 s</option><option value="15000">15 s</option><option value="30000">30 s</option></select></label>
    </div>
    <div id="evalbar" hidden title="evaluation, Black's side in dark"><div id="evalbar-black"></div><span id="evalbar-text"></span></div>
    <div id="analysis-info" class="muted" aria-live="polite"></div>
    <ol id="analysis-lines"></ol>
    <div class="controls"><button id="review-start" title="search every position of the game: a graph of the evaluation, mistakes marked">Review the game</button>
      <span>Continue from here:</span>
      <button id="continue-engine" title="a new game from the position on the board, you with the side to move">vs engine</button>
      <button id="continue-human" title="a new game from the position on the board, both sides on this board">two players</button></div>
    <div id="review" hidden>
      <progress id="review-progress" max="1" value="0" title="positions reviewed"></progress>
      <svg id="review-graph" xmlns="http://www.w3.org/2000/svg" aria-label="evaluation per move (Black up); click to go there"></svg>
      <div id="review-info" class="muted" aria-live="polite"></div>
    </div>`;
  const style = document.createElement("style");
  style.textContent = `
    #evalbar { position: relative; height: 1.4em; background: #f4f1ea; border: 1px solid #998; border-radius: 3px; overflow: hidden; margin: 0.3em 0; }
    #evalbar[hidden] { display: none; }
    #evalbar-black { position: absolute; left: 0; top: 0; bottom: 0; width: 50%; background: #333; transition: width 0.3s; }
    #evalbar-text { position: absolute; left: 0; right: 0; text-align: center; font-weight: bold; color: #fff; mix-blend-mode: difference; font-variant-numeric: tabular-nums; }
    #analysis-lines { margin: 0.2em 0 0; padding-left: 0; list-style: none; font-size: 0.9em; }
    #analysis-lines li { padding: 0.15em 0; border-top: 1px solid #eee; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    #review-graph { display: block; cursor: pointer; margin-top: 0.2em; }
    #review[hidden], #review-progress[hidden] { display: none; }
    #review-progress { display: block; width: 280px; height: 0.8em; }
    #analysis-lines .score { display: inline-block; min-width: 3.6em; font-weight: bold; font-variant-numeric: tabular-nums; }`;
  document.head.appendChild(style);
  $("actions").after(panel);
  $("analysis-multipv").value = String(analysis.multipv);
})();

// The position on the board as a key and the query that names it.
function analysisTarget() {
  if (!ui.game) return null;
  if (ui.view && ui.view.line) return { key: `${ui.game.id}|line ${ui.view.line}`, query: `line=${encodeURIComponent(ui.view.line)}` };
  const ply = ui.view ? ui.view.ply : ui.game.moves.length;
  return { key: `${ui.game.id}|ply ${ply}`, query: `ply=${ply}` };
}
function stopAnalysis() {
  clearTimeout(analysis.timer);
  if (analysis.source) { analysis.source.close(); analysis.source = null; }
}
function startAnalysis() {
  stopAnalysis();
  const t = analysisTarget();
  analysis.key = t && t.key; analysis.lines = []; analysis.done = null;
  if (!t) { renderAnalysis(); return; }
  const url = `/api/games/${ui.game.id}/analysis?${t.query}&multipv=${analysis.multipv}&movetime_ms=${analysis.movetime}`;
  const source = new EventSource(url);
  analysis.source = source;
  source.onmessage = (ev) => {
    if (analysis.source !== source) return;
    const d = JSON.parse(ev.data);
    if (d.type === "info") analysis.lines[d.multipv - 1] = d;
    else if (d.type === "done") { analysis.done = d; source.close(); analysis.source = null; }
    renderAnalysis();
  };
  // A refusal (4xx) or a lost connection: say so rather than retry for ever.
  source.onerror = async () => {
    if (analysis.source !== source) return;
    source.close(); analysis.source = null;
    const res = await fetch(url).catch(() => null);
    const why = res && !res.ok ? (await res.json().catch(() => ({}))).error : null;
    analysis.done = { error: why || "the analysis stopped (connection lost)" };
    renderAnalysis();
  };
  renderAnalysis();
}
// Called by every redraw: a new position starts a new search (after a short
// pause, so that holding → does not start one per move).
function analysisFollow() {
  if (!analysis.on) return;
  const t = analysisTarget();
  if (t && t.key === analysis.key) {
    if (analysis.notation !== ui.notation) renderAnalysis();   // the same lines in another notation
    return;
  }
  analysis.key = t && t.key; analysis.lines = []; analysis.done = null;
  stopAnalysis();
  renderAnalysis();
  if (t) analysis.timer = setTimeout(startAnalysis, 120);
}
renderHooks.push(analysisFollow);
// While analysing, moves played on a replayed position (step back first in
// a live game) are tried there: a side line from the game's start, shown
// and analysed as a variation's moves are (←/→ walk it), never played in
// the game. A player of the game (a seat's token in this browser) keeps it
// in the game's record (POST /api/games/{id}/variations): a variation of
// the move list and of the KIF, KI2 and JKF exports.
ui.trying = () => analysis.on && !!ui.view && !!ui.view.pos.legal_moves;
ui.playTried = (text) => {
  const line = ui.view.line ? ui.view.line.split(",") : ui.game.moves.slice(0, ui.view.ply);
  gotoLine([...line, text]);
  saveSideLine([...line, text]);
};
async function saveSideLine(line) {
  const t = tokensOf(ui.id), token = t.black || t.white, id = ui.id;
  if (!token || line.join(",") === ui.game.moves.slice(0, line.length).join(",")) return;
  try { accept(await api("POST", `/api/games/${id}/variations`, { line }, token)); } catch (e) { showError(e); }
}

// A score from Black's side as text: +1.25, −0.40, #7 (mate in 7 plies), #-4.
function scoreText(s) {
  if (s.mate !== undefined) return `#${s.mate}`;
  const v = s.cp / 100;
  return (v > 0 ? "+" : v < 0 ? "\u2212" : "") + Math.abs(v).toFixed(2);
}
// Black's share of the bar: half at 0, nearly all at +10 pawns.
function blackShare(s) {
  if (s.mate !== undefined) return s.mate > 0 ? 100 : 0;
  return 100 / (1 + Math.exp(-s.cp / 400));
}
function renderAnalysis() {
  const on = analysis.on;
  $("analysis-toggle").textContent = on ? "Analysis on" : "Analyse";
  $("analysis-toggle").setAttribute("aria-pressed", String(on));
  $("analysis-stop").hidden = !on;
  $("analysis-stop").textContent = analysis.source ? "Stop" : "Resume";
  const best = analysis.lines[0];
  $("evalbar").hidden = !on || !best;
  if (best) {
    $("evalbar-black").style.width = blackShare(best.score).toFixed(1) + "%";
    $("evalbar-text").textContent = scoreText(best.score);
    $("evalbar").dataset.score = scoreText(best.score);
  }
  const d = analysis.done;
  let info = "";
  if (on && d && d.error) info = d.error;
  else if (on && d && d.over) info = `No search: the game is over here (${REASONS[d.over] || d.over}).`;
  else if (on && best) info = `depth ${best.depth}, ${best.nodes.toLocaleString("en")} nodes${d ? " (done)" : analysis.source ? "…" : " (stopped)"}`;
  else if (on && analysis.source) info = "waiting for the engine…";
  $("analysis-info").textContent = info;
  $("analysis-info").dataset.depth = best ? best.depth : "";
  const notation = analysis.notation = ui.notation;
  $("analysis-lines").replaceChildren(...(on ? analysis.lines : []).filter(Boolean).map((l) => {
    const li = document.createElement("li");
    const score = document.createElement("span"); score.className = "score"; score.textContent = scoreText(l.score);
    li.append(score, ` d${l.depth} `, (l.pv[notation] || l.pv.usi).join(" "));
    li.dataset.multipv = l.multipv;
    li.dataset.first = l.pv.usi[0] || "";
    // On a replayed position a click tries the line's first move there.
    if (trying() && l.pv.usi[0]) {
      li.title = "try this move here"; li.style.cursor = "pointer";
      li.addEventListener("click", () => { if (trying()) ui.playTried(l.pv.usi[0]); });
    }
    return li;
  }));
}
$("analysis-toggle").addEventListener("click", () => {
  analysis.on = !analysis.on;
  if (analysis.on) startAnalysis(); else { stopAnalysis(); analysis.key = null; renderAnalysis(); }
});
$("analysis-stop").addEventListener("click", () => {
  if (analysis.source) { stopAnalysis(); renderAnalysis(); } else startAnalysis();
});
$("analysis-multipv").addEventListener("change", (ev) => {
  analysis.multipv = Number(ev.target.value);
  localStorage.setItem("banmen-multipv", analysis.multipv);
  if (analysis.on) startAnalysis();
});
$("analysis-time").addEventListener("change", (ev) => {
  analysis.movetime = Number(ev.target.value);
  if (analysis.on) startAnalysis();
});
renderAnalysis();

// ---------- game review ----------
// GET /api/games/{id}/review starts the review on the server (or finds it
// running, or stored with the game) and answers at once with its progress:
// every position is searched in turn in the background, and kept with the
// game as it goes, so leaving the page or a restart of the server loses
// nothing. The page asks again every half second until it is done: a
// progress bar, and the graph of Black's winning chances per move filling
// in, the inaccuracies, mistakes and blunders marked; a click goes to that move.
const review = { id: null, timer: null, points: [], plies: 0, done: false, count: 0, total: 0, error: null, movetime: 300, pollMs: 500 };
window.banmenReview = review;
const JUDGED = { inaccuracy: "#e8c000", mistake: "#f08000", blunder: "#d00" };
function stopReview() { clearTimeout(review.timer); review.timer = null; }
async function pollReview() {
  const id = review.id;
  review.timer = null;
  try {
    const r = await api("GET", `/api/games/${id}/review?movetime_ms=${review.movetime}`);
    if (review.id !== id) return;
    review.points = [];
    for (const p of r.plies) review.points[p.ply] = p;
    Object.assign(review, { count: r.done, total: r.total, done: r.state === "done", error: null });
    if (!review.done) review.timer = setTimeout(pollReview, review.pollMs);
  } catch (e) {
    if (review.id !== id) return;
    review.error = `the review stopped: ${e.message}`;
  }
  renderReview();
}
function startReview() {
  stopReview();
  if (!ui.game) return;
  const n = ui.game.moves.length;
  Object.assign(review, { id: ui.game.id, points: [], plies: n, done: false, count: 0, total: n + 1, error: null });
  pollReview();
  renderReview();
}
const REVIEW_W = 280, REVIEW_H = 90;
const reviewX = (ply) => 4 + (ply / Math.max(1, review.plies)) * (REVIEW_W - 8);
const reviewY = (c) => REVIEW_H / 2 - c * (REVIEW_H / 2 - 4);
function renderReview() {
  const box = $("review"), g = ui.game;
  box.hidden = !g || g.id !== review.id;
  // Another game on the board: stop asking (the server goes on; Review the game picks it up again).
  if (box.hidden && review.timer) stopReview();
  if (box.hidden) return;
  const bar = $("review-progress");
  bar.hidden = review.done || !!review.error;
  bar.max = Math.max(1, review.total); bar.value = review.count;
  const svg = $("review-graph");
  svg.setAttribute("viewBox", `0 0 ${REVIEW_W} ${REVIEW_H}`); svg.setAttribute("width", REVIEW_W); svg.setAttribute("height", REVIEW_H);
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: REVIEW_W, height: REVIEW_H, fill: "#f4f1ea", stroke: "#998" }, svg);
  el("line", { x1: 0, y1: REVIEW_H / 2, x2: REVIEW_W, y2: REVIEW_H / 2, stroke: "#bbb" }, svg);
  const points = review.points.filter(Boolean);
  const xy = points.map((p) => `${reviewX(p.ply).toFixed(1)},${reviewY(p.black_chances).toFixed(1)}`);
  if (points.length) {
    el("polygon", { points: `${reviewX(points[0].ply)},${REVIEW_H} ${xy.join(" ")} ${reviewX(points[points.length - 1].ply)},${REVIEW_H}`, fill: "#333", opacity: 0.25 }, svg);
    el("polyline", { points: xy.join(" "), fill: "none", stroke: "#333", "stroke-width": 1.5, id: "review-line" }, svg);
  }
  for (const p of points) {
    if (p.judgement) el("circle", { cx: reviewX(p.ply), cy: reviewY(p.black_chances), r: 3.5, fill: JUDGED[p.judgement], class: "judged", "data-ply": p.ply, "data-judgement": p.judgement }, svg);
  }
  const here = ui.view ? ui.view.ply : g.moves.length;
  if (!(ui.view && ui.view.line)) el("line", { x1: reviewX(here), x2: reviewX(here), y1: 0, y2: REVIEW_H, stroke: "#36f", "stroke-dasharray": "3 2" }, svg);
  // Per side: how many of each (the mover of ply p: the first mover on odd plies).
  const first = g.start_sfen.split(" ")[1] === "w" ? "white" : "black";
  const count = { black: {}, white: {} };
  for (const p of points) if (p.judgement) {
    const side = p.ply % 2 === 1 ? first : first === "black" ? "white" : "black";
    count[side][p.judgement] = (count[side][p.judgement] || 0) + 1;
  }
  const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
  const says = (side) => Object.keys(JUDGED).map((j) => { const n = count[side][j] || 0; return `${n} ${n === 1 ? j : plural[j]}`; }).join(", ");
  const progress = review.done ? "" : `reviewing: ${review.count} of ${review.total} positions… `;
  $("review-info").textContent = review.error || `${progress}Black: ${says("black")}. White: ${says("white")}.`;
  $("review").dataset.done = review.done ? "yes" : "";
}
renderHooks.push(renderReview);
$("review-start").addEventListener("click", () => { if (!review.timer || review.id !== (ui.game && ui.game.id)) startReview(); });
$("review-graph").addEventListener("click", (ev) => {
  const svg = $("review-graph"), pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  goto(Math.round(((p.x - 4) / (REVIEW_W - 8)) * Math.max(1, review.plies)));
});

// ---------- continue from here ----------
// A new game from the position on the board (live, replayed or a
// variation's), the player taking the side to move (playFrom: editor.js).
async function continueFrom(opponent, button) {
  const g = ui.game; if (!g) return;
  const pos = ui.view ? ui.view.pos : g;
  showError(null, button);
  const { ok, data } = await playFrom({ variant: g.variant, rules: g.rules, sfen: pos.sfen }, pos.side_to_move, opponent);
  if (!ok) showError(data.error, button);
}
once($("continue-engine"), () => continueFrom("engine", "continue-engine"));
once($("continue-human"), () => continueFrom("human", "continue-human"));
