# Sourced by run.sh and screenshots.sh (from tests/browser): builds banmen
# unless BANMEN_BIN is set, installs playwright-core if missing, starts
# `banmen serve` on a free port with a temporary database, exports
# BANMEN_URL once it answers, and stops the server and removes the database
# on exit.
root=$(cd ../.. && pwd)

if [[ -z "${BANMEN_BIN:-}" ]]; then
  # The test profile (opt-level 3) is what `cargo test` already built.
  cargo build --quiet --profile test -p banmen --manifest-path "$root/Cargo.toml"
  BANMEN_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/banmen"
fi
[[ -d node_modules/playwright-core ]] || npm ci --no-audit --no-fund

tmp=$(mktemp -d)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# One client makes every game of the run: no limit on its open engine games
# (the analysis and editor tests come after many unfinished ones); the rate
# of new games stays (the last test is refused by it).
"$BANMEN_BIN" serve --port "$port" --db "$tmp/games.sqlite" \
  --engine-games-per-client 0 >"$tmp/serve.log" 2>&1 &
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
