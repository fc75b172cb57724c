// Analysis of the position on the board (live or replayed, main line or a
// variation): an evaluation bar and the engine's best lines, streamed by
// GET /api/games/{id}/analysis as the search deepens. Stepping through the
// moves starts a new search for the new position (the old stream is closed,
// which stops its search); Stop closes it, Resume starts it again.
// Loaded after the page's script, whose globals (ui, $, api, renderHooks) it uses.
"use strict";
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
    <ol id="analysis-lines"></ol>`;
  const style = document.createElement("style");
  style.textContent = `
    #evalbar { position: relative; height: 1.4em; background: #f4f1ea; border: 1px solid #998; border-radius: 3px; overflow: hidden; margin: 0.3em 0; }
    #evalbar[hidden] { display: none; }
    #evalbar-black { position: absolute; left: 0; top: 0; bottom: 0; width: 50%; background: #333; transition: width 0.3s; }
    #evalbar-text { position: absolute; left: 0; right: 0; text-align: center; font-weight: bold; color: #fff; mix-blend-mode: difference; font-variant-numeric: tabular-nums; }
    #analysis-lines { margin: 0.2em 0 0; padding-left: 0; list-style: none; font-size: 0.9em; }
    #analysis-lines li { padding: 0.15em 0; border-top: 1px solid #eee; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
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
