// The page's DOM helpers: an element by id, SVG elements, the error line,
// and buttons that act once.

const SVGNS = "http://www.w3.org/2000/svg";
export const $ = (id) => document.getElementById(id);
export function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
// An error shows next to the control that caused it (`near`: the id of an
// element it follows), else under the board.
export function showError(e, near) {
  for (const old of document.querySelectorAll(".near-error")) old.remove();
  $("error").textContent = "";
  if (!e) return;
  const text = String(e.message || e);
  const anchor = near && $(near);
  if (anchor && !anchor.hidden) {
    const sp = document.createElement("span"); sp.className = "near-error"; sp.setAttribute("role", "alert"); sp.textContent = text;
    if (anchor.id === "offerbar") anchor.appendChild(sp); else anchor.after(sp);
  } else $("error").textContent = text;
}
// A button that sends a request is disabled until the answer is in: a double
// click acts once.
export function once(button, handler) {
  button.addEventListener("click", async (ev) => {
    if (button.disabled) return;
    button.disabled = true;
    try { await handler(ev); } finally { button.disabled = false; }
  });
}
