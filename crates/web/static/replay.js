// Replay: stepping through the moves and the variations.
import { $, showError } from "./dom.js";
import { api } from "./api.js";
import { ui } from "./state.js";
import { render } from "./board.js";

// `ui.want` is the ply asked for while its position is on the way, so that
// quick key presses add up and a late answer does not undo a later step.
export async function goto(ply) {
  if (!ui.game) return;
  const n = ui.game.moves.length;
  ply = Math.max(0, Math.min(n, ply));
  ui.selected = null;
  ui.want = ply; ui.wantLine = null;
  if (ply === n) { ui.view = null; ui.want = null; render(); return; }
  let pos = ui.cache.get(ply);
  if (!pos) {
    try { pos = await api("GET", `/api/games/${ui.id}/position?ply=${ply}`); } catch (e) { showError(e); ui.want = null; return; }
    ui.cache.set(ply, pos);
  }
  if (ui.want !== ply) return;
  ui.want = null;
  ui.view = { ply, pos, last: pos.last_move };
  render();
}
// A variation's move: the position after `line` (USI moves from the start),
// asked of the server as the main line's are (`ui.wantLine` as `ui.want`).
export async function gotoLine(line) {
  if (!ui.game) return;
  const key = line.join(",");
  ui.selected = null; ui.want = null; ui.wantLine = key;
  let pos = ui.lines.get(key);
  if (!pos) {
    try { pos = await api("GET", `/api/games/${ui.id}/position?line=${encodeURIComponent(key)}`); } catch (e) { showError(e); ui.wantLine = null; return; }
    ui.lines.set(key, pos);
  }
  if (ui.wantLine !== key) return;
  ui.wantLine = null;
  ui.view = { ply: line.length, pos, last: pos.last_move, line: key };
  render();
}
// ←/→ inside a variation walk its moves; back past its first move is the main line.
export function step(d) {
  const line = ui.view && ui.view.line;
  if (!line || (ui.want !== null && ui.want !== undefined)) return goto(viewPly() + d);
  if (d > 0) { const next = ui.lineNext.get(line); return next ? gotoLine(next.split(",")) : undefined; }
  const back = line.split(",").slice(0, -1);
  return back.join(",") === ui.game.moves.slice(0, back.length).join(",") ? goto(back.length) : gotoLine(back);
}
const viewPly = () => (ui.want !== null && ui.want !== undefined ? ui.want : ui.view ? ui.view.ply : ui.game ? ui.game.moves.length : 0);
$("first").addEventListener("click", () => goto(0));
$("prev").addEventListener("click", () => step(-1));
$("next").addEventListener("click", () => step(1));
$("last").addEventListener("click", () => goto(Infinity));
