// The board under the pointer and the keys: clicks, drags, the keyboard
// cursor, and a move typed in USI.
import { $, showError } from "./dom.js";
import { canMove, canPlay, legal, ui } from "./state.js";
import { geometry, render, sqName, squareAt, tokenAt } from "./board.js";
import { showLegend } from "./legend.js";
import { candidates, clickSquare, play, tryMove } from "./moving.js";

const board = $("board");
board.addEventListener("pointerdown", (ev) => {
  if (!ui.game || ev.button > 0) return;
  const sq = squareAt(ev); if (!sq) return;
  ui.cursor = sq;
  const movable = canPlay() && legal().some((m) => m.from === sq);
  ui.drag = { from: sq, start: [ev.clientX, ev.clientY], moved: false, movable, token: tokenAt(sq), wasSelected: !!(ui.selected && ui.selected.from === sq) };
  if (movable) board.setPointerCapture(ev.pointerId);
});
board.addEventListener("pointermove", (ev) => {
  const sq = squareAt(ev);
  if (sq !== ui.hover) { ui.hover = sq; const tok = sq && tokenAt(sq); if (tok && ev.pointerType === "mouse") showLegend(tok); }
  const d = ui.drag; if (!d || !d.movable) return;
  if (!d.moved && Math.hypot(ev.clientX - d.start[0], ev.clientY - d.start[1]) > 6) {
    d.moved = true;
    if (!(ui.selected && ui.selected.from === d.from)) ui.selected = { from: d.from };
  }
  if (d.moved) {
    const pt = board.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(board.getScreenCTM().inverse());
    d.x = p.x; d.y = p.y; render();
  }
});
board.addEventListener("pointerup", async (ev) => {
  const d = ui.drag; ui.drag = null;
  if (!d) return;
  const sq = squareAt(ev);
  if (d.moved) {
    if (!sq || sq === d.from || !(await tryMove(sq))) { if (sq !== d.from) ui.selected = null; render(); }
    return;
  }
  if (d.wasSelected && sq === d.from && !candidates(sq).length) { ui.selected = null; render(); return; }
  clickSquare(sq);
});
board.addEventListener("pointercancel", () => { ui.drag = null; render(); });
// The cursor shows only while the board has the focus (CSS); a blur must not redraw,
// or a click that moves the focus to a hand button would lose its button.
board.addEventListener("focus", () => {
  if (!ui.cursor && ui.game) { ui.cursor = ui.selected?.from || sqName(ui.game.position.files, Math.floor(ui.game.position.files / 2), ui.game.position.ranks - 3); render(); }
});
board.addEventListener("keydown", (ev) => {
  if (!ui.game) return;
  const { files, ranks, flip } = geometry();
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[ev.key]) {
    ev.preventDefault(); ev.stopPropagation();
    let [dc, dr] = dirs[ev.key]; if (flip) { dc = -dc; dr = -dr; }
    const m = (ui.cursor || "1a").match(/^(\d+)([a-z])$/);
    const i = Math.min(files - 1, Math.max(0, files - Number(m[1]) + dc));
    const r = Math.min(ranks - 1, Math.max(0, m[2].charCodeAt(0) - 97 + dr));
    ui.cursor = sqName(files, i, r);
    const tok = tokenAt(ui.cursor); if (tok) showLegend(tok);
    render();
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault(); ev.stopPropagation(); clickSquare(ui.cursor);
  } else if (ev.key === "Escape") { ui.selected = null; ui.premove = null; render(); }
});
$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = $("typed-move").value.trim(); if (!t || !ui.game) return;
  if (!canMove()) { showError("not your move"); return; }
  $("typed-move").value = ""; play(t);
});
