// The legend: how the piece pointed at moves.
import { $, el } from "./dom.js";
import { flipped, legendFor, ui } from "./state.js";

export function showLegend(tok) {
  const box = $("legend");
  const data = ui.game && legendFor(ui.game);
  if (!tok || !data) return;
  const promoted = tok.startsWith("+"), code = (promoted ? tok.slice(1) : tok).toUpperCase();
  const p = data.pieces.find((x) => x.code === (promoted ? "+" : "") + code);
  if (!p) return;
  const white = tok.slice(promoted ? 1 : 0) !== code;
  const R = 4, c = 15, n = 2 * R + 1;
  const svg = el("svg", { width: n * c, height: n * c, viewBox: `0 0 ${n * c} ${n * c}`, "aria-label": "moves on an empty board" });
  // Offsets are as Black sees them; White's and a flipped board's turn around.
  const turn = white !== flipped();
  const hits = new Set(p.attacks.map(([dx, dy]) => (turn ? -dx : dx) + "," + (turn ? -dy : dy)));
  for (let y = -R; y <= R; y++) for (let x = -R; x <= R; x++) {
    el("rect", { x: (x + R) * c, y: (y + R) * c, width: c, height: c, fill: x === 0 && y === 0 ? "#555" : hits.has(x + "," + y) ? "#2a6" : "#f3d9a4", stroke: "#a98", "stroke-width": 0.5 }, svg);
  }
  box.replaceChildren();
  const b = document.createElement("strong"); b.textContent = `${p.western} ${p.japanese} — ${p.name}`;
  const betza = document.createElement("div"); betza.append("Betza: "); const cd = document.createElement("code"); cd.textContent = p.betza || "—"; betza.appendChild(cd);
  const note = document.createElement("div"); note.className = "muted"; note.textContent = "green: where it captures a lone piece (±4 squares); hops over a screen and move-only steps are in the Betza text";
  box.append(b, betza, svg, note);
  box.dataset.piece = (promoted ? "+" : "") + code;
}
