#!/usr/bin/env bash
# Load benchmark of `banmen serve` (a measurement, not a CI test): starts the
# server on a temporary database, fires a burst of engine-game creations
# (most are refused with 429 by the per-address limits), then times
# GET /api/games/{id} while the created games' engines think, and reads the
# server's memory from /proc. See bench/README.md §Web server under load.
#
# Settings (environment variables):
#   REQUESTS      creations in the burst (default 1000)
#   ADDRESSES     loopback addresses they come from, 127.0.0.2 on (default 1;
#                 the limits are per address, so more addresses, more games)
#   GETS          timed reads (default 400)
#   MOVETIME      the engines' ms a move (default 2000)
#   PEOPLE        1: games between two people instead (only the rate of new
#                 games per address bounds them; default 0)
#   SERVE_ARGS    more `banmen serve` options (e.g. "--engines 2")
#   BANMEN        the binary (default target/release/banmen, built if missing)
#   NODE          Node.js 20 or later (default node)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
target="${CARGO_TARGET_DIR:-$ROOT/target}"
BANMEN="${BANMEN:-$target/release/banmen}"
[[ -x "$BANMEN" ]] || cargo build --release -p banmen
tmp=$(mktemp -d)
port=$(${NODE:-node} -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# shellcheck disable=SC2086
"$BANMEN" serve --port "$port" --db "$tmp/games.sqlite" ${SERVE_ARGS:-} >"$tmp/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/api/engines" >/dev/null && break
  sleep 0.1
done
echo "binary: $BANMEN ($(git rev-parse --short HEAD)); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
${NODE:-node} bench/web-load.mjs "http://127.0.0.1:$port" "$server"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
