// The header's panels: a new game, the saved games, an import.
import { $, once, showError } from "./dom.js";
import { api, setTokens, VARIANTS } from "./api.js";
import { ui } from "./state.js";

// The header's panels (editor.js adds its own).
export const PANELS = ["new", "games", "import"];
export function showPanel(name) {
  for (const p of PANELS) {
    const open = p === name && $("panel-" + p).hidden;
    $("panel-" + p).hidden = !open;
    $("show-" + p).setAttribute("aria-pressed", String(open));
  }
  if (name === "games" && !$("panel-games").hidden) listGames();
}
for (const p of PANELS) $("show-" + p).addEventListener("click", () => showPanel(p));

export function fillVariants() {
  $("variant").replaceChildren(...[...VARIANTS.values()].map((v) => new Option(`${v.title} (${v.files}x${v.ranks})`, v.name)));
}
export function fillRules() {
  const v = VARIANTS.get($("variant").value);
  if (!v) return;
  $("rules").replaceChildren(...v.presets.map((p) => new Option(p.label, p.rules)));
  $("handicap").replaceChildren(new Option("none", ""), ...v.handicaps.map((h) => new Option(`${h.name} (${h.japanese})`, h.name)));
}
$("variant").addEventListener("change", fillRules);
$("clock").addEventListener("change", () => { $("clock-custom").hidden = $("clock").value !== "custom"; });

$("newgame").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const button = $("create");
  if (button.disabled) return;
  button.disabled = true;
  try { await createGame(ev); } finally { button.disabled = false; }
});
async function createGame(ev) {
  showError(null);
  const f = new FormData(ev.target);
  const me = f.get("side"), other = me === "black" ? "white" : "black";
  const body = { variant: f.get("variant"), rules: f.get("rules") || "" };
  if (f.get("handicap")) body.handicap = f.get("handicap");
  body[me] = "human";
  const opp = f.get("opponent");
  body[other] = opp === "engine" ? { engine: { movetime_ms: Number(f.get("movetime")), level: Number(f.get("level") || 8) } } : "human";
  if (opp === "remote") body.consent = true;   // take-backs only when the other person agrees
  const clock = f.get("clock");
  if (clock === "custom") {
    const ms = (name) => Math.round(Number(f.get(name) || 0) * 1000);
    body.clock = { main_ms: ms("main_s"), byoyomi_ms: ms("byoyomi_s"), increment_ms: ms("increment_s") };
  } else if (clock) {
    const [main_ms, byoyomi_ms, increment_ms] = clock.split(",").map(Number);
    body.clock = { main_ms, byoyomi_ms, increment_ms };
  }
  try {
    const created = await api("POST", "/api/games", body);
    const tokens = { ...created.tokens };
    if (opp === "remote") {
      localStorage.setItem("banmen-invite-" + created.id, JSON.stringify({ seat: other, token: tokens[other] }));
      delete tokens[other];
    }
    setTokens(created.id, tokens);
    showPanel(null);
    location.hash = "#" + created.id;
  } catch (e) { showError(e, "create"); }
}

export async function listGames() {
  try {
    const games = await api("GET", "/api/games");
    const who = (p) => (p === "human" ? "human" : "engine");
    $("games").replaceChildren(...games.map((g) => {
      const tr = document.createElement("tr");
      if (g.id === ui.id) tr.className = "open";
      const a = document.createElement("a"); a.href = "#" + g.id; a.textContent = "#" + g.id;
      const res = g.result ? (g.result.winner ? `${g.result.winner} wins (${g.result.reason})` : `draw (${g.result.reason})`) : `${g.side_to_move} to move`;
      const cells = [a, g.variant + (g.handicap ? " " + g.handicap : ""), who(g.black), who(g.white), String(g.move_count), res,
        new Date(g.updated * 1000).toLocaleString()];
      for (const c of cells) { const td = document.createElement("td"); td.append(c); tr.appendChild(td); }
      tr.dataset.id = g.id;
      return tr;
    }));
  } catch (e) { showError(e); }
}
$("refresh-games").addEventListener("click", listGames);

$("import-file").addEventListener("change", async (ev) => {
  const file = ev.target.files[0]; if (!file) return;
  const bytes = await file.arrayBuffer();
  let text;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch { text = new TextDecoder("shift_jis").decode(bytes); }
  $("import-text").value = text;
});
once($("import-go"), async () => {
  showError(null, "import-go");
  const body = { text: $("import-text").value };
  if ($("import-format").value) body.format = $("import-format").value;
  try {
    const created = await api("POST", "/api/games/import", body);
    setTokens(created.id, created.tokens);
    $("import-text").value = "";
    showPanel(null);
    location.hash = "#" + created.id;
  } catch (e) { showError(e, "import-go"); }
});
