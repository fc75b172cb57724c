// The status line and the game-over banner.
import { $ } from "./dom.js";
import { mine, ui } from "./state.js";

export const REASONS = { checkmate: "checkmate", "no-legal-moves": "no legal move", repetition: "repetition (sennichite)", "perpetual-check": "perpetual check",
  declaration: "entering-king declaration", "impasse-points": "impasse points", try: "try", "max-moves": "move limit", resignation: "resignation",
  "king-captured": "king captured", "perpetual-chase": "perpetual chase", time: "time", agreement: "agreement" };
const NO_GAME = $("status").textContent;
export function renderStatus() {
  const g = ui.game, banner = $("banner");
  if (!g) { banner.hidden = true; $("status").textContent = NO_GAME; return; }
  const who = (c) => (g[c] === "human" ? "human"
    : `engine ${g[c].engine.level ? `level ${g[c].engine.level}, ` : ""}${g[c].engine.movetime_ms} ms`);
  const tc = g.time_control, sec = (ms) => `${ms / 1000} s`;
  const clock = !tc ? "" : ", " + [tc.main_ms ? `${tc.main_ms >= 60000 ? tc.main_ms / 60000 + " min" : sec(tc.main_ms)}` : "",
    tc.byoyomi_ms ? `${sec(tc.byoyomi_ms)} byoyomi` : "", tc.increment_ms ? `${sec(tc.increment_ms)} Fischer` : ""].filter(Boolean).join(" + ");
  let status = `Game ${g.id}: ${g.variant}${g.rules ? " (" + g.rules + ")" : ""}${g.handicap ? ", handicap " + g.handicap : ""}${clock} — ☗ ${who("black")} vs ☖ ${who("white")}. `;
  if (!g.result) {
    status += `${g.side_to_move === "black" ? "Black" : "White"} to move`;
    if (g[g.side_to_move] !== "human") status += " (engine thinking…)";
    else if (!mine().includes(g.side_to_move)) status += " (the other player)";
    if (g.position.in_check) status += ", in check";
  }
  $("status").textContent = status;
  if (g.result) {
    const r = REASONS[g.result.reason] || g.result.reason;
    banner.textContent = g.result.winner
      ? `Game over: ${g.result.winner === "black" ? "Black ☗" : "White ☖"} wins by ${r}.`
      : g.result.reason === "aborted" ? "Game aborted." : `Game over: draw by ${r}.`;
    banner.hidden = false;
  } else banner.hidden = true;
}
