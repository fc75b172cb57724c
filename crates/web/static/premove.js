// Premoves: a move queued while the other side thinks.
import { showError } from "./dom.js";
import { canMove, legendFor, mine, parseUsi, ui } from "./state.js";
import { render, tokenAt } from "./board.js";
import { choosePromotion, finish } from "./moving.js";

// While the engine or the other person thinks, the player may pick a piece
// (or a piece in hand) and a square: that move waits, highlighted, and is
// sent as soon as it is the player's turn if it is legal then; otherwise it
// is dropped with a notice. A click elsewhere, Cancel or Escape drops it. The
// square is not checked while waiting (the position will change). A move
// that may promote (by the rules' zone, or a capture where pieces promote on
// capture) asks at once, as a normal move does, and keeps the answer; one
// that the position makes a choice only later asks then.
export const canPremove = () => ui.game && !ui.game.result && !ui.view && mine().length === 1 && ui.game.side_to_move !== mine()[0];
const sideOf = (tok) => (tok.replace("+", "") === tok.replace("+", "").toUpperCase() ? "black" : "white");
const ownPiece = (tok) => !!tok && sideOf(tok) === mine()[0];
export const premoveText = (p) => (p.drop ? `${p.drop}*${p.to}` : `${p.from}${p.to}${p.promote ? "+" : ""}${p.promote === false ? " (not promoting)" : ""}`);
export function cancelPremove() { ui.premove = null; ui.selected = null; render(); }
// Whether moving the piece on `from` to `to` may promote, as far as the
// position now tells.
function mayPromote(from, to) {
  const legend = legendFor(ui.game), tok = tokenAt(from);
  const piece = legend && tok && legend.pieces.find((p) => p.code === tok.toUpperCase());
  if (!piece || !piece.promotes) return false;
  if (legend.promotion_on_capture) { const t = tokenAt(to); return !!t && sideOf(t) !== mine()[0]; }
  const zone = legend.promotion_zone[mine()[0]];
  return zone.includes(from) || zone.includes(to);
}
export async function premoveClick(sq, tok) {
  const s = ui.selected;
  ui.premove = null;
  if (s && s.from === sq) ui.selected = null;               // the piece again: deselect
  else if (ownPiece(tok)) ui.selected = { from: sq };        // (another) piece of mine
  else if (s && s.drop && !tok) { ui.premove = { drop: s.drop, to: sq }; ui.selected = null; }
  else if (s && s.from) {
    const p = { from: s.from, to: sq };
    ui.selected = null;
    if (mayPromote(s.from, sq)) {
      render();
      const choice = await choosePromotion();
      if (choice === null) { render(); return; }
      p.promote = choice;
    }
    ui.premove = p;
  } else ui.selected = null;                                 // elsewhere: nothing queued
  render();
  // The answer may have come after the turn did.
  if (ui.premove && canMove()) sendPremove();
  else if (ui.premove && !canPremove()) cancelPremove();
}
export async function sendPremove() {
  const p = ui.premove; ui.premove = null;
  let moves = ui.game.legal_moves.map(parseUsi).filter((m) => (p.drop
    ? m.drop === p.drop && m.to === p.to
    : m.from === p.from && m.to === p.to && m.squares.length === 2));
  // The player's answer where both are legal (else the one legal form: a
  // promotion the rules force, say).
  if (p.promote !== undefined && moves.some((m) => m.promote === p.promote)) moves = moves.filter((m) => m.promote === p.promote);
  if (!moves.length) {
    render();
    showError(`Premove ${premoveText(p)} dropped: it is not legal now.`);
    return;
  }
  await finish(moves);
}
