// The move list: the game's moves in the chosen notation, its variations
// under the moves they replace, the replay position.
import { $ } from "./dom.js";
import { ui } from "./state.js";
import { goto, gotoLine } from "./replay.js";

function moveTexts() {
  const g = ui.game;
  if (ui.notation === "usi" || !g.notation) return g.moves;
  return g.notation[ui.notation] || g.moves;
}
// A variation (`{ply, moves: [{usi, western, japanese}], variations}`) as a
// collapsible block; `before` is the line of USI moves leading to its first move.
function variationBlock(v, before) {
  const box = document.createElement("details");
  box.className = "variation";
  const id = `${before.join(",")}@${v.ply}`;   // which blocks the user closed, kept across redraws
  box.open = !ui.closed.has(id);
  const summary = document.createElement("summary");
  summary.textContent = `variation at move ${v.ply}`;
  // Before the summary's own action toggles it (a "toggle" event would come
  // from the redraws too).
  summary.addEventListener("click", () => (box.open ? ui.closed.add(id) : ui.closed.delete(id)));
  box.appendChild(summary);
  const line = before.slice();
  let previous = null;
  v.moves.forEach((m, i) => {
    line.push(m.usi);
    const key = line.join(",");
    if (previous !== null) ui.lineNext.set(previous, key);
    previous = key;
    const span = document.createElement("span");
    span.className = "vmove";
    span.dataset.line = key;
    const n = document.createElement("small"); n.textContent = v.ply + i;
    span.append(n, ui.notation === "usi" ? m.usi : m[ui.notation] || m.usi);
    if (ui.view && ui.view.line === key) span.classList.add("current");
    const here = line.slice();
    span.addEventListener("click", () => gotoLine(here));
    box.appendChild(span);
  });
  const own = v.moves.map((m) => m.usi);
  for (const child of v.variations || [])
    box.appendChild(variationBlock(child, before.concat(own.slice(0, child.ply - v.ply))));
  return box;
}
export function renderMoves() {
  const list = $("moves");
  if (!ui.game) { list.replaceChildren(); return; }
  const texts = moveTexts();
  const current = ui.view ? (ui.view.line ? -1 : ui.view.ply) : texts.length;
  // Rows of a move number, Black's move and White's; a game that White
  // starts (a handicap) leaves the first Black cell empty.
  const whiteFirst = ui.game.start_sfen.split(" ")[1] === "w";
  const cells = [];
  // The variations replacing a move come under that move's row.
  ui.lineNext.clear();
  let pending = [];
  const flush = () => { cells.push(...pending); pending = []; };
  const variationsAt = (ply) => (ui.game.variations || []).filter((v) => v.ply === ply)
    .map((v) => variationBlock(v, ui.game.moves.slice(0, ply - 1)));
  texts.forEach((m, i) => {
    const k = i + (whiteFirst ? 1 : 0);
    if (k % 2 === 0 || i === 0) {
      flush();
      const n = document.createElement("span"); n.className = "n"; n.textContent = Math.floor(k / 2) + 1 + ".";
      cells.push(n);
      if (k % 2 === 1) cells.push(document.createElement("span"));
    }
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = i + 1;
    if (i + 1 === current) li.className = "current";
    li.addEventListener("click", () => goto(i + 1));
    cells.push(li);
    pending.push(...variationsAt(i + 1));
  });
  flush();
  cells.push(...variationsAt(texts.length + 1));   // played instead of resigning
  list.replaceChildren(...cells);
  // Follow the current move inside the list (never scroll the page).
  const cur = list.querySelector(".current");
  if (!cur) list.scrollTop = current === 0 ? 0 : list.scrollHeight;
  else if (cur.offsetTop < list.scrollTop) list.scrollTop = cur.offsetTop;
  else if (cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = cur.offsetTop + cur.offsetHeight - list.clientHeight;
  const n = ui.game.moves.length;
  $("replayinfo").textContent = !ui.view ? `move ${n}`
    : ui.view.line ? `variation: move ${ui.view.ply}` : `replay: move ${ui.view.ply} of ${n}`;
}
