// The open game: opened from the address (#id, a seat link), kept up to
// date by its live events, every new state taken in by accept().
import { playSound } from "./sound.js";
import { $, showError } from "./dom.js";
import { api, setTokens, tokensOf } from "./api.js";
import { canMove, loadLegend, ui } from "./state.js";
import { render } from "./board.js";
import { sendPremove } from "./premove.js";
import { listGames } from "./panels.js";
import { exportUrl, renderInvite } from "./share.js";

// Answers and live events can arrive in any order (the engine's reply may
// come before the answer to the move that asked for it): the newest version wins.
export function accept(state) {
  // Only the game open now: an answer or event of a game left meanwhile is dropped.
  if (!state || state.id !== ui.id || (ui.game && state.id !== ui.game.id)) return;
  if (ui.game && state.version < ui.game.version) return;
  const before = ui.game;
  ui.game = state; ui.received = Date.now();
  if (state.result) ui.premove = null;   // the game is over: nothing to play
  if (ui.view && !ui.view.line && ui.view.ply > state.moves.length) ui.view = null;
  ui.cache.clear();
  render();
  if (before) playSound(before, state);
  if (ui.premove && canMove()) sendPremove();
}
export async function openGame() {
  const [idPart, query] = location.hash.slice(1).split("?");
  const id = Number(idPart);
  if (query) {   // a seat link: keep its token once the server knows it, then tidy the address
    const q = new URLSearchParams(query);
    history.replaceState(null, "", "#" + id);
    if (q.get("seat") && q.get("token")) {
      try {
        const r = await api("GET", `/api/games/${id}/seat`, undefined, q.get("token"));
        if (r.seat !== q.get("seat")) throw new Error(`the link names ${q.get("seat")}, its token holds ${r.seat}`);
        setTokens(id, { ...tokensOf(id), [r.seat]: q.get("token") });
      } catch (e) { ui.linkError = { id, text: `This seat link is not valid (${e.message}): you are watching game ${id}.` }; }
    }
  }
  if (ui.source) { ui.source.close(); ui.source = null; }
  ui.game = null; ui.selected = null; ui.premove = null; ui.view = null; ui.want = null; ui.wantLine = null; ui.cache.clear(); ui.lines.clear(); ui.cursor = null;
  $("export-text").hidden = true;
  if (!id) { render(); listGames(); return; }
  ui.id = id;
  $("export-download").href = exportUrl(true);
  renderInvite();
  try {
    const g = await api("GET", `/api/games/${id}`);
    if (ui.id !== id) return; // another game was opened meanwhile
    await loadLegend(g.variant, g.rules).catch(() => null);
    if (ui.id !== id) return;
    accept(g);
    const linkError = () => (ui.linkError && ui.linkError.id === id ? ui.linkError.text : null);
    if (linkError()) showError(linkError());
  } catch (e) { if (ui.id === id) { render(); showError(e); } return; }   // (not the previous game's board)
  if (ui.id !== id) return;
  const source = new EventSource(`/api/games/${id}/events`);
  ui.source = source;
  source.onmessage = (ev) => { if (ui.source === source) accept(JSON.parse(ev.data)); };
  source.onerror = () => showError("live updates interrupted; retrying…");
  source.onopen = () => { if (!ui.linkError || ui.linkError.id !== id) showError(null); };
}
window.addEventListener("hashchange", openGame);
