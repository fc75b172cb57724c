// The page's entry (index.html loads it as a module). Each module has one
// job and wires its own controls when it is first imported; the ones nothing
// else imports are named here. Then the page loads the games and opens the
// one the address names.
import { $, showError } from "./dom.js";
import { api, loadVariants, setTokens, VARIANTS } from "./api.js";
import { mine, ui } from "./state.js";
import "./board.js";
import "./input.js";
import "./controls.js";
import "./actions.js";
import { fillRules, fillVariants, showPanel } from "./panels.js";
import { openGame } from "./game.js";
// The board editor and its tsume solving, the analysis panel (which plays
// from a position through the editor's playFrom): each adds its controls.
import "./editor.js";
import "./analysis.js";
import "./tsume.js";

// For the browser tests and the console: the page's state and a few helpers,
// on purpose (a module's names are not global).
Object.assign(window, { ui, VARIANTS, api, mine, setTokens });

(async () => {
  try { await loadVariants(); } catch (e) { showError(e); }
  fillVariants();
  fillRules();
  // (unless a click opened it meanwhile: showPanel toggles)
  if (!location.hash && $("panel-new").hidden) showPanel("new");
  openGame();
})();
