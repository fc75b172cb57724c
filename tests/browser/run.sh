#!/usr/bin/env bash
# Browser tests of the web board: builds banmen, starts `banmen serve` on a
# free port with a temporary database, runs board.test.mjs (node:test +
# playwright-core driving /usr/bin/chromium), then stops the server.
# Screenshots land in tests/browser/artifacts/ (git-ignored).
#   BANMEN_BIN=path/to/banmen  use this binary instead of building one
#   CHROMIUM=path/to/chromium  the browser (default /usr/bin/chromium)
# Arguments go to `node --test` (e.g. --test-name-pattern=clock).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

if [[ -z "${BANMEN_BIN:-}" ]]; then
  # The test profile (opt-level 3) is what `cargo test` already built.
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

start=$SECONDS
status=0
node --test "$@" board.test.mjs || status=$?
echo "browser tests: $((SECONDS - start)) s (screenshots in tests/browser/artifacts/)"
if [[ $status -ne 0 ]]; then
  echo "--- banmen serve log ---"
  cat "$tmp/serve.log"
fi
exit $status
