#!/usr/bin/env bash
# banmen against Fairy-Stockfish (WebAssembly, under Node.js) with
# `banmen match`, in shogi and cannon shogi. banmen is the first engine, so
# W/D/L, score and Elo are banmen's. See bench/README.md.
#
# Settings (environment variables):
#   GAMES          games per game type (default 100)
#   VARIANTS       which games (default "shogi cannonshogi")
#   TC             time control (default byoyomi=1000)
#   MAX_PLIES      draw after this many plies (default 512)
#   OPENINGS       an openings file for `banmen match --openings` (default: the start
#                  position); a `%v` in it is replaced by the variant's name
#   CONCURRENCY    games at the same time (default 1; the machine has 2 cores
#                  and each game runs one engine at a time)
#   SPRT           e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05 (default: none)
#   OUT            where the records go (default bench/out/vs-fsf-<time>)
#   NODE           Node.js executable (default node)
#   SKIP_BUILD=1   use the existing target/release/banmen
#   BANMEN         the banmen binary to run (default target/release/banmen)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
GAMES="${GAMES:-100}"
VARIANTS="${VARIANTS:-shogi cannonshogi}"
TC="${TC:-byoyomi=1000}"
MAX_PLIES="${MAX_PLIES:-512}"
CONCURRENCY="${CONCURRENCY:-1}"
OUT="${OUT:-bench/out/vs-fsf-$(date -u +%Y%m%d-%H%M%S)}"
NODE="${NODE:-node}"
BANMEN="${BANMEN:-target/release/banmen}"
FSF="$NODE --no-experimental-fetch bench/fsf/fsf-usi.js bench/fsf/cannonshogi.ini"

log() { echo "== $*" >&2; }

bench/fsf/setup.sh
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "cargo build --release -p banmen"
  cargo build --release -p banmen >&2
fi
mkdir -p "$OUT"

for variant in $VARIANTS; do
  dir="$OUT/$variant"
  log "$variant: banmen vs Fairy-Stockfish, $GAMES games at $TC (records in $dir)"
  start=$(date +%s)
  "$BANMEN" match --engine "$BANMEN usi" --engine "$FSF" \
    --variant "$variant" --games "$GAMES" --tc "$TC" --max-plies "$MAX_PLIES" \
    --concurrency "$CONCURRENCY" --out "$dir" \
    ${OPENINGS:+--openings "${OPENINGS//%v/$variant}"} ${SPRT:+--sprt "$SPRT"} | tee "$dir.summary"
  log "$variant: $(($(date +%s) - start)) s"
done
