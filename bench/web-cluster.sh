#!/usr/bin/env bash
# Several `banmen serve` instances on one PostgreSQL database, with engine
# workers (issue 18; a measurement, not a CI test). For each set-up of
# SETUPS, on a fresh database: starts the instances and workers on
# loopback, runs bench/web-cluster.mjs (people's games spread over the
# instances for SECONDS, then ENGINE_GAMES games against the engine), and
# prints one JSON line: moves/s and latency of the people's moves, engine
# moves/s and the time to each reply. See bench/README.md §Several servers.
#
# Settings (environment variables):
#   PG_URL     a PostgreSQL role that may create databases (required;
#              e.g. postgres://banmen@%2Ftmp%2Fbanmen-pg-dev/banmen)
#   SETUPS     "instances:workers" pairs (default "1:0 1:1 2:1 3:1 2:2 3:2";
#              0 workers: the instance runs its own engines, as on SQLite)
#   ENGINES    searches per worker, and per instance without workers (default 1)
#   CLIENTS, SECONDS, ENGINE_GAMES, MOVETIME: see web-cluster.mjs
#   BANMEN     the binary (default target/release/banmen, built if missing)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
target="${CARGO_TARGET_DIR:-$ROOT/target}"
BANMEN="${BANMEN:-$target/release/banmen}"
[[ -x "$BANMEN" ]] || cargo build --release -p banmen
: "${PG_URL:?set PG_URL to a PostgreSQL role that may create databases}"
ENGINES="${ENGINES:-1}"
db="banmen_cluster_$$"
scheme_host="${PG_URL%/*}"
url="$scheme_host/$db"
pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap 'stop_all; psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
echo "binary: $BANMEN ($(git rev-parse --short HEAD)); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for setup in ${SETUPS:-1:0 1:1 2:1 3:1 2:2 3:2}; do
  n="${setup%:*}"; w="${setup#*:}"
  psql "$PG_URL" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  urls=()
  flags=(--engines "$ENGINES" --games-per-minute 0 --engine-games-per-client 0)
  [[ "$w" -gt 0 ]] && flags+=(--workers)
  for _ in $(seq "$n"); do
    port=$(free_port)
    "$BANMEN" serve --port "$port" --db "$url" "${flags[@]}" >/dev/null 2>&1 &
    pids+=($!)
    urls+=("http://127.0.0.1:$port")
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/engines" >/dev/null && break; sleep 0.1; done
  done
  for _ in $(seq "$w"); do
    "$BANMEN" worker --db "$url" --engines "$ENGINES" >/dev/null 2>&1 &
    pids+=($!)
  done
  line=$(node bench/web-cluster.mjs "$(IFS=,; echo "${urls[*]}")")
  echo "{\"setup\":\"$n instance(s), $w worker(s)\",${line#\{}"
  stop_all
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
