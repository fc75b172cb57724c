// The server: its JSON API, the games it plays (GET /api/variants) and the
// seats' tokens this browser keeps.

export async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = "Bearer " + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}
export const tokensOf = (id) => JSON.parse(localStorage.getItem("banmen-tokens-" + id) || "{}");
export const setTokens = (id, t) => localStorage.setItem("banmen-tokens-" + id, JSON.stringify(t));
// The games, their rule presets, handicaps and piece names: GET /api/variants.
export const VARIANTS = new Map();
export async function loadVariants() {
  const data = await api("GET", "/api/variants");
  VARIANTS.clear();
  for (const v of data.variants) VARIANTS.set(v.name, v);
}
