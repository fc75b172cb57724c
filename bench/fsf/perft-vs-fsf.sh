#!/usr/bin/env bash
# Cannon shogi perft speed of banmen against Fairy-Stockfish (WebAssembly build
# from npm), from the start position.
#
# Runs Fairy-Stockfish's `go perft FSF_DEPTH` (bench/fsf/fsf-perft.js, which
# times only the perft, not loading the engine) and `banmen perft --variant
# cannonshogi --depth BANMEN_DEPTH`, checks every node count against the known
# value, and prints the median nodes/s of each and the ratio banmen/FSF.
# See bench/fsf/README.md.
#
# Settings (environment variables):
#   FSF_DEPTH     depth for Fairy-Stockfish (default 4; QUICK=1 makes it 3)
#   BANMEN_DEPTH  depth for banmen (default 5; QUICK=1 makes it 4)
#   FSF_RUNS      runs of Fairy-Stockfish (default 1)
#   BANMEN_RUNS   runs of banmen (default 3; QUICK=1 makes it 1)
#   RUNS          sets both FSF_RUNS and BANMEN_RUNS (an explicit one still wins)
#   QUICK=1       the quick settings above (an explicit setting still wins)
#   NODE          Node.js executable (default node)
#   SKIP_BUILD=1  use the existing target/release/banmen
set -euo pipefail

FSF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$FSF_DIR/../.." && pwd)"

if [ "${QUICK:-0}" = 1 ]; then
  FSF_DEPTH="${FSF_DEPTH:-3}"
  BANMEN_DEPTH="${BANMEN_DEPTH:-4}"
  RUNS="${RUNS:-1}"
fi
FSF_DEPTH="${FSF_DEPTH:-4}"
BANMEN_DEPTH="${BANMEN_DEPTH:-5}"
FSF_RUNS="${FSF_RUNS:-${RUNS:-1}}"
BANMEN_RUNS="${BANMEN_RUNS:-${RUNS:-3}}"
NODE="${NODE:-node}"
export NODE

# Known leaf counts of the cannon shogi start position
# (crates/rules/tests/data/perft-cannon.tsv; Fairy-Stockfish c19b5f6).
expected_nodes() {
  case "$1" in
    0) echo 1 ;;
    1) echo 60 ;;
    2) echo 3447 ;;
    3) echo 216600 ;;
    4) echo 13406022 ;;
    5) echo 909545896 ;;
    *) echo "" ;;
  esac
}

for v in FSF_DEPTH BANMEN_DEPTH FSF_RUNS BANMEN_RUNS; do
  case "${!v}" in
    '' | *[!0-9]*) echo "error: $v must be a whole number, got '${!v}'" >&2; exit 2 ;;
  esac
done
if [ "$FSF_RUNS" -lt 1 ] || [ "$BANMEN_RUNS" -lt 1 ]; then
  echo "error: FSF_RUNS and BANMEN_RUNS must be at least 1" >&2
  exit 2
fi
if [ "$FSF_DEPTH" -lt 1 ]; then
  echo "error: FSF_DEPTH must be at least 1" >&2
  exit 2
fi

log() { echo "== $*" >&2; }

# 1. Fairy-Stockfish (installs it on the first run; quick afterwards).
"$FSF_DIR/setup.sh"
FSF_VERSION="$("$NODE" -p 'require(process.argv[1]).version' \
  "$FSF_DIR/node_modules/fairy-stockfish-nnue.wasm/package.json" 2>/dev/null || echo '?')"

# banmen, release build; run_one and median.
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
FSF_NPS=()
BANMEN_NPS=()
MAX_RUNS=$((FSF_RUNS > BANMEN_RUNS ? FSF_RUNS : BANMEN_RUNS))
for i in $(seq 1 "$MAX_RUNS"); do
  log "run $i of $MAX_RUNS"
  if [ "$i" -le "$FSF_RUNS" ]; then
    FSF_NPS+=("$(run_one fsf "$FSF_DEPTH" "$NODE" --no-experimental-fetch "$FSF_DIR/fsf-perft.js" \
      --variant cannonshogi --depth "$FSF_DEPTH")")
  fi
  if [ "$i" -le "$BANMEN_RUNS" ]; then
    BANMEN_NPS+=("$(run_one banmen "$BANMEN_DEPTH" "$BANMEN" perft --variant cannonshogi --depth "$BANMEN_DEPTH")")
  fi
done

F_MED="$(printf '%s\n' "${FSF_NPS[@]}" | median)"
B_MED="$(printf '%s\n' "${BANMEN_NPS[@]}" | median)"
RATIO="$(awk -v b="$B_MED" -v f="$F_MED" 'BEGIN { if (f > 0) printf "%.2f", b / f; else print "n/a" }')"

echo "Fairy-Stockfish wasm $FSF_VERSION cannonshogi perft $FSF_DEPTH: median $F_MED nodes/s over $FSF_RUNS run(s) (${FSF_NPS[*]})"
echo "banmen cannonshogi perft $BANMEN_DEPTH: median $B_MED nodes/s over $BANMEN_RUNS run(s) (${BANMEN_NPS[*]})"
echo "ratio banmen/FSF: $RATIO"
