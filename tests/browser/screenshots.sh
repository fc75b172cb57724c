#!/usr/bin/env bash
# Takes the README's screenshots of the web board (docs/web-*.png): builds
# banmen, starts `banmen serve` on a free port with a temporary database and
# runs screenshots.mjs (playwright-core driving /usr/bin/chromium). A tool,
# not a test. The page brings its own font for the kanji.
#   BANMEN_BIN=path/to/banmen  use this binary instead of building one
#   CHROMIUM=path/to/chromium  the browser (default /usr/bin/chromium)
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

if [[ -z "${BANMEN_BIN:-}" ]]; then
  cargo build --quiet --profile test -p banmen --manifest-path "$root/Cargo.toml"
  BANMEN_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/banmen"
fi
[[ -d node_modules/playwright-core ]] || npm ci --no-audit --no-fund

tmp=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
"$BANMEN_BIN" serve --port "$port" --db "$tmp/games.sqlite" >"$tmp/serve.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

export BANMEN_URL="http://127.0.0.1:$port"
for _ in $(seq 100); do
  node -e 'fetch(process.env.BANMEN_URL + "/api/games").then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' && break
  sleep 0.1
done
node screenshots.mjs
