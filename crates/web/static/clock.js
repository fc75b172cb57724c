// The players' clocks, counted down between the server's answers.
import { $ } from "./dom.js";
import { ui } from "./state.js";

function fmtClock(ms, tenths) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const t = `${m}:${String(s % 60).padStart(2, "0")}`;
  return tenths && ms < 10000 ? `${t}.${Math.floor((ms % 1000) / 100)}` : t;
}
// Without a time control a clock shows the time used; with one, the time
// left, counted down from the server's figures (main time, then byoyomi).
// The server decides when a flag falls.
export function renderClocks() {
  const g = ui.game; if (!g || !g.clock) return;
  const tc = g.time_control;
  for (const color of ["black", "white"]) {
    const c = $("clock-" + color); if (!c) continue;
    const running = !g.result && g.side_to_move === color;
    const elapsed = running ? g.clock.turn_ms + (Date.now() - ui.received) : 0;
    let text, byoyomi = false, low = false;
    if (!tc) {
      text = fmtClock(g.clock[color + "_ms"] + elapsed);
    } else {
      const main = g.clock[color + "_left_ms"] - elapsed;
      if (main > 0 || !tc.byoyomi_ms) { text = fmtClock(main, true); low = main < 10000; }
      else { const b = tc.byoyomi_ms + main; text = "秒 " + fmtClock(b, true); byoyomi = true; low = b < 5000; }
    }
    const lost = g.result && g.result.reason === "time" && g.result.winner !== color;
    if (lost) text = fmtClock(0, true);
    c.textContent = text;
    c.classList.toggle("running", running);
    c.classList.toggle("byoyomi", byoyomi);
    c.classList.toggle("low", low);
    c.classList.toggle("flag", !!lost);
  }
}
setInterval(renderClocks, 100);
