// What the page knows (ui): the open game, the position on the board, the
// player's choices; and what follows from it (whose move, the legal moves).
import { api, tokensOf } from "./api.js";

export const ui = {
  game: null, id: null, source: null, received: 0,
  selected: null,          // {from: "7g"} or {drop: "P"}
  view: null,              // null: live; else {ply, pos, last}, and {line} for a variation's move
  cache: new Map(),        // ply -> position answer
  lines: new Map(),        // "usi,usi,…" (a variation's moves from the start) -> position answer
  lineNext: new Map(),     // such a line -> the line one move further in its variation
  closed: new Set(),       // the variation blocks closed in the move list
  legend: new Map(),       // "variant|rules" -> legend answer
  flipUser: false, zoom: Number(localStorage.getItem("banmen-zoom") || 1),
  notation: localStorage.getItem("banmen-notation") || "western",
  pieceStyle: localStorage.getItem("banmen-pieces") || "auto",   // auto: kanji on 9x9, letters on larger boards
  cursor: null, drag: null, hover: null,
  premove: null,           // {from, to} or {drop, to}: queued while the other side thinks
};
// USI move: {from, to, promote, text} or {drop, to, text}; a lion's double move keeps its last square as `to`.
export function parseUsi(m) {
  const d = m.match(/^([A-Z+]+)\*(\d+[a-z])$/);
  if (d) return { drop: d[1], to: d[2], text: m };
  const squares = m.match(/\d+[a-z]/g) || [];
  return { from: squares[0], to: squares[squares.length - 1], squares, promote: m.endsWith("+"), text: m };
}
export const mine = () => { const t = tokensOf(ui.id); return ["black", "white"].filter((c) => t[c]); };
export const canMove = () => ui.game && !ui.game.result && !ui.view && mine().includes(ui.game.side_to_move);
export function flipped() {
  const m = mine();
  return (m.length === 1 && m[0] === "white") !== ui.flipUser;
}
// Moves tried on a replayed position while analysing (analysis.js sets
// ui.trying and ui.playTried): a side line shown and analysed, never sent.
export const trying = () => !!(ui.trying && ui.trying());
export const canPlay = () => canMove() || trying();
export const legal = () => (canMove() ? ui.game.legal_moves.map(parseUsi) : trying() ? ui.view.pos.legal_moves.map(parseUsi) : []);
export function shown() {   // the position on the board: live or replayed
  if (ui.view) return { pos: ui.view.pos.position, last: ui.view.last, stm: ui.view.pos.side_to_move };
  const g = ui.game;
  return { pos: g.position, last: g.moves.length ? g.moves[g.moves.length - 1] : null, stm: g.side_to_move };
}
export const tokenFor = (color) => { const t = tokensOf(ui.id); return t[color] || t.black || t.white; };
export function legendFor(g) { return ui.legend.get(g.variant + "|" + g.rules); }
export async function loadLegend(variant, rules) {
  const key = variant + "|" + rules;
  if (!ui.legend.has(key)) {
    ui.legend.set(key, await api("GET", `/api/pieces?variant=${encodeURIComponent(variant)}&rules=${encodeURIComponent(rules)}`));
  }
  return ui.legend.get(key);
}
