// The seat's buttons: take back, draw, abort, resign, rematch, and the
// offers waiting for an answer.
import { $, once, showError } from "./dom.js";
import { api, setTokens, tokensOf } from "./api.js";
import { mine, tokenFor, ui } from "./state.js";
import { accept } from "./game.js";

// Against the engine, or with both seats on this board, a take-back acts at
// once; against a person elsewhere it is an offer the other side answers.
const opponentHuman = () => { const m = mine(); return m.length === 1 && ui.game[m[0] === "black" ? "white" : "black"] === "human"; };
const both = () => mine().length === 2;
async function offer(kind) {
  const m = mine(), me = m.includes(ui.game.side_to_move) ? ui.game.side_to_move : m[0];
  let g = await api("POST", `/api/games/${ui.id}/offer`, { kind }, tokenFor(me));
  // One board, both seats: the other seat agrees at once.
  if (both()) g = await api("POST", `/api/games/${ui.id}/offer/accept`, {}, tokenFor(me === "black" ? "white" : "black"));
  accept(g);
}
once($("undo"), async () => {
  if (!ui.game) return;
  showError(null, "undo");
  const lastMover = ui.game.side_to_move === "black" ? "white" : "black";
  ui.selected = null; ui.view = null; ui.premove = null;   // a take-back is no time for a premove
  try {
    if (opponentHuman()) await offer("takeback");
    else accept(await api("POST", `/api/games/${ui.id}/undo`, {}, tokenFor(lastMover)));
  } catch (e) { showError(e, "undo"); }
});
once($("draw"), async () => {
  if (!ui.game || ui.game.result) return;
  showError(null, "draw");
  try { await offer("draw"); } catch (e) { showError(e, "draw"); }
});
once($("abort"), async () => {
  if (!ui.game || ui.game.result) return;
  showError(null, "abort");
  try { accept(await api("POST", `/api/games/${ui.id}/abort`, {}, tokenFor(mine()[0]))); } catch (e) { showError(e, "abort"); }
});
once($("resign"), async () => {
  if (!ui.game || ui.game.result || !confirm("Resign this game?")) return;
  showError(null, "resign");
  const m = mine(); const me = m.includes(ui.game.side_to_move) ? ui.game.side_to_move : m[0];
  try { accept(await api("POST", `/api/games/${ui.id}/resign`, {}, tokenFor(me))); } catch (e) { showError(e, "resign"); }
});
// A rematch: each seat held here asks for its seat in the new game (the
// first request creates it), then the page opens it.
once($("rematch"), async () => {
  if (!ui.game || !ui.game.result) return;
  showError(null, "rematch");
  try {
    const old = tokensOf(ui.id), tokens = {};
    let id = null;
    for (const c of mine()) {
      const r = await api("POST", `/api/games/${ui.id}/rematch`, {}, old[c]);
      tokens[r.seat] = r.token; id = r.id;
    }
    setTokens(id, tokens);
    location.hash = "#" + id;
  } catch (e) { showError(e, "rematch"); }
});
async function answerOffer(yes) {
  const m = mine(), o = ui.game.offer; if (!o) return;
  const me = m.find((c) => c !== o.by) || m[0];
  showError(null, "offerbar");
  try { accept(await api("POST", `/api/games/${ui.id}/offer/${yes ? "accept" : "decline"}`, {}, tokenFor(me))); } catch (e) { showError(e, "offerbar"); }
}
const OFFERS = { draw: "a draw", takeback: "to take back a move" };
// The seat buttons (none for a spectator) and the offer waiting for an answer.
export function renderActions() {
  const g = ui.game, m = g ? mine() : [];
  for (const b of document.querySelectorAll(".seat-only")) b.hidden = !g || !m.length;
  if (g && m.length) {
    const vsEngine = g.black !== "human" || g.white !== "human";
    $("draw").hidden = !!g.result || vsEngine;
    $("abort").hidden = !!g.result || g.moves.length >= 2;
    $("resign").hidden = !!g.result;
    $("undo").hidden = !!g.result && ["resignation", "time", "agreement", "aborted"].includes(g.result.reason);
    $("rematch").hidden = !g.result;
    $("rematch").textContent = g.rematch ? `Rematch: open game ${g.rematch}` : "Rematch";
  }
  const bar = $("offerbar"); bar.replaceChildren();
  const say = (t) => { const sp = document.createElement("span"); sp.textContent = t; bar.appendChild(sp); };
  const button = (id, t, act) => { const b = document.createElement("button"); b.id = id; b.textContent = t; b.addEventListener("click", act); bar.appendChild(b); };
  const name = (c) => (c === "black" ? "Black ☗" : "White ☖");
  if (g && !g.result && g.offer) {
    const o = g.offer;
    if (m.length && !m.includes(o.by)) {
      say(`${name(o.by)} offers ${OFFERS[o.kind]}.`);
      button("offer-accept", "Accept", () => answerOffer(true));
      button("offer-decline", "Decline", () => answerOffer(false));
    } else if (m.includes(o.by)) {
      say(`You offered ${OFFERS[o.kind]}: waiting for the answer.`);
      button("offer-withdraw", "Withdraw", () => answerOffer(false));
    } else say(`${name(o.by)} offers ${OFFERS[o.kind]}.`);
  } else if (g && g.answer && !g.answer.accepted && m.length && !m.includes(g.answer.by)) {
    say(`${name(g.answer.by)} declined ${OFFERS[g.answer.kind]}.`);
  } else if (g && g.answer && g.answer.accepted && g.answer.kind === "takeback") {
    say(`${name(g.answer.by)} agreed to take back.`);
  }
  if (g && g.result && g.rematch && m.length) say(`A rematch is waiting: game ${g.rematch}.`);
  bar.hidden = !bar.childElementCount;
}
