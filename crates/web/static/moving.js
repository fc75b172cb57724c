// Making a move: a piece or a piece in hand selected, then the squares
// clicked, a lion's legs, the choice of promotion; then it is sent.
import { $, showError } from "./dom.js";
import { api } from "./api.js";
import { canPlay, legal, tokenFor, trying, ui } from "./state.js";
import { render, tokenAt } from "./board.js";
import { showLegend } from "./legend.js";
import { cancelPremove, canPremove, premoveClick, premoveText } from "./premove.js";
import { accept } from "./game.js";

// A selection is {drop} or {from, path}: the squares clicked so far, from the
// piece's own on. A lion's double move is clicked square by square (the
// piece, the square it captures on, where it goes next); its pass (it stays,
// through an empty neighbour) is the Pass button, never a click.
const isPass = (m) => !!m.squares && m.squares.length === 3 && m.squares[2] === m.from && !tokenAt(m.squares[1]);
export const pathOf = () => (ui.selected && ui.selected.from ? ui.selected.path || [ui.selected.from] : []);
const samePath = (m, path) => m.squares.length === path.length && path.every((q, i) => m.squares[i] === q);
// The selected piece's moves that go on past its path so far.
function onward() {
  const path = pathOf();
  if (!path.length) return [];
  return legal().filter((m) => m.from === path[0] && !isPass(m) && m.squares.length > path.length && path.every((q, i) => m.squares[i] === q));
}
// The moves that end where the path ends (a lion that stops on the square it captured on).
function stopping() {
  const path = pathOf();
  return path.length > 1 ? legal().filter((m) => m.from === path[0] && !isPass(m) && samePath(m, path)) : [];
}
const passes = () => { const path = pathOf(); return path.length === 1 ? legal().filter((m) => m.from === path[0] && isPass(m)) : []; };
export function targetSquares() {
  const s = ui.selected; if (!s) return [];
  if (s.drop) return legal().filter((m) => m.drop === s.drop).map((m) => m.to);
  const path = pathOf(), out = onward().map((m) => m.squares[path.length]);
  if (stopping().length) out.push(path[path.length - 1]);
  return out;
}
// The moves a click on `sq` completes or continues.
export function candidates(sq) {
  const s = ui.selected; if (!s) return [];
  if (s.drop) return legal().filter((m) => m.drop === s.drop && m.to === sq);
  const path = pathOf();
  if (path.length > 1 && sq === path[path.length - 1]) return stopping();
  return onward().filter((m) => m.squares[path.length] === sq);
}
// A modal question: `options` are [value, label, id]; the answer is the
// value of the button clicked, or null for Cancel and Escape.
function ask(question, options) {
  return new Promise((resolve) => {
    const box = $("chooser-box"); box.replaceChildren();
    const title = document.createElement("strong");
    title.textContent = question;
    box.appendChild(title);
    const done = (v) => { $("chooser").hidden = true; document.removeEventListener("keydown", onKey, true); resolve(v); };
    const onKey = (ev) => { if (ev.key === "Escape") { ev.stopPropagation(); done(null); } };
    for (const [v, label, id] of [...options, [null, "Cancel", "choice-cancel"]]) {
      const b = document.createElement("button"); b.textContent = label; b.id = id;
      b.addEventListener("click", () => done(v)); box.appendChild(b);
    }
    document.addEventListener("keydown", onKey, true);
    $("chooser").hidden = false;
    box.querySelector("button").focus();
  });
}
export const choosePromotion = () => ask("Promote?", [[true, "Promote (+)", "promote-yes"], [false, "Do not promote (=)", "promote-no"]]);
function choose(cands) {
  const promo = cands.length === 2 && cands.some((m) => m.promote) && cands.some((m) => !m.promote);
  if (promo) return choosePromotion().then((yes) => (yes === null ? null : cands.find((m) => m.promote === yes)));
  return ask("Which move?", cands.map((m, i) => [m, describe(m), "choice-" + i]));
}
// A move in words, for the rare choice clicks cannot settle.
function describe(m) {
  if (m.drop) return `drop ${m.drop} on ${m.to}`;
  const s = m.squares, promo = m.promote ? ", promoting" : "";
  if (isPass(m)) return `pass (stay on ${m.from})`;
  if (s.length === 3 && s[2] === m.from) return `igui: capture on ${s[1]} without moving${promo}`;
  if (s.length > 2) return `through ${s.slice(1, -1).join(", ")} to ${m.to}${promo}`;
  return `to ${m.to}${promo}`;
}
export async function finish(cands) {
  const choice = cands.length === 1 ? cands[0] : await choose(cands);
  ui.selected = null;
  if (choice) await play(choice.text); else render();
  return true;
}
// A click on `sq` with a piece selected: plays a move, takes a lion one leg
// further (waiting for its next square), or says there is none (false).
export async function tryMove(sq) {
  const cands = candidates(sq);
  if (!cands.length) return false;
  const s = ui.selected;
  if (s.drop) return finish(cands);
  const path = pathOf();
  if (path.length > 1 && sq === path[path.length - 1]) return finish(cands);   // stop on the captured square
  const next = [...path, sq];
  const done = cands.filter((m) => samePath(m, next));
  if (done.length === cands.length) return finish(done);
  ui.selected = { from: s.from, path: next };
  render();
  return true;
}
// The lion's buttons: Pass with the piece selected; Stop, Igui and Cancel
// while it waits for its next square.
export function renderMoveBar() {
  const bar = $("movebar"); bar.replaceChildren();
  const path = pathOf();
  const button = (id, text, act) => { const b = document.createElement("button"); b.id = id; b.textContent = text; b.addEventListener("click", act); bar.appendChild(b); };
  if (ui.premove && !ui.view) {
    const info = document.createElement("span"); info.id = "premove-info";
    info.textContent = `Premove ${premoveText(ui.premove)}: played when it is your turn (Esc cancels)`;
    bar.appendChild(info);
    button("premove-cancel", "Cancel", cancelPremove);
  }
  const pass = passes();
  if (pass.length) button("pass", "Pass (the piece stays)", () => finish(pass));
  if (path.length > 1) {
    const mid = path[path.length - 1];
    const info = document.createElement("span");
    info.textContent = `Captured on ${mid}: click where it goes next (green)`;
    bar.appendChild(info);
    const stop = stopping();
    if (stop.length) button("leg-stop", `Stop on ${mid}`, () => finish(stop));
    const igui = onward().filter((m) => m.squares.length === path.length + 1 && m.to === path[0]);
    if (igui.length) button("leg-igui", `Igui: capture on ${mid} without moving`, () => finish(igui));
    button("leg-cancel", "Cancel", () => { ui.selected = null; render(); });
  }
  bar.hidden = !bar.childElementCount;
}
export async function clickSquare(sq) {
  if (!ui.game || !sq) return;
  const tok = tokenAt(sq);
  if (tok) showLegend(tok);
  if (canPremove()) { premoveClick(sq, tok); return; }
  if (!canPlay()) return;
  if (ui.selected && await tryMove(sq)) return;
  const movable = legal().some((m) => m.from === sq);
  ui.selected = movable && !(ui.selected && ui.selected.from === sq) ? { from: sq } : null;
  render();
}
export async function play(text) {
  showError(null);
  if (trying()) { ui.playTried(text); return; }
  try { accept(await api("POST", `/api/games/${ui.id}/moves`, { move: text }, tokenFor(ui.game.side_to_move))); }
  catch (e) { showError(e); render(); }
}
