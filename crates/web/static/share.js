// The open game out of the page: its export, the invitation link for the
// other seat.
import { $, showError } from "./dom.js";
import { ui } from "./state.js";

export function exportUrl(download) {
  return `/api/games/${ui.id}/export?format=${$("export-format").value}${download ? "&download=1" : ""}`;
}
$("export-format").addEventListener("change", () => { $("export-download").href = exportUrl(true); });
$("export-show").addEventListener("click", async () => {
  if (!ui.id) return;
  showError(null);
  const res = await fetch(exportUrl(false));
  const bytes = await res.arrayBuffer();
  const fmt = $("export-format").value;
  const text = new TextDecoder(fmt === "kif" ? "shift_jis" : "utf-8").decode(bytes);
  if (!res.ok) { try { showError(JSON.parse(text).error); } catch { showError(text); } return; }
  $("export-text").value = text; $("export-text").hidden = false;
});

export function renderInvite() {
  const box = $("invite");
  const inv = JSON.parse(localStorage.getItem("banmen-invite-" + ui.id) || "null");
  if (!inv) { box.hidden = true; return; }
  const url = `${location.origin}${location.pathname}#${ui.id}?seat=${inv.seat}&token=${inv.token}`;
  box.replaceChildren();
  const t = document.createElement("div"); t.textContent = `Send this link to the second player (${inv.seat}):`;
  const input = document.createElement("input"); input.id = "invite-link"; input.readOnly = true; input.value = url;
  input.addEventListener("focus", () => input.select());
  box.append(t, input); box.hidden = false;
}
