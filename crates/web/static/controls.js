// How the board shows: flip, zoom, notation, piece style, sound; and the
// page's keys.
import { sound } from "./sound.js";
import { $ } from "./dom.js";
import { ui } from "./state.js";
import { render } from "./board.js";
import { goto, step } from "./replay.js";

function renderSoundButton() {
  const muted = sound.muted;
  $("sound").textContent = muted ? "Sound off" : "Sound on";
  $("sound").setAttribute("aria-pressed", String(!muted));
}
$("sound").addEventListener("click", () => { sound.setMuted(!sound.muted); renderSoundButton(); });
renderSoundButton();
function setZoom(z) { ui.zoom = Math.max(0.5, Math.min(2.5, Math.round(z * 10) / 10)); localStorage.setItem("banmen-zoom", ui.zoom); render(); }
$("flip").addEventListener("click", () => { ui.flipUser = !ui.flipUser; render(); });
$("zoom-in").addEventListener("click", () => setZoom(ui.zoom * 1.15));
$("zoom-out").addEventListener("click", () => setZoom(ui.zoom / 1.15));
$("notation").value = ui.notation;
$("notation").addEventListener("change", (ev) => { ui.notation = ev.target.value; localStorage.setItem("banmen-notation", ui.notation); render(); });
$("piece-style").value = ui.pieceStyle;
$("piece-style").addEventListener("change", (ev) => { ui.pieceStyle = ev.target.value; localStorage.setItem("banmen-pieces", ui.pieceStyle); render(); });
document.addEventListener("keydown", (ev) => {
  const tag = (ev.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select" || ev.target === $("board") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!$("chooser").hidden) return;
  const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goto(0), End: () => goto(Infinity),
    f: () => $("flip").click(), m: () => $("sound").click(), "+": () => setZoom(ui.zoom * 1.15), "=": () => setZoom(ui.zoom * 1.15), "-": () => setZoom(ui.zoom / 1.15),
    Escape: () => { ui.selected = null; ui.premove = null; render(); } };
  if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
});
