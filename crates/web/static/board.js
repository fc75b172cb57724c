// The board and the hands: drawing them (every redraw goes through render())
// and finding the square under the pointer.
import { $, el } from "./dom.js";
import { VARIANTS } from "./api.js";
import { canPlay, flipped, legendFor, mine, parseUsi, shown, ui } from "./state.js";
import { renderClocks } from "./clock.js";
import { renderMoves } from "./moves.js";
import { renderStatus } from "./status.js";
import { pathOf, renderMoveBar, targetSquares, tryMove } from "./moving.js";
import { canPremove } from "./premove.js";
import { renderActions } from "./actions.js";

// Whether a font with the pieces' kanji is there: "歩" drawn unlike a
// character no font has (the same empty box). The page ships one (Banmen
// Pieces); until it has loaded, or if it cannot, a system font may do. Without
// either, "kanji on 9x9" shows letters rather than boxes; "kanji" is still
// there to choose.
function hasKanjiFont() {
  try {
    const c = document.createElement("canvas"); c.width = c.height = 32;
    const x = c.getContext("2d");
    const draw = (t) => {
      x.clearRect(0, 0, 32, 32);
      x.font = '600 24px ' + getComputedStyle(document.documentElement).getPropertyValue("--pieces");
      x.fillText(t, 2, 26);
      return x.getImageData(0, 0, 32, 32).data.join();
    };
    return draw("歩") !== draw("\uE000");
  } catch { return true; }
}
ui.kanjiFont = hasKanjiFont();
document.fonts.load('600 24px "Banmen Pieces"', "歩").then(() => { ui.kanjiFont = hasKanjiFont(); render(); }, () => {});
// The square size: the board fits the window (not below a readable size; the
// wrapper scrolls then), times the user's zoom.
function cellSize(files, ranks) {
  const most = files > 9 ? 36 : 56, least = files > 9 ? 28 : 36;
  const narrow = window.innerWidth <= 900;
  const width = narrow ? window.innerWidth - 24 : window.innerWidth - 22 * 16;
  const height = narrow ? Infinity : window.innerHeight - 175;
  const fit = Math.floor(Math.min(width / (files + 0.9), height / (ranks + 0.9)));
  return Math.round(Math.max(least, Math.min(most, fit)) * ui.zoom);
}
window.addEventListener("resize", () => render());
// A piece's label: its Western letters (GC for the gold cannon U) or its
// board form in kanji (王 for Black's king, 玉 for White's), as the rules
// crate names it; the SFEN token if the game is not known.
// (The board editor names its own game and size.)
export function pieceLabel(tok, white, variant = ui.game && ui.game.variant, files = ui.game && ui.game.position.files) {
  const v = VARIANTS.get(variant);
  const p = v && v.pieces.find((x) => x.code === tok.toUpperCase());
  if (!p) return tok.toUpperCase();
  const kanji = ui.pieceStyle === "kanji" || (ui.pieceStyle === "auto" && files <= 9 && ui.kanjiFont);
  if (kanji) return (white && p.white_abbreviation) || p.abbreviation;
  return p.western;
}
export function geometry() {
  const { pos } = shown();
  const files = pos.files, ranks = pos.ranks, cell = cellSize(files, ranks), pad = Math.round(cell * 0.45);
  return { files, ranks, cell, pad, flip: flipped() };
}
// Square name at board column i (0 = leftmost from Black's side) and row r.
export const sqName = (files, i, r) => (files - i) + String.fromCharCode(97 + r);
function sqXY(geo, sq) {
  const m = sq.match(/^(\d+)([a-z])$/);
  const i = geo.files - Number(m[1]), r = m[2].charCodeAt(0) - 97;
  const col = geo.flip ? geo.files - 1 - i : i, row = geo.flip ? geo.ranks - 1 - r : r;
  return { x: geo.pad + col * geo.cell, y: geo.pad + row * geo.cell, i, r };
}
export function squareAt(ev) {
  const geo = geometry(), svg = $("board");
  const pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let col = Math.floor((p.x - geo.pad) / geo.cell), row = Math.floor((p.y - geo.pad) / geo.cell);
  if (col < 0 || row < 0 || col >= geo.files || row >= geo.ranks) return null;
  if (geo.flip) { col = geo.files - 1 - col; row = geo.ranks - 1 - row; }
  return sqName(geo.files, col, row);
}
export function tokenAt(sq) {
  const { pos } = shown(); const m = sq.match(/^(\d+)([a-z])$/);
  return pos.board[m[2].charCodeAt(0) - 97][pos.files - Number(m[1])];
}
export function drawPiece(svg, tok, cx, cy, cell, files, flip, extra, variant) {
  const promoted = tok.startsWith("+"), code = promoted ? tok.slice(1) : tok;
  const white = code === code.toLowerCase();
  const label = pieceLabel(tok, white, variant, files);
  const g = el("g", extra || {}, svg);
  // The piece points at the other side; kanji turn with it, as on a real
  // board, but letters stay upright (read from either side) and White's are
  // blue, so that a 17x17 board of two-letter codes reads at a glance.
  const turned = white !== flip, body = el("g", {}, g);
  if (turned) body.setAttribute("transform", `rotate(180 ${cx} ${cy})`);
  const w = cell * 0.42, h = cell * 0.46;
  el("path", { d: `M${cx} ${cy - h} L${cx + w * 0.8} ${cy - h * 0.62} L${cx + w} ${cy + h} L${cx - w} ${cy + h} L${cx - w * 0.8} ${cy - h * 0.62} Z`,
    fill: "#fbeccc", stroke: "#6b5535", "stroke-width": 1 }, body);
  const wide = /[^\x00-\x7f]/.test(label);   // two kanji need more room than two letters
  const long = label.length > 2 ? 0.24 : label.length > 1 ? (wide ? 0.3 : 0.4) : 0.5;
  const upright = !wide && turned;
  const colour = promoted ? (white && !wide ? "#a0206e" : "#c00") : (white && !wide ? "#174ea6" : "#111");
  const t = el("text", { x: cx, y: cy + (upright ? -h : h) * 0.15, "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": Math.round(cell * long), "font-weight": 600, fill: colour }, upright ? g : body);
  if (!wide) t.classList.add("letters");
  t.textContent = label;
  return g;
}
// Called by every redraw (analysis.js follows the position on the board).
export const renderHooks = [];
export function render() {
  renderMoves();
  renderStatus();
  for (const hook of renderHooks) hook();
  const svg = $("board");
  if (!ui.game) {
    for (const box of [svg, $("hand-top"), $("hand-bottom")]) box.replaceChildren();
    renderMoveBar(); renderActions(); return;
  }
  const geo = geometry(), { files, ranks, cell, pad, flip } = geo;
  const { pos, last, stm } = shown();
  const W = files * cell + 2 * pad, H = ranks * cell + 2 * pad;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W); svg.setAttribute("height", H);
  svg.dataset.files = files;
  svg.classList.toggle("fit", ui.zoom <= 1);   // phones: as wide as the screen unless zoomed in
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#e6c488", rx: 6 }, svg);
  const targets = new Set();
  for (const t of targetSquares()) targets.add(t);
  const lastM = last ? parseUsi(last) : null;
  const lastSquares = new Set(lastM ? (lastM.squares || [lastM.to]) : []);
  const legendData = legendFor(ui.game);
  const royal = new Set((legendData ? legendData.pieces.filter((p) => p.royal).map((p) => p.code) : ["K", "KG"]));
  for (let r = 0; r < ranks; r++) {
    for (let i = 0; i < files; i++) {
      const sq = sqName(files, i, r), { x, y } = sqXY(geo, sq);
      let fill = "var(--board)";
      if (lastSquares.has(sq)) fill = "#e9b95c";
      if (ui.selected && ui.selected.from === sq) fill = "#ffd84d";
      else if (pathOf().includes(sq)) fill = "#ffe98f";
      const premoved = !ui.view && ui.premove && (ui.premove.from === sq || ui.premove.to === sq);
      if (premoved) fill = "#9cc4ef";
      const tok = pos.board[r][i];
      const rect = el("rect", { x, y, width: cell, height: cell, fill, stroke: "var(--line)", "stroke-width": 0.8, "data-sq": sq }, svg);
      if (lastSquares.has(sq)) rect.classList.add("last");
      if (premoved) rect.classList.add("premove");
      if (tok && pos.in_check && royal.has(tok.toUpperCase()) && (tok === tok.toUpperCase()) === (stm === "black")) {
        el("rect", { x: x + 1.5, y: y + 1.5, width: cell - 3, height: cell - 3, fill: "#f66", opacity: 0.75, class: "check", "data-check": sq }, svg);
      }
      if (targets.has(sq)) {
        el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: tok ? cell * 0.47 : cell * 0.14, fill: tok ? "none" : "#2a6",
          stroke: tok ? "#2a6" : "none", "stroke-width": 3, opacity: 0.85, class: "target", "data-target": sq }, svg);
      }
      if (tok && !(ui.drag && ui.drag.moved && ui.drag.from === sq)) {
        drawPiece(svg, tok, x + cell / 2, y + cell / 2, cell, files, flip, { class: "piece", "data-piece-sq": sq, "data-token": tok });
      }
      if (ui.cursor === sq) {
        el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: "#36f", "stroke-width": 3, class: "cursor" }, svg);
      }
    }
  }
  // Hoshi on 9x9, coordinates.
  const fs = Math.max(9, Math.round(pad * 0.55));
  for (let i = 0; i < files; i++) {
    const col = flip ? files - 1 - i : i;
    const t = el("text", { x: pad + col * cell + cell / 2, y: pad * 0.62, "text-anchor": "middle", "font-size": fs, fill: "#543", class: "coord" }, svg);
    t.textContent = files - i;
  }
  for (let r = 0; r < ranks; r++) {
    const row = flip ? ranks - 1 - r : r;
    const t = el("text", { x: W - pad * 0.5, y: pad + row * cell + cell / 2 + fs * 0.35, "text-anchor": "middle", "font-size": fs, fill: "#543", class: "coord" }, svg);
    t.textContent = String.fromCharCode(97 + r);
  }
  if (ui.drag && ui.drag.moved) {
    drawPiece(svg, ui.drag.token, ui.drag.x, ui.drag.y, cell * 1.1, files, flip, { class: "dragging", opacity: 0.85 });
  }
  if (!ui.keepHands) {
    renderHand(flip ? "black" : "white", $("hand-top"));
    renderHand(flip ? "white" : "black", $("hand-bottom"));
  }
  renderClocks();
  renderMoveBar();
  renderActions();
}
// Redraws the board but not the hands (whose button holds the pointer in a drag).
function renderBoardOnly() { ui.keepHands = true; try { render(); } finally { ui.keepHands = false; } }
function renderHand(color, box) {
  const { pos, stm } = shown();
  const hand = pos.hands[color] || [];
  box.replaceChildren();
  box.dataset.color = color;
  const label = document.createElement("span");
  label.textContent = (color === "black" ? "☗ Black" : "☖ White") + (ui.game[color] !== "human" ? " (engine)" : "") + ":";
  box.appendChild(label);
  const game = VARIANTS.get(ui.game.variant);
  if (!game || game.drops) {
    for (const [code, n] of hand) {
      const b = document.createElement("button");
      b.textContent = pieceLabel(code, color === "white") + (n > 1 ? "×" + n : "");
      b.dataset.drop = code; b.title = `drop ${code}`;
      if (!/[^\x00-\x7f]/.test(b.textContent)) b.classList.add("letters");
      if (ui.selected && ui.selected.drop === code && (stm === color || canPremove())) b.classList.add("sel");
      b.addEventListener("click", () => {
        if (ui.handDragged) { ui.handDragged = false; return; }
        if (canPremove() && mine()[0] === color) { ui.premove = null; ui.selected = ui.selected && ui.selected.drop === code ? null : { drop: code }; render(); return; }
        if (!canPlay() || stm !== color) return;
        ui.selected = ui.selected && ui.selected.drop === code ? null : { drop: code };
        render();
      });
      // Drag from the hand onto the board.
      b.addEventListener("pointerdown", (ev) => {
        if (!canPlay() || stm !== color || ev.button > 0) return;
        ui.handDrag = { code, start: [ev.clientX, ev.clientY], moved: false };
        b.setPointerCapture(ev.pointerId);
      });
      b.addEventListener("pointermove", (ev) => {
        const d = ui.handDrag; if (!d) return;
        if (!d.moved && Math.hypot(ev.clientX - d.start[0], ev.clientY - d.start[1]) > 6) {
          d.moved = true; ui.selected = { drop: code }; renderBoardOnly();
        }
      });
      b.addEventListener("pointerup", async (ev) => {
        const d = ui.handDrag; ui.handDrag = null;
        if (!d || !d.moved) return;
        ui.handDragged = true;
        const sq = squareAt(ev);
        if (!sq || !(await tryMove(sq))) { ui.selected = null; render(); }
      });
      box.appendChild(b);
    }
  }
  const c = document.createElement("span");
  c.className = "clock"; c.id = "clock-" + color;
  box.appendChild(c);
}
